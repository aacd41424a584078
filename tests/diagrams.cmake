# The diagrams (diagrams/dg_*.c; tensorlint graph, lifetimes, report --lifetimes):
#   diagrams.unit      the lifetime model on hand-made logs and on Block 1 (cmocka)
#   diagrams.golden    DOT and text charts of every sample (diagrams/run.sh [--bless])
#   diagrams.render    SVG parses with a node per value, PNG and PDF are well formed
#   diagrams.bad_input bad options, outputs and programs: a message and exit 2
if(TARGET tl_analysis)
  add_executable(test_dg ${CMAKE_CURRENT_SOURCE_DIR}/diagrams/test_dg.c)
  target_link_libraries(test_dg PRIVATE tl_analysis tl_frontend PkgConfig::CMOCKA)
  add_test(NAME diagrams.unit COMMAND test_dg)
  set_tests_properties(diagrams.unit PROPERTIES LABELS "diagrams" ENVIRONMENT
    "TL_SOURCE_DIR=${PROJECT_SOURCE_DIR};LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/diagrams/lsan.supp:print_suppressions=0")
endif()

if(TARGET tensorlint_cli)
  set(TL_DG_DIR ${CMAKE_CURRENT_SOURCE_DIR}/diagrams)
  add_test(NAME diagrams.golden COMMAND ${TL_DG_DIR}/run.sh $<TARGET_FILE:tensorlint_cli>)
  add_test(NAME diagrams.bad_input COMMAND ${TL_DG_DIR}/bad_input.sh $<TARGET_FILE:tensorlint_cli>)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    add_test(NAME diagrams.render
             COMMAND ${Python3_EXECUTABLE} ${TL_DG_DIR}/check_render.py
                     $<TARGET_FILE:tensorlint_cli> ${CMAKE_CURRENT_BINARY_DIR}/diagrams-out)
  endif()
  # Graphviz and its renderers keep caches for the process: see lsan.supp
  set(TL_DG_ENV "LSAN_OPTIONS=suppressions=${TL_DG_DIR}/lsan.supp:print_suppressions=0")
  set_tests_properties(diagrams.golden diagrams.bad_input PROPERTIES LABELS "diagrams"
                       ENVIRONMENT "${TL_DG_ENV}")
  if(TEST diagrams.render)
    set_tests_properties(diagrams.render PROPERTIES LABELS "diagrams" ENVIRONMENT "${TL_DG_ENV}")
  endif()
endif()
