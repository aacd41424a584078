# Extra links for unit tests whose module is not the runtime, and the front
# end's command-line tests.
if(TARGET test_frontend)
  target_link_libraries(test_frontend PRIVATE tl_frontend)
  # for `test_frontend --bless` run by hand, outside ctest's environment
  target_compile_definitions(test_frontend PRIVATE TL_SOURCE_DIR_DEFAULT="${PROJECT_SOURCE_DIR}")
endif()

# tensorlint dump-ir: exit statuses and messages of the driver (sh -c 'cmd; test $? = N').
if(TARGET tensorlint_cli)
  set(TL_FE_CLI $<TARGET_FILE:tensorlint_cli>)
  set(TL_FE_DIR ${PROJECT_SOURCE_DIR}/tests/frontend)
  function(tl_frontend_cli_test name status script)
    add_test(NAME frontend.cli.${name} COMMAND sh -c "${script}; test $? -eq ${status}" ${TL_FE_CLI})
    set_tests_properties(frontend.cli.${name} PROPERTIES LABELS "frontend")
  endfunction()
  tl_frontend_cli_test(help 0 "\"$0\" --help | grep -q dump-ir")
  tl_frontend_cli_test(dump_ir_help 0 "\"$0\" dump-ir --help | grep -q 'usage: tensorlint dump-ir'")
  tl_frontend_cli_test(no_command 2 "\"$0\" 2>/dev/null")
  tl_frontend_cli_test(unknown_command 2 "\"$0\" frobnicate x.c 2>/dev/null")
  tl_frontend_cli_test(unknown_option 2 "\"$0\" --frobnicate 2>/dev/null")
  tl_frontend_cli_test(dump_ir_unknown_option 2 "\"$0\" dump-ir --frobnicate ${TL_FE_DIR}/calls.c 2>/dev/null")
  tl_frontend_cli_test(dump_ir_option_after_file 2 "\"$0\" dump-ir ${TL_FE_DIR}/calls.c -x 2>/dev/null")
  tl_frontend_cli_test(dump_ir_missing_file 2 "\"$0\" dump-ir /nonexistent/x.c 2>&1 | grep -q 'x.c: no such file'; test $? -eq 0 && \"$0\" dump-ir /nonexistent/x.c 2>/dev/null")
  tl_frontend_cli_test(dump_ir_ok 0 "\"$0\" dump-ir ${TL_FE_DIR}/calls.c | grep -q 'call x#2 = tl_randn'")
  tl_frontend_cli_test(dump_ir_compiler_args 0 "\"$0\" dump-ir ${TL_FE_DIR}/calls.c -- -DUNUSED=1 -std=c11 >/dev/null")
  add_test(NAME frontend.capture_all
           COMMAND ${PROJECT_SOURCE_DIR}/tests/frontend/capture_all.sh ${TL_FE_CLI} ${PROJECT_SOURCE_DIR})
  set_tests_properties(frontend.capture_all PROPERTIES LABELS "frontend" TIMEOUT 600)
  tl_frontend_cli_test(dump_ir_clang_error 2 "\"$0\" dump-ir ${TL_FE_DIR}/errors.c 2>&1 >/dev/null | grep -q 'errors.c:11:18: error: expected'; test $? -eq 0 && \"$0\" dump-ir ${TL_FE_DIR}/errors.c >/dev/null 2>&1")
endif()

# The out-of-memory exit (tests/unit/test_oom.c): the whole analysis, and
# the driver's -o FILE (tools/cli_out.c), whose temporary file it removes.
if(TARGET test_oom AND TARGET tl_analysis)
  target_sources(test_oom PRIVATE ${PROJECT_SOURCE_DIR}/tools/cli.c ${PROJECT_SOURCE_DIR}/tools/cli_out.c)
  target_include_directories(test_oom PRIVATE ${PROJECT_SOURCE_DIR}/tools)
  target_link_libraries(test_oom PRIVATE tl_analysis tl_frontend tl_common)
endif()
