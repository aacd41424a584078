/*
 * tensorlint.c: the command-line driver.
 *
 *     tensorlint <command> [options] FILE... [-- compiler args]
 *
 * One table names the subcommands; each lives in tools/cmd_<name>.c as
 * `int cmd_<name>(int argc, char **argv)` and receives its own argv (argv[0]
 * is the command's name).  Adding a command is one line in TL_COMMANDS.
 * Exit status: whatever the command returns; 2 for a usage error here.
 */
#include <stdio.h>
#include <string.h>

#include "cli_opt.h"

/* X(function suffix, command name, one-line summary) */
#define TL_COMMANDS(X)                                                                     \
    X(report, "report", "print the memory accounting of a C file, per function")          \
    X(check, "check", "warn where a program pays for memory or traffic (clang style, SARIF)") \
    X(verify, "verify", "run the program on the runtime and check every prediction")     \
    X(graph, "graph", "draw the dataflow of views, copies and casts (svg, png, pdf, dot)") \
    X(lifetimes, "lifetimes", "draw when each storage is live, call by call (svg, png, pdf, dot)") \
    X(lsp, "lsp", "serve editors over the Language Server Protocol (stdio)")              \
    X(capture, "capture", "parse translation units ahead of -p analyses (a build step)")  \
    X(dump_ir, "dump-ir", "print the IR the front end makes of a C file (for debugging)")

#define TL_DECLARE(fn, name, summary) int cmd_##fn(int argc, char **argv);
TL_COMMANDS(TL_DECLARE)
#undef TL_DECLARE

typedef struct tl_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} tl_command;

static const tl_command tl_commands[] = {
#define TL_ENTRY(fn, name, summary) {name, cmd_##fn, summary},
    TL_COMMANDS(TL_ENTRY)
#undef TL_ENTRY
};

#define TL_N_COMMANDS (int)(sizeof tl_commands / sizeof tl_commands[0])

static void tl_usage(FILE *out)
{
    fputs("usage: tensorlint <command> [options] FILE... [-- compiler args]\n"
          "       tensorlint <command> --help\n"
          "\n"
          "Static analysis of the tensor memory of C programs written against\n"
          "<tensorlint/tensor.h>.\n"
          "\n"
          "commands:\n",
          out);
    for (int i = 0; i < TL_N_COMMANDS; i++)
        fprintf(out, "  %-12s %s\n", tl_commands[i].name, tl_commands[i].summary);
    fputs("\n"
          "options:\n"
          "  -h, --help       this help\n"
          "  -V, --version    print the version (also: tensorlint version)\n",
          out);
}

static const tl_command *tl_command_find(const char *name)
{
    for (int i = 0; i < TL_N_COMMANDS; i++)
        if (strcmp(tl_commands[i].name, name) == 0)
            return &tl_commands[i];
    return NULL;
}

/* The command a mistyped name most likely meant, or NULL. */
static const char *tl_command_near(const char *name)
{
    const char *best = NULL;
    int best_d = 3; /* at most two edits */
    for (int i = 0; i < TL_N_COMMANDS; i++) {
        int d = cli_distance(name, tl_commands[i].name);
        if (d < best_d) {
            best_d = d;
            best = tl_commands[i].name;
        }
    }
    return best;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        tl_usage(stderr);
        return 2;
    }
    const char *first = argv[1];
    if (strcmp(first, "-h") == 0 || strcmp(first, "--help") == 0) {
        tl_usage(stdout);
        return 0;
    }
    if (strcmp(first, "--version") == 0 || strcmp(first, "-V") == 0 ||
        strcmp(first, "version") == 0) {
        puts("tensorlint " TL_VERSION);
        return 0;
    }
    if (first[0] == '-') {
        fprintf(stderr, "tensorlint: unknown option '%s' (try tensorlint --help)\n", first);
        return 2;
    }
    const tl_command *cmd = tl_command_find(first);
    if (!cmd) {
        const char *near = tl_command_near(first);
        if (near)
            fprintf(stderr, "tensorlint: unknown command '%s'; did you mean '%s'?\n", first, near);
        else
            fprintf(stderr, "tensorlint: unknown command '%s' (try tensorlint --help)\n", first);
        return 2;
    }
    return cmd->run(argc - 1, argv + 1);
}
