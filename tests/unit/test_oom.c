/*
 * test_oom.c: the tool's out-of-memory exit (common/xalloc.h).
 *
 * Memory is never really exhausted here: tl_xalloc_fail_after makes the
 * helpers refuse an allocation as if the system had, which works the same
 * with and without AddressSanitizer (whose allocator would report a real
 * exhaustion itself, and whose shadow memory a `ulimit -v` would starve).
 * Each run is a forked child, so that the exit it ends with is observed
 * from outside: its status and what it wrote on standard error.
 *
 * The sweep runs the analysis as the command-line tool does (parse, the
 * interpreter, the checks, the text and JSON reports, SARIF, both
 * diagrams) and makes the Nth allocation fail for N across the whole run:
 * wherever memory runs out, in whichever module, the process must end with
 * exit code 2 and "tensorlint: out of memory", never a signal or a
 * sanitizer report; with enough, it finishes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rp_report.h"
#include "check.h"
#include "cli.h"
#include "dg.h"
#include "frontend.h"
#include "xalloc.h"

#define OOM_MESSAGE "tensorlint: out of memory"

/* How a child ended: its exit code (-1: a signal) and its standard error. */
typedef struct outcome {
    int code;
    char err[4096];
} outcome;

/* fn(arg) in a child whose standard error is kept; the child ends with
 * _exit(0) when fn returns. */
static outcome in_child(void (*fn)(const void *arg), const void *arg)
{
    outcome o = {-1, ""};
    FILE *err = tmpfile();
    assert_non_null(err);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fileno(err), STDERR_FILENO);
        fn(arg);
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (WIFEXITED(status))
        o.code = WEXITSTATUS(status);
    rewind(err);
    size_t n = fread(o.err, 1, sizeof o.err - 1, err);
    o.err[n] = '\0';
    fclose(err);
    return o;
}

static char *sample_path(const char *rel)
{
    const char *dir = getenv("TL_SOURCE_DIR");
    return tl_xasprintf("%s/%s", dir && *dir ? dir : ".", rel);
}

/* ---- the helpers themselves ---- */

static void fail_first(const void *arg)
{
    (void)arg;
    tl_xalloc_fail_after(0);
    tl_xmalloc(100);
}

static void overflow(const void *arg)
{
    (void)arg;
    tl_xcalloc(SIZE_MAX / 2, 4);
}

static void exit_code_and_message(void **state)
{
    (void)state;
    outcome o = in_child(fail_first, NULL);
    assert_int_equal(o.code, 2);
    assert_string_equal(o.err, OOM_MESSAGE " (allocating 100 bytes)\n");
    o = in_child(overflow, NULL); /* n x size beyond size_t is out of memory too */
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, OOM_MESSAGE " (allocating 18446744073709551615 bytes)"));
}

static void helpers(void **state)
{
    (void)state;
    char *e = tl_xstrdup(NULL), *d = tl_xstrndup("abcdef", 3);
    char *f = tl_xasprintf("%d-%s", 42, "x");
    assert_string_equal(e, "");
    assert_string_equal(d, "abc");
    assert_string_equal(f, "42-x");
    void *z = tl_xmalloc(0), *c = tl_xcalloc(0, 8); /* distinct, freeable, never NULL */
    assert_non_null(z);
    assert_non_null(c);
    assert_ptr_not_equal(z, c);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = tl_xmemstream(&buf, &len);
    fputs("memory", m);
    tl_xmemstream_close(m);
    assert_string_equal(buf, "memory");
    assert_int_equal(tl_xalloc_fail_after(5), -1); /* it was off */
    free(tl_xmalloc(1));
    assert_int_equal(tl_xalloc_fail_after(-1), 4); /* one of the five used */
    free(buf);
    free(z);
    free(c);
    free(f);
    free(d);
    free(e);
}

/* tl_xgrow: twice the capacity, min_cap from none, need when more. */
static void grow(void **state)
{
    (void)state;
    int64_t *v = NULL;
    int cap = 0;
    tl_xgrow(v, &cap, 1, 16);
    assert_int_equal(cap, 16);
    v[15] = 7;
    tl_xgrow(v, &cap, 16, 16); /* room already: nothing changes */
    assert_int_equal(cap, 16);
    tl_xgrow(v, &cap, 17, 16);
    assert_int_equal(cap, 32);
    assert_int_equal(v[15], 7); /* kept */
    tl_xgrow(v, &cap, 100, 16);
    assert_int_equal(cap, 100);
    char *b = NULL;
    size_t bcap = 0;
    tl_xgrow(b, &bcap, 5000, 4096);
    assert_int_equal(bcap, 5000);
    unsigned ucap = 0;
    int *u = NULL;
    tl_xgrow(u, &ucap, 3, 0);
    assert_int_equal(ucap, 3);
    free(u);
    free(b);
    free(v);
}

static void grow_past_int(const void *arg)
{
    (void)arg;
    char *p = NULL;
    int cap = 0;
    tl_xgrow(p, &cap, (size_t)INT_MAX + 1, 16); /* an int cannot count it */
}

static void grow_past_size(const void *arg)
{
    (void)arg;
    int64_t *p = NULL;
    size_t cap = 0;
    tl_xgrow(p, &cap, SIZE_MAX / 4, 16); /* its bytes overflow size_t */
}

static void grow_out_of_memory(void **state)
{
    (void)state;
    outcome o = in_child(grow_past_int, NULL);
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, OOM_MESSAGE));
    o = in_child(grow_past_size, NULL);
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, OOM_MESSAGE));
}

/* ---- the analysis, as the tool runs it ---- */

typedef struct run {
    const char *path;
    int64_t fail_after; /* -1: count the helpers' allocations instead */
    int count_fd;       /* where the count goes */
} run;

/* What `report`, `report --format=json`, `check --format=sarif`, `graph`
 * and `lifetimes` do with path, the output kept in memory. */
static void analyse(const void *arg)
{
    const run *a = arg;
    tl_xalloc_fail_after(a->fail_after < 0 ? INT64_MAX : a->fail_after);
    ir_unit *u = NULL;
    if (fe_parse_file(a->path, 0, NULL, &u) != FE_OK)
        _exit(3);
    an_report *r = an_analyze(u, NULL);
    ck_run(r, NULL);
    char *text = NULL, *dot = NULL;
    size_t len = 0;
    FILE *out = tl_xmemstream(&text, &len);
    rp_report_write_text(out, r, &(rp_text_options){0});
    rp_report_write_json(out, r);
    ck_sarif_file file = {u->path, r->n_diags, r->diags};
    ck_sarif_options so = {NULL, "docs/checks/", "0"};
    json_decref(ck_sarif_log(&file, 1, &so));
    const an_func_report *f = dg_pick_function(r, NULL);
    dg_ctx *c = dg_ctx_new();
    dg_graph_options go;
    dg_life_options lo;
    dg_graph_options_default(&go);
    dg_life_options_default(&lo);
    if (f && dg_graph_render(c, r, f, &go, DG_FORMAT_DOT, &dot, &len) != DG_OK)
        _exit(4);
    if (f)
        dg_lifetimes_text(out, r, f, &lo);
    tl_xmemstream_close(out);
    if (a->fail_after < 0) {
        int64_t used = INT64_MAX - tl_xalloc_fail_after(-1);
        if (write(a->count_fd, &used, sizeof used) != sizeof used)
            _exit(5);
    }
}

/* How many allocations of the helpers one analysis of path makes. */
static int64_t allocations(const char *path)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    run a = {path, -1, fds[1]};
    outcome o = in_child(analyse, &a);
    assert_int_equal(o.code, 0);
    int64_t n = 0;
    assert_int_equal(read(fds[0], &n, sizeof n), sizeof n);
    close(fds[0]);
    close(fds[1]);
    return n;
}

static void sweep(const char *rel)
{
    char *path = sample_path(rel);
    int64_t total = allocations(path);
    assert_true(total > 100);
    int n_runs = 0;
    for (int64_t n = 0; n <= total; n = n < 16 ? n + 1 : n + n / 8, n_runs++) {
        run a = {path, n, -1};
        outcome o = in_child(analyse, &a);
        if (o.code != 2 || !strstr(o.err, OOM_MESSAGE))
            fail_msg("%s, allocation %lld of %lld refused: exit %d, stderr:\n%s", rel,
                     (long long)n, (long long)total, o.code, o.err);
    }
    run last = {path, total - 1, -1}, enough = {path, total, -1};
    assert_int_equal(in_child(analyse, &last).code, 2);
    assert_int_equal(in_child(analyse, &enough).code, 0);
    print_message("%s: %lld allocations, %d of them refused in turn\n", rel, (long long)total,
                  n_runs + 1);
    free(path);
}

static void analysis_everywhere(void **state)
{
    (void)state;
    sweep("samples/worksheet/block2.c"); /* hidden copies: notes and fix-its */
    sweep("tests/checks/symbolic_sizes.c"); /* sizes read at run time: the symbolic domain */
}

/* ---- the driver's -o FILE ---- */

static void oom_while_writing(const void *arg)
{
    cli_out co;
    FILE *out = cli_out_open(&co, "report", arg, stdout);
    if (!out)
        _exit(3);
    fputs("half a report\n", out);
    fflush(out);
    tl_xalloc_fail_after(0);
    tl_xmalloc(1);
}

/* Out of memory while -o FILE is being written leaves FILE as it was and
 * no temporary file beside it. */
static void output_file_kept(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR");
    char *dir = tl_xasprintf("%s/test_oom-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
    char *path = tl_xasprintf("%s/report.txt", dir);
    FILE *f = fopen(path, "w");
    fputs("precious\n", f);
    fclose(f);
    outcome o = in_child(oom_while_writing, path);
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, OOM_MESSAGE));
    char text[64] = "";
    f = fopen(path, "r");
    assert_non_null(fgets(text, sizeof text, f));
    fclose(f);
    assert_string_equal(text, "precious\n");
    DIR *d = opendir(dir);
    int n_files = 0;
    for (struct dirent *e; (e = readdir(d));)
        n_files += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(n_files, 1); /* report.txt alone */
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exit_code_and_message),
        cmocka_unit_test(helpers),
        cmocka_unit_test(grow),
        cmocka_unit_test(grow_out_of_memory),
        cmocka_unit_test(analysis_everywhere),
        cmocka_unit_test(output_file_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
