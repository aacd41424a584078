/*
 * kernel_convert.c: one element converted between dtypes, bit for bit as
 * PyTorch's CPU code does it: the kernels.h entry points of scalar.h, the
 * one source of the conversions that the CPU kernels, the CUDA kernels and
 * the emulated CUDA device share.  The bulk loops in kernel_copy.c are
 * built from the same functions (the unit tests hold the two to each other
 * over edge values).
 * The rules (c10's f16/bf16 rounding, x86's float-to-integer truncation,
 * wrapping integers) are stated at the top of scalar.h.
 */
#include <assert.h>

#include "kernels.h"
#include "scalar.h"

uint16_t rt_f32_to_f16(float f) { return sc_f32_to_f16(f); }
float rt_f16_to_f32(uint16_t h) { return sc_f16_to_f32(h); }
uint16_t rt_f32_to_bf16(float f) { return sc_f32_to_bf16(f); }
float rt_bf16_to_f32(uint16_t h) { return sc_bf16_to_f32(h); }

double rt_load(tl_dtype d, const void *p)
{
    assert((unsigned)d <= TL_F64 && "rt_load: unknown dtype");
    return sc_load_f64(d, p);
}

/* v is a double: f16 and bf16 round through f32, as c10::Half(float(v)) does. */
void rt_store(tl_dtype d, void *p, double v)
{
    assert((unsigned)d <= TL_F64 && "rt_store: unknown dtype");
    sc_store_f64(d, p, v);
}
