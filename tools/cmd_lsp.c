/*
 * cmd_lsp.c: `tensorlint lsp [options] [-- compiler args]`: the language
 * server on stdin/stdout (lsp/lsp.h).  Options set where compile commands
 * come from, the log on stderr, the debounce, and the base of the links to
 * the checks' pages.  Exit: 0 after shutdown and exit, 1 when the client
 * left without shutdown, 2 usage.
 */
#define _GNU_SOURCE /* asprintf */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "frontend.h"
#include "lsp.h"

static const char usage[] =
    "usage: tensorlint lsp [options] [-- compiler args]\n"
    "\n"
    "A language server (LSP 3.17) on stdin and stdout for editors: the checks'\n"
    "warnings as diagnostics, hovers with shape, strides, dtype, device,\n"
    "storage, view or copy and bytes, inlay hints, fix-its as code actions.\n"
    "Set-up for Neovim, VS Code, Emacs and Helix: docs/editors.md.\n"
    "\n"
    "options:\n"
    "  --compile-commands-dir=DIR  read DIR/compile_commands.json (default: the file's\n"
    "                              directory and its parents, each also with build/)\n"
    "  --log=error|info|verbose    what to log on stderr (default error)\n"
    "  --debounce=MS               quiet time after an edit before analysing (default 50)\n"
    "  --doc-url=URL               base of the links to the checks' pages (default: the\n"
    "                              docs/checks directory of this installation)\n"
    "  -h, --help                  this help\n"
    "\n"
    "Compiler arguments after -- are used for files no compilation database lists.\n";

enum { OPT_CDB = 256, OPT_LOG, OPT_DEBOUNCE, OPT_DOC_URL };


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

static bool lsp_parse_one(int c, lsp_options *o)
{
    int64_t ms;
    struct stat st;
    switch (c) {
    case OPT_CDB:
        if (stat(optarg, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "tensorlint lsp: --compile-commands-dir: %s is not a directory\n",
                    optarg);
            return false;
        }
        o->compile_commands_dir = optarg;
        return true;
    case OPT_LOG: return lsp_parse_log(optarg, &o->log);
    case OPT_DEBOUNCE:
        if (!cli_parse_count(optarg, &ms) || ms > 10000) {
            fprintf(stderr, "tensorlint lsp: --debounce wants 0 to 10000 ms\n");
            return false;
        }
        o->debounce_ms = (int)ms;
        return true;
    case OPT_DOC_URL: o->doc_url = optarg; return true;
    default: return false;
    }
}

/* Options; -1 to go on, else the exit status. */
static int lsp_parse(int argc, char **argv, lsp_options *o)
{
    static const struct option longs[] = {
        {"compile-commands-dir", required_argument, 0, OPT_CDB},
        {"log", required_argument, 0, OPT_LOG},
        {"debounce", required_argument, 0, OPT_DEBOUNCE},
        {"doc-url", required_argument, 0, OPT_DOC_URL},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int c, end = cli_options_end(argc, argv);
    optind = 1;
    while ((c = getopt_long(end, argv, "+h", longs, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage, stdout);
            return 0;
        }
        if (!lsp_parse_one(c, o)) {
            if (c == '?' || c == ':')
                fputs(usage, stderr);
            return 2;
        }
    }
    if (optind < end) {
        fprintf(stderr, "tensorlint lsp: unexpected argument '%s' (the editor sends the "
                "files; compiler arguments go after --)\n", argv[optind]);
        return 2;
    }
    o->n_args = end < argc ? argc - end - 1 : 0;
    o->args = (const char *const *)argv + end + 1;
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
