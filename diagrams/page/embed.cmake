# Writes the page's style and script as C strings (dg_page_assets.h), so the
# page is one file with nothing to fetch.  Run by the build:
#   cmake -DCSS=page.css -DJS=page.js -DOUT=dg_page_assets.h -P embed.cmake
# Bytes are written as hexadecimal escapes: any text survives unchanged.
function(tl_embed var file out_var)
  file(READ ${file} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" esc "${hex}")
  # one string literal per 64 bytes (256 characters), concatenated by the compiler
  string(REGEX REPLACE "((\\\\x[0-9a-f][0-9a-f]){64})" "\\1\"\n    \"" esc "${esc}")
  set(${out_var} "static const char ${var}[] =\n    \"${esc}\";\n" PARENT_SCOPE)
endfunction()
# The page inlines both: a "</" in either would end its element early.
foreach(f ${CSS} ${JS})
  file(READ ${f} text)
  string(TOLOWER "${text}" text)
  if(text MATCHES "</(script|style)")
    message(FATAL_ERROR "${f}: contains </script or </style, which would end the page's element")
  endif()
endforeach()
tl_embed(dg_page_css ${CSS} css)
tl_embed(dg_page_js ${JS} js)
file(WRITE ${OUT}.tmp "/* Generated from diagrams/page/ by embed.cmake: do not edit. */\n${css}${js}")
file(RENAME ${OUT}.tmp ${OUT})
