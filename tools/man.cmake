# Writes the man page tensorlint.1 from the tool's own --help texts, so the
# page and --help never disagree.  Run by the build:
#   cmake -DTL=path/to/tensorlint -DVERSION=0.1.0 -DOUT=tensorlint.1 -P man.cmake
# Layout: NAME, SYNOPSIS (the usage lines), DESCRIPTION (`tensorlint --help`),
# COMMANDS (each command's --help, in the order --help lists them), FILES.

# Text as roff that prints it as written: backslashes escaped, a line that
# starts with '.' or '\'' protected, inside no-fill (.nf) blocks.
function(tl_roff text out_var)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  set(${out_var} ".nf\n${text}\n.fi\n" PARENT_SCOPE)
endfunction()

function(tl_help out_var)
  execute_process(COMMAND ${TL} ${ARGN} --help OUTPUT_VARIABLE text RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0 OR text STREQUAL "")
    message(FATAL_ERROR "man.cmake: `tensorlint ${ARGN} --help` failed (${rc})")
  endif()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

tl_help(top)
# the commands: the lines "  NAME   words" of the "commands:" paragraph
string(REGEX MATCH "commands:\n(  [^\n]+\n)+" listing "${top}\n")
string(REGEX MATCHALL "\n  [a-z][a-z-]*" names "${listing}")
set(page ".\\\" Generated from `tensorlint --help` by tools/man.cmake: do not edit.\n")
string(APPEND page ".TH TENSORLINT 1 \"\" \"tensorlint ${VERSION}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\ntensorlint \\- static analysis of the tensor memory of C programs\n")
string(REGEX MATCHALL "(^|\n)(usage:|      )[^\n]*" usage "${top}")
string(REPLACE ";" "" usage "${usage}")
string(REGEX REPLACE "^\n" "" usage "${usage}")
tl_roff("${usage}" usage_roff)
string(APPEND page ".SH SYNOPSIS\n${usage_roff}")
tl_roff("${top}" top_roff)
string(APPEND page ".SH DESCRIPTION\n${top_roff}")
string(APPEND page ".SH COMMANDS\n")
foreach(n ${names})
  string(STRIP "${n}" n)
  tl_help(help ${n})
  tl_roff("${help}" help_roff)
  string(APPEND page ".SS \"tensorlint ${n}\"\n${help_roff}")
endforeach()
string(APPEND page ".SH FILES\n.TP\n.I share/doc/tensorlint/checks/\n"
                   "one page per check (what it finds, why, how to fix it): the links of SARIF's\n"
                   "helpUri and of the language server's diagnostics point there\n"
                   ".TP\n.I include/tensorlint/tensor.h\nthe tensor API; "
                   "\\fBpkg\\-config \\-\\-cflags \\-\\-libs tensorlint\\fR builds against its runtime\n")
file(WRITE ${OUT}.tmp "${page}")
file(RENAME ${OUT}.tmp ${OUT})
