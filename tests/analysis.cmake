# Tests that need the front end and the analyzer.
foreach(t test_worksheet test_review)
  if(TARGET ${t} AND TARGET tl_analysis)
    target_link_libraries(${t} PRIVATE tl_analysis tl_frontend)
  endif()
endforeach()

# Every PyTorch fixture, written as C and analysed, must match PyTorch.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND AND TARGET tensorlint_cli)
  add_test(NAME oracle.analyzer
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/oracle/check_analyzer.py
                   $<TARGET_FILE:tensorlint_cli> ${CMAKE_CURRENT_SOURCE_DIR}/fixtures
                   ${CMAKE_CURRENT_BINARY_DIR}/oracle-c)
  set_tests_properties(oracle.analyzer PROPERTIES LABELS "oracle")
  add_test(NAME golden.reports
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/golden/run.sh $<TARGET_FILE:tensorlint_cli>)
  set_tests_properties(golden.reports PROPERTIES LABELS "golden")
endif()

if(TARGET tensorlint_cli)
  add_test(NAME cli.bad_input COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/bad-input/run.sh
           $<TARGET_FILE:tensorlint_cli>)
  # graph and lifetimes draw through Graphviz, whose own leaks are suppressed
  set_tests_properties(cli.bad_input PROPERTIES LABELS "cli;bad-input" ENVIRONMENT
    "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/diagrams/lsan.supp:print_suppressions=0")
endif()

if(TARGET tensorlint_cli)
  # an else-if chain of 2,000 arms with 512 KiB of stack: no recursion per arm
  add_test(NAME cli.else_if_chain COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/bad-input/else_if_chain.sh
           $<TARGET_FILE:tensorlint_cli> 2000 512)
  set_tests_properties(cli.else_if_chain PROPERTIES LABELS "cli;bad-input" TIMEOUT 120)
  # statements nested deeper than a thread's stack: a deep stack, then a limit, never a signal
  add_test(NAME cli.deep_nesting COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/bad-input/deep_nesting.sh
           $<TARGET_FILE:tensorlint_cli>)
  set_tests_properties(cli.deep_nesting PROPERTIES LABELS "cli;bad-input" TIMEOUT 300)
endif()

if(TARGET tensorlint_cli)
  add_test(NAME verify.samples COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/verify/run.sh
           $<TARGET_FILE:tensorlint_cli>)
  set_tests_properties(verify.samples PROPERTIES LABELS "verify" TIMEOUT 1200)
  # The same on CUDA (the emulated device where no GPU is usable).
  add_test(NAME verify.cuda COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/verify/cuda.sh
           $<TARGET_FILE:tensorlint_cli>)
  set_tests_properties(verify.cuda PROPERTIES LABELS "verify;emulation" TIMEOUT 2400)
endif()

if(Python3_Interpreter_FOUND AND TARGET tensorlint_cli)
  add_test(NAME oracle.verify
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/oracle/verify_fixtures.py
                   $<TARGET_FILE:tensorlint_cli> ${CMAKE_CURRENT_SOURCE_DIR}/fixtures
                   ${CMAKE_CURRENT_BINARY_DIR}/oracle-verify)
  set_tests_properties(oracle.verify PROPERTIES LABELS "oracle;verify" TIMEOUT 1200)
endif()

# The report's JSON writer (tests/unit/test_json_emit.c) lives in the report library.
if(TARGET test_json_emit)
  target_link_libraries(test_json_emit PRIVATE tl_report)
endif()
