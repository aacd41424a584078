# TensorlintCapture.cmake: tensorlint_capture(TARGET ...), the captures of a
# target's C units as a build step (tensorlint's docs/ci.md, "Capturing in
# the build").  Installed with tensorlint in share/tensorlint/cmake:
#
#   list(APPEND CMAKE_MODULE_PATH /usr/share/tensorlint/cmake)
#   include(TensorlintCapture)
#   set(CMAKE_EXPORT_COMPILE_COMMANDS ON)      # before the targets
#   add_executable(net main.c model.c)
#   tensorlint_capture(net)                    # adds the target net_tensorlint_capture
#
#   cmake --build build --target net_tensorlint_capture -j 8
#   tensorlint report -p build                 # reads the captures
#
# Each C source of TARGET gets a rule `tensorlint capture -p BUILD_DIR FILE`
# whose output is its capture, BUILD_DIR/tensorlint-capture/<path>.tlir,
# with the depfile tensorlint writes beside it (the unit's headers), so the
# build runs the units in parallel and again only when one of their files
# changed.  Options:
#   TENSORLINT exe   the tool (default: found on PATH as tensorlint)
#   BUILD_DIR dir    where compile_commands.json is (default: CMAKE_BINARY_DIR)
#   ALL              build the captures with the default target too
function(tensorlint_capture target)
  cmake_parse_arguments(TLC "ALL" "TENSORLINT;BUILD_DIR" "" ${ARGN})
  if(NOT TLC_TENSORLINT)
    find_program(TENSORLINT_EXECUTABLE tensorlint REQUIRED)
    set(TLC_TENSORLINT ${TENSORLINT_EXECUTABLE})
  endif()
  if(NOT TLC_BUILD_DIR)
    set(TLC_BUILD_DIR ${CMAKE_BINARY_DIR})
  endif()
  set_target_properties(${target} PROPERTIES EXPORT_COMPILE_COMMANDS ON)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(outputs)
  cmake_policy(PUSH)
  if(POLICY CMP0116)
    cmake_policy(SET CMP0116 NEW) # the depfile's paths made relative for ninja
  endif()
  foreach(src IN LISTS sources)
    if(NOT src MATCHES "\\.c$")
      continue()
    endif()
    get_filename_component(path ${src} ABSOLUTE BASE_DIR ${source_dir})
    set(out "${TLC_BUILD_DIR}/tensorlint-capture${path}.tlir")
    set(depfile)
    if(CMAKE_GENERATOR MATCHES "Ninja" OR CMAKE_VERSION VERSION_GREATER_EQUAL 3.20)
      set(depfile DEPFILE "${out}.d")
    endif()
    add_custom_command(OUTPUT ${out}
      COMMAND ${TLC_TENSORLINT} capture -q -p ${TLC_BUILD_DIR} ${path}
      DEPENDS ${path} ${depfile}
      COMMENT "tensorlint: capturing ${src}"
      VERBATIM)
    list(APPEND outputs ${out})
  endforeach()
  cmake_policy(POP)
  set(all)
  if(TLC_ALL)
    set(all ALL)
  endif()
  add_custom_target(${target}_tensorlint_capture ${all} DEPENDS ${outputs})
endfunction()
