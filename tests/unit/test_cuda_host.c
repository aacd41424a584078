/*
 * test_cuda_host.c: the CUDA runtime's host side, on any machine.
 *
 * A fake backend stands in for CUDA: its "device memory" is host memory it
 * tracks (so every copy direction and every kernel operand is checked to be
 * on the right side), its kernels are the CPU kernels behind wrappers that
 * assert that each buffer is fake-device memory, and its segment allocator
 * can be given a capacity or told to fail.  With it the whole device path
 * runs: the caching allocator's wiring and statistics (against the policy
 * run on its own), staging of operands from the other device, transfers,
 * element access, the trace, error reporting and the exit-time teardown.
 * The iteration and matmul plans that the real kernels follow are checked
 * as pure functions.  What only a GPU can show is in tests/gpu.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_internal.h"
#include "cuda_rt.h"

#define MiB (INT64_C(1) << 20)

#include "../gpu/fake_backend.h"

/* ---- errors are caught, not fatal ---- */

static tl_status last_status;
static char last_message[512];

static void on_error(const tl_error *err, void *user)
{
    (void)user;
    last_status = err->status;
    snprintf(last_message, sizeof last_message, "%s", err->message);
}

/* A fresh fake device with n devices; the previous one's memory is all freed. */
static int setup_fake(void **state)
{
    (void)state;
    rt_reclaim();
    fake_install(1);
    tl_set_error_handler(on_error, NULL);
    last_status = TL_OK;
    last_message[0] = 0;
    return 0;
}

static int teardown_fake(void **state)
{
    (void)state;
    rt_reclaim();
    assert_int_equal(cu_scratch_live(), 0);
    cu_shutdown();
    assert_int_equal(fake.n_mem, 0);
    cu_backend_use(NULL);
    tl_set_error_handler(NULL, NULL);
    return 0;
}

/* ---- helpers ---- */

/* -3, -2.75, -2.5 ... in row-major order, as dtype dt on dev. */
static tl_tensor *ramp(tl_ints shape, tl_dtype dt, tl_device dev)
{
    int64_t n = 1;
    for (int d = 0; d < shape.n; d++)
        n *= shape.v[d];
    tl_tensor *a = tl_arange(n, TL_F64, TL_CPU);
    tl_tensor *v = tl_reshape(a, shape);
    tl_tensor *s = tl_mul_scalar(v, 0.25);
    tl_tensor *x = tl_add_scalar(s, -3.0);
    tl_tensor *c = tl_to(x, dt);
    tl_tensor *d = tl_to_device(c, dev);
    return d;
}

/* Same metadata and values (a CUDA tensor is read element by element). */
static void assert_same(tl_tensor *cpu, tl_tensor *dev)
{
    assert_non_null(cpu);
    assert_non_null(dev);
    assert_int_equal(tl_ndim(cpu), tl_ndim(dev));
    for (int d = 0; d < tl_ndim(cpu); d++) {
        assert_int_equal(tl_size(cpu, d), tl_size(dev, d));
        assert_int_equal(tl_stride(cpu, d), tl_stride(dev, d));
    }
    assert_int_equal(tl_storage_offset(cpu), tl_storage_offset(dev));
    assert_int_equal(tl_dtype_of(cpu), tl_dtype_of(dev));
    tl_tensor *back = tl_to_device(dev, TL_CPU);
    tl_tensor *a = tl_contiguous(cpu), *b = tl_contiguous(back);
    tl_tensor *fa = tl_flatten(a, 0, -1), *fb = tl_flatten(b, 0, -1);
    for (int64_t k = 0; k < tl_numel(cpu); k++) {
        double x = tl_get(fa, tl_ndim(fa) ? TL_DIMS(k) : TL_SHAPE0);
        double y = tl_get(fb, tl_ndim(fb) ? TL_DIMS(k) : TL_SHAPE0);
        if (isnan(x))
            assert_true(isnan(y));
        else
            assert_true(x == y);
    }
}

/* ---- no device ---- */

static void test_no_device_is_an_error(void **state)
{
    (void)state;
    fake.n_devices = 0;
    cu_backend_use(&fake_backend);
    assert_false(tl_device_available(TL_CUDA));
    assert_true(tl_device_available(TL_CPU));
    assert_null(tl_zeros(TL_SHAPE(2, 3), TL_F32, TL_CUDA));
    assert_int_equal(last_status, TL_ERR_DEVICE);
    assert_non_null(strstr(last_message, "needs a CUDA device, and none is usable"));
    assert_non_null(strstr(last_message, "the fake backend has no device"));
    tl_tensor *c = tl_ones(TL_SHAPE(4), TL_F32, TL_CPU);
    last_status = TL_OK;
    assert_null(tl_to_device(c, TL_CUDA));
    assert_int_equal(last_status, TL_ERR_DEVICE);
    assert_int_equal(fake.n_alloc_calls, 0);
    tl_memory_stats s = tl_memory_stats_of(TL_CUDA);
    assert_int_equal(s.live_bytes + s.allocated_bytes + s.reserved_bytes, 0);
}

/* Whatever this build carries: without a usable device, a clear TL_ERR_DEVICE. */
static void test_builtin_backend(void **state)
{
    (void)state;
    cu_backend_use(NULL);
    if (tl_device_available(TL_CUDA))
        skip(); /* a GPU is here: tests/gpu covers it */
    const char *why = cu_unavailable_reason();
    assert_true(strlen(why) > 10);
    assert_null(tl_empty(TL_SHAPE(1), TL_F16, TL_CUDA));
    assert_int_equal(last_status, TL_ERR_DEVICE);
    assert_non_null(strstr(last_message, why));
}

/* ---- the caching allocator's wiring ---- */

/* Stats and placements equal the policy run alone on the same requests. */
static void test_allocator_matches_policy(void **state)
{
    (void)state;
    static const int64_t sizes[] = {1, 600 * 1024, 3 * MiB / 2, 11 * MiB + 1, 512, 4096};
    enum { N = sizeof sizes / sizeof sizes[0] };
    ca_allocator *ref = ca_new(NULL);
    tl_tensor *t[N];
    for (int k = 0; k < N; k++) {
        ca_block_info info;
        assert_int_equal(ca_malloc(ref, sizes[k], &info), CA_OK);
        t[k] = tl_empty(TL_SHAPE(sizes[k]), TL_U8, TL_CUDA);
        assert_non_null(t[k]);
        assert_int_equal(t[k]->storage->block_bytes, info.size);
        assert_int_equal(t[k]->storage->segment, info.segment);
        assert_int_equal(t[k]->storage->block, info.id);
    }
    ca_stats want;
    ca_stats_get(ref, CA_SCOPE_ALL, &want);
    tl_memory_stats got = tl_memory_stats_of(TL_CUDA);
    assert_int_equal(got.allocated_bytes, want.allocated_bytes.current);
    assert_int_equal(got.reserved_bytes, want.reserved_bytes.current);
    assert_int_equal(got.peak_allocated_bytes, want.allocated_bytes.peak);
    assert_int_equal(got.peak_reserved_bytes, want.reserved_bytes.peak);
    assert_int_equal(got.live_bytes, 1 + 600 * 1024 + 3 * MiB / 2 + 11 * MiB + 1 + 512 + 4096);
    assert_int_equal(got.n_live, N);
    /* one cudaMalloc per segment the policy made: 2 MiB small, 20 MiB, 12 MiB */
    assert_int_equal(fake.n_alloc_calls, want.n_segments.current);
    assert_int_equal(cu_segments_held(), want.n_segments.current);
    /* 2 MiB small segment; 20 MiB for 1.5 MiB, whose 18.5 MiB rest takes the 11 MiB */
    assert_int_equal(got.reserved_bytes, 2 * MiB + 20 * MiB);
    assert_int_equal(fake.used, got.reserved_bytes);
    /* blocks of one segment are its base plus their offsets */
    assert_ptr_equal((char *)t[4]->storage->data - (char *)t[0]->storage->data, 512 + 614400);
    for (int k = 0; k < N; k++)
        tl_release(t[k]);
    got = tl_memory_stats_of(TL_CUDA);
    assert_int_equal(got.allocated_bytes, 0);
    assert_int_equal(got.reserved_bytes, 2 * MiB + 20 * MiB); /* cached */
    assert_int_equal(fake.n_free_calls, 0);
    assert_int_equal(cu_empty_cache(), 2);
    assert_int_equal(fake.n_free_calls, 2);
    assert_int_equal(tl_memory_stats_of(TL_CUDA).reserved_bytes, 0);
    tl_reset_peak(TL_CUDA);
    got = tl_memory_stats_of(TL_CUDA);
    assert_int_equal(got.peak_allocated_bytes, 0);
    assert_int_equal(got.peak_reserved_bytes, 0);
    ca_free(ref);
}

/* A freed block is reused in place: same segment, same address, no cudaMalloc. */
static void test_reuse_after_free(void **state)
{
    (void)state;
    tl_tensor *a = tl_zeros(TL_SHAPE(1024), TL_F32, TL_CUDA);
    tl_tensor *b = tl_zeros(TL_SHAPE(1024), TL_F32, TL_CUDA);
    void *where = a->storage->data;
    int64_t seg = a->storage->segment;
    tl_release(a);
    tl_tensor *c = tl_ones(TL_SHAPE(1024), TL_F32, TL_CUDA);
    assert_ptr_equal(c->storage->data, where);
    assert_int_equal(c->storage->segment, seg);
    assert_int_equal(fake.n_alloc_calls, 1);
    tl_memory_stats s = tl_memory_stats_of(TL_CUDA);
    assert_int_equal(s.allocated_bytes, 8192);
    assert_int_equal(s.peak_allocated_bytes, 8192);
    assert_int_equal(s.reserved_bytes, 2 * MiB);
    assert_true(tl_get(c, TL_DIMS(5)) == 1.0);
    tl_release(b);
    tl_release(c);
}

/* The device refuses a segment: cached segments are released and the
 * request retried (PyTorch's order); when that fails too, an OOM error. */
static void test_out_of_memory(void **state)
{
    (void)state;
    fake.capacity = 40 * MiB;
    tl_tensor *a = tl_empty(TL_SHAPE(12 * MiB), TL_U8, TL_CUDA);
    tl_release(a); /* 12 MiB segment cached */
    tl_tensor *b = tl_empty(TL_SHAPE(20 * MiB), TL_U8, TL_CUDA);
    tl_tensor *c = tl_empty(TL_SHAPE(16 * MiB), TL_U8, TL_CUDA); /* needs the cached 12 back */
    assert_non_null(c);
    assert_int_equal(last_status, TL_OK);
    assert_string_equal(fake.log, "a12 a20 x16 f12 a16 ");
    tl_tensor *d = tl_empty(TL_SHAPE(8 * MiB), TL_U8, TL_CUDA);
    assert_null(d);
    assert_int_equal(last_status, TL_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(last_message, "CUDA out of memory: tried to allocate 8388608 bytes"));
    assert_non_null(strstr(last_message, "segment of 20971520 bytes"));
    assert_non_null(strstr(last_message, "cudaMalloc: out of memory"));
    assert_int_equal(tl_memory_stats_of(TL_CUDA).n_live, 2);
    /* the next request is served: nothing stays pending */
    last_status = TL_OK;
    tl_tensor *e = tl_empty(TL_SHAPE(100), TL_U8, TL_CPU);
    assert_non_null(e);
    assert_int_equal(last_status, TL_OK);
    tl_release(b);
    tl_release(c);
}

static void test_device_error_on_alloc(void **state)
{
    (void)state;
    fake.fail_device = true;
    assert_null(tl_zeros(TL_SHAPE(3), TL_F32, TL_CUDA));
    assert_int_equal(last_status, TL_ERR_DEVICE);
    assert_non_null(strstr(last_message, "fake device lost"));
    assert_int_equal(tl_memory_stats_of(TL_CUDA).n_live, 0);
}

/* A kernel failure is raised by the call, and its new storage goes back. */
static void test_kernel_failure(void **state)
{
    (void)state;
    tl_tensor *x = tl_ones(TL_SHAPE(8), TL_F32, TL_CUDA);
    fake.fail_kernel = true;
    assert_null(tl_exp(x));
    assert_int_equal(last_status, TL_ERR_DEVICE);
    assert_string_equal(last_message,
                        "CUDA error: fake kernel launch: an illegal memory access was encountered");
    tl_memory_stats s = tl_memory_stats_of(TL_CUDA);
    assert_int_equal(s.n_live, 1);
    assert_int_equal(s.live_bytes, 32);
    fake.fail_kernel = true;
    last_status = TL_OK;
    tl_mul_scalar_(x, 2.0); /* in place: raised as well, nothing to release */
    assert_int_equal(last_status, TL_ERR_DEVICE);
    last_status = TL_OK;
    tl_tensor *y = tl_exp(x);
    assert_non_null(y);
    assert_int_equal(last_status, TL_OK);
}

/* ---- dispatch and staging ---- */

/* CPU work never reaches the backend; CUDA work runs only through it. */
static void test_dispatch_by_device(void **state)
{
    (void)state;
    tl_tensor *a = tl_randn(TL_SHAPE(4, 5), TL_F32, TL_CPU);
    tl_tensor *b = tl_relu(a);
    assert_int_equal(fake.n_kernel_calls + fake.n_alloc_calls + fake.n_copies, 0);
    assert_int_equal(tl_device_of(b), TL_CPU);
    tl_tensor *g = tl_to_device(a, TL_CUDA); /* a transfer: no kernel */
    assert_int_equal(fake.n_kernel_calls, 0);
    assert_int_equal(fake.n_copies, 1);
    assert_int_equal(tl_device_of(g), TL_CUDA);
    tl_tensor *h = tl_relu(g);
    assert_int_equal(fake.n_kernel_calls, 1);
    assert_int_equal(tl_device_of(h), TL_CUDA);
    assert_same(b, h);
    tl_tensor *v = tl_transpose(h, 0, 1); /* a view: no work */
    int64_t before = fake.n_kernel_calls + fake.n_copies;
    assert_int_equal(tl_device_of(v), TL_CUDA);
    assert_true(tl_shares_storage(v, h));
    assert_int_equal(fake.n_kernel_calls + fake.n_copies, before);
}

/* to(device) both ways, dense layouts in one copy, others staged. */
static void test_transfers(void **state)
{
    (void)state;
    static const tl_dtype dts[] = {TL_BOOL, TL_U8, TL_I8, TL_I16, TL_I32, TL_I64, TL_F16,
                                   TL_BF16, TL_F32, TL_F64};
    for (size_t k = 0; k < sizeof dts / sizeof dts[0]; k++) {
        tl_tensor *x = ramp(TL_SHAPE(3, 4, 5), dts[k], TL_CPU);
        tl_tensor *g = tl_to_device(x, TL_CUDA);
        assert_same(x, g);
        tl_tensor *p = tl_permute(x, TL_DIMS(2, 0, 1)); /* dense: strides kept, one copy */
        int64_t copies = fake.n_copies;
        tl_tensor *gp = tl_to_device(p, TL_CUDA);
        assert_int_equal(fake.n_copies, copies + 1);
        assert_same(p, gp);
        tl_tensor *s = tl_slice(p, 1, 1, 3, 1); /* not dense: packed, staged */
        tl_tensor *gs = tl_to_device(s, TL_CUDA);
        tl_tensor *cs = tl_clone(s); /* the same preserve_format layout, on the CPU */
        assert_same(cs, gs);
        tl_tensor *gv = tl_slice(tl_permute(g, TL_DIMS(2, 0, 1)), 1, 1, 3, 1);
        tl_tensor *back = tl_to_device(gv, TL_CPU); /* device side packed first */
        assert_same(cs, back);
    }
    assert_int_equal(cu_scratch_live(), 0);
}

/* Each op on the (fake) device gives the CPU's metadata and values. */
static void test_ops_match_cpu(void **state)
{
    (void)state;
    tl_device devs[2] = {TL_CPU, TL_CUDA};
    tl_tensor *r[2][24];
    for (int k = 0; k < 2; k++) {
        tl_device d = devs[k];
        tl_tensor *a = ramp(TL_SHAPE(2, 3, 4), TL_F32, d), *b = ramp(TL_SHAPE(3, 1), TL_F16, d);
        tl_tensor *ix = tl_to_device(tl_arange(3, TL_I64, TL_CPU), d);
        tl_tensor *rows = tl_to_device(tl_arange(2, TL_I64, TL_CPU), d);
        tl_tensor *w = ramp(TL_SHAPE(2, 2, 2, 2), TL_F32, d), *x = ramp(TL_SHAPE(1, 2, 4, 4), TL_F32, d);
        int n = 0;
        r[k][n++] = tl_add(a, b);
        r[k][n++] = tl_div(tl_transpose(a, 1, 2), tl_scalar(3.0, TL_F64, d));
        r[k][n++] = tl_mul_scalar(a, 0.5);
        r[k][n++] = tl_neg(tl_exp(tl_relu(a)));
        r[k][n++] = tl_sum(a, 1, true);
        r[k][n++] = tl_mean(a, -1, false);
        r[k][n++] = tl_softmax(a, 2);
        r[k][n++] = tl_matmul(a, tl_transpose(a, 1, 2));
        r[k][n++] = tl_conv2d(x, w, 1, 1);
        r[k][n++] = tl_index(a, rows);
        r[k][n++] = tl_index_select(a, 2, ix);
        r[k][n++] = tl_gather(a, 1, tl_expand(tl_view(tl_arange(2, TL_I64, d), TL_SHAPE(1, 2, 1)),
                                              TL_SHAPE(2, 2, 4)));
        r[k][n++] = tl_cat(TL_LIST(a, tl_to(a, TL_I32)), 1);
        r[k][n++] = tl_reshape(tl_transpose(a, 0, 2), TL_SHAPE(-1));
        r[k][n++] = tl_to_format(x, TL_CHANNELS_LAST);
        r[k][n++] = tl_clone(tl_slice(a, 2, 1, 4, 2));
        r[k][n++] = tl_arange(7, TL_I16, d);
        r[k][n++] = tl_full(TL_SHAPE(2, 2), 2.5, TL_BF16, d);
        tl_tensor *c = tl_clone(a);
        tl_add_(c, b);
        tl_sub_(c, tl_scalar(1.0, TL_F32, TL_CPU)); /* a CPU scalar into a device tensor */
        tl_mul_scalar_(c, 3.0);
        tl_set(c, TL_DIMS(1, 2, 3), 42.0);
        r[k][n++] = c;
        tl_tensor *e = tl_empty(TL_SHAPE(4, 3), TL_F64, d);
        tl_copy_(e, tl_transpose(tl_select(a, 0, 1), 0, 1));
        r[k][n++] = e;
        tl_tensor *z = tl_ones(TL_SHAPE(3), TL_I64, d);
        tl_fill_(z, 9.0);
        tl_zero_(tl_narrow(z, 0, 1, 1));
        r[k][n++] = z;
        assert_int_equal(n, 21);
        assert_int_equal(last_status, TL_OK);
    }
    for (int j = 0; j < 21; j++)
        assert_same(r[0][j], r[1][j]);
    assert_true(tl_get(r[1][18], TL_DIMS(1, 2, 3)) == 42.0);
}

/* Operands on the other device: 0-dim tensors (the meta functions allow
 * them), and copy_ from either side with broadcasting and casting. */
static void test_cross_device_operands(void **state)
{
    (void)state;
    tl_tensor *g = ramp(TL_SHAPE(2, 3), TL_F32, TL_CUDA), *c = ramp(TL_SHAPE(2, 3), TL_F32, TL_CPU);
    tl_tensor *s_cpu = tl_scalar(2.0, TL_F32, TL_CPU), *s_gpu = tl_scalar(2.0, TL_F32, TL_CUDA);
    tl_tensor *gm = tl_mul(g, s_cpu), *cm = tl_mul(c, s_cpu);
    assert_int_equal(tl_device_of(gm), TL_CUDA); /* a CPU scalar joins a CUDA op */
    assert_same(cm, gm);
    assert_null(tl_mul(c, s_gpu)); /* a CUDA scalar does not join a CPU op (TensorIterator) */
    assert_int_equal(last_status, TL_ERR_DEVICE);
    assert_non_null(strstr(last_message, "cuda and cpu"));
    last_status = TL_OK;
    tl_tensor *dst = tl_zeros(TL_SHAPE(4, 2, 3), TL_F16, TL_CUDA);
    tl_copy_(dst, c); /* broadcast over dim 0, cast to f16, host to device */
    tl_tensor *host = tl_zeros(TL_SHAPE(3, 2), TL_I32, TL_CPU);
    tl_copy_(host, tl_transpose(g, 0, 1)); /* device to host, strided */
    assert_true(tl_get(dst, TL_DIMS(3, 1, 2)) == tl_get(c, TL_DIMS(1, 2)));
    assert_true(tl_get(host, TL_DIMS(2, 1)) == (int)tl_get(g, TL_DIMS(1, 2)));
    assert_int_equal(last_status, TL_OK);
    assert_int_equal(cu_scratch_live(), 0);
    tl_memory_stats s = tl_memory_stats_of(TL_CUDA);
    assert_int_equal(s.n_live, 4); /* g, s_gpu, gm, dst: staging buffers are not storages */
}

static void test_index_checks_on_device(void **state)
{
    (void)state;
    tl_tensor *t = ramp(TL_SHAPE(4, 2), TL_F32, TL_CUDA);
    tl_tensor *ix = tl_to_device(tl_full(TL_SHAPE(3), 4.0, TL_I64, TL_CPU), TL_CUDA);
    assert_null(tl_index(t, ix));
    assert_int_equal(last_status, TL_ERR_BAD_DIM);
    assert_string_equal(last_message, "index 4 is out of bounds for dimension 0 with size 4");
    tl_tensor *neg = tl_to_device(tl_full(TL_SHAPE(2), -1.0, TL_I64, TL_CPU), TL_CUDA);
    last_status = TL_OK;
    tl_tensor *ok = tl_index(t, neg); /* t[idx] counts negative indices from the end */
    assert_non_null(ok);
    assert_true(tl_get(ok, TL_DIMS(1, 1)) == tl_get(t, TL_DIMS(3, 1)));
    assert_null(tl_index_select(t, 0, neg));
    assert_int_equal(last_status, TL_ERR_BAD_DIM);
}

/* t[idx] moves an index on the other device to t's (PyTorch's make_info):
 * both directions work and give the CPU answer; index_select does not. */
static void test_index_across_devices(void **state)
{
    (void)state;
    tl_tensor *c = ramp(TL_SHAPE(4, 3), TL_F32, TL_CPU), *g = ramp(TL_SHAPE(4, 3), TL_F32, TL_CUDA);
    tl_tensor *ic = tl_to_device(tl_to(tl_arange(3, TL_F32, TL_CPU), TL_I64), TL_CPU);
    tl_tensor *ix_c = tl_sub(tl_full(TL_SHAPE(2, 2), 3.0, TL_I64, TL_CPU), tl_full(TL_SHAPE(2, 2), 1.0, TL_I64, TL_CPU));
    tl_tensor *ix_g = tl_to_device(ix_c, TL_CUDA);
    tl_tensor *want = tl_index(c, ix_c);
    tl_tensor *on_gpu = tl_index(g, ix_c), *on_cpu = tl_index(c, ix_g);
    assert_int_equal(last_status, TL_OK);
    assert_int_equal(tl_device_of(on_gpu), TL_CUDA);
    assert_int_equal(tl_device_of(on_cpu), TL_CPU);
    assert_same(want, on_gpu);
    assert_same(want, on_cpu);
    assert_null(tl_index_select(g, 0, ic));
    assert_int_equal(last_status, TL_ERR_DEVICE);
    last_status = TL_OK;
    assert_int_equal(cu_scratch_live(), 0);
}

static void test_print_reads_device(void **state)
{
    (void)state;
    tl_tensor *g = tl_to_device(tl_arange(3, TL_I32, TL_CPU), TL_CUDA);
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    FILE *saved = stdout;
    stdout = mem;
    tl_print(g);
    stdout = saved;
    fclose(mem);
    assert_string_equal(buf, "tensor([0, 1, 2]) shape=(3,) strides=(1,) offset=0 dtype=i32 "
                             "device=cuda\n");
    free(buf);
}

/* The trace's alloc records name the block bytes and the segment. */
static void test_trace_alloc_records(void **state)
{
    (void)state;
    char path[] = "/tmp/tl_cuda_host_trace_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_true(tl_trace_open(path));
    tl_tensor *a = tl_empty(TL_SHAPE(100), TL_U8, TL_CUDA);
    tl_tensor *b = tl_empty(TL_SHAPE(100), TL_U8, TL_CPU);
    tl_trace_close();
    FILE *f = fopen(path, "r");
    char line[1024];
    int n_alloc = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strstr(line, "\"ev\":\"alloc\""))
            continue;
        const char *want = n_alloc++ == 0
            ? "\"nbytes\":100,\"block_bytes\":512,\"segment\":1,\"device\":\"cuda\""
            : "\"nbytes\":100,\"block_bytes\":100,\"segment\":null,\"device\":\"cpu\"";
        assert_non_null(strstr(line, want));
    }
    fclose(f);
    remove(path);
    assert_int_equal(n_alloc, 2);
    tl_release(a);
    tl_release(b);
}

/* Exit frees everything: handles, blocks, cached segments. */
static void test_teardown_frees_device_memory(void **state)
{
    (void)state;
    for (int k = 0; k < 10; k++)
        tl_zeros(TL_SHAPE(k + 1, 100000), TL_F32, TL_CUDA);
    tl_tensor *keep = tl_zeros(TL_SHAPE(1), TL_F32, TL_CUDA);
    tl_release(keep);
    assert_true(fake.n_mem > 0);
    rt_reclaim();
    cu_shutdown();
    assert_int_equal(fake.n_mem, 0);
    assert_int_equal(fake.used, 0);
    assert_int_equal(tl_memory_stats_of(TL_CUDA).reserved_bytes, 0);
}

/* ---- plans ---- */

static mt_layout lay(int ndim, const int64_t *shape, const int64_t *strides, int64_t offset,
                     tl_dtype dt)
{
    mt_layout l;
    memset(&l, 0, sizeof l);
    l.ndim = ndim, l.dtype = dt, l.offset = offset, l.device = TL_CUDA;
    memcpy(l.shape, shape, sizeof(int64_t) * (size_t)ndim);
    if (strides)
        memcpy(l.strides, strides, sizeof(int64_t) * (size_t)ndim);
    else
        mt_contiguous_strides(ndim, shape, l.strides);
    return l;
}

static void test_copy_plans(void **state)
{
    (void)state;
    cu_copy_plan cp;
    int64_t sh[3] = {16, 1024, 4096}, tsh[3] = {16, 4096, 1024}, tst[3] = {4194304, 1, 4096};
    mt_layout x = lay(3, sh, NULL, 0, TL_F16), y = lay(3, sh, NULL, 0, TL_F32);
    mt_layout a = lay(3, tsh, tst, 0, TL_F16), b = lay(3, tsh, NULL, 0, TL_F16);
    assert_true(cu_copy_plan_make(&cp, &x, &x));
    assert_int_equal(cp.path, CU_COPY_MEMCPY);
    assert_int_equal(cp.p.nd, 1);
    assert_int_equal(cp.p.shape[0], 16 * 1024 * 4096);
    assert_true(cu_copy_plan_make(&cp, &y, &x));
    assert_int_equal(cp.path, CU_COPY_CONTIG);
    /* contiguous() of the worksheet's transpose: tiles over dims (4096, 1024) */
    assert_true(cu_copy_plan_make(&cp, &b, &a));
    assert_int_equal(cp.path, CU_COPY_TRANSPOSE);
    assert_int_equal(cp.p.nd, 3);
    assert_int_equal(cp.tile_dim, 1);
    assert_int_equal(cp.p.st[1][1], 1);
    assert_int_equal(cp.p.st[1][2], 4096);
    /* to(f32) of the transpose keeps its strides: walked in memory order, one dim */
    mt_layout af = a;
    af.dtype = TL_F32;
    assert_true(cu_copy_plan_make(&cp, &af, &a));
    assert_int_equal(cp.path, CU_COPY_CONTIG);
    /* a cast that also transposes takes the general loop */
    mt_layout bf = b;
    bf.dtype = TL_F32;
    assert_true(cu_copy_plan_make(&cp, &bf, &a));
    assert_int_equal(cp.path, CU_COPY_STRIDED);
    /* broadcast: stride 0, strided */
    int64_t rsh[2] = {1, 4}, dsh[2] = {3, 4};
    mt_layout row = lay(2, rsh, NULL, 2, TL_F32), dst = lay(2, dsh, NULL, 0, TL_F32);
    assert_true(cu_copy_plan_make(&cp, &dst, &row));
    assert_int_equal(cp.path, CU_COPY_STRIDED);
    assert_int_equal(cp.p.nd, 2);
    assert_int_equal(cp.p.st[1][0], 0);
    assert_int_equal(cp.p.offset[1], 2);
    /* same numel, shapes that do not broadcast: row-major on both */
    int64_t fsh[1] = {12};
    mt_layout flat = lay(1, fsh, NULL, 0, TL_F32);
    assert_true(cu_copy_plan_make(&cp, &flat, &dst));
    assert_int_equal(cp.path, CU_COPY_RESHAPE);
    /* empty */
    int64_t esh[2] = {0, 3};
    mt_layout empty = lay(2, esh, NULL, 0, TL_F32);
    assert_false(cu_copy_plan_make(&cp, &empty, &empty));
    /* small transposes are not worth tiles */
    int64_t ssh[2] = {4, 4}, sst[2] = {1, 4};
    mt_layout st = lay(2, ssh, sst, 0, TL_F32), sd = lay(2, ssh, NULL, 0, TL_F32);
    assert_true(cu_copy_plan_make(&cp, &sd, &st));
    assert_int_equal(cp.path, CU_COPY_STRIDED);
}

static void test_plan_merge_and_i32(void **state)
{
    (void)state;
    cu_plan p;
    int64_t sh[4] = {2, 1, 3, 4}, st[4] = {24, 99, 4, 1};
    mt_layout a = lay(4, sh, st, 0, TL_F32), c = lay(4, sh, NULL, 0, TL_F32);
    const mt_layout *ls[2] = {&c, &a};
    assert_true(mt_plan_init(&p, 2, ls)); /* size-1 dim dropped, then the rest merges... */
    assert_int_equal(p.nd, 2);            /* ...except across the gap 24 != 12 */
    assert_int_equal(p.shape[0], 2);
    assert_int_equal(p.shape[1], 12);
    assert_int_equal(p.st[1][0], 24);
    assert_int_equal(p.st[0][0], 12);
    assert_true(cu_plan_fits_i32(&p));
    int64_t big[2] = {65536, 65536};
    mt_layout g = lay(2, big, NULL, 0, TL_U8);
    const mt_layout *gs[1] = {&g};
    assert_true(mt_plan_init(&p, 1, gs));
    assert_false(cu_plan_fits_i32(&p));
    mt_layout s0 = lay(0, big, NULL, 5, TL_F32);
    const mt_layout *zs[2] = {&s0, &s0};
    assert_true(mt_plan_init(&p, 2, zs));
    assert_int_equal(p.nd, 1);
    assert_int_equal(p.numel, 1);
    assert_true(cu_plan_dense(&p, 1));
    assert_int_equal(cu_blocks_for(1000, 256, 4), 4);
    assert_int_equal(cu_blocks_for(1000, 256, 100), 4);
    assert_int_equal(cu_blocks_for(0, 256, 100), 1);
}

static void test_matmul_plans(void **state)
{
    (void)state;
    cu_mm_plan mp;
    /* worksheet block 2: h [8, 4096] @ w.t(): w read in place as transposed */
    int64_t hs[2] = {8, 4096}, ws[2] = {4096, 4096}, wts[2] = {1, 4096}, os[2] = {8, 4096};
    mt_layout h = lay(2, hs, NULL, 0, TL_BF16), wt = lay(2, ws, wts, 0, TL_BF16);
    mt_layout o = lay(2, os, NULL, 0, TL_BF16);
    assert_true(cu_mm_plan_make(&mp, &o, &h, &wt, true));
    assert_int_equal(mp.m, 8);
    assert_int_equal(mp.n, 4096);
    assert_int_equal(mp.k, 4096);
    assert_true(mp.a.blas_ok && !mp.a.trans && mp.a.ld == 4096);
    assert_true(mp.b.blas_ok && mp.b.trans && mp.b.ld == 4096);
    assert_int_equal(mp.nbd, 0);
    assert_int_equal(mp.n_batch, 1);
    /* batched a [2, 3, 4, 5] @ b [5, 6]: b broadcast (stride 0), batches merge */
    int64_t as[4] = {2, 3, 4, 5}, bs[2] = {5, 6}, cs[4] = {2, 3, 4, 6};
    mt_layout la = lay(4, as, NULL, 0, TL_F32), lb = lay(2, bs, NULL, 0, TL_F32);
    mt_layout lc = lay(4, cs, NULL, 0, TL_F32);
    assert_true(cu_mm_plan_make(&mp, &lc, &la, &lb, true));
    assert_int_equal(mp.nbd, 1);
    assert_int_equal(mp.bshape[0], 6);
    assert_int_equal(mp.bst[0][0], 24);
    assert_int_equal(mp.bst[1][0], 20);
    assert_int_equal(mp.bst[2][0], 0);
    /* 1-D @ 2-D: a row of one; a vector b: a column of one */
    int64_t v[1] = {5}, vo[1] = {6};
    mt_layout lv = lay(1, v, NULL, 0, TL_F32), lvo = lay(1, vo, NULL, 0, TL_F32);
    assert_true(cu_mm_plan_make(&mp, &lvo, &lv, &lb, true));
    assert_int_equal(mp.m, 1);
    assert_int_equal(mp.k, 5);
    assert_true(mp.a.blas_ok);
    /* an operand with no unit stride is packed; integers never go to cuBLAS */
    int64_t gst[2] = {12, 2};
    mt_layout gapped = lay(2, bs, gst, 0, TL_F32);
    int64_t o2[2] = {4, 6}, a2[2] = {4, 5};
    mt_layout lo = lay(2, o2, NULL, 0, TL_F32), la2 = lay(2, a2, NULL, 0, TL_F32);
    assert_true(cu_mm_plan_make(&mp, &lo, &la2, &gapped, true));
    assert_false(mp.b.blas_ok);
    assert_true(cu_mm_plan_make(&mp, &lo, &la2, &lb, false));
    assert_false(mp.a.blas_ok || mp.b.blas_ok || mp.c.blas_ok);
    /* an empty product has no plan */
    int64_t e[2] = {0, 6}, ea[2] = {0, 5};
    mt_layout le = lay(2, e, NULL, 0, TL_F32), lea = lay(2, ea, NULL, 0, TL_F32);
    assert_false(cu_mm_plan_make(&mp, &le, &lea, &lb, true));
}

static void test_dim_last(void **state)
{
    (void)state;
    int64_t sh[3] = {2, 3, 4};
    mt_layout l = lay(3, sh, NULL, 7, TL_F32);
    mt_layout r = cu_dim_last(&l, 0);
    assert_int_equal(r.shape[0], 3);
    assert_int_equal(r.shape[2], 2);
    assert_int_equal(r.strides[2], 12);
    assert_int_equal(r.offset, 7);
    mt_layout z = lay(0, sh, NULL, 0, TL_F32);
    r = cu_dim_last(&z, 0);
    assert_int_equal(r.ndim, 1);
    assert_int_equal(r.shape[0], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_no_device_is_an_error, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_builtin_backend, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_allocator_matches_policy, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_reuse_after_free, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_out_of_memory, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_device_error_on_alloc, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_kernel_failure, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_dispatch_by_device, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_transfers, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_ops_match_cpu, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_cross_device_operands, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_index_checks_on_device, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_index_across_devices, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_print_reads_device, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_trace_alloc_records, setup_fake, teardown_fake),
        cmocka_unit_test_setup_teardown(test_teardown_frees_device_memory, setup_fake,
                                        teardown_fake),
        cmocka_unit_test(test_copy_plans),
        cmocka_unit_test(test_plan_merge_and_i32),
        cmocka_unit_test(test_matmul_plans),
        cmocka_unit_test(test_dim_last),
    };
    return cmocka_run_group_tests_name("cuda_host", tests, NULL, NULL);
}
