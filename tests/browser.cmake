# The memory page, `report --format=html` (diagrams/dg_page.c, diagrams/page/):
#   browser.page  its file: the embedded report, escaping of a hostile source,
#                 --bind, the whole-or-nothing write (Python, no browser)
#   browser.open  the page in Debian's chromium, headless, through the pinned
#                 puppeteer-core (tests/browser/page_test.mjs): bars, peak,
#                 tooltip, keyboard, selection, symbol inputs against
#                 `report --bind`, the hostile file; skipped (77) without
#                 chromium or `npm ci --prefix tests/browser`
if(TARGET tensorlint_cli)
  set(TL_BROWSER_DIR ${CMAKE_CURRENT_SOURCE_DIR}/browser)
  set(TL_BROWSER_ENV
      "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/diagrams/lsan.supp:print_suppressions=0")
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    add_test(NAME browser.page
             COMMAND ${Python3_EXECUTABLE} ${TL_BROWSER_DIR}/check_page.py
                     $<TARGET_FILE:tensorlint_cli> ${PROJECT_SOURCE_DIR})
    set_tests_properties(browser.page PROPERTIES LABELS "browser" ENVIRONMENT "${TL_BROWSER_ENV}")
  endif()
  add_test(NAME browser.open
           COMMAND ${TL_BROWSER_DIR}/run_browser.sh $<TARGET_FILE:tensorlint_cli> ${PROJECT_SOURCE_DIR})
  set_tests_properties(browser.open PROPERTIES LABELS "browser" SKIP_RETURN_CODE 77 TIMEOUT 900
                       ENVIRONMENT "${TL_BROWSER_ENV}")
endif()
