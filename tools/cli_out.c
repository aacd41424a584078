/*
 * cli_out.c: the output of a command given -o FILE, written all or nothing.
 *
 * The output goes to a temporary file in FILE's folder (FILE.tmp-XXXXXX)
 * and is renamed over FILE only when the command has written all of it and
 * every write succeeded: a usage error found late, a failed analysis or a
 * full disk leaves an existing FILE as it was, and no reader ever sees half
 * a file.  FILE that exists and is not a regular file (/dev/null, a FIFO,
 * /dev/stdout) is written in place: there is nothing to replace.  A
 * symbolic link is followed, so the link stays and its target changes.
 * The new file gets the mode a plain fopen would give it (0666 less the
 * umask), or the mode of the file it replaces.  The out-of-memory exit
 * (xalloc.h) removes the temporary files of the outputs still open, so it
 * too leaves FILE as it was and nothing beside it.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The outputs with a temporary file, newest first (cli_out.next). */
static cli_out *open_temps;

/* The out-of-memory exit's hook: unlink only (it must not allocate). */
static void remove_temps(void *ctx)
{
    (void)ctx;
    for (cli_out *o = open_temps; o; o = o->next)
        unlink(o->tmp);
}

static void temps_add(cli_out *o)
{
    o->next = open_temps;
    open_temps = o;
    tl_xalloc_on_failure(remove_temps, NULL);
}

static void temps_remove(cli_out *o)
{
    for (cli_out **p = &open_temps; *p; p = &(*p)->next)
        if (*p == o) {
            *p = o->next;
            break;
        }
}

static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* Opens path itself (not a regular file: a device, a FIFO). */
static FILE *open_in_place(cli_out *o)
{
    o->file = fopen(o->path, "w");
    if (!o->file)
        fprintf(stderr, "tensorlint %s: cannot write %s: %s\n", o->cmd, o->path, strerror(errno));
    return o->file;
}

/* A temporary file next to target; o->tmp names it. */
static FILE *open_temp(cli_out *o, const char *target, mode_t mode)
{
    o->tmp = tl_xasprintf("%s.tmp-XXXXXX", target);
    int fd = mkstemp(o->tmp);
    if (fd < 0 || fchmod(fd, mode) != 0 || !(o->file = fdopen(fd, "w"))) {
        fprintf(stderr, "tensorlint %s: cannot write %s: %s\n", o->cmd, o->path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        free(o->tmp);
        o->tmp = NULL;
        return NULL;
    }
    temps_add(o);
    return o->file;
}

FILE *cli_out_open(cli_out *o, const char *cmd, const char *path, FILE *dflt)
{
    struct stat st;
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    if (path && strcmp(path, "-") == 0) { /* standard output, whatever the default */
        path = NULL;
        dflt = stdout;
    }
    o->path = path;
    if (!path)
        return o->file = dflt;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "tensorlint %s: cannot write %s: Is a directory\n", cmd, path);
        return NULL;
    }
    if (exists && !S_ISREG(st.st_mode))
        return open_in_place(o);
    mode_t mode = exists ? st.st_mode & 07777 : new_file_mode();
    char *real = realpath(path, NULL); /* follows a link; NULL when path is new */
    if (real)
        o->target = real;
    return open_temp(o, real ? real : path, mode);
}

void cli_out_discard(cli_out *o)
{
    if (o->file && o->file != stdout && o->file != stderr)
        fclose(o->file);
    if (o->tmp) {
        temps_remove(o);
        unlink(o->tmp);
    }
    free(o->tmp);
    free(o->target);
    memset(o, 0, sizeof *o);
}

int cli_out_commit(cli_out *o)
{
    FILE *f = o->file;
    o->file = NULL;
    if (!f)
        return 2;
    if (cli_output_done(f, o->cmd, o->path) != 0) { /* closed it, said why */
        cli_out_discard(o);
        return 2;
    }
    if (o->tmp && rename(o->tmp, o->target ? o->target : o->path) != 0) {
        fprintf(stderr, "tensorlint %s: cannot write %s: %s\n", o->cmd, o->path, strerror(errno));
        cli_out_discard(o);
        return 2;
    }
    temps_remove(o);
    free(o->tmp);
    o->tmp = NULL;
    cli_out_discard(o);
    return 0;
}

int cli_out_finish(cli_out *o, int rc)
{
    if (rc >= 2) {
        cli_out_discard(o);
        return rc;
    }
    return cli_out_commit(o) != 0 ? 2 : rc;
}

int cli_diagram_output(const char *cmd, const char *format, const char *output, bool allow_text,
                       dg_format *fmt, bool *text)
{
    *text = allow_text && format && strcmp(format, "text") == 0;
    if (format && !*text && !dg_format_parse(format, fmt)) {
        fprintf(stderr, "tensorlint %s: unknown format '%s' (svg, png, pdf, dot%s)\n", cmd, format,
                allow_text ? " or text" : "");
        return 2;
    }
    if (output && strcmp(output, "-") == 0)
        output = NULL; /* stdout: DOT unless --format says */
    if (!format && output && !dg_format_of_path(output, fmt)) {
        fprintf(stderr, "tensorlint %s: cannot tell the format of '%s' from its extension (use "
                ".svg, .png, .pdf, .dot or --format)\n", cmd, output);
        return 2;
    }
    if (output && !dg_output_writable(output)) {
        fprintf(stderr, "tensorlint %s: cannot write %s: %s\n", cmd, output, strerror(errno));
        return 2;
    }
    return 0;
}

int cli_write_data(const char *cmd, const char *path, const char *data, size_t len)
{
    cli_out co;
    FILE *out = cli_out_open(&co, cmd, path, stdout);
    if (!out)
        return 2;
    fwrite(data, 1, len, out);
    return cli_out_commit(&co);
}
