/*
 * kernel_convert.c: one element converted between dtypes, bit for bit as
 * PyTorch's CPU code does it.  These are the reference conversions; the bulk
 * loops in kernel_copy.c follow the same rules (the unit tests hold the two
 * to each other over edge values).
 *
 * f32 <-> f16 are c10's fp16_ieee_{from,to}_fp32_value: round to nearest
 * even through the FPU, overflow to inf, NaN becomes the canonical 0x7E00
 * (sign kept), and f16 -> f32 quiets a signalling NaN.  f32 -> bf16 is c10's
 * round_to_nearest_even: add 0x7FFF plus the lowest kept bit, keep the high
 * half; NaN becomes 0x7FC0 (c10's scalar rule; PyTorch's AVX2 copy loop writes
 * 0xFFFF instead, both are quiet NaNs).  f64 goes to f16 / bf16 through f32,
 * like c10::Half(float(x)); integers go to f16 / bf16 through f32 too.
 *
 * Float to integer (C leaves out-of-range conversions undefined): x86's
 * cvttss2si rule, which PyTorch's results show.  A value whose truncation
 * fits the 32-bit (64-bit for I64) range is truncated toward zero; anything
 * else, NaN included, gives the "integer indefinite" INT32_MIN (INT64_MIN).
 * I8, U8 and I16 keep the low bits of that 32-bit result (300.0 -> i8 44,
 * -1.0 -> u8 255).  Integer narrowing wraps (two's complement).  To bool: x != 0.
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "kernels.h"

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* c10::detail::fp16_ieee_from_fp32_value */
uint16_t rt_f32_to_f16(float f)
{
    const float scale_to_inf = 0x1.0p+112f, scale_to_zero = 0x1.0p-110f;
    float base = (fabsf(f) * scale_to_inf) * scale_to_zero;
    uint32_t w = f32_bits(f), shl1_w = w + w, sign = w & 0x80000000u;
    uint32_t bias = shl1_w & 0xFF000000u;
    if (bias < 0x71000000u)
        bias = 0x71000000u;
    base = f32_from_bits((bias >> 1) + 0x07800000u) + base;
    uint32_t bits = f32_bits(base);
    uint32_t nonsign = ((bits >> 13) & 0x00007C00u) + (bits & 0x00000FFFu);
    return (uint16_t)((sign >> 16) | (shl1_w > 0xFF000000u ? 0x7E00u : nonsign));
}

/* c10::detail::fp16_ieee_to_fp32_value */
float rt_f16_to_f32(uint16_t h)
{
    uint32_t w = (uint32_t)h << 16, sign = w & 0x80000000u, two_w = w + w;
    float normalized = f32_from_bits((two_w >> 4) + (0xE0u << 23)) * 0x1.0p-112f;
    float denormalized = f32_from_bits((two_w >> 17) | (126u << 23)) - 0.5f;
    uint32_t bits = two_w < (1u << 27) ? f32_bits(denormalized) : f32_bits(normalized);
    return f32_from_bits(sign | bits);
}

/* c10::detail::round_to_nearest_even */
uint16_t rt_f32_to_bf16(float f)
{
    if (isnan(f))
        return 0x7FC0;
    uint32_t u = f32_bits(f);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

float rt_bf16_to_f32(uint16_t h)
{
    return f32_from_bits((uint32_t)h << 16);
}

/* cvttsd2si with a 32-bit destination (see the top of the file). */
static int32_t trunc_to_i32(double v)
{
    return (v > -2147483649.0 && v < 2147483648.0) ? (int32_t)v : INT32_MIN;
}

/* cvttsd2si with a 64-bit destination. */
static int64_t trunc_to_i64(double v)
{
    return (v >= -9223372036854775808.0 && v < 9223372036854775808.0) ? (int64_t)v : INT64_MIN;
}

double rt_load(tl_dtype d, const void *p)
{
    switch (d) {
    case TL_BOOL: return *(const uint8_t *)p != 0;
    case TL_U8: return *(const uint8_t *)p;
    case TL_I8: return *(const int8_t *)p;
    case TL_I16: return *(const int16_t *)p;
    case TL_I32: return *(const int32_t *)p;
    case TL_I64: return (double)*(const int64_t *)p;
    case TL_F16: return rt_f16_to_f32(*(const uint16_t *)p);
    case TL_BF16: return rt_bf16_to_f32(*(const uint16_t *)p);
    case TL_F32: return *(const float *)p;
    case TL_F64: return *(const double *)p;
    }
    assert(!"rt_load: unknown dtype");
    return 0;
}

/* v is a double: f16 and bf16 round through f32, as c10::Half(float(v)) does. */
void rt_store(tl_dtype d, void *p, double v)
{
    switch (d) {
    case TL_BOOL: *(uint8_t *)p = v != 0; return;
    case TL_U8: *(uint8_t *)p = (uint8_t)(uint32_t)trunc_to_i32(v); return;
    case TL_I8: *(int8_t *)p = (int8_t)trunc_to_i32(v); return;
    case TL_I16: *(int16_t *)p = (int16_t)trunc_to_i32(v); return;
    case TL_I32: *(int32_t *)p = trunc_to_i32(v); return;
    case TL_I64: *(int64_t *)p = trunc_to_i64(v); return;
    case TL_F16: *(uint16_t *)p = rt_f32_to_f16((float)v); return;
    case TL_BF16: *(uint16_t *)p = rt_f32_to_bf16((float)v); return;
    case TL_F32: *(float *)p = (float)v; return;
    case TL_F64: *(double *)p = v; return;
    }
    assert(!"rt_store: unknown dtype");
}
