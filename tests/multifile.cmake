# Multi-file programs (tests/lib/folder_multifile.py): each folder is a project whose
# units form one program through -p; the runner writes its compile database,
# checks the annotated report and verifies it against a run.
if(TARGET tensorlint_cli)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    file(GLOB TL_MULTIFILE_DIRS LIST_DIRECTORIES true CONFIGURE_DEPENDS
         ${CMAKE_CURRENT_SOURCE_DIR}/multifile/*)
    foreach(dir ${TL_MULTIFILE_DIRS})
      if(IS_DIRECTORY ${dir})
        get_filename_component(name ${dir} NAME)
        add_test(NAME multifile.${name}
                 COMMAND ${Python3_EXECUTABLE} ${TL_ANNOTATED} multifile
                         $<TARGET_FILE:tensorlint_cli> tests/multifile/${name}
                 WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
        # graph -p and lifetimes -p draw through Graphviz, whose own leaks are suppressed
        set_tests_properties(multifile.${name} PROPERTIES LABELS "multifile" TIMEOUT 600
          ENVIRONMENT "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/diagrams/lsan.supp:print_suppressions=0")
      endif()
    endforeach()
    # The captures as a build step (cmake/TensorlintCapture.cmake), with ninja.
    find_program(TL_NINJA NAMES ninja ninja-build)
    if(TL_NINJA)
      add_test(NAME multifile.cmake_capture
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/multifile/cmake_capture.py
                       $<TARGET_FILE:tensorlint_cli> ${PROJECT_SOURCE_DIR} ${CMAKE_COMMAND}
                       ${TL_NINJA})
      set_tests_properties(multifile.cmake_capture PROPERTIES LABELS "multifile" TIMEOUT 300)
    endif()
  endif()
endif()
