#!/usr/bin/python3
"""fit_simd_poly.py: the polynomial coefficients of the f32 kernels in
runtime/kernels/simd_math.h, written to runtime/kernels/simd_poly.h.

Each polynomial is a minimax fit of relative error (Lawson's iteration:
least squares on Chebyshev nodes, reweighted by the error until the
largest error stops falling), in double, then rounded to f32:

  exp    e^r ~ 1 + r + r^2 (c0 + c1 r + ... + c4 r^4) on |r| <= ln2/2 (and a
         little more: n = round(x log2 e) is computed in f32)
  tanh   tanh(x) ~ x + x^3 (c0 + c1 x^2 + ... ) on [0, TANH_SMALL]; above
         it the kernel uses 1 - 2 / (e^2x + 1)
  gelu   the normal tail Q(a) = erfc(a / sqrt 2) / 2 = e^(-a^2/2) g(a) with
         g(a) ~ t (c0 + c1 u + ... + c11 u^11), t = 2 / (2 + a), u = t mapped
         onto [-1, 1], a in [0, GELU_A_MAX]; gelu(x) = x (1 - Q(x)) for
         x >= 0, x Q(-x) below.  (The variable t makes g nearly a constant
         times t; 2 keeps g's sensitivity to t's rounding near 1; the
         polynomial in u, not t, keeps Horner's rule well conditioned.)

Also written: the Cody-Waite split of ln 2 (a high part with few enough bits
that n * LN2_HI is exact for every n the kernels use, and the rest).

    /usr/bin/python3 scripts/fit_simd_poly.py           # writes runtime/kernels/simd_poly.h
    /usr/bin/python3 scripts/fit_simd_poly.py --check   # exit 1 when the file differs
    /usr/bin/python3 scripts/fit_simd_poly.py --report  # the fits' errors in double

Needs numpy (Debian's python3-numpy, which python3-torch pulls in).  The
errors of the f32 kernels themselves (coefficients rounded, f32
arithmetic) are measured by bench/bench_ulp.c and bounded by
tests/unit/test_simd_math.c.
"""
import argparse
import math
import os
import sys

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runtime", "kernels",
                   "simd_poly.h")
N_NODES = 2000
LAWSON_STEPS = 400
EXP_R = 0.3466                    # ln2 / 2 = 0.34657..., plus the f32 rounding of x log2 e
TANH_SMALL = 0.625                # below: the odd polynomial; above: through exp
GELU_A_MAX = 14.5                 # gelu(x) rounds to -0 below -14.36
GELU_T_SCALE = 2.0                # t = GELU_T_SCALE / (GELU_T_SCALE + a)
GELU_DEGREE = 11


def f32(v):
    return float(np.float32(v))


def chebyshev_nodes(lo, hi, n=N_NODES):
    k = np.arange(n)
    return (lo + hi) / 2 + (hi - lo) / 2 * np.cos(np.pi * (k + 0.5) / n)


def lawson(basis, target, scale):
    """Coefficients c minimising max |basis @ c - target| / scale (Lawson)."""
    a, b = basis / scale[:, None], target / scale
    w = np.full(len(b), 1.0 / len(b))
    best, best_err = None, math.inf
    for _ in range(LAWSON_STEPS):
        sw = np.sqrt(w)
        c = np.linalg.lstsq(a * sw[:, None], b * sw, rcond=None)[0]
        e = np.abs(a @ c - b)
        if e.max() < best_err:
            best, best_err = c, e.max()
        w = w * e
        w /= w.sum()
    return best, best_err


def fit_exp():
    r = chebyshev_nodes(-EXP_R, EXP_R)
    basis = np.stack([r ** (k + 2) for k in range(5)], axis=1)
    return lawson(basis, np.expm1(r) - r, np.exp(r))


def fit_tanh():
    x = chebyshev_nodes(1e-3, TANH_SMALL)
    basis = np.stack([x ** (2 * k + 3) for k in range(5)], axis=1)
    return lawson(basis, np.tanh(x) - x, np.tanh(x))


def normal_tail_scaled(a):
    """g(a) = Q(a) e^(a^2/2), Q the standard normal's upper tail."""
    return np.array([math.erfc(v / math.sqrt(2)) / 2 * math.exp(v * v / 2) for v in a])


def gelu_u_map():
    """u = GELU_U_SCALE t + GELU_U_SHIFT maps t's range onto [-1, 1] (f32)."""
    t_lo, t_hi = GELU_T_SCALE / (GELU_T_SCALE + GELU_A_MAX), 1.0
    return f32(2 / (t_hi - t_lo)), f32(-(t_hi + t_lo) / (t_hi - t_lo))


def fit_gelu():
    t_min = GELU_T_SCALE / (GELU_T_SCALE + GELU_A_MAX)
    t = chebyshev_nodes(t_min, 1.0)
    a = GELU_T_SCALE / t - GELU_T_SCALE
    scale, shift = gelu_u_map()
    u = scale * t + shift
    g = normal_tail_scaled(a)
    basis = np.stack([t * u ** k for k in range(GELU_DEGREE + 1)], axis=1)
    return lawson(basis, g, g)


def ln2_split():
    """LN2_HI: ln 2 to 16 bits (n * LN2_HI exact for |n| < 2^8); LN2_LO: the rest."""
    hi = math.floor(math.log(2) * 2 ** 16) / 2 ** 16
    return f32(hi), f32(math.log(2) - hi)


def c_float(v):
    """The shortest decimal that reads back as the same f32."""
    return np.format_float_scientific(np.float32(v), unique=True) + "f"


def c_array(name, coeffs, comment):
    vals = ", ".join(c_float(c) for c in coeffs)
    return f"/* {comment} */\nstatic const float {name}[{len(coeffs)}] = {{{vals}}};\n"


def header():
    exp_c, _ = fit_exp()
    tanh_c, _ = fit_tanh()
    gelu_c, _ = fit_gelu()
    hi, lo = ln2_split()
    u_scale, u_shift = gelu_u_map()
    parts = [
        "/*\n"
        " * simd_poly.h: the polynomial coefficients of simd_math.h's f32 kernels.\n"
        " * Written by scripts/fit_simd_poly.py (minimax fits of relative error,\n"
        " * rounded to f32); do not edit, rerun it.  Lowest degree first.\n"
        " */\n"
        "#ifndef TL_SIMD_POLY_H\n#define TL_SIMD_POLY_H\n\n",
        f"#define SM_LOG2E {c_float(1 / math.log(2))}\n",
        f"#define SM_LN2_HI {c_float(hi)} /* ln 2 to 16 bits: n * SM_LN2_HI is exact */\n",
        f"#define SM_LN2_LO {c_float(lo)} /* ln 2 - SM_LN2_HI */\n",
        f"#define SM_TANH_SMALL {c_float(TANH_SMALL)}\n",
        f"#define SM_GELU_A_MAX {c_float(GELU_A_MAX)}\n",
        f"#define SM_GELU_T_SCALE {c_float(GELU_T_SCALE)}\n",
        f"#define SM_GELU_U_SCALE {c_float(u_scale)} /* u = SM_GELU_U_SCALE t + SM_GELU_U_SHIFT */\n",
        f"#define SM_GELU_U_SHIFT {c_float(u_shift)} /* maps t's range onto [-1, 1] */\n\n",
        c_array("SM_EXP_POLY", exp_c,
                f"e^r = 1 + r + r^2 P(r), |r| <= {EXP_R}"),
        c_array("SM_TANH_POLY", tanh_c,
                f"tanh x = x + x^3 P(x^2), 0 <= x <= SM_TANH_SMALL"),
        c_array("SM_GELU_POLY", gelu_c,
                "erfc(a / sqrt 2) / 2 = e^(-a^2/2) t P(u), t = SM_GELU_T_SCALE / "
                "(SM_GELU_T_SCALE + a), 0 <= a <= SM_GELU_A_MAX"),
        "\n#endif /* TL_SIMD_POLY_H */\n",
    ]
    return "".join(parts)


def report():
    for name, fit in (("exp", fit_exp), ("tanh", fit_tanh), ("gelu tail", fit_gelu)):
        _, err = fit()
        print(f"{name}: max relative error in double {err:.3g} ({err / 2 ** -24:.3f} f32 ulp)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when simd_poly.h is stale")
    ap.add_argument("--report", action="store_true", help="print the fits' errors")
    args = ap.parse_args()
    if args.report:
        report()
        return 0
    text = header()
    if args.check:
        with open(OUT) as f:
            stale = f.read() != text
        print("simd_poly.h is stale" if stale else "simd_poly.h is up to date")
        return 1 if stale else 0
    with open(OUT, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
