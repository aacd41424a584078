/*
 * lsp.h: `tensorlint lsp`, the analysis as a language server (LSP 3.17 over
 * stdio: JSON-RPC with Content-Length framing).  What an editor gets:
 * diagnostics of every check with notes and documentation links, hovers
 * with the layout, storage and cost of a tensor, inlay hints after each
 * tensor assignment, the checks' fix-its and a NOLINT as code actions.
 */
#ifndef TL_LSP_H
#define TL_LSP_H

#include <stdbool.h>

typedef enum lsp_log_level {
    LSP_LOG_ERROR,   /* only failures */
    LSP_LOG_INFO,    /* plus documents, compile commands, analysis times */
    LSP_LOG_VERBOSE  /* plus every message in and out */
} lsp_log_level;

typedef struct lsp_options {
    const char *compile_commands_dir; /* --compile-commands-dir, or NULL: search */
    const char *doc_url;              /* base of the checks' pages: <doc_url><check>.md */
    int debounce_ms;                  /* ms: quiet time after an edit before analysing */
    lsp_log_level log;
    int n_args;
    const char *const *args;          /* compiler arguments for files no database lists */
} lsp_options;

/* Serve one client on in_fd / out_fd until it says exit (or closes in_fd).
 * The exit status: 0 when shutdown came before exit, else 1. */
int lsp_serve(int in_fd, int out_fd, const lsp_options *o);

#endif /* TL_LSP_H */
