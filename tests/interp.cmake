# The analyzer's annotated tests (tests/interp/README.md): one test per C
# file, each checked against `tensorlint report --format=json` and run for
# real with `tensorlint verify`, by the annotated tests' one runner
# (tests/README.md, TL_ANNOTATED).  Included from tests/CMakeLists.txt.
if(TARGET tensorlint_cli)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    file(GLOB TL_INTERP_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/interp/*.c)
    foreach(src ${TL_INTERP_TESTS})
      get_filename_component(name ${src} NAME_WE)
      add_test(NAME interp.${name}
               COMMAND ${Python3_EXECUTABLE} ${TL_ANNOTATED} interp
                       $<TARGET_FILE:tensorlint_cli> tests/interp/${name}.c
               WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
      set_tests_properties(interp.${name} PROPERTIES LABELS "interp" TIMEOUT 600)
    endforeach()
    # the runner fails where it must, in every folder (a wrong expectation, an
    # unexpected note, an annotation of an old dialect, an XPASS)
    add_test(NAME annotated.runner
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/lib/selftest.py
                     $<TARGET_FILE:tensorlint_cli>
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(annotated.runner PROPERTIES LABELS "interp;checks" TIMEOUT 600
      ENVIRONMENT "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/diagrams/lsan.supp:print_suppressions=0")
    # loops counted a period at a time report what iterating them reports
    file(GLOB TL_SKIP_SAME CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/interp/*.c)
    list(APPEND TL_SKIP_SAME ${PROJECT_SOURCE_DIR}/samples/models/layer_fn.c
         ${PROJECT_SOURCE_DIR}/samples/models/layers40.c)
    add_test(NAME interp.loop_skip_same
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/interp/skip_same.py
                     $<TARGET_FILE:tensorlint_cli> ${TL_SKIP_SAME}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(interp.loop_skip_same PROPERTIES LABELS "interp" TIMEOUT 600)
  endif()
endif()

# Symbolic sizes (tests/lib/folder_symbolic.py): each program's formulas, evaluated
# at three bindings, equal the bound report, which verify compares with a run.
if(TARGET tensorlint_cli)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    # in four shards, so that ctest runs them side by side with the rest
    foreach(shard RANGE 3)
      add_test(NAME symbolic.runs.${shard}
               COMMAND ${Python3_EXECUTABLE} ${TL_ANNOTATED} symbolic
                       $<TARGET_FILE:tensorlint_cli> --shard=${shard}/4
               WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
      set_tests_properties(symbolic.runs.${shard} PROPERTIES LABELS "interp" TIMEOUT 900)
    endforeach()
  endif()
endif()
