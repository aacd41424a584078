/*
 * cmd_lsp.c: `tensorlint lsp [options] [-- compiler args]`: the language
 * server on stdin/stdout (lsp/lsp.h).  Options set where compile commands
 * come from, the log on stderr, the debounce, and the base of the links to
 * the checks' pages.  Exit: 0 after shutdown and exit, 1 when the client
 * left without shutdown, 2 usage.
 */
#define _GNU_SOURCE /* asprintf */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "frontend.h"
#include "lsp.h"

static const cli_command lsp_command = {
    .name = "lsp",
    .bit = CLI_CMD_LSP,
    .usage = "usage: tensorlint lsp [options] [-- compiler args]\n",
    .about = "A language server (LSP 3.17) on stdin and stdout for editors: the checks'\n"
             "warnings as diagnostics, hovers with shape, strides, dtype, device,\n"
             "storage, view or copy and bytes, inlay hints, fix-its as code actions.\n"
             "Set-up for Neovim, VS Code, Emacs and Helix: docs/editors.md.\n",
    .notes = "Compiler arguments after -- are used for files no compilation database lists.\n",
};

static bool lsp_parse_log(const char *s, lsp_log_level *out)
{
    static const char *const names[] = {"error", "info", "verbose"};
    for (int k = 0; k < 3; k++)
        if (strcmp(s, names[k]) == 0) {
            *out = (lsp_log_level)k;
            return true;
        }
    fprintf(stderr, "tensorlint lsp: --log=%s: error, info or verbose\n", s);
    return false;
}

static bool lsp_take(void *ctx, cli_opt_id id, const char *value)
{
    lsp_options *o = ctx;
    int64_t ms;
    struct stat st;
    switch (id) {
    case CLI_OPT_COMPILE_COMMANDS_DIR:
        if (stat(value, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "tensorlint lsp: --compile-commands-dir: %s is not a directory\n",
                    value);
            return false;
        }
        o->compile_commands_dir = value;
        return true;
    case CLI_OPT_LOG: return lsp_parse_log(value, &o->log);
    case CLI_OPT_DEBOUNCE:
        if (!cli_parse_count(value, &ms) || ms > 10000) {
            fprintf(stderr, "tensorlint lsp: --debounce wants 0 to 10000 ms\n");
            return false;
        }
        o->debounce_ms = (int)ms;
        return true;
    case CLI_OPT_DOC_URL: o->doc_url = value; return true;
    default: break;
    }
    fprintf(stderr, "tensorlint lsp: internal error: option %d not handled\n", (int)id);
    abort(); /* a row of cli_opt.c gives lsp an option this function forgot */
}

/* Options; -1 to go on, else the exit status. */
static int lsp_parse(int argc, char **argv, lsp_options *o)
{
    cli_input in;
    int rc = cli_opt_parse(&lsp_command, argc, argv, lsp_take, o, &in);
    if (rc >= 0)
        return rc;
    if (in.n_files > 0) {
        fprintf(stderr, "tensorlint lsp: unexpected argument '%s' (the editor sends the "
                "files; compiler arguments go after --)\n", in.files[0]);
        return 2;
    }
    o->n_args = in.n_args;
    o->args = in.args;
    return -1;
}

int cmd_lsp(int argc, char **argv)
{
    lsp_options o = {.debounce_ms = 50, .log = LSP_LOG_ERROR};
    int rc = lsp_parse(argc, argv, &o);
    if (rc >= 0)
        return rc;
    char *doc = o.doc_url ? NULL : cli_doc_url();
    if (doc)
        o.doc_url = doc;
    rc = lsp_serve(0, 1, &o);
    free(doc);
    return rc;
}
