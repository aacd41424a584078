# The language server's tests (label "lsp"): the protocol in C over pipes,
# Neovim's own LSP client (headless), and a client built on the libraries
# VS Code's client uses (vscode-jsonrpc, vscode-languageserver-protocol).
#
# libclang parses on a thread of its own, and LLVM installs a malloc'd
# alternate signal stack on the first thread that registers its signal
# handlers (the server's kept preamble does, from that thread).  When the
# thread ends, AddressSanitizer tries to unmap that stack as if it were its
# own and aborts.  Sanitized runs of the server therefore leave the
# alternate stack to LLVM; builds without sanitizers are not concerned.
set(TL_LSP_ENV_MOD "ASAN_OPTIONS=string_append::use_sigaltstack=0")
if(TARGET tl_lsp AND TARGET tensorlint_cli)
  add_executable(test_lsp_protocol ${CMAKE_CURRENT_SOURCE_DIR}/lsp/test_lsp_protocol.c)
  target_link_libraries(test_lsp_protocol PRIVATE tl_lsp PkgConfig::CMOCKA PkgConfig::JANSSON)
  add_test(NAME lsp.protocol COMMAND test_lsp_protocol)
  set_tests_properties(lsp.protocol PROPERTIES LABELS "lsp"
    ENVIRONMENT "TL_CLI=$<TARGET_FILE:tensorlint_cli>"
    ENVIRONMENT_MODIFICATION "${TL_LSP_ENV_MOD}")
endif()

# A kept translation unit reparsed from unsaved text, and the checks over that text.
if(TARGET tl_checks)
  add_executable(test_fe_session ${CMAKE_CURRENT_SOURCE_DIR}/lsp/test_fe_session.c)
  target_link_libraries(test_fe_session PRIVATE tl_checks tl_frontend PkgConfig::CMOCKA)
  add_test(NAME lsp.fe_session COMMAND test_fe_session)
  set_tests_properties(lsp.fe_session PROPERTIES LABELS "lsp;unit")
endif()

# Real clients: Neovim's built-in client and one on VS Code's client libraries.
if(TARGET tensorlint_cli)
  foreach(client neovim vscode)
    add_test(NAME lsp.${client}
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/lsp/run_client.sh ${client}
                     $<TARGET_FILE:tensorlint_cli> ${CMAKE_CURRENT_SOURCE_DIR}/lsp/sample.c)
    set_tests_properties(lsp.${client} PROPERTIES LABELS "lsp" SKIP_RETURN_CODE 77
                         ENVIRONMENT_MODIFICATION "${TL_LSP_ENV_MOD}")
  endforeach()
endif()

# Junk, malformed and random messages: answered, no crash, no sanitizer report.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND AND TARGET tensorlint_cli)
  add_test(NAME lsp.fuzz
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/lsp/fuzz.py
                   $<TARGET_FILE:tensorlint_cli> ${CMAKE_CURRENT_SOURCE_DIR}/lsp/sample.c 1 2 3 4)
  set_tests_properties(lsp.fuzz PROPERTIES LABELS "lsp"
                       ENVIRONMENT_MODIFICATION "${TL_LSP_ENV_MOD}")
endif()
