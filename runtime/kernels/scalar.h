/*
 * scalar.h: one element's conversions and the generator's mixing, written
 * once for the CPU kernels (C), the CUDA kernels (device code) and the
 * emulated CUDA device.  Every function is inline and, under nvcc,
 * __host__ __device__, so the GPU and its host emulation run the same
 * source and cannot drift apart.  Prefix sc_.
 *
 * Values move through one of two domains: int64 (integers and bool: exact,
 * narrowing wraps) and double (floats: f16/bf16/f32 widen exactly).
 *
 * f32 <-> f16 are c10's fp16_ieee_{from,to}_fp32_value: round to nearest
 * even, overflow to inf, NaN becomes the canonical 0x7E00 (sign kept); f16
 * -> f32 quiets a signalling NaN and keeps its payload, which the code does
 * with integer operations (a GPU's float arithmetic would return its own
 * canonical NaN).  f32 -> bf16 is c10's round_to_nearest_even; NaN becomes
 * 0x7FC0.  f64 and integers go to f16 / bf16 through f32, as
 * c10::Half(float(x)) does.  Float arithmetic is spelled with __fmul_rn /
 * __fadd_rn on the device so that nvcc cannot contract it into an FMA.
 *
 * Float to integer (C leaves out-of-range conversions undefined): x86's
 * cvttss2si rule, which PyTorch's results show.  A value whose truncation
 * fits the 32-bit (64-bit for I64) range is truncated toward zero; anything
 * else, NaN included, gives the "integer indefinite" INT32_MIN (INT64_MIN).
 * I8, U8 and I16 keep the low bits of that 32-bit result (300.0 -> i8 44,
 * -1.0 -> u8 255).  Integer narrowing wraps (two's complement).  To bool:
 * x != 0.
 */
#ifndef TL_SCALAR_H
#define TL_SCALAR_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <tensorlint/tensor.h>

#if defined(__CUDACC__)
#define SC_FN static __host__ __device__ __forceinline__
#else
#define SC_FN static inline
#endif

#if defined(__CUDA_ARCH__)
#define SC_FMUL(a, b) __fmul_rn((a), (b))
#define SC_FADD(a, b) __fadd_rn((a), (b))
#else
#define SC_FMUL(a, b) ((a) * (b))
#define SC_FADD(a, b) ((a) + (b))
#endif

SC_FN uint32_t sc_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

SC_FN float sc_f32_of_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* c10::detail::fp16_ieee_from_fp32_value */
SC_FN uint16_t sc_f32_to_f16(float f)
{
    uint32_t w = sc_f32_bits(f), shl1_w = w + w, sign = w & 0x80000000u;
    if (shl1_w > 0xFF000000u) /* NaN */
        return (uint16_t)((sign >> 16) | 0x7E00u);
    float base = SC_FMUL(SC_FMUL(sc_f32_of_bits(w & 0x7FFFFFFFu), 0x1.0p+112f), 0x1.0p-110f);
    uint32_t bias = shl1_w & 0xFF000000u;
    if (bias < 0x71000000u)
        bias = 0x71000000u;
    base = SC_FADD(sc_f32_of_bits((bias >> 1) + 0x07800000u), base);
    uint32_t bits = sc_f32_bits(base);
    return (uint16_t)((sign >> 16) | (((bits >> 13) & 0x00007C00u) + (bits & 0x00000FFFu)));
}

/* c10::detail::fp16_ieee_to_fp32_value; a NaN's payload moves up 13 bits, quieted. */
SC_FN float sc_f16_to_f32(uint16_t h)
{
    uint32_t w = (uint32_t)h << 16, sign = w & 0x80000000u, two_w = w + w;
    if ((h & 0x7C00u) == 0x7C00u && (h & 0x03FFu))
        return sc_f32_of_bits(sign | 0x7FC00000u | (uint32_t)(h & 0x03FFu) << 13);
    if (two_w < (1u << 27)) { /* zero or subnormal: exact as a difference */
        float denormalized = sc_f32_of_bits((two_w >> 17) | (126u << 23)) - 0.5f;
        return sc_f32_of_bits(sign | sc_f32_bits(denormalized));
    }
    float normalized = SC_FMUL(sc_f32_of_bits((two_w >> 4) + (0xE0u << 23)), 0x1.0p-112f);
    return sc_f32_of_bits(sign | sc_f32_bits(normalized));
}

/* c10::detail::round_to_nearest_even */
SC_FN uint16_t sc_f32_to_bf16(float f)
{
    uint32_t u = sc_f32_bits(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) /* NaN */
        return 0x7FC0;
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

SC_FN float sc_bf16_to_f32(uint16_t h) { return sc_f32_of_bits((uint32_t)h << 16); }

/* cvttsd2si with a 32-bit destination. */
SC_FN int32_t sc_trunc_i32(double v)
{
    return (v > -2147483649.0 && v < 2147483648.0) ? (int32_t)v : INT32_MIN;
}

/* cvttsd2si with a 64-bit destination. */
SC_FN int64_t sc_trunc_i64(double v)
{
    return (v >= -9223372036854775808.0 && v < 9223372036854775808.0) ? (int64_t)v : INT64_MIN;
}

SC_FN bool sc_is_integral(int dt) { return dt <= TL_I64; }

/* Bytes per element (tensor.h's order: 1,1,1,2,4,8,2,2,4,8). */
SC_FN int sc_size_of(int dt)
{
    switch (dt) {
    case TL_I16: case TL_F16: case TL_BF16: return 2;
    case TL_I32: case TL_F32: return 4;
    case TL_I64: case TL_F64: return 8;
    default: return 1;
    }
}

/* One element of dtype dt as a double. */
SC_FN double sc_load_f64(int dt, const void *p)
{
    switch (dt) {
    case TL_BOOL: return *(const uint8_t *)p != 0;
    case TL_U8: return *(const uint8_t *)p;
    case TL_I8: return *(const int8_t *)p;
    case TL_I16: return *(const int16_t *)p;
    case TL_I32: return *(const int32_t *)p;
    case TL_I64: return (double)*(const int64_t *)p;
    case TL_F16: return sc_f16_to_f32(*(const uint16_t *)p);
    case TL_BF16: return sc_bf16_to_f32(*(const uint16_t *)p);
    case TL_F32: return *(const float *)p;
    default: return *(const double *)p;
    }
}

/* Integer dtypes exactly; floats by the truncation rule. */
SC_FN int64_t sc_load_i64(int dt, const void *p)
{
    switch (dt) {
    case TL_BOOL: return *(const uint8_t *)p != 0;
    case TL_U8: return *(const uint8_t *)p;
    case TL_I8: return *(const int8_t *)p;
    case TL_I16: return *(const int16_t *)p;
    case TL_I32: return *(const int32_t *)p;
    case TL_I64: return *(const int64_t *)p;
    default: return sc_trunc_i64(sc_load_f64(dt, p));
    }
}

/* A double into dtype dt (floats to integers by truncation). */
SC_FN void sc_store_f64(int dt, void *p, double v)
{
    switch (dt) {
    case TL_BOOL: *(uint8_t *)p = v != 0; return;
    case TL_U8: *(uint8_t *)p = (uint8_t)(uint32_t)sc_trunc_i32(v); return;
    case TL_I8: *(int8_t *)p = (int8_t)sc_trunc_i32(v); return;
    case TL_I16: *(int16_t *)p = (int16_t)sc_trunc_i32(v); return;
    case TL_I32: *(int32_t *)p = sc_trunc_i32(v); return;
    case TL_I64: *(int64_t *)p = sc_trunc_i64(v); return;
    case TL_F16: *(uint16_t *)p = sc_f32_to_f16((float)v); return;
    case TL_BF16: *(uint16_t *)p = sc_f32_to_bf16((float)v); return;
    case TL_F32: *(float *)p = (float)v; return;
    default: *(double *)p = v; return;
    }
}

/* An int64 into dtype dt (integers wrap; floats round once, f16/bf16 through f32). */
SC_FN void sc_store_i64(int dt, void *p, int64_t v)
{
    switch (dt) {
    case TL_BOOL: *(uint8_t *)p = v != 0; return;
    case TL_U8: *(uint8_t *)p = (uint8_t)v; return;
    case TL_I8: *(int8_t *)p = (int8_t)v; return;
    case TL_I16: *(int16_t *)p = (int16_t)v; return;
    case TL_I32: *(int32_t *)p = (int32_t)v; return;
    case TL_I64: *(int64_t *)p = v; return;
    case TL_F16: *(uint16_t *)p = sc_f32_to_f16((float)v); return;
    case TL_BF16: *(uint16_t *)p = sc_f32_to_bf16((float)v); return;
    case TL_F32: *(float *)p = (float)v; return;
    default: *(double *)p = (double)v; return;
    }
}

/* dst = src, one element, any two dtypes (the copy rule). */
SC_FN void sc_convert(void *d, int ddt, const void *s, int sdt)
{
    if (sc_is_integral(sdt))
        sc_store_i64(ddt, d, sc_load_i64(sdt, s));
    else
        sc_store_f64(ddt, d, sc_load_f64(sdt, s));
}

/* An integer value as dtype dt holds it (wraps; bool is != 0). */
SC_FN int64_t sc_wrap_int(int64_t v, int dt)
{
    switch (dt) {
    case TL_BOOL: return v != 0;
    case TL_U8: return (uint8_t)v;
    case TL_I8: return (int8_t)v;
    case TL_I16: return (int16_t)v;
    case TL_I32: return (int32_t)v;
    default: return v;
    }
}

/* A value as floating dtype dt holds it (f64 untouched). */
SC_FN double sc_round_float(double v, int dt)
{
    switch (dt) {
    case TL_F16: return sc_f16_to_f32(sc_f32_to_f16((float)v));
    case TL_BF16: return sc_bf16_to_f32(sc_f32_to_bf16((float)v));
    case TL_F32: return (float)v;
    default: return v;
    }
}

/* ---- the generator: splitmix64, counter-based ---- */

#define SC_GOLDEN 0x9E3779B97F4A7C15ull

/* splitmix64's output function. */
SC_FN uint64_t sc_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Draw j (0-based) of a call starting at state base, as splitmix64 makes it:
 * [0, 1) with 53 random bits. */
SC_FN double sc_uniform(uint64_t base, uint64_t j)
{
    return (double)(sc_mix(base + (j + 1) * SC_GOLDEN) >> 11) * 0x1.0p-53;
}

/* randint's element i on CUDA: it draws from its own stream until a value at
 * or above the rejection threshold (2^64 mod range), which leaves no modulo
 * bias.  A call advances the generator by one draw per element. */
SC_FN int64_t sc_randint_value(uint64_t base, int64_t low, uint64_t range, int64_t i)
{
    uint64_t threshold = (0 - range) % range, s = sc_mix(base + ((uint64_t)i + 1) * SC_GOLDEN), r;
    do {
        s += SC_GOLDEN;
        r = sc_mix(s);
    } while (r < threshold);
    return (int64_t)((uint64_t)low + r % range);
}

#endif /* TL_SCALAR_H */
