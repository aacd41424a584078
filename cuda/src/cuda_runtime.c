/*
 * cuda_runtime.c: which backend runs TL_CUDA work, whether a device is
 * there, the pending-error record, scratch buffers and the exit-time
 * teardown.  Plain C, built in every configuration: without nvcc the
 * built-in backend is "none", which reports no device and why.
 *
 * The environment variable TL_CUDA_EMULATION picks the emulated device
 * (cuda_emulation.c) instead of the built-in backend: "1" always, "auto"
 * when the built-in backend finds no device, unset, empty or "0" never.
 * Any other value leaves TL_CUDA without a device, and says why.  Tests may
 * still install their own backend over either (cu_backend_use).
 *
 * Invariants: the device answer is asked of the backend once (until
 * cu_shutdown or a backend change); a pending error is never overwritten,
 * so the runtime reports the first failure of an API call, the cause.
 */
#include "cuda_rt.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const cu_backend *backend; /* NULL: the default one (cu_backend_default) */
static const cu_backend *chosen;  /* the default, once TL_CUDA_EMULATION was read */
static cu_error pending;
static bool has_pending;
static int n_devices = -1;        /* -1: not asked yet */
static const char *why_none;
static int64_t n_scratch;         /* scratch buffers alive */

/* ---- backends without a device: "none" (a build without CUDA), "invalid" ---- */

static tl_status none_alloc(int64_t nbytes, void **ptr, const char **detail)
{
    (void)nbytes;
    *ptr = NULL;
    *detail = "no CUDA runtime in this build";
    return TL_ERR_DEVICE;
}

static void none_free(void *ptr) { (void)ptr; }

static bool none_copy(void *dst, const void *src, int64_t nbytes, cu_copy_kind kind)
{
    (void)dst, (void)src, (void)nbytes, (void)kind;
    cu_fail(TL_ERR_DEVICE, "device copy", "no CUDA runtime in this build");
    return false;
}

static bool none_sync(void) { return true; }
static void none_shutdown(void) {}

static int invalid_count(const char **why)
{
    *why = "TL_CUDA_EMULATION is set to something other than 0, 1 or auto";
    return 0;
}

static const cu_backend invalid_backend = {
    "invalid", invalid_count, none_alloc, none_free, none_copy, none_sync, none_shutdown, NULL,
};

#ifndef TL_HAVE_CUDA

static int none_count(const char **why)
{
    *why = "this tensorlint was built without CUDA (TL_ENABLE_CUDA=OFF, or nvcc was not found "
           "when it was configured)";
    return 0;
}

static const cu_backend none_backend = {
    "none", none_count, none_alloc, none_free, none_copy, none_sync, none_shutdown, NULL,
};

const cu_backend *cu_backend_builtin(void) { return &none_backend; }
#else
extern const cu_backend cu_backend_cuda; /* cuda_device.cu */
const cu_backend *cu_backend_builtin(void) { return &cu_backend_cuda; }
#endif

static const cu_backend *choose(void)
{
    const char *v = getenv("TL_CUDA_EMULATION");
    const char *why = NULL;
    if (!v || !*v || strcmp(v, "0") == 0)
        return cu_backend_builtin();
    if (strcmp(v, "1") == 0)
        return &cu_backend_emulation;
    if (strcmp(v, "auto") != 0)
        return &invalid_backend;
    return cu_backend_builtin()->device_count(&why) > 0 ? cu_backend_builtin()
                                                         : &cu_backend_emulation;
}

const cu_backend *cu_backend_default(void)
{
    if (!chosen)
        chosen = choose();
    return chosen;
}

const cu_backend *cu_backend_current(void) { return backend ? backend : cu_backend_default(); }

bool cu_emulated(void) { return cu_backend_current() == &cu_backend_emulation; }

const char *cu_backend_asked(void) { return n_devices < 0 ? NULL : cu_backend_current()->name; }

void cu_backend_use(const cu_backend *b)
{
    ca_stats st;
    cu_alloc_stats(&st);
    assert(st.n_allocations.current == 0 && n_scratch == 0 && "backend change with live memory");
    cu_alloc_shutdown();
    backend = b;
    chosen = NULL; /* TL_CUDA_EMULATION is read again */
    n_devices = -1;
    has_pending = false;
}

/* ---- errors ---- */

void cu_fail(tl_status status, const char *call, const char *detail)
{
    if (has_pending)
        return;
    pending = (cu_error){status, call ? call : "CUDA", detail ? detail : "unknown error"};
    has_pending = true;
}

bool cu_error_take(cu_error *out)
{
    if (!has_pending)
        return false;
    *out = pending;
    has_pending = false;
    return true;
}

bool cu_error_pending(void) { return has_pending; }

/* ---- the device ---- */

bool cu_available(void)
{
    if (n_devices < 0) {
        const char *why = NULL;
        int n = cu_backend_current()->device_count(&why);
        n_devices = n > 0 ? n : 0;
        why_none = why ? why : "no CUDA device was found";
    }
    return n_devices > 0;
}

const char *cu_unavailable_reason(void)
{
    return cu_available() ? "a CUDA device is available" : why_none;
}

bool cu_synchronize(void)
{
    return n_devices <= 0 || cu_backend_current()->synchronize();
}

void cu_shutdown(void)
{
    if (n_devices > 0)
        cu_backend_current()->synchronize();
    cu_alloc_shutdown();
    if (n_devices >= 0)
        cu_backend_current()->shutdown();
    n_devices = -1;
    has_pending = false;
}

/* ---- scratch ---- */

void *cu_scratch_new(int64_t nbytes)
{
    void *p = NULL;
    const char *detail = NULL;
    tl_status st = cu_backend_current()->mem_alloc(nbytes > 0 ? nbytes : 1, &p, &detail);
    if (st != TL_OK) {
        cu_fail(st, "cudaMalloc (staging buffer)", detail);
        return NULL;
    }
    n_scratch++;
    return p;
}

/* The device may still read p: wait for it first. */
void cu_scratch_free(void *p)
{
    if (!p)
        return;
    cu_backend_current()->synchronize();
    cu_backend_current()->mem_free(p);
    n_scratch--;
}

int64_t cu_scratch_live(void) { return n_scratch; }
