/*
 * test_worksheet.c: the seed worksheet's answer key, reproduced by the
 * analyzer from the C samples in samples/worksheet/.  Every number below
 * is the worksheet's (seeds/tensor-memory-accountant-worksheet.txt).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an.h"
#include "frontend.h"
#include "../lib/analysed.h"

#define MiB (INT64_C(1) << 20)

/* The value assigned to name (its first call site). */
static const an_value *value(const analysed *a, const char *name)
{
    for (int k = 0; k < a->main->n_values; k++) {
        const an_value *v = &a->report->values[a->main->values[k]];
        if (v->name && strcmp(v->name, name) == 0)
            return v;
    }
    fail_msg("no value named %s", name);
    return NULL;
}

static int64_t storage_bytes(const analysed *a, const an_value *v)
{
    assert_true(v->storage >= 0);
    return a->report->storages[v->storage].nbytes;
}

static void expect_new(const analysed *a, const char *name, int64_t bytes)
{
    const an_value *v = value(a, name);
    assert_int_equal(v->kind, MT_KIND_NEW);
    assert_int_equal(storage_bytes(a, v), bytes);
}

static void expect_view_of(const analysed *a, const char *name, const char *base)
{
    const an_value *v = value(a, name), *b = value(a, base);
    assert_int_equal(v->kind, MT_KIND_VIEW);
    assert_int_equal(v->storage, b->storage);
}

static void test_block1(void **state)
{
    (void)state;
    analysed a = analyse("samples/worksheet/block1.c");
    expect_new(&a, "x", 128 * MiB);          /* x is 128 MiB */
    expect_view_of(&a, "a", "x");            /* a is a view */
    expect_new(&a, "b", 128 * MiB);          /* b copies 128 MiB */
    expect_view_of(&a, "c", "b");            /* c = reshape: view of b */
    expect_new(&a, "d", 256 * MiB);          /* d copies to 256 MiB */
    assert_int_equal(value(&a, "d")->bytes_moved, 384 * MiB); /* 128 read + 256 written */
    expect_view_of(&a, "e", "d");            /* e is a view of d, keeps all of d alive */
    expect_new(&a, "f", 128 * MiB);          /* f copies 128 MiB */
    assert_int_equal(a.main->end_live_bytes, 640 * MiB); /* x + b + d + f, nothing freed */
    assert_int_equal(a.main->peak_live_bytes, 640 * MiB);
    assert_int_equal(a.main->n_peak_storages, 4);
    analysed_free(&a);
}

static void test_block1_release(void **state)
{
    (void)state;
    analysed a = analyse("samples/worksheet/block1_release.c");
    assert_int_equal(a.main->end_live_bytes, 512 * MiB); /* x dropped after b */
    assert_int_equal(a.main->peak_live_bytes, 512 * MiB);
    analysed_free(&a);
}

static void test_block2(void **state)
{
    (void)state;
    analysed a = analyse("samples/worksheet/block2.c");
    expect_view_of(&a, "wt", "w");           /* w.t() is a view */
    expect_new(&a, "y", 64 * 1024);          /* y allocates (8, 4096) bf16 = 64 KiB */
    expect_view_of(&a, "z", "y");            /* z view */
    expect_view_of(&a, "p", "y");            /* p view (strides swapped) */
    expect_new(&a, "q", 64 * 1024);          /* q copies 64 KiB: permute broke contiguity */
    analysed_free(&a);
}

static void test_block3(void **state)
{
    (void)state;
    analysed a = analyse("samples/worksheet/block3.c");
    expect_new(&a, "emb", 250 * MiB);        /* 32000 x 4096 x 2 = 250 MiB */
    expect_new(&a, "hidden", 64 * MiB);      /* emb[ids] allocates (4, 2048, 4096) bf16 */
    expect_new(&a, "hidden_f32", 128 * MiB); /* .float() doubles hidden */
    const an_value *h = value(&a, "hidden"), *h32 = value(&a, "hidden_f32");
    /* same shape, twice the bus: 64 MiB read + 128 MiB written vs 64 + 64 for a bf16 copy */
    assert_int_equal(h32->bytes_moved, 192 * MiB);
    assert_int_not_equal(h->storage, value(&a, "emb")->storage); /* gather is not a view */
    analysed_free(&a);
}

static void test_stretch(void **state)
{
    (void)state;
    analysed a = analyse("samples/worksheet/stretch.c");
    assert_int_equal(a.main->peak_live_bytes, 192 * MiB); /* x + the one 64 MiB copy */
    assert_int_equal(a.main->end_live_bytes, 0);
    analysed_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_block1), cmocka_unit_test(test_block1_release),
        cmocka_unit_test(test_block2), cmocka_unit_test(test_block3),
        cmocka_unit_test(test_stretch),
    };
    return cmocka_run_group_tests_name("worksheet", tests, NULL, NULL);
}
