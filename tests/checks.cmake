# The checks of `tensorlint check` (checks/check_*.c, tools/cmd_check.c):
# golden samples that carry their expected diagnostics as comments (the
# annotated tests' dialect and runner, tests/README.md), clean
# samples that must stay silent, the project's samples against
# tests/checks/samples.expect, the checks on formulas against the same
# checks on numbers (formulas.py), the fix-its applied, SARIF against the
# official 2.1.0 schema, the command line and -p on this build's own
# compile_commands.json.  Included from tests/CMakeLists.txt.
if(TARGET tensorlint_cli)
  find_package(Python3 COMPONENTS Interpreter)
  set(TL_CK_DIR ${CMAKE_CURRENT_SOURCE_DIR}/checks)
  file(GLOB TL_CK_SAMPLES CONFIGURE_DEPENDS ${TL_CK_DIR}/*.c)
  file(GLOB TL_PROJECT_SAMPLES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/samples/*/*.c)
  if(Python3_Interpreter_FOUND)
    add_test(NAME checks.golden
             COMMAND ${Python3_EXECUTABLE} ${TL_ANNOTATED} checks $<TARGET_FILE:tensorlint_cli>
                     --expect ${TL_CK_DIR}/samples.expect ${TL_CK_SAMPLES} ${TL_PROJECT_SAMPLES}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    add_test(NAME checks.fixits
             COMMAND ${Python3_EXECUTABLE} ${TL_CK_DIR}/fixits.py $<TARGET_FILE:tensorlint_cli>
                     ${TL_CK_SAMPLES} ${TL_PROJECT_SAMPLES}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    add_test(NAME checks.formulas
             COMMAND ${Python3_EXECUTABLE} ${TL_CK_DIR}/formulas.py $<TARGET_FILE:tensorlint_cli>
                     ${TL_CK_SAMPLES}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(checks.golden checks.fixits checks.formulas PROPERTIES LABELS "checks")
  endif()
  # Debian's python3-jsonschema, as tests/checks/sarif.py says (not a pyenv shim)
  if(EXISTS /usr/bin/python3)
    add_test(NAME checks.sarif
             COMMAND /usr/bin/python3 ${TL_CK_DIR}/sarif.py $<TARGET_FILE:tensorlint_cli>
                     ${TL_CK_DIR}/sarif-2.1.0-rtm.5.json ${TL_CK_SAMPLES}
                     ${PROJECT_SOURCE_DIR}/samples/worksheet/block1.c
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(checks.sarif PROPERTIES LABELS "checks")
  endif()
  add_test(NAME checks.cli
           COMMAND ${TL_CK_DIR}/cli.sh $<TARGET_FILE:tensorlint_cli> ${PROJECT_BINARY_DIR})
  set_tests_properties(checks.cli PROPERTIES LABELS "checks")
endif()

# Code review against a baseline (checks/check_baseline.c, report/rp_compare.c):
# base/head pairs of programs, and bad baselines and budgets.
if(TARGET tensorlint_cli AND EXISTS /usr/bin/python3)
  add_test(NAME baseline.pairs
           COMMAND /usr/bin/python3 ${TL_ANNOTATED} baseline
                   $<TARGET_FILE:tensorlint_cli> ${TL_CK_DIR}/sarif-2.1.0-rtm.5.json
                   ${CMAKE_CURRENT_SOURCE_DIR}/baseline)
  set_tests_properties(baseline.pairs PROPERTIES LABELS "checks")
endif()
if(TARGET tensorlint_cli)
  add_test(NAME baseline.bad_input
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/baseline/bad_input.sh $<TARGET_FILE:tensorlint_cli>)
  set_tests_properties(baseline.bad_input PROPERTIES LABELS "checks")
endif()

# The CI set-ups of docs/ci.md, run as far as this machine allows.
if(TARGET tensorlint_cli AND EXISTS /usr/bin/python3)
  add_test(NAME ci.workflows
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/ci/workflows.sh $<TARGET_FILE:tensorlint_cli>
                   ${TL_CK_DIR}/sarif-2.1.0-rtm.5.json)
  add_test(NAME ci.pre_commit
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/ci/pre_commit.sh $<TARGET_FILE:tensorlint_cli>)
  # docs/ci.md's GitHub, GitLab and pre-commit set-ups, read from the page and run
  add_test(NAME ci.recipes
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/ci/recipes.py
                   $<TARGET_FILE:tensorlint_cli> ${TL_CK_DIR}/sarif-2.1.0-rtm.5.json)
  set_tests_properties(ci.recipes PROPERTIES LABELS "checks" TIMEOUT 600
                       ENVIRONMENT "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/diagrams/lsan.supp:print_suppressions=0")
  # 77: pre-commit is not installed (scripts/deps.sh installs it)
  set_tests_properties(ci.workflows ci.pre_commit PROPERTIES LABELS "checks" SKIP_RETURN_CODE 77)
endif()
