#!/usr/bin/python3
"""gen_overflow.py: PyTorch's answers at the edge of 64 bits, tests/fixtures/overflow.json.

Shapes whose element or byte counts overflow int64, strides near 2^63,
steps of INT64_MAX: torch runs them on its meta device (no data), and the
oracle runner (tests/unit/test_oracle.c) replays them through mt_run like
every other fixture file.  The case machinery is gen_fixtures.py's; this
file only adds the cases and the two overflow messages to its error map.

Left out on purpose, because torch 1.13's own int64 arithmetic wraps there
and tensorlint gives the exact answer instead (tests/unit/test_limits.c
holds those): a slice step near 2^63 (torch: 0 elements where Python has
1), as_strided with an offset near 2^62, cat whose sizes add up past 2^63,
conv2d with a padding near 2^62, and expanded views torch accepts whose
bytes exceed 2^63 - 1.

    /usr/bin/python3 tests/oracle/gen_overflow.py           # writes tests/fixtures/overflow.json
    /usr/bin/python3 tests/oracle/gen_overflow.py --check   # exit 1 when it is stale
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_fixtures as g  # noqa: E402

import torch  # noqa: E402

g.ERROR_MAP += [
    (r"^numel: integer multiplication overflow", "out-of-memory"),
    (r"^Storage size calculation overflowed with sizes=", "out-of-memory"),
]

P62, P61, P40, P30 = 2 ** 62, 2 ** 61, 2 ** 40, 2 ** 30
MAX = 2 ** 63 - 1


def fam_overflow():
    f = g.Family("overflow")

    def case(name, exec_device="meta"):
        return f.case(name, values=False, exec_device=exec_device)

    def err(name, build, exec_device="meta"):
        c = case(name, exec_device)
        build(c)
        if not c.errored:
            raise g.GenError("%s: no step failed" % c.name)

    # creation: storage bytes, multiplied left to right as torch does
    for shape, dt in (([P62, P62], "f32"), ([P62, P62, 0], "f32"), ([P61], "f32"), ([P62], "i16"),
                      ([P40, P30], "f32"), ([2 ** 32] * 2, "f64")):
        for op in ("empty", "zeros"):
            err("create/%s-%s-%s" % (op, g.sname(shape), dt),
                lambda c, op=op, shape=shape, dt=dt: c(op, shape, dt, "cpu", err=True))
    for shape, dt in (([0, P62, P62], "f32"), ([P61, 0], "f32"), ([MAX], "i8"), ([P61, 2], "u8")):
        c = case("create/ok-%s-%s" % (g.sname(shape), dt))
        c.empty(shape, dt)
    err("create/arange-2^62-f32", lambda c: c.arange(P62, "f32", err=True))
    err("create/randint-2^62", lambda c: c.randint(0, 10, [P62], err=True))
    # expand: numel overflows
    for shape in ([P62, P62], [P61, 4], [2 ** 31] * 4, [P62, P62, 1, 0]):
        err("expand/%s" % g.sname(shape), lambda c, shape=shape: c("expand", c.empty([1]), shape, err=True))
    for shape in ([P62, 0], [0, P62, P62], [MAX]):
        c = case("expand/ok-%s" % g.sname(shape))
        c("expand", c.empty([1, 1] if len(shape) == 2 else [1], "i8"), shape)
    c = case("expand/ok-2^62-unsqueeze")
    c("unsqueeze", c("expand", c.empty([1], "i8"), [P62]), 0)
    err("expand/2^62-then-3", lambda c: c("expand", c("unsqueeze", c("expand", c.empty([1], "i8"), [P62]), 0),
                                          [3, P62], err=True))
    # views of storages near 2^63 bytes
    c = case("view/2^62-bytes")
    c("view", c.empty([P62], "i8"), [P61, 2])
    c = case("view/2^63-1-bytes")
    c("view", c.empty([MAX], "i8"), [-1, 1])
    err("view/numel-product", lambda c: c("view", c.empty([4]), [P62, P62], err=True))
    err("view/numel-product-inferred", lambda c: c("view", c.empty([4]), [P62, P62, -1], err=True))
    err("view/zero-last", lambda c: c("view", c.empty([0]), [P62, P62, 0], err=True))
    c = case("view/zero-first")
    c("view", c.empty([0]), [0, P62, P62])
    c = case("slice/2^62-step")
    c("slice", c.empty([P62], "i8"), 0, 0, g.TL_END, P62)
    c = case("slice/2^61-step-of-rows")
    c("slice", c("view", c.empty([P62], "i8"), [2, P61]), 1, 0, g.TL_END, P61)
    c = case("slice/past-the-end")
    c("slice", c.empty([10]), 0, P62, g.TL_END, 1)
    c = case("reshape/2^60-elements")
    c("reshape", c("t", c.empty([P30, P30], "i8")), [-1])
    # elementwise and reductions over broadcast views
    err("add/broadcast-2^80", lambda c: c("add", c("expand", c.empty([1, 1]), [P40, 1]),
                                         c("expand", c.empty([1, 1]), [1, P40]), err=True))
    err("matmul/batch-broadcast", lambda c: c("matmul", c("expand", c.empty([1, 1, 1, 1]), [P40, 1, 1, 1]),
                                              c("expand", c.empty([1, 1, 1, 1]), [1, P40, 1, 1]), err=True))
    err("sum/bool-to-i64", lambda c: c("sum", c("view", c.empty([P62], "bool"), [P62, 1]), 1, True, err=True))
    c = case("sum/2^60-rows")
    c("sum", c("expand", c.empty([1, 1]), [2 ** 59, 2]), 0, False)
    # as_strided: strides near 2^63
    err("as_strided/strides-2^62", lambda c: c("as_strided", c.empty([2, 2]), [2, 2], [P62, P62], 0, err=True), "cpu")
    err("as_strided/numel", lambda c: c("as_strided", c.empty([2, 2]), [P62, P62], [0, 0], 0, err=True), "cpu")
    # indexing into results too large to store
    err("index/2^69-elements", lambda c: c("index", c.empty([3, 1024], "f64"),
                                          c("expand", c.zeros([1], "i64"), [2 ** 59]), err=True))
    return f


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the file on disk, write nothing")
    args = ap.parse_args()
    torch.set_num_threads(1)
    cases = fam_overflow().cases
    text = g.dump_file(cases)
    path = os.path.join(g.OUT_DIR, "overflow.json")
    if args.check:
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            print("stale fixture (rerun tests/oracle/gen_overflow.py): %s" % path)
            return 1
        return 0
    with open(path, "w") as f:
        f.write(text)
    print("%s: %d cases" % (path, len(cases)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
