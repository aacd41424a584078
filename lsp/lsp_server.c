/*
 * lsp_server.c: the server's loop and its messages (LSP 3.17).
 *
 * One thread.  Each turn reads whatever input has arrived, frames every
 * complete message into a queue, and handles the queue in order; a request
 * whose $/cancelRequest is already in the queue is answered
 * RequestCancelled instead.  Only when no message is waiting does it
 * analyse: a changed document once it has been quiet for the debounce time
 * (so a burst of typing costs one analysis, of its last text), an opened
 * or saved one at once.  The wait for input times out at the next
 * document's due time, so the loop is deterministic given its input.  A
 * request about a document whose analysis is pending (hover, inlay hints,
 * code actions) analyses it first, so an answer never describes old text;
 * diagnostics are published only for the document's current version, so a
 * stale result can never replace a newer one.
 *
 * A request that analyses first reads what arrived meanwhile, so a
 * cancellation sent during the analysis is honoured too.
 *
 * JSON-RPC errors: -32700 a body that is not JSON, -32600 a message that is
 * not a request, notification or response (or a request after shutdown),
 * -32601 an unknown method, -32602 bad params, -32002 a request before
 * initialize, -32800 a cancelled request.  A malformed header block is
 * skipped and answered -32700 with a null id.  Logs go to stderr only.
 */
#include "lsp_internal.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#ifndef TL_VERSION
#define TL_VERSION "0"
#endif

enum {
    LSP_PARSE_ERROR = -32700,
    LSP_INVALID_REQUEST = -32600,
    LSP_METHOD_NOT_FOUND = -32601,
    LSP_INVALID_PARAMS = -32602,
    LSP_NOT_INITIALIZED = -32002,
    LSP_REQUEST_CANCELLED = -32800
};

static lsp_log_level lsp_log_level_now = LSP_LOG_ERROR;

void lsp_log_set(lsp_log_level level) { lsp_log_level_now = level; }

void lsp_log(lsp_log_level level, const char *fmt, ...)
{
    if (level > lsp_log_level_now)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tensorlint lsp: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

double lsp_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct lsp_server {
    const lsp_options *o;
    int out_fd;
    lsp_reader in;
    json_t **queue;           /* messages read and not yet handled */
    int n_queue, cap_queue, at;
    bool initialized, shut_down, exited;
    bool gone;                /* the client closed its end: a write failed */
    lsp_ctx cx;
    bool progress;            /* the client accepts work-done progress */
    char *token;              /* a progress token the client has created, or NULL */
    int token_seq;
    lsp_doc *docs;
    lsp_compdbs *dbs;
    ck_options ck;
    an_options an;
} lsp_server;

/* ---- sending ---- */

static void lsp_send(lsp_server *s, json_t *msg)
{
    if (lsp_log_level_now >= LSP_LOG_VERBOSE) {
        char *t = json_dumps(msg, JSON_COMPACT | JSON_PRESERVE_ORDER);
        lsp_log(LSP_LOG_VERBOSE, "-> %.300s%s", t ? t : "?", t && strlen(t) > 300 ? "..." : "");
        free(t);
    }
    if (!s->gone && !lsp_write(s->out_fd, msg)) {
        lsp_log(LSP_LOG_ERROR, "cannot write to the client: it has gone; exiting");
        s->gone = true;
    } else if (s->gone) {
        json_decref(msg);
    }
}

static void lsp_reply(lsp_server *s, json_t *id, json_t *result)
{
    lsp_send(s, json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id ? id : json_null(),
                          "result", result ? result : json_null()));
}

static void lsp_error(lsp_server *s, json_t *id, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void lsp_error(lsp_server *s, json_t *id, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = tl_xvasprintf(fmt, ap);
    va_end(ap);
    lsp_log(LSP_LOG_INFO, "error %d: %s", code, m);
    lsp_send(s, json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", id ? id : json_null(),
                          "error", "code", code, "message", m));
    free(m);
}

static void lsp_notify(lsp_server *s, const char *method, json_t *params)
{
    lsp_send(s, json_pack("{s:s,s:s,s:o}", "jsonrpc", "2.0", "method", method, "params", params));
}

/* ---- documents ---- */

static lsp_doc *lsp_doc_find(lsp_server *s, const char *uri)
{
    for (lsp_doc *d = s->docs; uri && d; d = d->next)
        if (strcmp(d->uri, uri) == 0)
            return d;
    return NULL;
}

static void lsp_doc_free(lsp_doc *d)
{
    lsp_result_free(d->result);
    fe_session_free(d->session);
    lsp_command_clear(&d->cmd);
    free(d->uri);
    free(d->path);
    free(d->text);
    free(d);
}

static void lsp_doc_close(lsp_server *s, lsp_doc *doc)
{
    for (lsp_doc **p = &s->docs; *p; p = &(*p)->next)
        if (*p == doc) {
            *p = doc->next;
            break;
        }
    lsp_doc_free(doc);
}

static void lsp_publish(lsp_server *s, lsp_doc *doc)
{
    const lsp_result *r = doc->result;
    if (!r || r->version != doc->version || doc->dirty)
        return; /* never a result older than the document */
    lsp_notify(s, "textDocument/publishDiagnostics",
               json_pack("{s:s,s:i,s:o}", "uri", doc->uri, "version", doc->version,
                         "diagnostics", lsp_diagnostics_json(&s->cx, doc, r)));
}

static void lsp_progress_token_request(lsp_server *s)
{
    char *token = tl_xasprintf("tensorlint-analysis-%d", ++s->token_seq);
    char *id = tl_xasprintf("progress-%d", s->token_seq);
    lsp_send(s, json_pack("{s:s,s:s,s:s,s:{s:s}}", "jsonrpc", "2.0", "id", id, "method",
                          "window/workDoneProgress/create", "params", "token", token));
    free(token);
    free(id);
}

static void lsp_progress(lsp_server *s, const char *kind, const char *title, const char *message)
{
    json_t *value = json_pack("{s:s}", "kind", kind);
    if (title)
        json_object_set_new(value, "title", json_string(title));
    if (message)
        json_object_set_new(value, "message", json_string(message));
    lsp_notify(s, "$/progress", json_pack("{s:s,s:o}", "token", s->token, "value", value));
}

/* Analyse doc now and publish; with progress when it is likely long (a cold parse, or the
 * last analysis took a quarter second). */
static void lsp_doc_analyse(lsp_server *s, lsp_doc *doc)
{
    bool long_one = doc->result && doc->result->n_units > 0
                        ? doc->result->seconds > 0.25 /* a program: no session */
                        : !doc->session || !fe_session_is_warm(doc->session) ||
                              (doc->result && doc->result->seconds > 0.25);
    bool report = long_one && s->progress && s->token;
    const char *name = strrchr(doc->cmd.path, '/');
    if (report)
        lsp_progress(s, "begin", "tensorlint", name ? name + 1 : doc->cmd.path);
    lsp_result *r = lsp_analyse(doc, s->docs, s->dbs, &s->ck, &s->an);
    lsp_result_free(doc->result);
    doc->result = r;
    doc->dirty = doc->force = false;
    lsp_log(LSP_LOG_INFO, "analysed %s v%d in %.0f ms (%d diagnostics%s%s)", doc->cmd.path,
            r->version, r->seconds * 1e3, r->n_diags, r->failure ? "; " : "",
            r->failure ? r->failure : "");
    if (r->n_units > 0)
        lsp_log(LSP_LOG_INFO, "program of %d units: captures: %d read, %d parsed", r->n_units,
                r->n_read, r->n_parsed);
    if (report) {
        char *m = tl_xasprintf("%d diagnostics, %.0f ms", r->n_diags, r->seconds * 1e3);
        lsp_progress(s, "end", NULL, m);
        free(m);
        free(s->token);
        s->token = NULL;
        lsp_progress_token_request(s);
    }
    lsp_publish(s, doc);
    if (doc->edited_at > 0)
        lsp_log(LSP_LOG_INFO, "published %.0f ms after the last edit",
                (lsp_now() - doc->edited_at) * 1e3);
    doc->edited_at = 0;
}

/* The result for doc's current text, analysing first when it is stale; NULL for a
 * document tensorlint cannot analyse (not a file). */
static const lsp_result *lsp_doc_fresh(lsp_server *s, lsp_doc *doc)
{
    if (!doc->path)
        return NULL;
    if (doc->dirty || doc->force || !doc->result)
        lsp_doc_analyse(s, doc);
    return doc->result;
}

/* ---- params ---- */

static const char *lsp_uri_of(json_t *params)
{
    return json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
}

static bool lsp_pos_from(json_t *j, lsp_pos *p)
{
    json_t *l = json_object_get(j, "line"), *c = json_object_get(j, "character");
    if (!json_is_integer(l) || !json_is_integer(c) || json_integer_value(l) < 0 ||
        json_integer_value(c) < 0 || json_integer_value(l) > 1 << 30 ||
        json_integer_value(c) > 1 << 30)
        return false;
    *p = (lsp_pos){(int)json_integer_value(l), (int)json_integer_value(c)};
    return true;
}

static bool lsp_range_from(json_t *j, lsp_pos *a, lsp_pos *b)
{
    return lsp_pos_from(json_object_get(j, "start"), a) &&
           lsp_pos_from(json_object_get(j, "end"), b);
}

/* ---- notifications ---- */

static void lsp_did_open(lsp_server *s, json_t *params)
{
    json_t *td = json_object_get(params, "textDocument");
    const char *uri = json_string_value(json_object_get(td, "uri"));
    const char *text = json_string_value(json_object_get(td, "text"));
    if (!uri || !text) {
        lsp_log(LSP_LOG_ERROR, "didOpen without uri or text: ignored");
        return;
    }
    lsp_doc *old = lsp_doc_find(s, uri);
    if (old)
        lsp_doc_close(s, old);
    lsp_doc *doc = tl_xcalloc(1, sizeof *doc);
    doc->uri = tl_xstrdup(uri);
    doc->path = lsp_uri_to_path(uri);
    doc->version = (int)json_integer_value(json_object_get(td, "version"));
    doc->len = json_string_length(json_object_get(td, "text"));
    doc->text = tl_xmalloc(doc->len + 1);
    memcpy(doc->text, text, doc->len + 1);
    doc->next = s->docs;
    s->docs = doc;
    if (!doc->path) {
        lsp_log(LSP_LOG_INFO, "%s is not a file: not analysed", uri);
        return;
    }
    lsp_command_find(s->dbs, doc->path, s->o->n_args, s->o->args, &doc->cmd);
    lsp_log(LSP_LOG_INFO, "opened %s; compile command: %s", doc->path, doc->cmd.origin);
    doc->force = true;
    doc->due = lsp_now();
}

/* Apply one content change; false when it is malformed. */
static bool lsp_apply_change(lsp_server *s, lsp_doc *doc, json_t *ch)
{
    json_t *t = json_object_get(ch, "text"), *range = json_object_get(ch, "range");
    if (!json_is_string(t))
        return false;
    const char *text = json_string_value(t);
    size_t n = json_string_length(t);
    if (!range) {
        lsp_text_replace(&doc->text, &doc->len, 0, doc->len, text, n);
        return true;
    }
    lsp_pos a, b;
    if (!lsp_range_from(range, &a, &b))
        return false;
    size_t from = lsp_text_offset(doc->text, doc->len, a, s->cx.enc);
    size_t to = lsp_text_offset(doc->text, doc->len, b, s->cx.enc);
    lsp_text_replace(&doc->text, &doc->len, from, to, text, n);
    return true;
}

static void lsp_did_change(lsp_server *s, json_t *params)
{
    lsp_doc *doc = lsp_doc_find(s, lsp_uri_of(params));
    json_t *changes = json_object_get(params, "contentChanges");
    if (!doc || !json_is_array(changes)) {
        lsp_log(LSP_LOG_ERROR, "didChange for a document not open, or without changes: ignored");
        return;
    }
    size_t k;
    json_t *ch;
    json_array_foreach(changes, k, ch)
    {
        if (!lsp_apply_change(s, doc, ch))
            lsp_log(LSP_LOG_ERROR, "a malformed content change of %s: ignored", doc->uri);
    }
    json_t *v = json_object_get(json_object_get(params, "textDocument"), "version");
    if (json_is_integer(v))
        doc->version = (int)json_integer_value(v);
    doc->dirty = true;
    doc->edited_at = lsp_now();
    doc->due = doc->edited_at + s->o->debounce_ms / 1000.0;
}

static void lsp_did_save(lsp_server *s, json_t *params)
{
    lsp_doc *doc = lsp_doc_find(s, lsp_uri_of(params));
    if (!doc || !doc->path)
        return;
    json_t *t = json_object_get(params, "text");
    if (json_is_string(t)) {
        lsp_text_replace(&doc->text, &doc->len, 0, doc->len, json_string_value(t),
                         json_string_length(t));
        doc->dirty = true;
    }
    doc->force = true; /* the headers on disk may have changed */
    doc->due = lsp_now();
}

static void lsp_did_close(lsp_server *s, json_t *params)
{
    lsp_doc *doc = lsp_doc_find(s, lsp_uri_of(params));
    if (!doc)
        return;
    lsp_notify(s, "textDocument/publishDiagnostics",
               json_pack("{s:s,s:[]}", "uri", doc->uri, "diagnostics"));
    lsp_doc_close(s, doc);
#ifdef __GLIBC__
    malloc_trim(0); /* a closed document's translation unit gives its pages back */
#endif
}

/* ---- requests ---- */

static void lsp_take_input(lsp_server *s);
static bool lsp_cancelled(const lsp_server *s, json_t *id);

/* Whether request id was cancelled while it was being answered: reads what
 * arrived meanwhile (an analysis may have run) and answers RequestCancelled. */
static bool lsp_cancelled_since(lsp_server *s, json_t *id, const char *method)
{
    if (lsp_reader_pending(&s->in) && lsp_reader_fill(&s->in, 0) > 0)
        lsp_take_input(s);
    if (!lsp_cancelled(s, id))
        return false;
    lsp_error(s, id, LSP_REQUEST_CANCELLED, "%s was cancelled", method);
    return true;
}

/* The encoding: the first of the client's positionEncodings we know, else UTF-16. */
static lsp_encoding lsp_pick_encoding(json_t *caps)
{
    json_t *list = json_object_get(json_object_get(caps, "general"), "positionEncodings"), *e;
    size_t k;
    json_array_foreach(list, k, e)
    {
        const char *name = json_string_value(e);
        if (name && strcmp(name, "utf-8") == 0)
            return LSP_UTF8;
        if (name && strcmp(name, "utf-16") == 0)
            return LSP_UTF16;
        if (name && strcmp(name, "utf-32") == 0)
            return LSP_UTF32;
    }
    return LSP_UTF16;
}

static bool lsp_client_markdown(json_t *caps)
{
    json_t *formats = json_object_get(
        json_object_get(json_object_get(caps, "textDocument"), "hover"), "contentFormat");
    json_t *f;
    size_t k;
    json_array_foreach(formats, k, f)
    {
        if (json_string_value(f) && strcmp(json_string_value(f), "markdown") == 0)
            return true;
    }
    return false;
}

static json_t *lsp_initialize(lsp_server *s, json_t *params)
{
    json_t *caps = json_object_get(params, "capabilities");
    s->cx.enc = lsp_pick_encoding(caps);
    s->cx.markdown = lsp_client_markdown(caps);
    s->progress = json_is_true(
        json_object_get(json_object_get(caps, "window"), "workDoneProgress"));
    s->initialized = true;
    const char *enc = s->cx.enc == LSP_UTF8    ? "utf-8"
                      : s->cx.enc == LSP_UTF32 ? "utf-32"
                                               : "utf-16";
    lsp_log(LSP_LOG_INFO, "initialize: positions in %s, hover in %s, progress %s", enc,
            s->cx.markdown ? "markdown" : "plain text", s->progress ? "on" : "off");
    return json_pack("{s:{s:s,s:{s:b,s:i,s:{s:b}},s:b,s:b,s:{s:[s]}},s:{s:s,s:s}}",
                     "capabilities", "positionEncoding", enc, "textDocumentSync", "openClose", 1,
                     "change", 2, "save", "includeText", 0, "hoverProvider", 1,
                     "inlayHintProvider", 1, "codeActionProvider", "codeActionKinds", "quickfix",
                     "serverInfo", "name", "tensorlint", "version", TL_VERSION);
}

/* The open document a request names; answers the error and returns NULL when none. */
static lsp_doc *lsp_request_doc(lsp_server *s, json_t *id, json_t *params)
{
    const char *uri = lsp_uri_of(params);
    lsp_doc *doc = lsp_doc_find(s, uri);
    if (!uri)
        lsp_error(s, id, LSP_INVALID_PARAMS, "params.textDocument.uri is missing");
    else if (!doc)
        lsp_error(s, id, LSP_INVALID_PARAMS, "%s is not open (send didOpen first)", uri);
    return doc;
}

static void lsp_hover(lsp_server *s, json_t *id, json_t *params)
{
    lsp_pos p;
    lsp_doc *doc = lsp_request_doc(s, id, params);
    if (!doc)
        return;
    if (!lsp_pos_from(json_object_get(params, "position"), &p)) {
        lsp_error(s, id, LSP_INVALID_PARAMS, "params.position is not a position");
        return;
    }
    const lsp_result *r = lsp_doc_fresh(s, doc);
    if (!lsp_cancelled_since(s, id, "textDocument/hover"))
        lsp_reply(s, id, r ? lsp_hover_json(&s->cx, r, p) : json_null());
}

/* The document and range of an inlayHint or codeAction request, or NULL after the error. */
static const lsp_result *lsp_range_request(lsp_server *s, json_t *id, json_t *params,
                                           lsp_doc **doc, lsp_pos *a, lsp_pos *b)
{
    if (!(*doc = lsp_request_doc(s, id, params)))
        return NULL;
    if (!lsp_range_from(json_object_get(params, "range"), a, b)) {
        lsp_error(s, id, LSP_INVALID_PARAMS, "params.range is not a range");
        return NULL;
    }
    const lsp_result *r = lsp_doc_fresh(s, *doc);
    if (lsp_cancelled_since(s, id, "the request"))
        return NULL;
    if (!r)
        lsp_reply(s, id, json_array());
    return r;
}

static void lsp_inlay_hint(lsp_server *s, json_t *id, json_t *params)
{
    lsp_doc *doc;
    lsp_pos a, b;
    const lsp_result *r = lsp_range_request(s, id, params, &doc, &a, &b);
    if (r)
        lsp_reply(s, id, lsp_inlay_hints_json(&s->cx, r, a, b));
}

static void lsp_code_action(lsp_server *s, json_t *id, json_t *params)
{
    lsp_doc *doc;
    lsp_pos a, b;
    const lsp_result *r = lsp_range_request(s, id, params, &doc, &a, &b);
    if (r)
        lsp_reply(s, id, lsp_code_actions_json(&s->cx, doc, r, a, b));
}

/* ---- dispatch ---- */

/* Whether a $/cancelRequest for id waits later in the queue. */
static bool lsp_cancelled(const lsp_server *s, json_t *id)
{
    for (int k = s->at + 1; k < s->n_queue; k++) {
        json_t *m = s->queue[k];
        const char *method = json_string_value(json_object_get(m, "method"));
        if (method && strcmp(method, "$/cancelRequest") == 0 &&
            json_equal(json_object_get(json_object_get(m, "params"), "id"), id))
            return true;
    }
    return false;
}

static void lsp_request(lsp_server *s, const char *method, json_t *id, json_t *params)
{
    if (strcmp(method, "initialize") == 0) {
        if (s->initialized)
            lsp_error(s, id, LSP_INVALID_REQUEST, "initialize was already received");
        else
            lsp_reply(s, id, lsp_initialize(s, params));
    } else if (!s->initialized) {
        lsp_error(s, id, LSP_NOT_INITIALIZED, "%s before initialize", method);
    } else if (s->shut_down) {
        lsp_error(s, id, LSP_INVALID_REQUEST, "%s after shutdown", method);
    } else if (lsp_cancelled(s, id)) {
        lsp_error(s, id, LSP_REQUEST_CANCELLED, "%s was cancelled", method);
    } else if (strcmp(method, "shutdown") == 0) {
        s->shut_down = true;
        lsp_reply(s, id, NULL);
    } else if (strcmp(method, "textDocument/hover") == 0) {
        lsp_hover(s, id, params);
    } else if (strcmp(method, "textDocument/inlayHint") == 0) {
        lsp_inlay_hint(s, id, params);
    } else if (strcmp(method, "textDocument/codeAction") == 0) {
        lsp_code_action(s, id, params);
    } else {
        lsp_error(s, id, LSP_METHOD_NOT_FOUND, "method not found: %s", method);
    }
}

static void lsp_notification(lsp_server *s, const char *method, json_t *params)
{
    if (strcmp(method, "exit") == 0) {
        s->exited = true;
        return;
    }
    if (!s->initialized || s->shut_down) {
        lsp_log(LSP_LOG_INFO, "%s %s: dropped", method,
                s->shut_down ? "after shutdown" : "before initialize");
        return;
    }
    if (strcmp(method, "initialized") == 0) {
        if (s->progress)
            lsp_progress_token_request(s);
    } else if (strcmp(method, "textDocument/didOpen") == 0) {
        lsp_did_open(s, params);
    } else if (strcmp(method, "textDocument/didChange") == 0) {
        lsp_did_change(s, params);
    } else if (strcmp(method, "textDocument/didSave") == 0) {
        lsp_did_save(s, params);
    } else if (strcmp(method, "textDocument/didClose") == 0) {
        lsp_did_close(s, params);
    } else {
        lsp_log(LSP_LOG_VERBOSE, "notification %s: ignored", method);
    }
}

/* A response from the client: the answer to a progress token's creation. */
static void lsp_response(lsp_server *s, json_t *msg)
{
    const char *id = json_string_value(json_object_get(msg, "id"));
    if (!id || strncmp(id, "progress-", 9) != 0 || json_object_get(msg, "error"))
        return;
    free(s->token);
    s->token = tl_xasprintf("tensorlint-analysis-%s", id + 9);
}

static void lsp_handle(lsp_server *s, json_t *msg)
{
    json_t *id = json_object_get(msg, "id"), *params = json_object_get(msg, "params");
    json_t *method = json_object_get(msg, "method");
    const char *version = json_string_value(json_object_get(msg, "jsonrpc"));
    bool good_id = !id || json_is_integer(id) || json_is_string(id);
    json_t *reply_id = good_id ? id : NULL;
    if (!json_is_object(msg) || !version || strcmp(version, "2.0") != 0 || !good_id ||
        (method && !json_is_string(method)) || (params && !json_is_object(params) &&
                                                !json_is_array(params))) {
        lsp_error(s, reply_id, LSP_INVALID_REQUEST, "not a JSON-RPC 2.0 message");
        return;
    }
    if (!method) {
        if (id && (json_object_get(msg, "result") || json_object_get(msg, "error")))
            lsp_response(s, msg);
        else
            lsp_error(s, reply_id, LSP_INVALID_REQUEST, "neither a request nor a response");
        return;
    }
    lsp_log(LSP_LOG_VERBOSE, "<- %s", json_string_value(method));
    if (id)
        lsp_request(s, json_string_value(method), id, params);
    else
        lsp_notification(s, json_string_value(method), params);
}

/* ---- the loop ---- */

static void lsp_enqueue(lsp_server *s, json_t *msg)
{
    tl_xgrow(s->queue, &s->cap_queue, (size_t)s->n_queue + 1, 64);
    s->queue[s->n_queue++] = msg;
}

/* Frame every complete message read so far into the queue. */
static void lsp_take_input(lsp_server *s)
{
    char *body;
    size_t len;
    for (lsp_frame f; (f = lsp_reader_next(&s->in, &body, &len)) != LSP_FRAME_NONE;) {
        if (f == LSP_FRAME_BAD) {
            lsp_error(s, NULL, LSP_PARSE_ERROR,
                      "a header without a valid Content-Length (bytes, at most %d MiB)",
                      LSP_MAX_BODY >> 20);
            continue;
        }
        json_error_t err;
        json_t *msg = lsp_json_load(body, len, &err);
        free(body);
        if (msg)
            lsp_enqueue(s, msg);
        else
            lsp_error(s, NULL, LSP_PARSE_ERROR, "not JSON: %s (at byte %d)", err.text,
                      err.position);
    }
}

static void lsp_handle_queue(lsp_server *s)
{
    for (s->at = 0; s->at < s->n_queue && !s->exited; s->at++)
        lsp_handle(s, s->queue[s->at]);
    for (int k = 0; k < s->n_queue; k++)
        json_decref(s->queue[k]);
    s->n_queue = 0;
}

/* ms until the next document is due (0: now), or -1 when none waits. */
static int lsp_next_due(const lsp_server *s)
{
    double next = -1, now = lsp_now();
    for (const lsp_doc *d = s->docs; d; d = d->next)
        if (d->path && (d->dirty || d->force) && (next < 0 || d->due < next))
            next = d->due;
    if (next < 0)
        return -1;
    return next <= now ? 0 : (int)((next - now) * 1e3) + 1;
}

/* Analyse the documents that are due, while no message waits. */
static void lsp_run_due(lsp_server *s)
{
    for (lsp_doc *d = s->docs; d && !lsp_reader_pending(&s->in); d = d->next)
        if (d->path && (d->dirty || d->force) && d->due <= lsp_now())
            lsp_doc_analyse(s, d);
}

int lsp_serve(int in_fd, int out_fd, const lsp_options *o)
{
    lsp_server s = {.o = o, .out_fd = out_fd, .in = {.fd = in_fd}, .cx = {LSP_UTF16}};
    lsp_log_set(o->log);
    s.cx.doc_url = o->doc_url;
    s.dbs = lsp_compdbs_new(o->compile_commands_dir);
    an_options_default(&s.an);
    ck_options_default(&s.ck);
    /* a client that closes its end makes writes fail (EPIPE), not kill the server */
    struct sigaction ignore = {.sa_handler = SIG_IGN}, before;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &before);
    while (!s.exited && !s.gone) {
        int rc = lsp_reader_fill(&s.in, lsp_next_due(&s));
        lsp_take_input(&s);
        lsp_handle_queue(&s);
        if (s.exited || s.gone || (rc < 0 && s.in.eof))
            break;
        if (!lsp_reader_pending(&s.in))
            lsp_run_due(&s);
    }
    if (!s.exited && !s.gone)
        lsp_log(LSP_LOG_INFO, "the input ended without exit");
    sigaction(SIGPIPE, &before, NULL);
    while (s.docs)
        lsp_doc_close(&s, s.docs);
    lsp_compdbs_free(s.dbs);
    lsp_reader_free(&s.in);
    free(s.queue);
    free(s.token);
    return s.exited && s.shut_down ? 0 : 1;
}
