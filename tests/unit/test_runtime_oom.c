/*
 * test_runtime_oom.c: the runtime reports host memory that runs out inside
 * a kernel (its scratch buffers: rt_scratch_new) to the program as
 * TL_ERR_OUT_OF_MEMORY at the call, and goes on; it never ends the program.
 *
 * The test replaces malloc (glibc's __libc_malloc behind it) so that large
 * requests fail; storages come from aligned_alloc and handles from calloc,
 * so only the kernels' scratch is refused.  AddressSanitizer owns malloc:
 * in a sanitizer build the test is skipped, and it runs in the plain
 * builds (docs/design.md, "Errors and out of memory").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <tensorlint/tensor.h>

#if defined(__SANITIZE_ADDRESS__)
#define TL_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TL_SANITIZED 1
#endif
#endif

#ifndef TL_SANITIZED
extern void *__libc_malloc(size_t n);

static size_t refuse_from = SIZE_MAX; /* bytes: a malloc of this many or more fails */

void *malloc(size_t n)
{
    if (n >= refuse_from) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(n);
}

static tl_status last_status;
static char last_message[512];

static void on_error(const tl_error *err, void *user)
{
    (void)user;
    last_status = err->status;
    strncpy(last_message, err->message, sizeof last_message - 1);
}

static void expect_oom(tl_tensor *t, const char *what)
{
    assert_null(t);
    assert_int_equal(last_status, TL_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(last_message, what));
    assert_non_null(strstr(last_message, "host out of memory"));
    last_status = TL_OK;
}
#endif

static void kernel_scratch_refused(void **state)
{
    (void)state;
#ifdef TL_SANITIZED
    skip();
#else
    tl_set_error_handler(on_error, NULL);
    int64_t live = tl_memory_stats_of(TL_CPU).live_bytes;
    tl_tensor *a = tl_ones(TL_SHAPE(64, 64), TL_I64, TL_CPU); /* I64: no BLAS, scratch copies */
    tl_tensor *idx = tl_zeros(TL_SHAPE(16384), TL_I64, TL_CPU);
    tl_tensor *x = tl_ones(TL_SHAPE(65536), TL_F32, TL_CPU);
    refuse_from = 64 * 1024;
    expect_oom(tl_matmul(a, a), "matmul scratch");
    expect_oom(tl_index_select(a, 0, idx), "index values");
    expect_oom(tl_sum(x, 0, false), "reduction rows");
    expect_oom(tl_softmax(x, 0), "softmax rows");
    refuse_from = SIZE_MAX;
    tl_tensor *c = tl_matmul(a, a); /* and the runtime goes on */
    assert_non_null(c);
    assert_true(tl_get(c, TL_SHAPE(0, 0)) == 64.0);
    tl_release(c);
    tl_release(x);
    tl_release(idx);
    tl_release(a);
    assert_int_equal(tl_memory_stats_of(TL_CPU).live_bytes, live); /* the refused outputs freed */
    tl_set_error_handler(NULL, NULL);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernel_scratch_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
