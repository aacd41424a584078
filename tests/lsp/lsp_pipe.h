/*
 * lsp_pipe.h: a language server child process driven over pipes, for the
 * C protocol tests: write raw bytes or framed JSON, read framed replies
 * with a timeout.  Include after cmocka.h.
 */
#ifndef TL_TEST_LSP_PIPE_H
#define TL_TEST_LSP_PIPE_H

#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct lsp_child {
    pid_t pid;
    int to, from;         /* the server's stdin, stdout */
    char buf[1 << 20];
    size_t len;
} lsp_child;

/* Start `tensorlint lsp` (TL_CLI) with extra arguments (NULL-terminated). */
static lsp_child *child_start(const char *const *extra)
{
    const char *cli = getenv("TL_CLI");
    assert_non_null(cli);
    int in[2], out[2];
    assert_int_equal(pipe(in), 0);
    assert_int_equal(pipe(out), 0);
    lsp_child *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->pid = fork();
    assert_true(c->pid >= 0);
    if (c->pid == 0) {
        const char *argv[16] = {cli, "lsp"};
        int n = 2;
        for (int k = 0; extra && extra[k] && n < 15; k++)
            argv[n++] = extra[k];
        signal(SIGPIPE, SIG_DFL); /* ignored signals stay ignored across exec: the
                                     server starts as a client would start it */
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        execv(cli, (char *const *)argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    c->to = in[1];
    c->from = out[0];
    signal(SIGPIPE, SIG_IGN);
    return c;
}

static void child_raw(lsp_child *c, const char *bytes, size_t n)
{
    assert_int_equal(write(c->to, bytes, n), (ssize_t)n);
}

/* Frame body (printf-free: the caller formats it) and write it. */
static void child_send_text(lsp_child *c, const char *body)
{
    char head[64];
    int h = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", strlen(body));
    size_t n = (size_t)h + strlen(body);
    char *all = malloc(n);
    memcpy(all, head, (size_t)h);
    memcpy(all + h, body, strlen(body));
    child_raw(c, all, n);
    free(all);
}

static void child_send(lsp_child *c, json_t *msg)
{
    char *body = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    child_send_text(c, body);
    free(body);
}

/* The next message, or NULL after timeout_ms without one. */
static json_t *child_recv(lsp_child *c, int timeout_ms)
{
    for (;;) {
        char *end = memmem(c->buf, c->len, "\r\n\r\n", 4);
        if (end) {
            size_t head = (size_t)(end - c->buf) + 4;
            size_t n = strtoul(c->buf + strlen("Content-Length: "), NULL, 10);
            assert_memory_equal(c->buf, "Content-Length: ", 16);
            if (c->len >= head + n) {
                json_error_t err;
                json_t *m = json_loadb(c->buf + head, n, 0, &err);
                assert_non_null(m);
                memmove(c->buf, c->buf + head + n, c->len - head - n);
                c->len -= head + n;
                return m;
            }
        }
        struct pollfd p = {c->from, POLLIN, 0};
        if (poll(&p, 1, timeout_ms) <= 0)
            return NULL;
        ssize_t got = read(c->from, c->buf + c->len, sizeof c->buf - c->len);
        if (got <= 0)
            return NULL;
        c->len += (size_t)got;
    }
}

/* The next message whose "id" equals id (an integer), skipping notifications. */
static json_t *child_reply(lsp_child *c, json_int_t id)
{
    for (;;) {
        json_t *m = child_recv(c, 20000);
        assert_non_null(m);
        json_t *mid = json_object_get(m, "id");
        if (json_is_integer(mid) && json_integer_value(mid) == id &&
            !json_object_get(m, "method"))
            return m;
        json_decref(m);
    }
}

/* The next publishDiagnostics notification for any document. */
static json_t *child_diagnostics(lsp_child *c)
{
    for (;;) {
        json_t *m = child_recv(c, 20000);
        assert_non_null(m);
        const char *method = json_string_value(json_object_get(m, "method"));
        if (method && strcmp(method, "textDocument/publishDiagnostics") == 0)
            return m;
        json_decref(m);
    }
}

/* Close the server's input and wait: its exit status. */
static int child_end(lsp_child *c)
{
    int status;
    close(c->to);
    assert_int_equal(waitpid(c->pid, &status, 0), c->pid);
    close(c->from);
    free(c);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static json_t *child_initialize(lsp_child *c)
{
    child_send(c, json_pack("{s:s,s:i,s:s,s:{s:{}}}", "jsonrpc", "2.0", "id", 1, "method",
                            "initialize", "params", "capabilities"));
    json_t *r = child_reply(c, 1);
    child_send(c, json_pack("{s:s,s:s,s:{}}", "jsonrpc", "2.0", "method", "initialized",
                            "params"));
    return r;
}

/* The error code of a reply, or 0 when it is a result. */
static int reply_error(json_t *m)
{
    return (int)json_integer_value(json_object_get(json_object_get(m, "error"), "code"));
}

/* shutdown (request id), exit, and the server ends with 0. */
static void child_shutdown(lsp_child *c, int id)
{
    char body[96];
    snprintf(body, sizeof body, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"shutdown\"}", id);
    child_send_text(c, body);
    json_decref(child_reply(c, id));
    child_send_text(c, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    assert_int_equal(child_end(c), 0);
}

#endif /* TL_TEST_LSP_PIPE_H */
