#define _GNU_SOURCE /* memmem, open_memstream */
/*
 * test_lsp_protocol.c: `tensorlint lsp` at the protocol level, over pipes:
 * framing (split writes, several messages per write, optional headers, bad
 * headers), JSON-RPC errors (bad JSON, invalid messages, unknown methods,
 * requests before initialize or after shutdown), cancellation, requests
 * about documents not open, the exit status, and the analysis behind it:
 * positions in UTF-16, incremental edits, debounced bursts published once
 * at their last version, a fix-it that removes its warning, NOLINT, and
 * the compile command's -D flags changing the answers.  Also the text
 * helpers (lsp_text.c) directly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "lsp_internal.h"
#include "lsp_pipe.h"

/* ---- the text helpers ---- */

static void test_text_positions(void **state)
{
    (void)state;
    const char *t = "ab\n/* \xF0\x9F\x98\x80 */ x\n\xC3\xA9y\n"; /* an emoji (4 bytes), é (2) */
    size_t n = strlen(t);
    /* 'x' is byte column 12 of line 2: UTF-16 character 9, UTF-8 11, UTF-32 8 */
    lsp_pos p = lsp_text_pos(t, n, 2, 12, LSP_UTF16);
    assert_int_equal(p.line, 1);
    assert_int_equal(p.character, 9);
    assert_int_equal(lsp_text_pos(t, n, 2, 12, LSP_UTF8).character, 11);
    assert_int_equal(lsp_text_pos(t, n, 2, 12, LSP_UTF32).character, 8);
    assert_int_equal(lsp_text_offset(t, n, (lsp_pos){1, 9}, LSP_UTF16), 3 + 11);
    assert_int_equal(lsp_text_offset(t, n, (lsp_pos){1, 8}, LSP_UTF32), 3 + 11);
    assert_int_equal(lsp_text_offset(t, n, (lsp_pos){2, 1}, LSP_UTF16), 3 + 13 + 2);
    /* past the end of a line clamps to it; past the last line to the text's end */
    assert_int_equal(lsp_text_offset(t, n, (lsp_pos){0, 99}, LSP_UTF16), 2);
    assert_int_equal(lsp_text_offset(t, n, (lsp_pos){99, 0}, LSP_UTF16), n);
    char *s = strdup("hello world");
    size_t len = strlen(s);
    lsp_text_replace(&s, &len, 6, 11, "there, you", 10);
    assert_string_equal(s, "hello there, you");
    free(s);
}

static void test_text_uris(void **state)
{
    (void)state;
    char *u = lsp_path_to_uri("/tmp/a b/c#d.c");
    assert_string_equal(u, "file:///tmp/a%20b/c%23d.c");
    char *p = lsp_uri_to_path(u);
    assert_string_equal(p, "/tmp/a b/c#d.c");
    assert_null(lsp_uri_to_path("untitled:Untitled-1"));
    free(u);
    free(p);
}

/* ---- framing and JSON-RPC ---- */

static void test_framing(void **state)
{
    (void)state;
    lsp_child *c = child_start(NULL);
    /* a header split across writes, with Content-Type and a lowercase name */
    const char *body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                       "\"params\":{\"capabilities\":{}}}";
    char msg[512];
    int n = snprintf(msg, sizeof msg, "content-length: %zu\r\nContent-Type: "
                     "application/vscode-jsonrpc; charset=utf-8\r\n\r\n%s", strlen(body), body);
    child_raw(c, msg, 10);
    usleep(50000);
    child_raw(c, msg + 10, (size_t)n - 10);
    json_t *r = child_reply(c, 1);
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(json_object_get(r, "result"), "capabilities"),
                            "positionEncoding")),
                        "utf-16");
    json_decref(r);
    /* two requests in one write, answered in order */
    const char *one = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope/one\"}";
    const char *other = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"nope/two\"}";
    char two[512];
    n = snprintf(two, sizeof two, "Content-Length: %zu\r\n\r\n%sContent-Length: %zu\r\n\r\n%s",
                 strlen(one), one, strlen(other), other);
    child_raw(c, two, (size_t)n);
    json_t *a = child_recv(c, 20000), *b = child_recv(c, 20000);
    assert_int_equal(json_integer_value(json_object_get(a, "id")), 2);
    assert_int_equal(json_integer_value(json_object_get(b, "id")), 3);
    assert_int_equal(reply_error(a), -32601);
    json_decref(a);
    json_decref(b);
    /* a header block without Content-Length: a parse error with a null id, then on */
    child_raw(c, "X-Nothing: 1\r\n\r\n", 16);
    r = child_recv(c, 20000);
    assert_int_equal(reply_error(r), -32700);
    assert_true(json_is_null(json_object_get(r, "id")));
    json_decref(r);
    child_raw(c, "Content-Length: -5\r\n\r\n", 22);
    r = child_recv(c, 20000);
    assert_int_equal(reply_error(r), -32700);
    json_decref(r);
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"shutdown\"}");
    r = child_reply(c, 4);
    assert_true(json_is_null(json_object_get(r, "result")));
    json_decref(r);
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    assert_int_equal(child_end(c), 0);
}

static void test_errors(void **state)
{
    (void)state;
    lsp_child *c = child_start(NULL);
    /* before initialize */
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"textDocument/hover\",\"params\":{}}");
    json_t *r = child_reply(c, 7);
    assert_int_equal(reply_error(r), -32002);
    json_decref(r);
    json_decref(child_initialize(c));
    /* bad JSON, then the server still answers */
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":");
    r = child_recv(c, 20000);
    assert_int_equal(reply_error(r), -32700);
    json_decref(r);
    /* not JSON-RPC: no version, an object as id, a number as method */
    child_send_text(c, "{\"id\":9,\"method\":\"shutdown\"}");
    r = child_reply(c, 9);
    assert_int_equal(reply_error(r), -32600);
    json_decref(r);
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"shutdown\"}");
    r = child_recv(c, 20000);
    assert_int_equal(reply_error(r), -32600);
    assert_true(json_is_null(json_object_get(r, "id")));
    json_decref(r);
    child_send_text(c, "[1,2]");
    r = child_recv(c, 20000);
    assert_int_equal(reply_error(r), -32600);
    json_decref(r);
    /* initialize twice; unknown method; bad params; a document not open */
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"initialize\",\"params\":{}}");
    r = child_reply(c, 10);
    assert_int_equal(reply_error(r), -32600);
    json_decref(r);
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"id\":\"s-11\",\"method\":\"textDocument/rename\"}");
    r = child_recv(c, 20000);
    assert_string_equal(json_string_value(json_object_get(r, "id")), "s-11");
    assert_int_equal(reply_error(r), -32601);
    json_decref(r);
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"textDocument/hover\","
                       "\"params\":{\"textDocument\":{\"uri\":\"file:///nowhere.c\"},"
                       "\"position\":{\"line\":0,\"character\":0}}}");
    r = child_reply(c, 12);
    assert_int_equal(reply_error(r), -32602);
    json_decref(r);
    /* a response to nothing, an unknown notification, a change to nothing: no reply */
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":null}");
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"method\":\"$/unknown\",\"params\":{}}");
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":"
                       "{\"textDocument\":{\"uri\":\"file:///x.c\",\"version\":2},"
                       "\"contentChanges\":[{\"text\":\"\"}]}}");
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"shutdown\"}");
    r = child_recv(c, 20000);
    assert_int_equal(json_integer_value(json_object_get(r, "id")), 13);
    json_decref(r);
    /* after shutdown, requests are invalid; exit then ends with 0 */
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"textDocument/hover\",\"params\":{}}");
    r = child_reply(c, 14);
    assert_int_equal(reply_error(r), -32600);
    json_decref(r);
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    assert_int_equal(child_end(c), 0);
}

static void test_exit_status(void **state)
{
    (void)state;
    lsp_child *c = child_start(NULL);
    json_decref(child_initialize(c));
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    assert_int_equal(child_end(c), 1); /* exit without shutdown */
    c = child_start(NULL);
    json_decref(child_initialize(c));
    assert_int_equal(child_end(c), 1); /* the input closed */
    const char *bad[] = {"--log=loud", NULL};
    c = child_start(bad);
    assert_int_equal(child_end(c), 2);
}

/* ---- the analysis behind the protocol ---- */

static const char program[] =
    "#include <tensorlint/tensor.h>\n"                                          /* 1 */
    "\n"                                                                         /* 2 */
    "#ifndef DEVICE\n"                                                           /* 3 */
    "#define DEVICE TL_CUDA\n"                                                   /* 4 */
    "#endif\n"                                                                   /* 5 */
    "\n"                                                                         /* 6 */
    "int main(void)\n"                                                           /* 7 */
    "{\n"                                                                        /* 8 */
    "    tl_tensor *x = tl_randn(TL_SHAPE(2, 4, 4096), TL_F32, DEVICE);\n"      /* 9 */
    "    tl_tensor *p = tl_permute(x, TL_DIMS(1, 0, 2));\n"                     /* 10 */
    "    /* \xF0\x9F\x98\x80 */ tl_tensor *q = tl_reshape(p, TL_SHAPE(4, 8192));\n" /* 11 */
    "    tl_tensor *z = tl_clone(tl_clone(q));\n"                                /* 12 */
    "    tl_release(z);\n"                                                       /* 13 */
    "    tl_release(q);\n"                                                       /* 14 */
    "    tl_release(x);\n"                                                       /* 15 */
    "    return 0;\n"                                                            /* 16 */
    "}\n";

typedef struct workdir {
    char dir[64];
    char path[128];
    char uri[160];
} workdir;

static void workdir_make(workdir *w)
{
    strcpy(w->dir, "/tmp/tl-lsp-test-XXXXXX");
    assert_non_null(mkdtemp(w->dir));
    snprintf(w->path, sizeof w->path, "%s/prog.c", w->dir);
    snprintf(w->uri, sizeof w->uri, "file://%s", w->path);
    FILE *f = fopen(w->path, "w");
    assert_non_null(f);
    fputs(program, f);
    fclose(f);
}

static void workdir_remove(workdir *w)
{
    char p[192];
    snprintf(p, sizeof p, "%s/compile_commands.json", w->dir);
    unlink(p);
    unlink(w->path);
    rmdir(w->dir);
}

static void open_doc(lsp_child *c, const workdir *w, const char *text, int version)
{
    child_send(c, json_pack("{s:s,s:s,s:{s:{s:s,s:s,s:i,s:s}}}", "jsonrpc", "2.0", "method",
                            "textDocument/didOpen", "params", "textDocument", "uri", w->uri,
                            "languageId", "c", "version", version, "text", text));
}

/* The diagnostic with this code in a publishDiagnostics, or NULL. */
static json_t *diag_with(json_t *pub, const char *code)
{
    json_t *d;
    size_t k;
    json_array_foreach(json_object_get(json_object_get(pub, "params"), "diagnostics"), k, d)
        if (strcmp(json_string_value(json_object_get(d, "code")), code) == 0)
            return d;
    return NULL;
}

static int pos_of(json_t *range, const char *which, const char *field)
{
    return (int)json_integer_value(json_object_get(json_object_get(range, which), field));
}

static json_t *hover(lsp_child *c, const workdir *w, int id, int line, int character)
{
    child_send(c, json_pack("{s:s,s:i,s:s,s:{s:{s:s},s:{s:i,s:i}}}", "jsonrpc", "2.0", "id", id,
                            "method", "textDocument/hover", "params", "textDocument", "uri",
                            w->uri, "position", "line", line, "character", character));
    return child_reply(c, id);
}

static const char *hover_text(json_t *r)
{
    return json_string_value(json_object_get(
        json_object_get(json_object_get(r, "result"), "contents"), "value"));
}

static void test_diagnostics_and_hover(void **state)
{
    (void)state;
    workdir w;
    workdir_make(&w);
    lsp_child *c = child_start(NULL);
    json_decref(child_initialize(c));
    open_doc(c, &w, program, 1);
    json_t *pub = child_diagnostics(c);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(pub, "params"), "version")), 1);
    json_t *d = diag_with(pub, "hidden-copy");
    assert_non_null(d);
    /* tl_reshape on line 11: byte column 31, UTF-16 character 28 (the emoji is 2 units) */
    json_t *range = json_object_get(d, "range");
    assert_int_equal(pos_of(range, "start", "line"), 10);
    assert_int_equal(pos_of(range, "start", "character"), 28);
    assert_int_equal(pos_of(range, "end", "character"), 28 + (int)strlen("tl_reshape(p, TL_SHAPE(4, 8192))"));
    assert_int_equal(json_integer_value(json_object_get(d, "severity")), 2);
    assert_non_null(strstr(json_string_value(json_object_get(json_object_get(d, "codeDescription"), "href")),
                           "hidden-copy.md"));
    json_t *rel = json_array_get(json_object_get(d, "relatedInformation"), 0);
    assert_non_null(strstr(json_string_value(json_object_get(rel, "message")), "tl_permute"));
    assert_int_equal(pos_of(json_object_get(json_object_get(rel, "location"), "range"), "start", "line"), 9);
    assert_non_null(diag_with(pub, "double-copy"));
    json_decref(pub);
    /* hover on q's target, on the call, on a later use */
    json_t *h = hover(c, &w, 20, 10, 24);
    assert_non_null(strstr(hover_text(h), "(4, 8192)"));
    assert_non_null(strstr(hover_text(h), "reshape copied"));
    assert_non_null(strstr(hover_text(h), "128 KiB"));
    assert_non_null(strstr(hover_text(h), "cuda"));
    assert_non_null(strstr(hover_text(h), ": peak ")); /* its function's totals, claims said */
    assert_non_null(strstr(hover_text(h), ", live at end "));
    assert_null(strstr(hover_text(h), "the peak is here")); /* (line 11 is not the peak's) */
    json_decref(h);
    h = hover(c, &w, 24, 11, 19); /* the peak's line: who is live there, largest first */
    assert_non_null(strstr(hover_text(h), "the peak is here; live: "));
    assert_non_null(strstr(hover_text(h), "x` 128 KiB") ? strstr(hover_text(h), "x` 128 KiB")
                                                       : strstr(hover_text(h), "x 128 KiB"));
    json_decref(h);
    h = hover(c, &w, 21, 9, 22); /* tl_permute */
    assert_non_null(strstr(hover_text(h), "view"));
    assert_non_null(strstr(hover_text(h), "(4096, 16384, 1)"));
    assert_non_null(strstr(hover_text(h), "keeps alive"));
    json_decref(h);
    h = hover(c, &w, 22, 13, 15); /* q in tl_release(q) */
    assert_non_null(strstr(hover_text(h), "tl_reshape"));
    json_decref(h);
    h = hover(c, &w, 23, 15, 5); /* "return": no tensor */
    assert_true(json_is_null(json_object_get(h, "result")));
    json_decref(h);
    child_shutdown(c, 24);
    workdir_remove(&w);
}

/* Sizes read at run time (an exported function's parameters): the hover and
 * the inlay hints give formulas, not "unknown", and so does the count of a
 * call in a loop that runs batch times. */
static const char *symbolic_program =
    "#include <tensorlint/tensor.h>\n"                                          /* 1 */
    "void layer(int batch, int dim)\n"                                          /* 2 */
    "{\n"                                                                       /* 3 */
    "    tl_tensor *x = tl_randn(TL_SHAPE(batch, dim), TL_F32, TL_CPU);\n"      /* 4 */
    "    tl_tensor *t = tl_transpose(x, 0, 1);\n"                               /* 5 */
    "    tl_release(t);\n"                                                      /* 6 */
    "    for (int i = 0; i < batch; i++) {\n"                                   /* 7 */
    "        tl_tensor *r = tl_select(x, 0, i);\n"                              /* 8 */
    "        tl_release(r);\n"                                                  /* 9 */
    "    }\n"                                                                   /* 10 */
    "    tl_release(x);\n"                                                      /* 11 */
    "}\n";

static void test_symbolic_sizes(void **state)
{
    (void)state;
    workdir w;
    workdir_make(&w);
    lsp_child *c = child_start(NULL);
    json_decref(child_initialize(c));
    open_doc(c, &w, symbolic_program, 1);
    json_decref(child_diagnostics(c));
    json_t *h = hover(c, &w, 30, 3, 16); /* x */
    assert_non_null(strstr(hover_text(h), "(batch, dim)"));
    assert_non_null(strstr(hover_text(h), "4*batch*dim B"));
    assert_null(strstr(hover_text(h), "unknown"));
    json_decref(h);
    h = hover(c, &w, 31, 4, 16); /* t, a view */
    assert_non_null(strstr(hover_text(h), "(dim, batch)")); /* shape; strides (1, dim) */
    assert_non_null(strstr(hover_text(h), "(1, dim)"));
    assert_non_null(strstr(hover_text(h), "view"));
    json_decref(h);
    h = hover(c, &w, 34, 7, 19); /* r, in the loop: the times it runs, not the probes' */
    assert_non_null(strstr(hover_text(h), "runs batch times"));
    json_decref(h);
    child_send(c, json_pack("{s:s,s:i,s:s,s:{s:{s:s},s:{s:{s:i,s:i},s:{s:i,s:i}}}}", "jsonrpc",
                            "2.0", "id", 32, "method", "textDocument/inlayHint", "params",
                            "textDocument", "uri", w.uri, "range", "start", "line", 0,
                            "character", 0, "end", "line", 5, "character", 0));
    json_t *r = child_reply(c, 32);
    json_t *hints = json_object_get(r, "result");
    assert_int_equal(json_array_size(hints), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(hints, 0), "label")),
                        "(batch, dim) f32, new 4*batch*dim B");
    json_decref(r);
    child_shutdown(c, 33);
    workdir_remove(&w);
}

/* Apply the first action titled with prefix, for check, as an incremental didChange. */
static void apply_action(lsp_child *c, const workdir *w, json_t *actions, const char *prefix,
                         const char *check, int version)
{
    json_t *a, *pick = NULL;
    size_t k;
    json_array_foreach(actions, k, a) {
        const char *code = json_string_value(
            json_object_get(json_array_get(json_object_get(a, "diagnostics"), 0), "code"));
        if (!pick && strncmp(json_string_value(json_object_get(a, "title")), prefix,
                             strlen(prefix)) == 0 && strcmp(code, check) == 0)
            pick = a;
    }
    assert_non_null(pick);
    json_t *edits = json_object_get(json_object_get(json_object_get(pick, "edit"), "changes"), w->uri);
    assert_true(json_array_size(edits) > 0);
    json_t *changes = json_array();
    for (size_t e = json_array_size(edits); e-- > 0;) /* last first: earlier ranges stay valid */
        json_array_append_new(changes, json_pack("{s:O,s:O}", "range",
                                             json_object_get(json_array_get(edits, e), "range"),
                                             "text",
                                             json_object_get(json_array_get(edits, e), "newText")));
    child_send(c, json_pack("{s:s,s:s,s:{s:{s:s,s:i},s:o}}", "jsonrpc", "2.0", "method",
                            "textDocument/didChange", "params", "textDocument", "uri", w->uri,
                            "version", version, "contentChanges", changes));
}

static json_t *code_actions(lsp_child *c, const workdir *w, int id, int line)
{
    child_send(c, json_pack("{s:s,s:i,s:s,s:{s:{s:s},s:{s:{s:i,s:i},s:{s:i,s:i}},s:{s:[]}}}",
                            "jsonrpc", "2.0", "id", id, "method", "textDocument/codeAction",
                            "params", "textDocument", "uri", w->uri, "range", "start", "line",
                            line, "character", 0, "end", "line", line, "character", 0,
                            "context", "diagnostics"));
    json_t *r = child_reply(c, id);
    json_t *res = json_incref(json_object_get(r, "result"));
    json_decref(r);
    return res;
}

static void test_fixes_and_bursts(void **state)
{
    (void)state;
    workdir w;
    workdir_make(&w);
    const char *slow[] = {"--debounce=300", NULL};
    lsp_child *c = child_start(slow);
    json_decref(child_initialize(c));
    open_doc(c, &w, program, 1);
    json_decref(child_diagnostics(c));
    /* the fix-it of double-copy removes it */
    json_t *acts = code_actions(c, &w, 30, 11);
    apply_action(c, &w, acts, "Fix", "double-copy", 2);
    json_decref(acts);
    json_t *pub = child_diagnostics(c);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(pub, "params"), "version")), 2);
    assert_null(diag_with(pub, "double-copy"));
    assert_non_null(diag_with(pub, "hidden-copy"));
    json_decref(pub);
    /* NOLINT removes the hidden copy's warning */
    acts = code_actions(c, &w, 31, 10);
    apply_action(c, &w, acts, "Suppress", "hidden-copy", 3);
    json_decref(acts);
    pub = child_diagnostics(c);
    assert_null(diag_with(pub, "hidden-copy"));
    json_decref(pub);
    /* a burst: versions 4, 5, 6 in one write within the debounce: one publish, of 6 */
    char *burst = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&burst, &len);
    for (int v = 4; v <= 6; v++) {
        json_t *m = json_pack("{s:s,s:s,s:{s:{s:s,s:i},s:[{s:s}]}}", "jsonrpc", "2.0", "method",
                              "textDocument/didChange", "params", "textDocument", "uri", w.uri,
                              "version", v, "contentChanges", "text", program);
        char *b = json_dumps(m, JSON_COMPACT);
        fprintf(f, "Content-Length: %zu\r\n\r\n%s", strlen(b), b);
        free(b);
        json_decref(m);
    }
    fclose(f);
    child_raw(c, burst, len);
    free(burst);
    pub = child_diagnostics(c);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(pub, "params"), "version")), 6);
    assert_non_null(diag_with(pub, "hidden-copy")); /* the original text again */
    json_decref(pub);
    assert_null(child_recv(c, 500)); /* and nothing else */
    /* a change and a hover in one write, within the debounce: the hover describes the
     * new text, and the diagnostics published are of the new version */
    char *edited = strdup(program);
    char *shape = strstr(edited, "TL_SHAPE(4, 8192)");
    memcpy(shape, "TL_SHAPE(8, 4096)", 17);
    json_t *chg = json_pack("{s:s,s:s,s:{s:{s:s,s:i},s:[{s:s}]}}", "jsonrpc", "2.0", "method",
                            "textDocument/didChange", "params", "textDocument", "uri", w.uri,
                            "version", 7, "contentChanges", "text", edited);
    json_t *hov = json_pack("{s:s,s:i,s:s,s:{s:{s:s},s:{s:i,s:i}}}", "jsonrpc", "2.0", "id", 39,
                            "method", "textDocument/hover", "params", "textDocument", "uri",
                            w.uri, "position", "line", 10, "character", 24);
    char *b1 = json_dumps(chg, JSON_COMPACT), *b2 = json_dumps(hov, JSON_COMPACT);
    size_t both_len = strlen(b1) + strlen(b2) + 64;
    char *both = malloc(both_len);
    int nb = snprintf(both, both_len, "Content-Length: %zu\r\n\r\n%sContent-Length: %zu\r\n\r\n%s",
                      strlen(b1), b1, strlen(b2), b2);
    child_raw(c, both, (size_t)nb);
    free(both);
    free(b1);
    free(b2);
    json_decref(chg);
    json_decref(hov);
    free(edited);
    bool hovered = false, published7 = false;
    while (!hovered || !published7) {
        json_t *m = child_recv(c, 20000);
        assert_non_null(m);
        json_t *params = json_object_get(m, "params");
        if (json_integer_value(json_object_get(m, "id")) == 39) {
            assert_non_null(strstr(hover_text(m), "(8, 4096)"));
            hovered = true;
        } else if (params) {
            assert_int_equal(json_integer_value(json_object_get(params, "version")), 7);
            published7 = true;
        }
        json_decref(m);
    }
    /* a hover and its cancellation in one write: cancelled */
    const char *hv = "{\"jsonrpc\":\"2.0\",\"id\":40,\"method\":\"textDocument/hover\","
                     "\"params\":{\"textDocument\":{\"uri\":\"file:///x\"},"
                     "\"position\":{\"line\":1,\"character\":1}}}";
    const char *cancel = "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":40}}";
    char hc[512];
    int n = snprintf(hc, sizeof hc, "Content-Length: %zu\r\n\r\n%sContent-Length: %zu\r\n\r\n%s",
                     strlen(hv), hv, strlen(cancel), cancel);
    child_raw(c, hc, (size_t)n);
    json_t *r = child_reply(c, 40);
    assert_int_equal(reply_error(r), -32800);
    json_decref(r);
    /* close clears the diagnostics */
    child_send(c, json_pack("{s:s,s:s,s:{s:{s:s}}}", "jsonrpc", "2.0", "method",
                            "textDocument/didClose", "params", "textDocument", "uri", w.uri));
    pub = child_diagnostics(c);
    assert_int_equal(json_array_size(json_object_get(json_object_get(pub, "params"), "diagnostics")), 0);
    json_decref(pub);
    child_shutdown(c, 41);
    workdir_remove(&w);
}

/* compile_commands.json in build/ beside the file: its -DDEVICE=TL_CPU changes the device;
 * --compile-commands-dir finds it where the search does not look. */
static void test_compile_commands(void **state)
{
    (void)state;
    workdir w;
    workdir_make(&w);
    /* in build/ next to the file, the command run from there */
    char db[192], build[160];
    snprintf(build, sizeof build, "%s/build", w.dir);
    snprintf(db, sizeof db, "%s/compile_commands.json", build);
    assert_int_equal(mkdir(build, 0700), 0);
    FILE *f = fopen(db, "w");
    assert_non_null(f);
    fprintf(f, "[{\"directory\":\"%s\",\"file\":\"../prog.c\",\"command\":\"cc -DDEVICE=TL_CPU "
               "-c ../prog.c\"}]\n", build);
    fclose(f);
    lsp_child *c = child_start(NULL);
    json_decref(child_initialize(c));
    open_doc(c, &w, program, 1);
    json_decref(child_diagnostics(c));
    json_t *h = hover(c, &w, 50, 8, 15);
    assert_non_null(strstr(hover_text(h), "cpu"));
    assert_null(strstr(hover_text(h), "cuda"));
    json_decref(h);
    child_shutdown(c, 51);
    /* --compile-commands-dir: the same database in a directory the search does not try */
    char other[160], moved[192];
    snprintf(other, sizeof other, "%s/elsewhere", w.dir);
    snprintf(moved, sizeof moved, "%s/compile_commands.json", other);
    assert_int_equal(mkdir(other, 0700), 0);
    assert_int_equal(rename(db, moved), 0);
    for (int with = 0; with < 2; with++) {
        const char *args[] = {"--compile-commands-dir", other, NULL};
        c = child_start(with ? args : NULL);
        json_decref(child_initialize(c));
        open_doc(c, &w, program, 1);
        json_decref(child_diagnostics(c));
        h = hover(c, &w, 52, 8, 15);
        assert_non_null(strstr(hover_text(h), with ? "cpu" : "cuda"));
        json_decref(h);
        assert_int_equal(child_end(c), 1);
    }
    unlink(moved);
    rmdir(other);
    rmdir(build);
    workdir_remove(&w);
}

/* A hover whose analysis is under way when its cancellation arrives: cancelled; the
 * analysis still publishes its diagnostics. */
static void test_cancel_during_analysis(void **state)
{
    (void)state;
    workdir w;
    workdir_make(&w);
    char *big = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&big, &len);
    fputs("#include <tensorlint/tensor.h>\nint main(void)\n{\n"
          "    tl_tensor *x = tl_randn(TL_SHAPE(64, 64), TL_F32, TL_CPU);\n", f);
    for (int k = 0; k < 1500; k++)
        fprintf(f, "    tl_tensor *a%d = tl_add(x, x);\n    tl_release(a%d);\n", k, k);
    fputs("    tl_release(x);\n    return 0;\n}\n", f);
    fclose(f);
    const char *args[] = {"--debounce=10000", NULL};
    lsp_child *c = child_start(args);
    json_decref(child_initialize(c));
    open_doc(c, &w, big, 1);
    json_decref(child_diagnostics(c));
    big[strlen(big) - 3] = ' '; /* "0;\n}" becomes "0 \n}": an edit that keeps it valid */
    big[strlen(big) - 4] = ';';
    json_t *chg = json_pack("{s:s,s:s,s:{s:{s:s,s:i},s:[{s:s}]}}", "jsonrpc", "2.0", "method",
                            "textDocument/didChange", "params", "textDocument", "uri", w.uri,
                            "version", 2, "contentChanges", "text", big);
    child_send(c, chg);
    child_send(c, json_pack("{s:s,s:i,s:s,s:{s:{s:s},s:{s:i,s:i}}}", "jsonrpc", "2.0", "id", 60,
                            "method", "textDocument/hover", "params", "textDocument", "uri",
                            w.uri, "position", "line", 3, "character", 16));
    usleep(20000); /* the analysis of 3,000 lines takes far longer */
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":60}}");
    bool replied = false, published = false; /* the publish comes first: the hover analysed */
    while (!replied || !published) {
        json_t *m = child_recv(c, 20000);
        assert_non_null(m);
        json_t *params = json_object_get(m, "params");
        if (json_integer_value(json_object_get(m, "id")) == 60) {
            assert_int_equal(reply_error(m), -32800);
            replied = true;
        } else if (params) {
            assert_int_equal(json_integer_value(json_object_get(params, "version")), 2);
            published = true;
        }
        json_decref(m);
    }
    free(big);
    assert_int_equal(child_end(c), 1);
    workdir_remove(&w);
}


/* The formulas of a document's report stay its own: after an edit (the new
 * report is made before the old one is freed) and after another document is
 * analysed, the hovers and hints still read them. */
static const char *other_symbolic_program =
    "#include <tensorlint/tensor.h>\n"                                          /* 1 */
    "void block(int rows, int cols, int depth)\n"                               /* 2 */
    "{\n"                                                                       /* 3 */
    "    tl_tensor *a = tl_zeros(TL_SHAPE(depth, rows, cols), TL_F16, TL_CPU);\n" /* 4 */
    "    tl_tensor *b = tl_sum(a, 0, false);\n"                                 /* 5 */
    "    tl_release(b);\n"                                                      /* 6 */
    "    tl_release(a);\n"                                                      /* 7 */
    "}\n";

static void change_doc(lsp_child *c, const workdir *w, const char *text, int version)
{
    child_send(c, json_pack("{s:s,s:s,s:{s:{s:s,s:i},s:[{s:s}]}}", "jsonrpc", "2.0", "method",
                            "textDocument/didChange", "params", "textDocument", "uri", w->uri,
                            "version", version, "contentChanges", "text", text));
}

static void assert_x_hover(lsp_child *c, const workdir *w, int id)
{
    json_t *h = hover(c, w, id, 3, 16); /* x */
    assert_non_null(hover_text(h));
    assert_non_null(strstr(hover_text(h), "(batch, dim)"));
    assert_non_null(strstr(hover_text(h), "4*batch*dim B"));
    json_decref(h);
}

static void test_symbolic_after_edit(void **state)
{
    (void)state;
    workdir w, w2;
    workdir_make(&w);
    workdir_make(&w2);
    lsp_child *c = child_start(NULL);
    json_decref(child_initialize(c));
    open_doc(c, &w, symbolic_program, 1);
    json_decref(child_diagnostics(c));
    assert_x_hover(c, &w, 40);
    size_t n = strlen(symbolic_program);
    char *edited = malloc(n + 32);
    assert_non_null(edited);
    memcpy(edited, symbolic_program, n);
    strcpy(edited + n, "/* edited */\n");
    for (int v = 2; v <= 3; v++) { /* two edits: each report made before the last is freed */
        change_doc(c, &w, v == 2 ? edited : symbolic_program, v);
        json_decref(child_diagnostics(c));
        assert_x_hover(c, &w, 40 + v);
    }
    open_doc(c, &w2, other_symbolic_program, 1); /* another document's analysis */
    json_decref(child_diagnostics(c));
    json_t *h = hover(c, &w2, 44, 3, 16); /* a */
    assert_non_null(strstr(hover_text(h), "(depth, rows, cols)"));
    assert_non_null(strstr(hover_text(h), "2*depth*rows*cols B"));
    json_decref(h);
    assert_x_hover(c, &w, 45); /* the first document's formulas, not the second's */
    child_send(c, json_pack("{s:s,s:i,s:s,s:{s:{s:s},s:{s:{s:i,s:i},s:{s:i,s:i}}}}", "jsonrpc",
                            "2.0", "id", 46, "method", "textDocument/inlayHint", "params",
                            "textDocument", "uri", w.uri, "range", "start", "line", 0,
                            "character", 0, "end", "line", 5, "character", 0));
    json_t *r = child_reply(c, 46);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(json_object_get(r, "result"), 0), "label")),
                        "(batch, dim) f32, new 4*batch*dim B");
    json_decref(r);
    free(edited);
    child_shutdown(c, 47);
    workdir_remove(&w2);
    workdir_remove(&w);
}


/* Valid JSON the server must take: "\u0000" in a document's text, and lone
 * surrogates (an editor cutting a UTF-16 pair), read as U+FFFD; the text is
 * analysed and hovered, no -32700. */
static void test_unusual_json(void **state)
{
    (void)state;
    workdir w;
    workdir_make(&w);
    lsp_child *c = child_start(NULL);
    json_decref(child_initialize(c));
    char open[1024];
    int n = snprintf(open, sizeof open,
                 "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":"
                 "{\"textDocument\":{\"uri\":\"%s\",\"languageId\":\"c\",\"version\":1,\"text\":"
                 "\"#include <tensorlint/tensor.h>\\n"
                 "/* \\u0000 \\ud800 \\udc00x \\ud83d\\ude00 \\\\ud800 */\\n"
                 "int main(void)\\n{\\n"
                 "    tl_tensor *x = tl_zeros(TL_SHAPE(4, 8), TL_F32, TL_CPU);\\n"
                 "    tl_release(x);\\n    return 0;\\n}\\n\"}}}",
                 w.uri);
    assert_true(n > 0 && n < (int)sizeof open);
    child_send_text(c, open);
    json_t *pub = child_diagnostics(c);
    assert_string_equal(json_string_value(json_object_get(json_object_get(pub, "params"), "uri")),
                        w.uri);
    json_decref(pub);
    json_t *h = hover(c, &w, 50, 4, 16); /* x */
    assert_non_null(hover_text(h));
    assert_non_null(strstr(hover_text(h), "(4, 8)"));
    json_decref(h);
    child_shutdown(c, 51);
    workdir_remove(&w);
}

/* A client that closes its end: the server's next write fails, and it exits
 * (status 1, no exit notification) instead of dying of SIGPIPE. */
static void test_client_gone(void **state)
{
    (void)state;
    workdir w;
    workdir_make(&w);
    lsp_child *c = child_start(NULL);
    json_decref(child_initialize(c));
    close(c->from);
    c->from = open("/dev/null", O_RDONLY); /* child_end closes it */
    open_doc(c, &w, program, 1);           /* its diagnostics cannot be written */
    int status;
    assert_int_equal(waitpid(c->pid, &status, 0), c->pid); /* it leaves by itself */
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
    close(c->to);
    close(c->from);
    free(c);
    workdir_remove(&w);
}


/* ---- a document of a compile database's program ---- */

static const char prog_main[] =
    "#include <tensorlint/tensor.h>\n"                                 /* 1 */
    "void drop(tl_tensor *t);\n"                                       /* 2 */
    "static void step(void)\n"                                         /* 3 */
    "{\n"                                                              /* 4 */
    "    tl_tensor *x = tl_zeros(TL_SHAPE(1024), TL_F32, TL_CPU);\n"  /* 5 */
    "    drop(x);\n"                                                   /* 6 */
    "}\n"                                                              /* 7 */
    "int main(void)\n"
    "{\n"
    "    step();\n"
    "    return 0;\n"
    "}\n";
static const char prog_main_keeps[] = /* main.c edited: x is never released */
    "#include <tensorlint/tensor.h>\n"
    "void drop(tl_tensor *t);\n"
    "static void step(void)\n"
    "{\n"
    "    tl_tensor *x = tl_zeros(TL_SHAPE(1024), TL_F32, TL_CPU);\n"
    "    (void)x;\n"
    "}\n"
    "int main(void)\n"
    "{\n"
    "    step();\n"
    "    return 0;\n"
    "}\n";
static const char prog_lib[] =
    "#include <tensorlint/tensor.h>\n"
    "void drop(tl_tensor *t)\n"
    "{\n"
    "    tl_release(t);\n"
    "}\n";
static const char prog_lib_keeps[] = /* unsaved text of lib.c: drop releases nothing */
    "#include <tensorlint/tensor.h>\n"
    "void drop(tl_tensor *t)\n"
    "{\n"
    "    (void)t;\n"
    "}\n";

typedef struct project {
    char dir[64], build[96], db[128], main_c[96], lib_c[96], log[96];
    char main_uri[128], lib_uri[128];
} project;

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void project_make(project *p)
{
    strcpy(p->dir, "/tmp/tl-lsp-prog-XXXXXX");
    assert_non_null(mkdtemp(p->dir));
    snprintf(p->build, sizeof p->build, "%s/build", p->dir);
    snprintf(p->db, sizeof p->db, "%s/compile_commands.json", p->build);
    snprintf(p->main_c, sizeof p->main_c, "%s/main.c", p->dir);
    snprintf(p->lib_c, sizeof p->lib_c, "%s/lib.c", p->dir);
    snprintf(p->log, sizeof p->log, "%s/server.log", p->dir);
    snprintf(p->main_uri, sizeof p->main_uri, "file://%s", p->main_c);
    snprintf(p->lib_uri, sizeof p->lib_uri, "file://%s", p->lib_c);
    assert_int_equal(mkdir(p->build, 0700), 0);
    put_file(p->main_c, prog_main);
    put_file(p->lib_c, prog_lib);
    char *db = NULL;
    assert_true(asprintf(&db, "[{\"directory\":\"%s\",\"file\":\"../main.c\",\"command\":\"cc -c "
                         "../main.c\"},{\"directory\":\"%s\",\"file\":\"../lib.c\",\"command\":"
                         "\"cc -c ../lib.c\"}]\n", p->build, p->build) > 0);
    put_file(p->db, db);
    free(db);
}

static void project_remove(project *p)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", p->dir);
    assert_int_equal(system(cmd), 0);
}

/* The server started with its log (--log=info) in p->log. */
static lsp_child *child_start_logged(const project *p, const char *const *extra)
{
    int keep = dup(2), fd = open(p->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(keep >= 0 && fd >= 0);
    dup2(fd, 2);
    lsp_child *c = child_start(extra);
    dup2(keep, 2);
    close(fd);
    close(keep);
    return c;
}

/* How many lines of the server's log hold needle. */
static int log_count(const project *p, const char *needle)
{
    FILE *f = fopen(p->log, "r");
    assert_non_null(f);
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strstr(line, needle) != NULL;
    fclose(f);
    return n;
}

static void open_uri(lsp_child *c, const char *uri, const char *text, int version)
{
    child_send(c, json_pack("{s:s,s:s,s:{s:{s:s,s:s,s:i,s:s}}}", "jsonrpc", "2.0", "method",
                            "textDocument/didOpen", "params", "textDocument", "uri", uri,
                            "languageId", "c", "version", version, "text", text));
}

static void change_uri(lsp_child *c, const char *uri, const char *text, int version)
{
    child_send(c, json_pack("{s:s,s:s,s:{s:{s:s,s:i},s:[{s:s}]}}", "jsonrpc", "2.0", "method",
                            "textDocument/didChange", "params", "textDocument", "uri", uri,
                            "version", version, "contentChanges", "text", text));
}

/* The next publishDiagnostics for uri. */
static json_t *diagnostics_of(lsp_child *c, const char *uri)
{
    for (;;) {
        json_t *m = child_diagnostics(c);
        if (strcmp(json_string_value(json_object_get(json_object_get(m, "params"), "uri")),
                   uri) == 0)
            return m;
        json_decref(m);
    }
}

static const char *hover_at(lsp_child *c, const char *uri, int id, int line, int ch,
                            json_t **keep)
{
    child_send(c, json_pack("{s:s,s:i,s:s,s:{s:{s:s},s:{s:i,s:i}}}", "jsonrpc", "2.0", "id", id,
                            "method", "textDocument/hover", "params", "textDocument", "uri", uri,
                            "position", "line", line, "character", ch));
    *keep = child_reply(c, id);
    return hover_text(*keep);
}

static void test_program_of_database(void **state)
{
    (void)state;
    project p;
    project_make(&p);
    const char *args[] = {"--log=info", NULL};
    lsp_child *c = child_start_logged(&p, args);
    json_decref(child_initialize(c));
    open_uri(c, p.main_uri, prog_main, 1);
    json_t *pub = diagnostics_of(c, p.main_uri);
    assert_null(diag_with(pub, "external-call")); /* drop() is followed into lib.c */
    assert_null(diag_with(pub, "leaked-tensor"));
    json_decref(pub);
    json_t *h;
    const char *t = hover_at(c, p.main_uri, 60, 4, 16, &h); /* tl_zeros: 1024 floats */
    assert_non_null(strstr(t, "4 KiB"));
    assert_non_null(strstr(t, "line 4 of lib.c")); /* released in lib.c, its line 4 */
    assert_non_null(strstr(t, "in step: peak 4 KiB, live at end 0 B"));
    json_decref(h);
    /* inlay hints in the document's own lines: x's on line 5 (0-based 4), none of lib.c's */
    child_send(c, json_pack("{s:s,s:i,s:s,s:{s:{s:s},s:{s:{s:i,s:i},s:{s:i,s:i}}}}", "jsonrpc",
                            "2.0", "id", 62, "method", "textDocument/inlayHint", "params",
                            "textDocument", "uri", p.main_uri, "range", "start", "line", 0,
                            "character", 0, "end", "line", 100, "character", 0));
    h = child_reply(c, 62);
    json_t *hints = json_object_get(h, "result");
    assert_int_equal(json_array_size(hints), 1);
    json_t *hint = json_array_get(hints, 0);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(hint, "position"), "line")), 4);
    assert_string_equal(json_string_value(json_object_get(hint, "label")), "(1024,) f32, new 4 KiB");
    json_decref(h);
    /* an edit re-parses the edited unit only: lib.c comes from its capture */
    change_uri(c, p.main_uri, prog_main_keeps, 2);
    pub = diagnostics_of(c, p.main_uri);
    assert_non_null(diag_with(pub, "leaked-tensor"));
    json_decref(pub);
    /* lib.c's unsaved text wins over its file */
    open_uri(c, p.lib_uri, prog_lib_keeps, 1);
    json_decref(diagnostics_of(c, p.lib_uri));
    change_uri(c, p.main_uri, prog_main, 3);
    pub = diagnostics_of(c, p.main_uri);
    assert_non_null(diag_with(pub, "leaked-tensor"));
    json_decref(pub);
    child_shutdown(c, 61);
    /* opened: both parsed (no capture yet; lib.c's written); main.c edited: lib.c read;
     * lib.c opened, main.c edited again: both open documents parsed from their texts */
    assert_int_equal(log_count(&p, "program of 2 units: captures: 0 read, 2 parsed"), 3);
    assert_int_equal(log_count(&p, "program of 2 units: captures: 1 read, 1 parsed"), 1);
    assert_int_equal(log_count(&p, "program of 2 units: captures:"), 4);
    project_remove(&p);
}

/* A database whose units are several programs (lib.c, a tool, defines main
 * too): not one program; the document is analysed alone, as one without a
 * database (drop is an external call), never "not analysed". */
static void test_database_of_several_programs(void **state)
{
    (void)state;
    project p;
    project_make(&p);
    put_file(p.lib_c, "#include <tensorlint/tensor.h>\n"
                      "void drop(tl_tensor *t) { tl_release(t); }\n"
                      "int main(void) { return 0; }\n");
    const char *args[] = {"--log=info", NULL};
    lsp_child *c = child_start_logged(&p, args);
    json_decref(child_initialize(c));
    open_uri(c, p.main_uri, prog_main, 1);
    json_t *pub = diagnostics_of(c, p.main_uri);
    assert_null(diag_with(pub, "not-analysed"));
    assert_non_null(diag_with(pub, "external-call"));
    json_decref(pub);
    child_shutdown(c, 61);
    assert_int_equal(log_count(&p, "its database's units are several programs"), 1);
    project_remove(&p);
}

/* The program's IR breaks an invariant (a unit's own IR does not read back,
 * injected): the server logs it and analyses the document alone, never
 * dying (it called abort() before). */
static void test_program_readback_fault(void **state)
{
    (void)state;
    project p;
    project_make(&p);
    const char *args[] = {"--log=info", NULL};
    setenv("TENSORLINT_TEST_READBACK_FAULT", "2", 1);
    lsp_child *c = child_start_logged(&p, args);
    unsetenv("TENSORLINT_TEST_READBACK_FAULT");
    json_decref(child_initialize(c));
    open_uri(c, p.main_uri, prog_main, 1);
    json_t *pub = diagnostics_of(c, p.main_uri);
    assert_null(diag_with(pub, "not-analysed"));
    assert_non_null(diag_with(pub, "external-call")); /* alone: drop() is not followed */
    json_decref(pub);
    json_t *h;
    const char *t = hover_at(c, p.main_uri, 63, 4, 16, &h);
    assert_non_null(strstr(t, "4 KiB"));
    json_decref(h);
    child_shutdown(c, 64);
    assert_int_equal(log_count(&p, "internal error of tensorlint"), 1);
    project_remove(&p);
}


/* The not-analysed diagnostic's message of the next publication for uri (to free). */
static char *not_analysed(lsp_child *c, const char *uri)
{
    json_t *pub = diagnostics_of(c, uri);
    json_t *d = diag_with(pub, "not-analysed");
    assert_non_null(d);
    char *m = strdup(json_string_value(json_object_get(d, "message")));
    json_decref(pub);
    return m;
}

/* A bad flag and a malformed database: said on the document as the commands
 * say them (the database, the entry from 1, its file), and logged. */
static void test_database_errors(void **state)
{
    (void)state;
    project p;
    project_make(&p);
    char *db = NULL, *want = NULL;
    assert_true(asprintf(&db, "[{\"directory\":\"%s\",\"file\":\"../main.c\",\"command\":\"cc -c "
                         "../main.c\"},{\"directory\":\"%s\",\"file\":\"../lib.c\",\"arguments\":"
                         "[\"cc\",\"-fbogus-flag\",\"-c\",\"../lib.c\"]}]\n", p.build, p.build) > 0);
    put_file(p.db, db);
    free(db);
    const char *args[] = {"--log=info", NULL};
    lsp_child *c = child_start_logged(&p, args);
    json_decref(child_initialize(c));
    open_uri(c, p.main_uri, prog_main, 1);
    char *m = not_analysed(c, p.main_uri);
    assert_true(asprintf(&want, "%s: entry 2 (%s): error: unknown argument: '-fbogus-flag'", p.db,
                         p.lib_c) > 0);
    assert_non_null(strstr(m, want));
    free(want);
    free(m);
    child_shutdown(c, 70);
    /* entry 2 lacks its directory: every document of the database is told */
    put_file(p.db, "[{\"directory\":\"/\",\"file\":\"main.c\",\"command\":\"cc -c main.c\"},"
                   "{\"file\":\"lib.c\",\"command\":\"cc -c lib.c\"}]\n");
    c = child_start_logged(&p, args);
    json_decref(child_initialize(c));
    open_uri(c, p.main_uri, prog_main, 1);
    m = not_analysed(c, p.main_uri);
    assert_true(asprintf(&want, "%s: entry 2 (lib.c) has no \"directory\" string", p.db) > 0);
    assert_non_null(strstr(m, want));
    free(m);
    child_shutdown(c, 71);
    assert_int_equal(log_count(&p, want), 2); /* loaded, and the analysis it stopped */
    free(want);
    put_file(p.db, "[{\"directory\": \n");
    c = child_start_logged(&p, args);
    json_decref(child_initialize(c));
    open_uri(c, p.main_uri, prog_main, 1);
    m = not_analysed(c, p.main_uri);
    assert_true(asprintf(&want, "not analysed: %s:", p.db) > 0); /* its line and column */
    assert_non_null(strstr(m, want));
    assert_non_null(strstr(m, ": not a valid compilation database: "));
    free(want);
    free(m);
    child_shutdown(c, 72);
    project_remove(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_positions),
        cmocka_unit_test(test_text_uris),
        cmocka_unit_test(test_framing),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_exit_status),
        cmocka_unit_test(test_diagnostics_and_hover),
        cmocka_unit_test(test_fixes_and_bursts),
        cmocka_unit_test(test_compile_commands),
        cmocka_unit_test(test_cancel_during_analysis),
        cmocka_unit_test(test_symbolic_sizes),
        cmocka_unit_test(test_symbolic_after_edit),
        cmocka_unit_test(test_unusual_json),
        cmocka_unit_test(test_client_gone),
        cmocka_unit_test(test_program_of_database),
        cmocka_unit_test(test_database_of_several_programs),
        cmocka_unit_test(test_program_readback_fault),
        cmocka_unit_test(test_database_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
