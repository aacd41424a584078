/*
 * test_frontend.c: the front end (libclang -> IR) on small C sources.
 *
 * Most tests write a source to a temporary directory, parse it with
 * fe_parse_file and look at the IR through a few finders (the n-th CALL
 * of a function, depth first).  The golden test dumps every
 * tests/frontend/<name>.c and compares with tests/frontend/<name>.ir; run
 * `test_frontend --bless` to rewrite those files after a deliberate change.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "frontend.h"

#ifndef TL_SOURCE_DIR_DEFAULT
#define TL_SOURCE_DIR_DEFAULT "."
#endif

static bool bless; /* --bless: rewrite the golden files */
static char tmp_dir[] = "/tmp/tl_frontend_XXXXXX";

static const char *source_dir(void)
{
    const char *d = getenv("TL_SOURCE_DIR");
    return d && *d ? d : TL_SOURCE_DIR_DEFAULT;
}

/* ---- helpers ---- */

static char *write_source(const char *name, const char *text)
{
    char *path = malloc(strlen(tmp_dir) + strlen(name) + 2);
    assert_non_null(path);
    sprintf(path, "%s/%s", tmp_dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Parse text as a file of the given name; fails the test on an error status. */
static ir_unit *parse_text(const char *name, const char *text)
{
    char *path = write_source(name, text);
    ir_unit *u = NULL;
    assert_int_equal(fe_parse_file(path, 0, NULL, &u), FE_OK);
    assert_non_null(u);
    free(path);
    return u;
}

/* Parse a source that must compile cleanly. */
static ir_unit *parse_ok(const char *text)
{
    ir_unit *u = parse_text("t.c", text);
    for (int i = 0; i < u->n_diags; i++)
        if (u->diags[i].severity >= IR_SEV_ERROR)
            ir_diag_print(stderr, &u->diags[i]);
    assert_int_equal(u->n_errors, 0);
    return u;
}

static const ir_func *find_func(const ir_unit *u, const char *name)
{
    for (int i = 0; i < u->n_funcs; i++)
        if (strcmp(u->funcs[i]->name, name) == 0)
            return u->funcs[i];
    fail_msg("no function %s", name);
    return NULL;
}

typedef struct finder {
    ir_stmt_kind kind;
    int skip; /* matches to pass over */
    const ir_stmt *found;
} finder;

static void find_in_block(const ir_block *b, finder *f);

static void find_in_stmt(const ir_stmt *s, finder *f)
{
    if (f->found)
        return;
    if (s->kind == f->kind && f->skip-- == 0) {
        f->found = s;
        return;
    }
    const ir_block *kids[4] = {0};
    if (s->kind == IR_BLOCK)
        kids[0] = s->block;
    else if (s->kind == IR_IF) {
        kids[0] = s->branch.then_blk;
        kids[1] = s->branch.else_blk;
    } else if (s->kind == IR_LOOP) {
        kids[0] = s->loop.init;
        kids[1] = s->loop.cond_pre;
        kids[2] = s->loop.body;
        kids[3] = s->loop.step;
    }
    for (int i = 0; i < 4; i++)
        if (kids[i])
            find_in_block(kids[i], f);
}

static void find_in_block(const ir_block *b, finder *f)
{
    for (int i = 0; i < b->n_stmts && !f->found; i++)
        find_in_stmt(b->stmts[i], f);
}

/* The n-th (0-based, depth first) statement of kind k in function fn. */
static const ir_stmt *nth(const ir_unit *u, const char *fn, ir_stmt_kind k, int n)
{
    finder f = {k, n, NULL};
    find_in_block(find_func(u, fn)->body, &f);
    if (!f.found)
        fail_msg("no %s #%d in %s", ir_stmt_kind_name(k), n, fn);
    return f.found;
}

static int count(const ir_unit *u, const char *fn, ir_stmt_kind k)
{
    int n = 0;
    for (;; n++) {
        finder f = {k, n, NULL};
        find_in_block(find_func(u, fn)->body, &f);
        if (!f.found)
            return n;
    }
}

static void assert_const(const ir_expr *e, int64_t v)
{
    assert_non_null(e);
    if (e->kind != IR_EXPR_CONST)
        fail_msg("expected constant %lld, got expression kind %d", (long long)v, (int)e->kind);
    assert_int_equal(e->value, v);
}

static const char *var_name(const ir_unit *u, int var)
{
    assert_true(var >= 0 && var < u->n_vars);
    return u->vars[var].name;
}

/* An environment of integer variables for ir_expr_eval. */
typedef struct int_env {
    int64_t value[64];
    bool known[64];
} int_env;

static bool env_var(void *ctx, int var, int64_t *out)
{
    int_env *e = ctx;
    if (var < 0 || var >= 64 || !e->known[var])
        return false;
    *out = e->value[var];
    return true;
}

static void env_assign(int_env *e, const ir_stmt *s)
{
    assert_int_equal(s->kind, IR_ASSIGN_INT);
    ir_env env = {env_var, NULL, NULL, e};
    int var = s->assign_int.var;
    e->known[var] = ir_expr_eval(s->assign_int.value, &env, &e->value[var]);
}

/* ---- tests ---- */

static void test_shape_folds_constants(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "enum { H = 64 };\n"
                          "#define SEQ 128\n"
                          "static const int kB = 2;\n"
                          "void f(void) {\n"
                          "    const int c = 3;\n"
                          "    tl_tensor *x = tl_zeros(TL_SHAPE(kB, SEQ, H * 2, sizeof(double), c),\n"
                          "                            TL_BF16, TL_CUDA);\n"
                          "    tl_release(x);\n"
                          "}\n");
    const ir_stmt *s = nth(u, "f", IR_CALL, 0);
    assert_int_equal(s->call.op, mt_op_lookup("zeros"));
    assert_string_equal(var_name(u, s->call.result), "x");
    assert_int_equal(s->loc.line, 7);
    assert_int_equal(s->loc.col, 20);
    assert_int_equal(s->call.n_args, 3);
    const ir_arg *shape = &s->call.args[0];
    assert_int_equal(shape->kind, IR_ARG_INTS);
    assert_int_equal(shape->n, 5);
    int64_t want[] = {2, 128, 128, 8, 3};
    for (int i = 0; i < 5; i++)
        assert_const(shape->exprs[i], want[i]);
    assert_const(s->call.args[1].expr, TL_BF16);
    assert_const(s->call.args[2].expr, TL_CUDA);
    const ir_stmt *r = nth(u, "f", IR_RELEASE, 0);
    assert_int_equal(r->release.var, s->call.result);
    ir_unit_free(u);
}

static void test_shape0_and_double_args(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "void f(double v) {\n"
                          "    tl_tensor *x = tl_full(TL_SHAPE0, 2.5, TL_F32, TL_CPU);\n"
                          "    tl_tensor *y = tl_full(TL_SHAPE(1), v, TL_F32, TL_CPU);\n"
                          "    tl_tensor *z = tl_sum(y, -1, true);\n"
                          "}\n");
    const ir_stmt *s = nth(u, "f", IR_CALL, 0);
    assert_int_equal(s->call.args[0].n, 0);
    assert_true(s->call.args[1].known);
    assert_true(s->call.args[1].value == 2.5);
    s = nth(u, "f", IR_CALL, 1);
    assert_false(s->call.args[1].known);
    s = nth(u, "f", IR_CALL, 2);
    assert_const(s->call.args[1].expr, -1);
    assert_const(s->call.args[2].expr, 1);
    ir_unit_free(u);
}

static void test_call_in_user_macro_at_use_site(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "#define SQUARE(n) tl_empty(TL_SHAPE(n, n), TL_F32, TL_CPU)\n"
                          "void f(int k) {\n"
                          "    tl_tensor *a =  SQUARE(k + 1);\n"
                          "    tl_release(a);\n"
                          "}\n");
    const ir_stmt *s = nth(u, "f", IR_CALL, 0);
    assert_int_equal(s->loc.line, 4);
    assert_int_equal(s->loc.col, 21);
    const ir_expr *e = s->call.args[0].exprs[0];
    assert_int_equal(e->kind, IR_EXPR_BINARY);
    assert_int_equal(e->op, IR_OP_ADD);
    assert_int_equal(e->a->kind, IR_EXPR_VAR);
    assert_string_equal(var_name(u, e->a->var), "k");
    assert_const(e->b, 1);
    ir_unit_free(u);
}

static void test_nested_calls_make_temporaries(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "void f(tl_tensor *a, tl_tensor *b) {\n"
                          "    tl_tensor *c = tl_add(tl_t(a), tl_relu(b));\n"
                          "    tl_release(c);\n"
                          "}\n");
    assert_int_equal(count(u, "f", IR_CALL), 3);
    const ir_stmt *t = nth(u, "f", IR_CALL, 0), *r = nth(u, "f", IR_CALL, 1);
    const ir_stmt *add = nth(u, "f", IR_CALL, 2);
    assert_int_equal(t->call.op, mt_op_lookup("tl_t_at"));
    assert_int_equal(r->call.op, mt_op_lookup("relu"));
    assert_int_equal(add->call.op, mt_op_lookup("add"));
    assert_true(u->vars[t->call.result].is_temp);
    assert_true(u->vars[r->call.result].is_temp);
    assert_int_not_equal(t->call.result, r->call.result);
    assert_int_equal(add->call.args[0].var, t->call.result);
    assert_int_equal(add->call.args[1].var, r->call.result);
    assert_string_equal(var_name(u, add->call.result), "c");
    assert_int_equal(t->loc.col, 27); /* the tl_t written inside the argument */
    ir_unit_free(u);
}

static void test_plain_calls_and_recognition_by_header(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "tl_tensor *tl_twice(tl_tensor *t);\n"
                          "void f(tl_tensor *a) {\n"
                          "    tl_tensor *b = (tl_neg)(a);\n"
                          "    tl_tensor *c = tl_twice(b);\n"
                          "}\n");
    const ir_stmt *s = nth(u, "f", IR_CALL, 0);
    assert_int_equal(s->call.op, mt_op_lookup("neg"));
    assert_int_equal(s->call.args[0].var, find_func(u, "f")->params[0]);
    const ir_stmt *uc = nth(u, "f", IR_USER_CALL, 0);
    assert_string_equal(uc->user_call.name, "tl_twice");
    assert_int_equal(uc->user_call.callee, -1);
    assert_int_equal(uc->user_call.args[0].var, s->call.result);
    assert_string_equal(var_name(u, uc->user_call.result), "c");
    ir_unit_free(u);
}

/* The user's own prototypes of API functions, seen before the header, do
 * not turn the header's calls into user calls. */
static void test_prototype_before_the_header_is_still_the_api(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("typedef struct tl_tensor tl_tensor;\n"
                          "tl_tensor *tl_relu_at(const char *file, int line, tl_tensor *a);\n"
                          "tl_tensor *tl_neg(tl_tensor *a);\n"
                          "#include <tensorlint/tensor.h>\n"
                          "void f(tl_tensor *a) {\n"
                          "    tl_tensor *b = tl_relu(a);\n"
                          "    tl_tensor *c = (tl_neg)(b);\n"
                          "}\n");
    assert_int_equal(count(u, "f", IR_CALL), 2);
    assert_int_equal(count(u, "f", IR_USER_CALL), 0);
    assert_int_equal(nth(u, "f", IR_CALL, 0)->call.op, mt_op_lookup("relu"));
    assert_int_equal(nth(u, "f", IR_CALL, 1)->call.op, mt_op_lookup("neg"));
    ir_unit_free(u);
}

/* A call through a function pointer is a user call whose callee is the
 * pointer's value when it runs: the pointer mk is a variable of the memory
 * model (libclang names it as what the call refers to), never a tensor. */
static void test_call_through_pointer(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "void *(*mk)(void);\n"
                          "void f(void) { tl_tensor *t = mk(); tl_release(t); }\n");
    for (int v = 0; v < u->n_vars; v++)
        if (strcmp(u->vars[v].name, "mk") == 0)
            assert_int_equal(u->vars[v].kind, IR_VAR_OTHER);
    const ir_stmt *call = nth(u, "f", IR_USER_CALL, 0);
    assert_int_equal(call->user_call.callee, -1);
    assert_non_null(call->user_call.fn);
    assert_int_equal(call->user_call.fn->kind, IR_PTR_LOAD);
    assert_int_equal(count(u, "f", IR_RELEASE), 1);
    ir_unit_free(u);
}

/* A function designator is a pointer to the function: f, &f and a cast of
 * it name the same function, whose address is then taken. */
static void test_function_designators(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "typedef tl_tensor *(*op)(tl_tensor *);\n"
                          "static tl_tensor *r(tl_tensor *x) { return tl_relu(x); }\n"
                          "int ext(int);\n"
                          "void f(tl_tensor *x) {\n"
                          "  op a = r; op b = &r; op c = (op)(void *)r; int (*e)(int) = ext;\n"
                          "  tl_release(a(x)); (void)b; (void)c; (void)e(1);\n"
                          "}\n");
    assert_true(find_func(u, "r")->address_taken);
    assert_false(find_func(u, "f")->address_taken);
    for (int k = 0; k < 3; k++) {
        const ir_stmt *st = nth(u, "f", IR_STORE, k);
        assert_int_equal(st->store.ptr->kind, IR_PTR_FUNC);
        assert_string_equal(st->store.ptr->name, "r");
        assert_int_equal(st->store.ptr->func, 0);
    }
    const ir_stmt *e = nth(u, "f", IR_STORE, 3);
    assert_int_equal(e->store.ptr->kind, IR_PTR_FUNC);
    assert_int_equal(e->store.ptr->func, -1);
    assert_string_equal(u->ext_funcs[e->store.ptr->ext], "ext");
    ir_unit_free(u);
}

/* realloc(p, n) of a pointer is a new block with p's contents: the old
 * pointer, the size and the element the result points to are kept;
 * realloc(NULL, n) is malloc. */
static void test_realloc_lowering(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <stdlib.h>\n"
                          "#include <tensorlint/tensor.h>\n"
                          "void f(int n) {\n"
                          "  tl_tensor **a = realloc(NULL, 2 * sizeof *a);\n"
                          "  a = realloc(a, (size_t)n * sizeof *a);\n"
                          "  void *v = realloc(a, 8);\n"
                          "  free(v);\n"
                          "}\n");
    assert_int_equal(nth(u, "f", IR_STORE, 0)->store.ptr->kind, IR_PTR_HEAP);
    const ir_ptr *p = nth(u, "f", IR_STORE, 1)->store.ptr;
    assert_int_equal(p->kind, IR_PTR_REALLOC);
    assert_int_equal(p->old->kind, IR_PTR_LOAD);
    assert_int_equal(p->elem_size, (int64_t)sizeof(void *));
    assert_non_null(p->size);
    const ir_ptr *v = nth(u, "f", IR_STORE, 2)->store.ptr;
    assert_int_equal(v->kind, IR_PTR_REALLOC);
    assert_int_equal(v->elem_size, 0); /* void *: the element is not known */
    ir_unit_free(u);
}

static void test_same_name_outside_the_header_is_a_user_call(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("void *tl_add(void *a, void *b);\n"
                          "void tl_release(void *p);\n"
                          "void f(void *a) { tl_release(tl_add(a, a)); }\n");
    assert_int_equal(count(u, "f", IR_CALL), 0);
    assert_int_equal(count(u, "f", IR_RELEASE), 0);
    assert_false(find_func(u, "f")->has_tensor_code);
    ir_unit_free(u);
}

static void test_for_loop_constant_bounds(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "#define N 4\n"
                          "void f(void) {\n"
                          "    for (int i = 0; i < N; i += 1) {\n"
                          "        tl_tensor *t = tl_ones(TL_SHAPE(i + 1), TL_F32, TL_CPU);\n"
                          "        tl_release(t);\n"
                          "    }\n"
                          "}\n");
    const ir_stmt *loop = nth(u, "f", IR_LOOP, 0);
    assert_int_equal(loop->loop.kind, IR_LOOP_FOR);
    assert_int_equal(loop->loop.init->n_stmts, 1);
    assert_int_equal(loop->loop.step->n_stmts, 1);
    assert_non_null(loop->loop.cond);
    assert_int_equal(loop->loop.body->n_decls, 1);
    assert_int_equal(loop->loop.body->end.line, 7);
    /* run the loop on integers: 4 trips, the shapes are 1..4 */
    int_env e = {0};
    ir_env env = {env_var, NULL, NULL, &e};
    env_assign(&e, loop->loop.init->stmts[0]);
    int trips = 0;
    int64_t go;
    const ir_stmt *call = loop->loop.body->stmts[0];
    while (ir_expr_eval(loop->loop.cond, &env, &go) && go && trips < 100) {
        int64_t dim;
        assert_true(ir_expr_eval(call->call.args[0].exprs[0], &env, &dim));
        assert_int_equal(dim, trips + 1);
        env_assign(&e, loop->loop.step->stmts[0]);
        trips++;
    }
    assert_int_equal(trips, 4);
    ir_unit_free(u);
}

static void test_while_do_and_infinite_loops(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("void f(int n) {\n"
                          "    while (n > 0) n--;\n"
                          "    do { n++; } while (n < 3);\n"
                          "    for (;;) { if (n) break; else continue; }\n"
                          "    for (; n < 9;) n += 2;\n"
                          "}\n");
    const ir_stmt *w = nth(u, "f", IR_LOOP, 0), *d = nth(u, "f", IR_LOOP, 1);
    const ir_stmt *inf = nth(u, "f", IR_LOOP, 2), *part = nth(u, "f", IR_LOOP, 3);
    assert_int_equal(w->loop.kind, IR_LOOP_WHILE);
    assert_int_equal(w->loop.cond->op, IR_OP_GT);
    assert_int_equal(d->loop.kind, IR_LOOP_DO);
    assert_int_equal(d->loop.cond->op, IR_OP_LT);
    assert_int_equal(d->loop.body->n_stmts, 1);
    assert_null(inf->loop.cond);
    assert_int_equal(nth(u, "f", IR_BREAK, 0)->loc.line, 4);
    assert_int_equal(nth(u, "f", IR_CONTINUE, 0)->loc.line, 4);
    assert_int_equal(part->loop.init->n_stmts, 0);
    assert_int_equal(part->loop.cond->op, IR_OP_LT);
    assert_int_equal(part->loop.step->n_stmts, 0);
    assert_int_equal(part->loop.body->n_stmts, 1);
    ir_unit_free(u);
}

static void test_if_else_and_handle_tests(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "int f(tl_tensor *a, int k) {\n"
                          "    if (!a) return 1;\n"
                          "    if (a != NULL && k > 2) tl_zero_(a); else tl_fill_(a, 1.0);\n"
                          "    return 0;\n"
                          "}\n");
    const ir_stmt *i0 = nth(u, "f", IR_IF, 0), *i1 = nth(u, "f", IR_IF, 1);
    assert_int_equal(i0->branch.cond->kind, IR_EXPR_TENSOR_NULL);
    assert_null(i0->branch.else_blk);
    assert_int_equal(i1->branch.cond->op, IR_OP_LAND);
    assert_int_equal(i1->branch.cond->a->kind, IR_EXPR_UNARY);
    assert_int_equal(i1->branch.cond->a->a->kind, IR_EXPR_TENSOR_NULL);
    assert_int_equal(i1->branch.then_blk->stmts[0]->call.op, mt_op_lookup("zero_"));
    assert_int_equal(i1->branch.else_blk->stmts[0]->call.op, mt_op_lookup("fill_"));
    ir_unit_free(u);
}

static void test_switch_becomes_if_chain(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "void f(tl_tensor *t, int m) {\n"
                          "    switch (m) {\n"
                          "    case 0: case 1: tl_zero_(t); break;\n"
                          "    case 2: { tl_fill_(t, 2); break; }\n"
                          "    default: tl_fill_(t, 3);\n"
                          "    }\n"
                          "    switch (m) { case 0: tl_zero_(t); case 1: tl_zero_(t); }\n"
                          "}\n");
    const ir_stmt *a = nth(u, "f", IR_IF, 0);
    assert_int_equal(a->branch.cond->op, IR_OP_LOR);
    assert_int_equal(a->branch.then_blk->n_stmts, 1); /* the break is gone */
    const ir_stmt *b = a->branch.else_blk->stmts[0];
    assert_int_equal(b->kind, IR_IF);
    assert_int_equal(b->branch.cond->op, IR_OP_EQ);
    assert_const(b->branch.cond->b, 2);
    assert_int_equal(b->branch.else_blk->stmts[0]->kind, IR_CALL);
    assert_int_equal(count(u, "f", IR_BREAK), 0);
    const ir_stmt *uns = nth(u, "f", IR_UNSUPPORTED, 0);
    assert_string_equal(uns->unsup.message, "switch case that falls through");
    assert_int_equal(uns->loc.line, 8);
    assert_int_equal(u->n_notes, 1);
    ir_unit_free(u);
}

static void test_user_functions(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "static int cols(int n) { return 2 * n; }\n"
                          "static tl_tensor *make(int n) {\n"
                          "    return tl_empty(TL_SHAPE(n, cols(n)), TL_F32, TL_CPU);\n"
                          "}\n"
                          "static void drop(tl_tensor *t) { tl_release(t); }\n"
                          "void top(void) { drop(make(3)); }\n"
                          "int main(void) { top(); return 0; }\n");
    assert_int_equal(u->n_funcs, 5);
    assert_false(find_func(u, "cols")->has_tensor_code);
    assert_true(find_func(u, "make")->returns_tensor);
    assert_true(find_func(u, "main")->has_tensor_code); /* through top() */
    const ir_stmt *c = nth(u, "make", IR_USER_CALL, 0);
    assert_int_equal(c->user_call.callee, 0);
    assert_int_equal(c->user_call.args[0].kind, IR_VAR_INT);
    assert_true(u->vars[c->user_call.result].kind == IR_VAR_INT);
    const ir_stmt *e = nth(u, "make", IR_CALL, 0);
    assert_int_equal(e->call.args[0].exprs[1]->kind, IR_EXPR_VAR);
    assert_int_equal(e->call.args[0].exprs[1]->var, c->user_call.result);
    const ir_stmt *ret = nth(u, "make", IR_RETURN, 0);
    assert_int_equal(ret->ret.var, e->call.result);
    const ir_stmt *mk = nth(u, "top", IR_USER_CALL, 0), *dr = nth(u, "top", IR_USER_CALL, 1);
    assert_int_equal(mk->user_call.callee, 1);
    assert_const(mk->user_call.args[0].expr, 3);
    assert_true(u->vars[mk->user_call.result].is_temp);
    assert_int_equal(dr->user_call.callee, 2);
    assert_int_equal(dr->user_call.args[0].kind, IR_VAR_TENSOR);
    assert_int_equal(dr->user_call.args[0].var, mk->user_call.result);
    ir_unit_free(u);
}

static void test_shadowed_variables_get_distinct_ids(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "void f(void) {\n"
                          "    int n = 2;\n"
                          "    tl_tensor *t = tl_zeros(TL_SHAPE(n), TL_F32, TL_CPU);\n"
                          "    {\n"
                          "        int n = 3;\n"
                          "        tl_tensor *t = tl_zeros(TL_SHAPE(n), TL_F32, TL_CPU);\n"
                          "        tl_release(t);\n"
                          "    }\n"
                          "    tl_release(t);\n"
                          "}\n");
    const ir_stmt *outer = nth(u, "f", IR_CALL, 0), *inner = nth(u, "f", IR_CALL, 1);
    assert_int_not_equal(outer->call.result, inner->call.result);
    assert_int_not_equal(outer->call.args[0].exprs[0]->var, inner->call.args[0].exprs[0]->var);
    assert_int_equal(nth(u, "f", IR_RELEASE, 0)->release.var, inner->call.result);
    assert_int_equal(nth(u, "f", IR_RELEASE, 1)->release.var, outer->call.result);
    const ir_stmt *blk = nth(u, "f", IR_BLOCK, 0);
    assert_int_equal(blk->block->n_decls, 1);
    assert_int_equal(blk->block->decls[0], inner->call.result);
    assert_int_equal(find_func(u, "f")->body->n_decls, 1);
    ir_unit_free(u);
}

static void test_unknown_values_say_why(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "int g;\n"
                          "int h(void);\n"
                          "void f(double d, tl_tensor *x) {\n"
                          "    tl_tensor *y = tl_zeros(TL_SHAPE(g, h(), d * 2, tl_size(x, 0)),\n"
                          "                            TL_F32, TL_CPU);\n"
                          "}\n");
    const ir_arg *a = &nth(u, "f", IR_CALL, 0)->call.args[0];
    assert_int_equal(a->n, 4);
    assert_int_equal(a->exprs[0]->kind, IR_EXPR_VAR); /* globals are state: read when the call runs */
    assert_true(u->vars[a->exprs[0]->var].is_global);
    assert_string_equal(a->exprs[1]->reason, "call of h()");
    assert_string_equal(a->exprs[2]->reason, "float expression");
    assert_int_equal(a->exprs[3]->kind, IR_EXPR_QUERY);
    assert_int_equal(a->exprs[3]->query, IR_Q_SIZE);
    ir_unit_free(u);
}

static void test_goto_and_array_places(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "void f(tl_tensor *a[2], int k) {\n"
                          "    if (k) goto end;\n"
                          "    a[0] = tl_clone(a[1]);\n"
                          "end:\n"
                          "    tl_release(a[0]);\n"
                          "}\n");
    assert_int_equal(count(u, "f", IR_UNSUPPORTED), 0);
    const ir_stmt *jump = nth(u, "f", IR_GOTO, 0), *label = nth(u, "f", IR_LABEL, 0);
    assert_int_equal(jump->label.id, label->label.id);
    assert_string_equal(label->label.name, "end");
    /* a is a pointer parameter: a[1] dereferences it, one element on */
    const ir_stmt *load = nth(u, "f", IR_LOAD, 0);
    assert_int_equal(load->load.src->n_steps, 1);
    assert_int_equal(load->load.src->steps[0].kind, IR_STEP_DEREF);
    assert_const(load->load.src->steps[0].index, 1);
    const ir_stmt *clone = nth(u, "f", IR_CALL, 0);
    assert_int_equal(clone->call.args[0].var, load->load.dst);
    const ir_stmt *store = nth(u, "f", IR_STORE, 0);
    assert_int_equal(store->store.src, clone->call.result);
    assert_true(store->store.move);
    assert_string_equal(store->store.dst->text, "a[0]");
    assert_string_equal(u->vars[clone->call.result].name, "a[0]"); /* the value is named after its place */
    assert_int_equal(nth(u, "f", IR_RELEASE, 0)->release.var, nth(u, "f", IR_LOAD, 1)->load.dst);
    ir_unit_free(u);
}

/* A call of a function declared not to return ends the program (exit, a
 * function of the file declared _Noreturn, one with the GNU attribute, as
 * the C library declares abort); longjmp does not end it.  Conditions,
 * returns and gotos carry their C text. */
static void test_calls_that_do_not_return(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <setjmp.h>\n"
                          "#include <stdlib.h>\n"
                          "#include <tensorlint/tensor.h>\n"
                          "_Noreturn static void die(void) { abort(); }\n"
                          "__attribute__((noreturn)) static void quit(void) { exit(2); }\n"
                          "static jmp_buf env;\n"
                          "int f(tl_tensor *x, int k) {\n"
                          "    if (k > 3 && !x)\n"
                          "        exit(1);\n"
                          "    if (k == 4)  die();\n"
                          "    if (k == 5) quit();\n"
                          "    if (k == 6) longjmp(env, 1);\n"
                          "    switch (k) {\n"
                          "    case 7: tl_release(x); exit(7);\n"
                          "    default: break;\n"
                          "    }\n"
                          "    if (k < 0) goto out;\n"
                          "    return k + 1;\n"
                          "out:\n"
                          "    return 0;\n"
                          "}\n");
    assert_int_equal(count(u, "f", IR_UNSUPPORTED), 0); /* case 7 ends: no fall through */
    assert_int_equal(count(u, "f", IR_EXIT), 4);
    assert_string_equal(nth(u, "f", IR_EXIT, 0)->text, "exit(1)");
    assert_string_equal(nth(u, "f", IR_EXIT, 1)->text, "die()");
    assert_string_equal(nth(u, "f", IR_EXIT, 2)->text, "quit()");
    assert_string_equal(nth(u, "f", IR_EXIT, 3)->text, "exit(7)");
    assert_int_equal(count(u, "die", IR_EXIT), 1);
    assert_string_equal(nth(u, "f", IR_IF, 0)->text, "k > 3 && !x");
    assert_string_equal(nth(u, "f", IR_IF, 4)->text, "k == 7"); /* the switch's case */
    assert_string_equal(nth(u, "f", IR_GOTO, 0)->text, "goto out");
    assert_string_equal(nth(u, "f", IR_RETURN, 0)->text, "return k + 1");
    ir_unit_free(u);
}

static void test_ints_variables_follow_their_elements(void **state)
{
    (void)state;
    ir_unit *u = parse_ok("#include <tensorlint/tensor.h>\n"
                          "void f(int n) {\n"
                          "    tl_ints s = TL_SHAPE(n, 3);\n"
                          "    s.v[1] = 5;\n"
                          "    tl_tensor *x = tl_zeros(s, TL_F32, TL_CPU);\n"
                          "    s.v[n] = 1;\n"
                          "    tl_tensor *y = tl_view(x, s);\n"
                          "}\n");
    const ir_arg *a = &nth(u, "f", IR_CALL, 0)->call.args[0];
    assert_int_equal(a->n, 2);
    assert_int_equal(a->exprs[1]->kind, IR_EXPR_VAR);
    assert_string_equal(var_name(u, a->exprs[1]->var), "s[1]");
    /* the last assignment of s[1] before the call is 5 */
    const ir_stmt *set = nth(u, "f", IR_ASSIGN_INT, 2);
    assert_int_equal(set->assign_int.var, a->exprs[1]->var);
    assert_const(set->assign_int.value, 5);
    const ir_arg *b = &nth(u, "f", IR_CALL, 1)->call.args[1];
    assert_int_equal(b->n, -1);
    assert_non_null(strstr(b->reason, "computed index"));
    ir_unit_free(u);
}

static void test_syntax_error_is_a_diagnostic(void **state)
{
    (void)state;
    ir_unit *u = parse_text("bad.c", "#include <tensorlint/tensor.h>\n"
                                     "void f(void) {\n"
                                     "    tl_tensor *x = tl_zeros(TL_SHAPE(2), TL_F32, TL_CPU)\n"
                                     "    tl_release(x);\n"
                                     "}\n");
    assert_true(u->n_errors >= 1);
    const ir_diag *d = &u->diags[0];
    assert_int_equal(d->severity, IR_SEV_ERROR);
    assert_int_equal(d->line, 3);
    assert_non_null(strstr(d->file, "bad.c"));
    assert_non_null(strstr(d->message, "expected ';'"));
    assert_int_equal(u->n_funcs, 1); /* still lowered */
    ir_unit_free(u);
}

static void test_missing_file_is_a_status(void **state)
{
    (void)state;
    ir_unit *u = (ir_unit *)&u;
    assert_int_equal(fe_parse_file("/nonexistent/x.c", 0, NULL, &u), FE_ERR_NO_FILE);
    assert_null(u);
    assert_string_equal(fe_status_name(FE_ERR_NO_FILE), "no such file");
}

static void test_compile_command_entry(void **state)
{
    (void)state;
    char *path = write_source("cmd.c", "#include <tensorlint/tensor.h>\n"
                                       "void f(void) { tl_tensor *x = tl_zeros(TL_SHAPE(N), TL_F32, TL_CPU); }\n");
    const char *argv[] = {"cc", "-DN=7", "-c", "cmd.c"};
    ir_unit *u = NULL;
    assert_int_equal(fe_parse_command("cmd.c", tmp_dir, 4, argv, &u), FE_OK);
    assert_int_equal(u->n_errors, 0);
    assert_const(nth(u, "f", IR_CALL, 0)->call.args[0].exprs[0], 7);
    ir_unit_free(u);
    assert_int_equal(fe_parse_command("gone.c", tmp_dir, 4, argv, &u), FE_ERR_NO_FILE);
    free(path);
}

static void test_expr_eval(void **state)
{
    (void)state;
    ir_unit *u = ir_unit_new("x.c");
    ir_loc l = {1, 1};
    int_env e = {0};
    ir_env env = {env_var, NULL, NULL, &e};
    e.known[0] = true;
    e.value[0] = 6;
    int64_t v;
    ir_expr *x = ir_expr_var(u, l, 0), *unk = ir_expr_unknown(u, l, "test");
    assert_true(ir_expr_eval(ir_expr_binary(u, l, IR_OP_MUL, x, ir_expr_const(u, l, 7)), &env, &v));
    assert_int_equal(v, 42);
    assert_false(ir_expr_eval(ir_expr_binary(u, l, IR_OP_DIV, x, ir_expr_const(u, l, 0)), &env, &v));
    assert_true(ir_expr_eval(ir_expr_binary(u, l, IR_OP_LOR, x, unk), &env, &v)); /* short circuit */
    assert_int_equal(v, 1);
    assert_true(ir_expr_eval(ir_expr_binary(u, l, IR_OP_LAND, unk, ir_expr_const(u, l, 0)), &env, &v));
    assert_int_equal(v, 0);
    assert_false(ir_expr_eval(ir_expr_binary(u, l, IR_OP_ADD, x, unk), &env, &v));
    assert_true(ir_expr_eval(ir_expr_cond(u, l, x, ir_expr_const(u, l, 1), unk), &env, &v));
    assert_int_equal(v, 1);
    assert_false(ir_expr_eval(ir_expr_binary(u, l, IR_OP_SHL, x, ir_expr_const(u, l, 64)), &env, &v));
    ir_unit_free(u);
}

/* ---- golden dumps of the files in tests/frontend ---- */

static char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t cap = 0;
    *n = 0;
    for (;;) {
        if (*n + 4096 > cap) {
            cap = cap * 2 + 4096;
            text = realloc(text, cap);
            assert_non_null(text);
        }
        size_t k = fread(text + *n, 1, cap - *n - 1, f);
        *n += k;
        if (k == 0)
            break;
    }
    text[*n] = '\0';
    fclose(f);
    return text;
}

/* Compare (or with --bless, write) the dump of tests/frontend/name. */
static int golden_one(const char *name)
{
    char src[512], ir[512];
    snprintf(src, sizeof src, "tests/frontend/%s", name);
    snprintf(ir, sizeof ir, "tests/frontend/%.*s.ir", (int)(strlen(name) - 2), name);
    ir_unit *u = NULL;
    assert_int_equal(fe_parse_file(src, 0, NULL, &u), FE_OK);
    char *got = NULL;
    size_t n_got = 0;
    FILE *mem = open_memstream(&got, &n_got);
    assert_non_null(mem);
    ir_unit_dump(mem, u);
    fclose(mem);
    ir_unit_free(u);
    int bad = 0;
    if (bless) {
        FILE *f = fopen(ir, "w");
        assert_non_null(f);
        fwrite(got, 1, n_got, f);
        fclose(f);
        printf("blessed %s\n", ir);
    } else {
        size_t n_want;
        char *want = read_all(ir, &n_want);
        if (!want || n_want != n_got || memcmp(want, got, n_got) != 0) {
            fprintf(stderr, "golden mismatch: %s (run test_frontend --bless to rewrite)\n"
                            "---- got:\n%s", ir, got);
            bad = 1;
        }
        free(want);
    }
    free(got);
    return bad;
}

static void test_golden_dumps(void **state)
{
    (void)state;
    char *cwd = getcwd(NULL, 0);
    assert_int_equal(chdir(source_dir()), 0);
    DIR *d = opendir("tests/frontend");
    assert_non_null(d);
    int n = 0, bad = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 2 && strcmp(e->d_name + len - 2, ".c") == 0) {
            bad += golden_one(e->d_name);
            n++;
        }
    }
    closedir(d);
    assert_int_equal(chdir(cwd), 0);
    free(cwd);
    assert_true(n >= 4);
    assert_int_equal(bad, 0);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(tmp_dir) ? 0 : -1;
}

/* Remove the temporary directory and what the tests wrote in it. */
static int teardown(void **state)
{
    (void)state;
    DIR *d = opendir(tmp_dir);
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[sizeof tmp_dir + 256];
        snprintf(path, sizeof path, "%s/%s", tmp_dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(tmp_dir);
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--bless") == 0)
            bless = true;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape_folds_constants),
        cmocka_unit_test(test_shape0_and_double_args),
        cmocka_unit_test(test_call_in_user_macro_at_use_site),
        cmocka_unit_test(test_nested_calls_make_temporaries),
        cmocka_unit_test(test_plain_calls_and_recognition_by_header),
        cmocka_unit_test(test_prototype_before_the_header_is_still_the_api),
        cmocka_unit_test(test_call_through_pointer),
        cmocka_unit_test(test_function_designators),
        cmocka_unit_test(test_realloc_lowering),
        cmocka_unit_test(test_same_name_outside_the_header_is_a_user_call),
        cmocka_unit_test(test_for_loop_constant_bounds),
        cmocka_unit_test(test_while_do_and_infinite_loops),
        cmocka_unit_test(test_if_else_and_handle_tests),
        cmocka_unit_test(test_switch_becomes_if_chain),
        cmocka_unit_test(test_user_functions),
        cmocka_unit_test(test_shadowed_variables_get_distinct_ids),
        cmocka_unit_test(test_unknown_values_say_why),
        cmocka_unit_test(test_goto_and_array_places),
        cmocka_unit_test(test_calls_that_do_not_return),
        cmocka_unit_test(test_ints_variables_follow_their_elements),
        cmocka_unit_test(test_syntax_error_is_a_diagnostic),
        cmocka_unit_test(test_missing_file_is_a_status),
        cmocka_unit_test(test_compile_command_entry),
        cmocka_unit_test(test_expr_eval),
        cmocka_unit_test(test_golden_dumps),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
