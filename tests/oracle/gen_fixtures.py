#!/usr/bin/python3
"""gen_fixtures.py: the PyTorch oracle for tensorlint.

Runs every fixture case through PyTorch (Debian's torch 1.13 for
/usr/bin/python3) and writes what PyTorch answered, step by step, into
tests/fixtures/<family>.json.  tests/unit/test_oracle.c replays the same
steps through the meta functions (mt_run) and through the public runtime and
compares.  See tests/oracle/README.md for the format.

Approach: a Case is a list of steps over named variables.  Each step names an
op of rules/ops.def and gives its arguments in the op's signature
order; the step runs at once in PyTorch and records the result's metadata
(shape, strides, offset, dtype, storage id, storage bytes, view or new) and,
for small value cases, its values.  A step that raises records torch's
message and the status it maps to (ERROR_MAP), and ends the case.

Invariants: the output is a pure function of this file and the torch build
(every random choice comes from a seeded random.Random, torch runs with one
thread, JSON keys are sorted); a step that raises where the case did not say
it may (err=True, or a chain case) aborts the generator, so nothing is
skipped silently; storage ids number distinct storages in order of first
appearance, by storage identity (every tensor of a case stays alive until the
case ends, so identities are never reused).
"""
import argparse
import functools
import json
import math
import os
import random
import re
import sys
import warnings
from itertools import combinations, permutations

import numpy as np
import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPS_DEF = os.path.join(ROOT, "rules", "ops.def")
OUT_DIR = os.path.join(ROOT, "tests", "fixtures")
TL_END = 9223372036854775807
MAX_VALUES = 256  # values are recorded for results of at most this many elements
TL_MAX_DIMS = 8  # tensor.h
TL_MAX_LIST = 16  # tensor.h

DTYPES = {
    "bool": torch.bool, "u8": torch.uint8, "i8": torch.int8, "i16": torch.int16,
    "i32": torch.int32, "i64": torch.int64, "f16": torch.float16, "bf16": torch.bfloat16,
    "f32": torch.float32, "f64": torch.float64,
}
DNAMES = list(DTYPES)
DNAME_OF = {v: k for k, v in DTYPES.items()}
FLOATS = ["f16", "bf16", "f32", "f64"]
INTS = ["u8", "i8", "i16", "i32", "i64"]
BITS_DTYPE = {torch.float16: torch.int16, torch.bfloat16: torch.int16,
              torch.float32: torch.int32, torch.float64: torch.int64}
FORMATS = {"contiguous": torch.contiguous_format, "channels_last": torch.channels_last}

# torch exception message -> tl_status name.  First match wins; a message
# that matches nothing aborts the generator (it must be classified here and
# in the README's table).
ERROR_MAP = [
    (r"view size is not compatible with input tensor's size and stride", "invalid-view"),
    (r"requiring a storage size of .* are out of bounds for storage", "invalid-view"),
    (r"^Dimension out of range", "bad-dim"),
    (r"index -?\d+ is out of bounds for dimension", "bad-dim"),
    (r"^select\(\): index -?\d+ out of range", "bad-dim"),
    (r"^index out of range in self", "bad-dim"),
    (r"^INDICES element is out of DATA bounds", "bad-dim"),
    (r"^index_select\(\): self indexing axis dim should be positive", "bad-dim"),
    (r"^start out of range", "bad-dim"),
    (r"^start \(-?\d+\) \+ length \(-\d+\) exceeds dimension size", "bad-argument"),  # a negative length
    (r"^start \(-?\d+\) \+ length \(\d+\) exceeds dimension size", "bad-dim"),
    (r"^too many indices for tensor of dimension", "bad-dim"),
    (r"^t\(\) expects a tensor with <= 2 dimensions", "bad-dim"),
    (r"number of dimensions in the tensor input does not match the length of the desired ordering", "bad-dim"),
    (r"^repeated dim in permute", "bad-dim"),
    (r"^permute\(\): duplicate dims are not allowed", "bad-dim"),
    (r"^select\(\) cannot be applied to a 0-dim tensor", "bad-dim"),
    (r"^slice\(\) cannot be applied to a 0-dim tensor", "bad-dim"),
    (r"^shape '\[.*\]' is invalid for input of size", "shape-mismatch"),
    (r"must match the size of tensor b", "shape-mismatch"),
    (r"^The expanded size of the tensor \(-?\d+\) must match the existing size", "shape-mismatch"),
    (r"the number of sizes provided \(\d+\) must be greater or equal to the number of dimensions", "shape-mismatch"),
    (r"^output with shape \[.*\] doesn't match the broadcast shape", "shape-mismatch"),
    (r"shapes cannot be multiplied", "shape-mismatch"),
    (r"^size mismatch", "shape-mismatch"),
    (r"^Expected size for first two dimensions of batch2 tensor to be", "shape-mismatch"),
    (r"^both arguments to matmul need to be at least 1D", "bad-dim"),
    (r"^inconsistent tensor size", "shape-mismatch"),
    (r"^expected stride to be a single integer value or a list of \d+ values to match the convolution", "shape-mismatch"),
    (r"^Sizes of tensors must match except in dimension", "shape-mismatch"),
    (r"^Tensors must have same number of dimensions", "shape-mismatch"),
    (r"^zero-dimensional tensor \(at position \d+\) cannot be concatenated", "bad-dim"),
    (r"^Given groups=\d+, weight of size", "shape-mismatch"),
    (r"^Calculated padded input size per channel", "shape-mismatch"),
    (r"^Given groups=\d+, expected weight to be at least 1 at dimension 0", "shape-mismatch"),
    (r"^Expected \d+D \(unbatched\) or \dD \(batched\) input to conv2d", "shape-mismatch"),
    (r"^Index tensor must have the same number of dimensions as input tensor", "shape-mismatch"),
    (r"^Size does not match at dimension", "shape-mismatch"),
    (r"^index_select\(\): Index is supposed to be a vector", "bad-argument"),
    (r"^shape mismatch: indexing tensors could not be broadcast", "shape-mismatch"),
    (r"^cannot reshape tensor of 0 elements into shape", "shape-mismatch"),
    (r"not implemented for '", "dtype-mismatch"),
    (r"^Expected all tensors to be on the same device", "device"),
    (r"^Trying to pass too many CPU scalars", "device"),
    (r"^expected scalar type \w+ but found \w+", "dtype-mismatch"),
    (r"^expected (mat1 and mat2|m1 and m2) to have the same dtype", "dtype-mismatch"),
    (r"^dot : expected both vectors to have same dtype", "dtype-mismatch"),
    (r"^Input type \(.*\) and weight type \(.*\) should be the same", "dtype-mismatch"),
    (r"^result type \w+ can't be cast to the desired output type", "dtype-mismatch"),
    (r"^mean\(\): could not infer output dtype", "dtype-mismatch"),
    (r"^Negation, the `-` operator, on a bool tensor is not supported", "dtype-mismatch"),
    (r"^Subtraction, the `-` operator, with two bool tensors is not supported", "dtype-mismatch"),
    (r"^Subtraction, the `-` operator, with a bool tensor is not supported", "dtype-mismatch"),
    (r"^Boolean inputs not supported for relu", "dtype-mismatch"),
    (r"^tensors used as indices must be long, byte or bool tensors", "dtype-mismatch"),
    (r"^index_select\(\): Expected dtype int32 or int64 for index", "dtype-mismatch"),
    (r"^gather\(\): Expected dtype int64 for index", "dtype-mismatch"),
    (r"more than one element of the written-to tensor refers to a single memory location", "overlapping-write"),
    (r"some elements of the input tensor and the written-to tensor refer to a single memory location", "overlapping-write"),
    (r"^value cannot be converted to type \S+ without overflow", "bad-argument"),
    (r"^index_add_\(\): Index is supposed to be a vector", "bad-dim"),
    (r"^index_add_\(\): Expected dtype int32/int64 for index", "dtype-mismatch"),
    (r"^index_add_\(\): self \(\w+\) and source \(\w+\) must have the same scalar type", "dtype-mismatch"),
    (r"^index_add_\(\): Indexing dim -?\d+ is out of bounds of the source tensor", "bad-dim"),
    (r"^index_add_\(\): Number of indices \(\d+\) should be equal to source.size\(dim\)", "shape-mismatch"),
    (r"^source.dim\(\) \(\d+\) must one or zero for given self.dim\(\)", "shape-mismatch"),
    (r"^Integer division with addcdiv is no longer supported", "dtype-mismatch"),
    (r"needs_dynamic_casting<func_t>::check\(iter\) INTERNAL ASSERT FAILED", "dtype-mismatch"),
    (r"^expected dtype \S+ for `end` but got dtype", "dtype-mismatch"),
    (r"^Expected input batch_size \(\d+\) to match target batch_size", "shape-mismatch"),
    (r"^Expected target size \[", "shape-mismatch"),
    (r"^only batches of spatial targets supported", "shape-mismatch"),
    (r"^Target -?\d+ is out of bounds", "bad-dim"),
    (r"^Expected floating point type for target with class probabilities", "dtype-mismatch"),
    (r"^Trying to create tensor with negative dimension", "bad-argument"),
    (r"expects 'from' to be less than 'to'", "bad-argument"),
    (r"^slice step (must be positive|cannot be zero)", "bad-argument"),
    (r"^step must be greater than zero", "bad-argument"),
    (r"^narrow\(\): length must be non-negative", "bad-argument"),
    (r"^as_strided: Negative strides are not supported", "bad-argument"),
    (r"^only one dimension can be inferred", "bad-argument"),
    (r"^invalid shape dimension -?\d+", "bad-argument"),
    (r"^flatten\(\) has invalid args: start_dim cannot come after end_dim", "bad-dim"),
    (r"^The expanded size of the tensor \(-1\) isn't allowed in a leading, non-existing dimension", "shape-mismatch"),
    (r"^non-positive stride is not supported", "bad-argument"),
    (r"^negative padding is not supported", "bad-argument"),
    (r"^required rank 4 tensor to use channels_last format", "bad-argument"),
    (r"^upper bound and larger bound inconsistent with step sign", "bad-argument"),
    (r"Expected reduction dim -?\d+ to have non-zero size", "bad-dim"),
    (r"^where expected condition to be a boolean tensor", "dtype-mismatch"),
    (r"^Dimension specified as -?\d+ but tensor has no dimensions", "bad-dim"),
    (r"^Mask tensor can take 0 and 1 values only", "bad-argument"),
    (r"^stack expects each tensor to be equal size", "shape-mismatch"),
    (r"^stack expects a non-empty TensorList", "bad-argument"),
    (r"^Expected out tensor to have dtype", "dtype-mismatch"),
    (r"^Trying to resize storage that is not resizable", "bad-argument"),
    (r"^copy_to_host: the buffer holds \d+ bytes", "bad-argument"),
]


class GenError(Exception):
    """A case that does not do what its author meant: a bug in this file."""


def parse_ops_def(path):
    ops = {}
    with open(path) as f:
        for m in re.finditer(r'^TL_OP\((\w+),\s*(\w+),\s*"(\w*)"\)', f.read(), re.M):
            ops[m.group(1)] = (m.group(2), m.group(3))
    return ops


OPS = parse_ops_def(OPS_DEF)


def data_dependent(op, exc):
    """An error that depends on the values of an index tensor: the meta functions cannot see it."""
    if op == "masked_fill" and str(exc).startswith("Mask tensor can take 0 and 1 values only"):
        return True
    if op == "cross_entropy" and re.match(r"Target -?\d+ is out of bounds", str(exc)):
        return True
    if op in ("index_add_", "index_add") and str(exc).startswith("index out of range in self"):
        return True
    return op in ("index", "index_select", "gather") and status_of(exc) == "bad-dim" and \
        not str(exc).startswith("Dimension out of range") and \
        not str(exc).startswith("index_select(): self indexing axis dim should be positive")


def backend_gap(exc):
    """A kernel torch's CPU build lacks (f16 matmul, softmax, exp ...): a gap of one
    backend, not PyTorch's semantics; the runners do not compare past it."""
    return re.search(r"not implemented for '", str(exc)) is not None


def status_of(exc):
    msg = str(exc).strip()
    for pattern, status in ERROR_MAP:
        if re.search(pattern, msg):
            return status
    raise GenError("unclassified torch error: %s: %s" % (type(exc).__name__, msg))


def enc_float(x):
    """A float as JSON: a number, or "nan" / "inf" / "-inf"."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def values_of(t):
    flat = t.detach().reshape(-1)
    if t.dtype == torch.bool:
        return [int(v) for v in flat.tolist()]
    if t.dtype.is_floating_point:
        return [enc_float(v) for v in flat.to(torch.float64).tolist()]
    return [int(v) for v in flat.tolist()]


def bits_of(t):
    return t.detach().reshape(-1).contiguous().view(BITS_DTYPE[t.dtype]).tolist()


def exact_elementwise(dtype):
    """Elementwise arithmetic whose result PyTorch and C both round exactly once."""
    return dtype == torch.float64 or not dtype.is_floating_point


# Ops whose CPU implementation allocates and frees memory within the call:
# cross_entropy's log_softmax and nll_loss's total_weight, addcmul_/addcdiv_'s
# copies of inputs cast to the common dtype.  The fixtures record what torch's
# profiler measured ("temp_nbytes": the peak within the call above what the
# call leaves allocated); check_analyzer.py expects it in the peak.
TEMP_OPS = ("cross_entropy", "addcmul_", "addcdiv_")


def measured_temp(fn, runs=1):
    """fn's result and the bytes it held above what it left allocated, at its peak
    (torch.profiler's memory events: each op's own allocations in the order the ops end,
    and the frees done outside any op)."""
    from torch.profiler import profile, ProfilerActivity
    # events that end in the same microsecond can sort a free before the allocation it
    # frees, which moves the measured peak: an op that does not write its inputs is
    # measured a few times and the most frequent value kept
    seen = []
    res = None
    for _ in range(runs):
        res = None  # an earlier run's result is freed here, outside the profile
        with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
            res = fn()
        cur = peak = 0
        for e in sorted(prof.events(), key=lambda e: (e.time_range.end, -e.time_range.start)):
            cur += e.cpu_memory_usage if e.name == "[memory]" else e.self_cpu_memory_usage
            peak = max(peak, cur)
        seen.append(peak - cur)
    return res, max(set(seen), key=lambda v: (seen.count(v), -seen.index(v)))


MEASURE_RUNS = 15


class Case:
    """One fixture case: steps run in torch at once, results recorded."""

    def __init__(self, name, values=True, device="cpu", exec_device=None, allow_error=False, bits=False):
        self.name = name
        self.bits = bits  # record the bit patterns of exact float values too
        self.values = values
        self.device = device  # the device the fixture names
        self.exec_device = exec_device or device  # the device torch runs on ("meta" for big shapes)
        self.allow_error = allow_error
        self.env = {}
        self.sid_of = {}  # storage identity -> id
        self.det = {}  # id -> values are determined (no random or empty contents)
        self.exact = {}  # id -> values are exactly determined (bits recorded)
        self.steps = []
        self.ended = False
        self.errored = False
        self.n_var = 0

    # ---- recording ----

    def __call__(self, op, *args, var=None, err=False):
        if self.ended:
            raise GenError("%s: step %s after the case ended" % (self.name, op))
        if op not in OPS or OPS[op][0] == "RELEASE":
            raise GenError("%s: unknown op %s" % (self.name, op))
        family, sig = OPS[op]
        if len(args) != len(sig):
            raise GenError("%s: %s takes %d args (%s), got %d" % (self.name, op, len(sig), sig, len(args)))
        jargs, targs = [], []
        for kind, a in zip(sig, args):
            j, t = self._arg(kind, a)
            jargs.append(j)
            targs.append(t)
        returns = family not in ("INPLACE", "ACCESS")
        if returns and var is None:
            var = "t%d" % self.n_var
            self.n_var += 1
        if not returns:
            var = None
        if var is not None and var in self.env:
            raise GenError("%s: variable %s assigned twice" % (self.name, var))
        step = {"var": var, "op": op, "args": jargs}
        self.steps.append(step)
        temp = 0
        try:
            with torch.no_grad():
                if op in TEMP_OPS and self.exec_device == "cpu":
                    res, temp = measured_temp(lambda: run_torch(op, targs, self._dev),
                                              MEASURE_RUNS if op == "cross_entropy" else 1)
                else:
                    res = run_torch(op, targs, self._dev)
        except (RuntimeError, IndexError, ValueError, TypeError) as e:
            if not (err or self.allow_error):
                raise GenError("%s: step %d (%s %s) raised: %s" % (self.name, len(self.steps) - 1, op,
                                                                  jargs, e))
            step["expect"] = {"error": status_of(e), "message": str(e).strip().split("\n")[0]}
            if self.device == "mixed":
                step["expect"]["message"] = step["expect"]["message"].replace("meta", "cuda")
            if data_dependent(op, e):
                step["expect"]["data_dependent"] = True
            if backend_gap(e):
                step["expect"]["backend_gap"] = True
            self.ended = self.errored = True
            return None
        if err:
            raise GenError("%s: step %d (%s %s) was meant to fail" % (self.name, len(self.steps) - 1, op, jargs))
        step["expect"] = self._expect(op, family, targs, res, var)
        if temp:
            step["expect"]["temp_nbytes"] = temp
        return var

    def _dev(self, d):
        if d not in ("cpu", "cuda"):
            raise GenError("%s: bad device %r" % (self.name, d))
        if self.device == "mixed":  # cpu and cuda in one case: cuda runs on meta (MIXED_NOTE)
            return "meta" if d == "cuda" else "cpu"
        if d != self.device:
            raise GenError("%s: device %s in a %s case" % (self.name, d, self.device))
        return self.exec_device

    def _arg(self, kind, a):
        if kind == "t":
            if a not in self.env:
                raise GenError("%s: unknown variable %r" % (self.name, a))
            return a, self.env[a]
        if kind == "L":
            if not 1 <= len(a) <= TL_MAX_LIST:
                raise GenError("%s: a tl_list holds 1 to %d tensors, not %d" % (self.name, TL_MAX_LIST, len(a)))
            for v in a:
                if v not in self.env:
                    raise GenError("%s: unknown variable %r" % (self.name, v))
            return list(a), [self.env[v] for v in a]
        if kind == "S":
            if len(a) > TL_MAX_DIMS or not all(isinstance(x, int) and not isinstance(x, bool) for x in a):
                raise GenError("%s: bad int list %r" % (self.name, a))
            return list(a), list(a)
        if kind == "i":
            if not isinstance(a, int) or isinstance(a, bool):
                raise GenError("%s: bad int %r" % (self.name, a))
            return a, a
        if kind == "b":
            if not isinstance(a, bool):
                raise GenError("%s: bad bool %r" % (self.name, a))
            return a, a
        if kind == "f":
            a = float(a)
            return enc_float(a), a
        if kind == "y":
            return a, DTYPES[a]
        if kind == "v":
            return a, a
        if kind == "m":
            return a, FORMATS[a]
        if kind == "p":  # host memory: the values it holds (None: a buffer to write)
            if a is not None and not (isinstance(a, list) and all(isinstance(x, (int, float)) for x in a)):
                raise GenError("%s: bad host data %r" % (self.name, a))
            return a, a
        raise GenError("bad signature letter %s" % kind)

    def _storage(self, t):
        key = t.storage()._cdata
        if key not in self.sid_of:
            self.sid_of[key] = len(self.sid_of)
            return self.sid_of[key], True
        return self.sid_of[key], False

    def _meta(self, t, sid):
        e = {"shape": list(t.shape), "strides": list(t.stride()), "offset": t.storage_offset(),
             "dtype": DNAME_OF[t.dtype], "storage": sid, "storage_nbytes": t.storage().nbytes()}
        if self.device == "mixed":
            e["device"] = "cuda" if t.device.type == "meta" else "cpu"
        return e

    def _add_values(self, e, t, sid):
        if not (self.values and self.det[sid] and t.numel() <= MAX_VALUES):
            return
        if t.device.type != "cpu":
            raise GenError("%s: values of a %s tensor" % (self.name, t.device))
        e["values"] = values_of(t)
        if t.dtype.is_floating_point and self.exact[sid]:
            e["exact"] = True
            if self.bits:
                e["bits"] = bits_of(t)

    def _expect(self, op, family, targs, res, var):
        sig = OPS[op][1]
        in_sids = [self.sid_of[t.storage()._cdata] for k, a in zip(sig, targs) if k == "t" for t in [a]]
        in_sids += [self.sid_of[t.storage()._cdata] for k, a in zip(sig, targs) if k == "L" for t in a]
        all_det = all(self.det[s] for s in in_sids)
        all_exact = all(self.exact[s] for s in in_sids)
        if op == "copy_to_host":
            return {"kind": "none"}
        if family == "ACCESS" and op == "get":
            e = {"kind": "none"}
            if self.values and all_det:
                e["value"] = enc_float(float(res))
                if targs[0].dtype.is_floating_point and all_exact:
                    e["exact"] = True
            return e
        if family in ("INPLACE", "ACCESS"):  # set is an in-place write
            t = targs[0]
            sid = self.sid_of[t.storage()._cdata]
            self.det[sid] = self.det[sid] and all_det
            if op in ("add_", "sub_", "mul_scalar_"):
                self.exact[sid] = self.exact[sid] and all_exact and exact_elementwise(t.dtype)
            else:
                self.exact[sid] = self.exact[sid] and all_exact
            if op in ("fill_", "zero_", "copy_") and covers_storage(t):
                self.det[sid] = all_det
                self.exact[sid] = all_exact
            if op in ("matmul_out", "softmax_out"):  # out's old contents do not matter
                in_det = all(self.det[x] for x in in_sids[1:])
                self.det[sid] = in_det and covers_storage(t)
                self.exact[sid] = self.det[sid] and not t.dtype.is_floating_point
            if op in ("sqrt_", "addcmul_", "addcdiv_", "lerp_", "index_add_"):
                self.exact[sid] = self.exact[sid] and all_exact and not t.dtype.is_floating_point
            if op in ("mul_", "div_", "add_scalar_"):
                self.exact[sid] = self.exact[sid] and all_exact and exact_elementwise(t.dtype) \
                    and op != "div_"
            if op in ("add_", "sub_", "mul_scalar_", "copy_") and self_overlaps(t):
                self.det[sid] = False  # element order decides the values: undefined
            e = self._meta(t, sid)
            e["kind"] = "inplace"
            self._add_values(e, t, sid)
            return e
        self.env[var] = res
        sid, fresh = self._storage(res)
        if fresh:
            self.det[sid] = all_det and op not in ("randn", "randint", "empty")
            self.exact[sid] = self.det[sid] and all_exact and exact_op(op, res)
        e = self._meta(res, sid)
        e["kind"] = "new" if fresh else "view"
        self._add_values(e, res, sid)
        return e

    # ---- helpers for building data ----

    def empty(self, shape, dt="f32", **kw):
        return self("empty", list(shape), dt, self.device, **kw)

    def zeros(self, shape, dt="f32", **kw):
        return self("zeros", list(shape), dt, self.device, **kw)

    def ones(self, shape, dt="f32", **kw):
        return self("ones", list(shape), dt, self.device, **kw)

    def randn(self, shape, dt="f32", **kw):
        return self("randn", list(shape), dt, self.device, **kw)

    def full(self, shape, value, dt="f32", **kw):
        return self("full", list(shape), value, dt, self.device, **kw)

    def arange(self, n, dt="f32", **kw):
        return self("arange", n, dt, self.device, **kw)

    def randint(self, low, high, shape, **kw):
        return self("randint", low, high, list(shape), self.device, **kw)

    def scalar(self, value, dt="f32", **kw):
        return self("scalar", value, dt, self.device, **kw)

    def data(self, shape, dt="f32", scale=None, shift=None):
        """A contiguous tensor of shape and dtype dt holding distinct known values.

        By default arange(n, dt) (bool: runs of false and true, the truncation of
        arange(n, f64) * 0.37 - 1.1 to i64, cast); with scale or shift, floats are
        arange(n, f64) * scale + shift cast to dt, integers arange(n, dt) + shift."""
        n = prod(shape)
        if dt == "bool":
            t = self.arange(n, "f64")
            t = self("mul_scalar", t, 0.37)
            t = self("add_scalar", t, -1.1)
            t = self("to", t, "i64")
            t = self("to", t, "bool")
        elif scale is None and shift is None:
            t = self.arange(n, dt)
        elif dt in FLOATS:
            t = self.arange(n, "f64")
            if scale is not None:
                t = self("mul_scalar", t, scale)
            if shift is not None:
                t = self("add_scalar", t, shift)
            if dt != "f64":
                t = self("to", t, dt)
        else:
            if scale is not None:
                raise GenError("%s: integer data takes no scale" % self.name)
            t = self.arange(n, dt)
            if shift:
                t = self("add", t, self.full([], float(shift), dt))
        if len(shape) == 1:
            return t
        return self("view", t, list(shape))

    def sdata(self, shape, dt="f32"):
        """data() with negative values too: floats * 0.5 - n/4, integers - n/2 (u8 and bool as data())."""
        n = prod(shape)
        if dt in FLOATS:
            return self.data(shape, dt, scale=0.5, shift=-float(n // 4) - 0.25)
        if dt in ("u8", "bool"):
            return self.data(shape, dt)
        return self.data(shape, dt, shift=-(n // 2))

    def cl(self, shape, dt="f32", **kw):
        """data(shape) in channels-last memory format (a 4-D shape)."""
        return self("to_format", self.data(shape, dt, **kw), "channels_last")

    def json(self):
        j = {"name": self.name, "values": self.values, "steps": self.steps}
        if self.device == "mixed":
            j["devices"] = "mixed"
        return j


def covers_storage(t):
    return (t.is_contiguous() and t.storage_offset() == 0
            and t.numel() * t.element_size() == t.storage().nbytes())


def self_overlaps(t):
    """Whether two elements of t share an address (enumerated; t is small)."""
    if t.numel() > 1 << 16:
        return any(st == 0 and sz > 1 for sz, st in zip(t.shape, t.stride()))
    offs = torch.zeros(t.shape, dtype=torch.int64)
    for d, (sz, st) in enumerate(zip(t.shape, t.stride())):
        view = [1] * t.dim()
        view[d] = sz
        offs = offs + (torch.arange(sz, dtype=torch.int64) * st).view(view)
    return offs.numel() != offs.unique().numel()


def exact_op(op, res):
    family = OPS[op][0]
    if family in ("CREATE", "VIEW", "VIEW_OR_COPY", "COPY"):
        return True
    if op in ("neg", "relu", "maximum", "minimum", "max", "argmax", "where", "masked_fill", "triu",
              "tril", "stack", "eq", "lt", "from_data", "from_blob"):
        return True
    if op in ("add", "sub", "mul", "div", "add_scalar", "mul_scalar"):
        return exact_elementwise(res.dtype)
    if op == "sum":
        return not res.dtype.is_floating_point
    return not res.dtype.is_floating_point and op in ("matmul",)


def prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def py_slice(t, dim, start, end, step):
    """t[..., start:end:step] on dim, as Python indexing; aten::slice for a dim out of range."""
    nd = t.dim()
    if -nd <= dim < nd:
        d = dim % nd
        return t[(slice(None),) * d + (slice(start, None if end == TL_END else end, step),)]
    return torch.ops.aten.slice(t, dim, start, end, step)


UNARY_MODEL = {"sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "log": torch.log, "sin": torch.sin,
               "cos": torch.cos, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "silu": F.silu,
               "gelu": F.gelu}
NP_DTYPES = {torch.bool: np.bool_, torch.uint8: np.uint8, torch.int8: np.int8, torch.int16: np.int16,
             torch.int32: np.int32, torch.int64: np.int64, torch.float16: np.float16,
             torch.float32: np.float32, torch.float64: np.float64}


def run_torch(op, a, dev):
    """Run one op of ops.def in torch; a holds the converted arguments."""
    if op in ("empty", "zeros", "ones", "randn"):
        fn = {"empty": torch.empty, "zeros": torch.zeros, "ones": torch.ones, "randn": torch.randn}[op]
        return fn(a[0], dtype=a[1], device=dev(a[2]))
    if op == "full":
        return torch.full(a[0], a[1], dtype=a[2], device=dev(a[3]))
    if op == "arange":
        return torch.arange(a[0], dtype=a[1], device=dev(a[2]))
    if op == "randint":
        return torch.randint(a[0], a[1], a[2], device=dev(a[3]))
    if op == "scalar":
        return torch.tensor(a[0], dtype=a[1], device=dev(a[2]))
    if op == "from_data":
        return torch.tensor(a[0], dtype=a[2]).reshape(a[1]).to(dev(a[3])).clone()
    if op == "from_blob":  # numpy-backed: a storage that cannot be resized, as the caller's memory
        return torch.from_numpy(np.array(a[0], dtype=NP_DTYPES[a[2]]).reshape(a[1]))
    t = a[0]
    if op == "view":
        return t.view(a[1])
    if op == "transpose":
        return t.transpose(a[1], a[2])
    if op == "t":
        return t.t()
    if op == "permute":
        return t.permute(a[1])
    if op == "slice":
        return py_slice(t, a[1], a[2], a[3], a[4])
    if op == "narrow":
        return t.narrow(a[1], a[2], a[3])
    if op == "select":
        return t.select(a[1], a[2])
    if op == "unsqueeze":
        return t.unsqueeze(a[1])
    if op == "squeeze":
        return t.squeeze(a[1])
    if op == "expand":
        return t.expand(a[1])
    if op == "as_strided":
        return t.as_strided(a[1], a[2], a[3])
    if op == "reshape":
        return t.reshape(a[1])
    if op == "flatten":
        return t.flatten(a[1], a[2])
    if op == "contiguous":
        return t.contiguous()
    if op == "to":
        return t.to(a[1])
    if op == "to_device":
        return t.to(dev(a[1]))
    if op == "to_format":
        return t.contiguous(memory_format=a[1])
    if op == "clone":
        return t.clone()
    if op == "index":
        return t[a[1]]
    if op == "index_select":
        return t.index_select(a[1], a[2])
    if op == "gather":
        return torch.gather(t, a[1], a[2])
    if op == "cat":
        return torch.cat(a[0], a[1])
    if op == "add":
        return t + a[1]
    if op == "sub":
        return t - a[1]
    if op == "mul":
        return t * a[1]
    if op == "div":
        return t / a[1]
    if op == "add_scalar":
        return t + a[1]
    if op == "mul_scalar":
        return t * a[1]
    if op == "neg":
        return -t
    if op == "exp":
        return t.exp()
    if op == "relu":
        return t.relu()
    if op == "sum":
        return t.sum(a[1], keepdim=a[2])
    if op == "mean":
        return t.mean(a[1], keepdim=a[2])
    if op == "softmax":
        return t.softmax(a[1])
    if op == "matmul":
        return t @ a[1]
    if op == "conv2d":
        return F.conv2d(t, a[1], None, a[2], a[3])
    if op == "add_":
        return t.add_(a[1])
    if op == "sub_":
        return t.sub_(a[1])
    if op == "mul_scalar_":
        return t.mul_(a[1])
    if op == "fill_":
        return t.fill_(a[1])
    if op == "zero_":
        return t.zero_()
    if op == "copy_":
        return t.copy_(a[1])
    if op == "set":
        t[tuple(a[1])] = a[2]
        return t
    if op == "get":
        return t[tuple(a[1])].item()
    if op in UNARY_MODEL:
        return UNARY_MODEL[op](t)
    if op == "pow_scalar":
        return t ** a[1]
    if op == "div_scalar":
        return t / a[1]
    if op == "maximum":
        return torch.maximum(t, a[1])
    if op == "minimum":
        return torch.minimum(t, a[1])
    if op == "max":
        return t.amax(a[1], keepdim=a[2])
    if op == "argmax":
        return t.argmax(a[1], keepdim=a[2])
    if op == "where":
        return torch.where(t, a[1], a[2])
    if op == "masked_fill":
        return t.masked_fill(a[1], a[2])
    if op == "triu":
        return t.triu(a[1])
    if op == "tril":
        return t.tril(a[1])
    if op == "stack":
        return torch.stack(a[0], a[1])
    if op == "eq":
        return t == a[1]
    if op == "lt":
        return t < a[1]
    if op == "mul_":
        return t.mul_(a[1])
    if op == "div_":
        return t.div_(a[1])
    if op == "add_scalar_":
        return t.add_(a[1])
    if op == "matmul_out":
        return torch.matmul(a[1], a[2], out=t)
    if op == "softmax_out":
        return torch.softmax(a[1], a[2], out=t)
    if op in ("index_add_", "index_add"):
        return (t.index_add_ if op == "index_add_" else functools.partial(torch.index_add, t))(a[1], a[2], a[3])
    if op == "gelu_tanh":
        return F.gelu(t, approximate="tanh")
    if op == "sqrt_":
        return t.sqrt_()
    if op == "addcmul_":
        return t.addcmul_(a[1], a[2], value=a[3])
    if op == "addcdiv_":
        return t.addcdiv_(a[1], a[2], value=a[3])
    if op == "lerp_":
        return t.lerp_(a[1], a[2])
    if op == "log_softmax":
        return torch.log_softmax(t, a[1])
    if op == "cross_entropy":
        return F.cross_entropy(t, a[1], ignore_index=a[2])
    if op == "copy_to_host":
        if a[2] < t.numel() * t.element_size():
            raise RuntimeError("copy_to_host: the buffer holds %d bytes, the tensor needs %d"
                               % (a[2], t.numel() * t.element_size()))
        return t.contiguous().cpu().numpy().tobytes()
    raise GenError("no torch mapping for %s" % op)


# ---------------------------------------------------------------------------
# Families.  Each function returns a list of Case objects.
# ---------------------------------------------------------------------------

class Family:
    """The cases of one fixture file; case(name) starts one named <file>/<name>."""

    def __init__(self, fname):
        self.fname = fname
        self.cases = []

    def case(self, name, **kw):
        c = Case("%s/%s" % (self.fname, name), **kw)
        self.cases.append(c)
        return c


def crosscheck(name, build):
    """The full-size worksheet cases run on torch's meta device (no data); check on small
    shapes that the meta device answers as the CPU does for the same steps."""
    answers = []
    for dev in ("cpu", "meta"):
        c = Case("crosscheck/%s/%s" % (name, dev), values=False, exec_device=dev)
        build(c)
        answers.append([s["expect"] for s in c.steps])
    if answers[0] != answers[1]:
        raise GenError("crosscheck %s: the meta device disagrees with the CPU" % name)


def sname(shape):
    return "x".join(str(s) for s in shape) if shape else "0d"


# ---- views.json: the VIEW ops ----

def fam_views():
    f = Family("views")
    # view of a contiguous tensor, with size-1 dims and -1
    for target in ([6, 4], [24], [-1], [4, -1], [2, 12], [1, 24, 1], [2, 1, 3, 1, 4], [3, 8],
                   [2, 3, 4], [1, -1], [2, -1, 2], [4, 3, 2, 1]):
        c = f.case("view/contig-2x3x4-to-%s" % sname(target))
        c("view", c.data([2, 3, 4]), target)
    # view of a transpose (6,4; 1,6)
    for target, err in (([24], True), ([6, 2, 2], False), ([3, 2, 4], False), ([-1], True),
                        ([6, 4], False), ([2, 3, 2, 2], False), ([6, 1, 4], False), ([1, 6, 4], False),
                        ([4, 6], True), ([3, 8], True)):
        c = f.case("view/transposed-6x4-to-%s" % sname(target))
        c("view", c("t", c.data([4, 6])), target, err=err)
    # view of slices
    for (dim, start, end), target, err in (((1, 0, 3), [12], True), ((1, 0, 3), [4, 3], False),
                                           ((1, 0, 3), [2, 2, 3], False), ((0, 0, 2), [12], False),
                                           ((0, 1, 3), [2, 3, 2], False), ((1, 2, 5), [4, 3, 1], False),
                                           ((1, 2, 5), [-1], True)):
        c = f.case("view/slice-4x6-d%d-%d-%d-to-%s" % (dim, start, end, sname(target)))
        c("view", c("slice", c.data([4, 6]), dim, start, end, 1), target, err=err)
    for target in ([2, 12], [24], [6, 4], [2, 3, 2, 2]):
        c = f.case("view/slice-dim0-of-4x3x4-to-%s" % sname(target))
        c("view", c("slice", c.data([4, 3, 4]), 0, 0, 2, 1), target)
    # views of an expanded tensor (3,4; 1,0)
    for target, err in (([12], True), ([3, 2, 2], False), ([3, 4, 1], False), ([1, 3, 4], False),
                        ([3, 1, 4], False), ([6, 2], True)):
        c = f.case("view/expanded-3x4-to-%s" % sname(target))
        c("view", c("expand", c.data([3, 1]), [3, 4]), target, err=err)
    # size-1 dims with arbitrary strides are transparent
    for target in ([24], [4, 6], [2, 2, 6], [4, 1, 6, 1]):
        c = f.case("view/size1-stride99-4x1x6-to-%s" % sname(target))
        x = c("as_strided", c.data([24]), [4, 1, 6], [6, 99, 1], 0)
        c("view", x, target)
    # zero-size tensors
    for shape, target, err in (([0, 3], [3, 0], False), ([0, 3], [0], False), ([0, 3], [-1, 3], False),
                               ([0, 3], [0, 3, 1], False), ([0, 3], [-1, 0], True), ([0, 3], [5], True),
                               ([2, 0, 3], [0, 6], False), ([2, 0, 3], [3, -1, 2], False), ([0], [1, 0, 7], False)):
        c = f.case("view/zero-size-%s-to-%s" % (sname(shape), sname(target)))
        c("view", c.zeros(shape), target, err=err)
    c = f.case("view/zero-size-transposed-to-0x6")
    c("view", c("transpose", c.zeros([2, 0, 3]), 0, 2), [0, 6])
    c = f.case("view/zero-size-slice-to-same")
    x = c("slice", c.data([4, 6]), 1, 2, 2, 1)
    c("view", x, [4, 0])
    # 0-dim and size-1 tensors
    for shape, target in (([], [1]), ([], []), ([], [1, 1, 1]), ([1], []), ([1, 1], []), ([1, 1], [-1]),
                          ([], [-1])):
        c = f.case("view/%s-to-%s" % (sname(shape), sname(target)))
        x = c.scalar(2.5) if not shape else c.full(shape, 2.5)
        c("view", x, target)
    # views keep the storage offset
    c = f.case("view/offset-kept")
    x = c("narrow", c.data([6, 4]), 0, 2, 3)
    c("view", x, [2, 6])
    # dtypes
    for dt in DNAMES:
        c = f.case("view/dtype-%s" % dt)
        c("view", c.data([2, 3], dt), [3, 2])

    # transpose
    for dims in ((0, 1), (0, 2), (1, 2), (-1, 0), (1, 1), (2, -3), (-1, -2)):
        c = f.case("transpose/2x3x4-%d-%d" % dims)
        c("transpose", c.data([2, 3, 4]), *dims)
    for shape, dims in (([], (0, 0)), ([], (-1, 0)), ([5], (0, -1)), ([0, 3], (0, 1)), ([3, 1], (0, 1))):
        c = f.case("transpose/%s-%d-%d" % (sname(shape), dims[0], dims[1]))
        x = c.scalar(1.5) if not shape else c.data(shape)
        c("transpose", x, *dims)
    c = f.case("transpose/of-slice")
    c("transpose", c("slice", c.data([4, 6]), 1, 1, 6, 2), 0, 1)
    c = f.case("transpose/of-expanded")
    c("transpose", c("expand", c.data([3, 1]), [3, 4]), 0, 1)
    c = f.case("transpose/twice-is-contiguous")
    c("transpose", c("transpose", c.data([2, 3, 4]), 0, 2), 2, 0)
    # t
    for shape in ([2, 3], [5], [], [1, 4], [0, 2]):
        c = f.case("t/%s" % sname(shape))
        x = c.scalar(3.0) if not shape else c.data(shape)
        c("t", x)
    c = f.case("t/of-transposed")
    c("t", c("t", c.data([3, 2])))
    # permute
    for dims in ([0, 1, 2], [2, 0, 1], [1, 2, 0], [-1, 0, 1], [2, 1, 0], [0, -1, -2]):
        c = f.case("permute/2x3x4-%s" % "_".join(str(d) for d in dims))
        c("permute", c.data([2, 3, 4]), dims)
    c = f.case("permute/nchw-to-nhwc")
    c("permute", c.data([2, 3, 2, 2]), [0, 2, 3, 1])
    c = f.case("permute/0d")
    c("permute", c.scalar(4.0), [])
    c = f.case("permute/of-permuted")
    c("permute", c("permute", c.data([2, 3, 4]), [2, 0, 1]), [1, 2, 0])
    c = f.case("permute/of-expanded")
    c("permute", c("expand", c.data([1, 3]), [2, 3]), [1, 0])

    # slice, with Python's clamping
    slices = [([5, 6], 0, 1, 4, 1), ([5, 6], 1, 0, TL_END, 2), ([5, 6], 1, -3, TL_END, 1),
              ([5, 6], 1, -100, 100, 1), ([5, 6], 0, 3, 1, 1), ([5, 6], 0, 10, 20, 1),
              ([5, 6], 1, 1, TL_END, 3), ([5, 6], 1, 0, 6, 6), ([5, 6], -1, 2, 5, 2),
              ([5, 6], 0, -1, TL_END, 1), ([5, 6], 1, 4, 2, 1), ([5, 6], 1, 0, TL_END, 7),
              ([5, 6], 0, 0, TL_END, 1), ([5, 6], -2, -4, -1, 2), ([5, 6], 1, 6, TL_END, 1),
              ([5, 6], 1, -7, 2, 1), ([5, 6], 0, 2, -10, 1), ([2, 3, 4], 2, 1, 3, 1),
              ([2, 3, 4], 1, 0, TL_END, 2), ([2, 3, 4], -3, 1, 2, 1), ([2, 3, 4], 2, 0, 0, 1),
              ([7], 0, 1, TL_END, 3), ([0, 3], 0, 0, 2, 1), ([0, 3], 1, 1, TL_END, 1),
              ([5, 6], 0, -4611686018427387904, TL_END, 1), ([5, 6], 1, 2, 9223372036854775806, 2)]
    for shape, dim, start, end, step in slices:
        c = f.case("slice/%s-d%d-%s-%s-%d" % (sname(shape), dim, start, "end" if end == TL_END else end, step))
        c("slice", c.data(shape), dim, start, end, step)
    c = f.case("slice/of-transposed")
    c("slice", c("t", c.data([4, 6])), 1, 1, 3, 1)
    c = f.case("slice/of-expanded")
    c("slice", c("expand", c.data([3, 1]), [3, 8]), 1, 1, 7, 3)
    c = f.case("slice/of-slice-offsets-add")
    x = c("slice", c.data([6, 6]), 0, 2, 6, 1)
    x = c("slice", x, 1, 1, 5, 2)
    c("slice", x, 0, 1, TL_END, 2)
    for shape, dim, start, end, step in (([5, 6], 0, 0, 2, 0), ([5, 6], 0, 0, 2, -1), ([5, 6], 2, 0, 1, 1),
                                         ([5, 6], -3, 0, 1, 1)):
        c = f.case("slice/err-%s-d%d-%d-%d-%d" % (sname(shape), dim, start, end, step))
        c("slice", c.data(shape), dim, start, end, step, err=True)

    # narrow
    for dim, start, length, err in ((0, 1, 3, False), (1, 2, 4, False), (1, -2, 2, False), (0, 5, 0, False),
                                    (0, 0, 0, False), (-1, 0, 6, False), (0, -5, 5, False), (0, 4, 2, True),
                                    (0, 6, 0, True), (0, 0, -1, True), (2, 0, 1, True), (1, -7, 1, True)):
        c = f.case("narrow/5x6-d%d-%d-%d" % (dim, start, length))
        c("narrow", c.data([5, 6]), dim, start, length, err=err)
    c = f.case("narrow/of-transposed")
    c("narrow", c("t", c.data([5, 6])), 0, 1, 2)

    # select
    for shape, dim, index, err in (([2, 3, 4], 0, 1, False), ([2, 3, 4], 1, -1, False), ([2, 3, 4], -1, 3, False),
                                   ([2, 3, 4], 2, 0, False), ([5], 0, 2, False), ([5], 0, -5, False),
                                   ([2, 3, 4], 0, 2, True), ([2, 3, 4], 0, -3, True), ([2, 3, 4], 3, 0, True),
                                   ([2, 0], 0, 1, False), ([2, 0], 1, 0, True)):
        c = f.case("select/%s-d%d-%d" % (sname(shape), dim, index))
        c("select", c.data(shape), dim, index, err=err)
    c = f.case("select/of-expanded")
    c("select", c("expand", c.data([3, 1]), [3, 4]), 1, 2)
    c = f.case("select/of-transposed")
    c("select", c("t", c.data([3, 4])), 0, 1)
    c = f.case("select/0d-err")
    c("select", c.scalar(1.0), 0, 0, err=True)

    # unsqueeze
    for shape, dim, err in (([2, 3], 0, False), ([2, 3], 1, False), ([2, 3], 2, False), ([2, 3], -1, False),
                            ([2, 3], -3, False), ([2, 3], 3, True), ([2, 3], -4, True), ([], 0, False),
                            ([], -1, False), ([], 1, True), ([0, 3], 1, False), ([0, 3], 2, False)):
        c = f.case("unsqueeze/%s-%d" % (sname(shape), dim))
        x = c.scalar(7.0) if not shape else c.data(shape)
        c("unsqueeze", x, dim, err=err)
    for dim in (0, 1, 2, -1):
        c = f.case("unsqueeze/transposed-%d" % dim)
        c("unsqueeze", c("t", c.data([2, 3])), dim)
    c = f.case("unsqueeze/slice-step2")
    c("unsqueeze", c("slice", c.data([4, 6]), 1, 0, TL_END, 2), 2)
    c = f.case("unsqueeze/expanded")
    c("unsqueeze", c("expand", c.data([3, 1]), [3, 4]), 1)

    # squeeze(dim)
    for shape, dim, err in (([2, 1, 3], 1, False), ([2, 1, 3], -2, False), ([2, 1, 3], 0, False),
                            ([2, 1, 3], 2, False), ([1], 0, False), ([], 0, False), ([], -1, False),
                            ([2, 1, 3], 3, True), ([1, 1], -1, False), ([0, 1], 1, False), ([0, 1], 0, False)):
        c = f.case("squeeze/%s-%d" % (sname(shape), dim))
        x = c.scalar(7.0) if not shape else c.data(shape)
        c("squeeze", x, dim, err=err)
    c = f.case("squeeze/size1-odd-stride")
    x = c("as_strided", c.data([12]), [3, 1, 4], [4, 7, 1], 0)
    c("squeeze", x, 1)
    c = f.case("squeeze/0d-err")
    c("squeeze", c.scalar(1.0), 1, err=True)

    # expand
    for shape, target, err in (([3, 1], [3, 4], False), ([3], [2, 3], False), ([3, 1], [-1, 4], False),
                               ([3, 1], [2, 3, 4], False), ([], [2, 3], False), ([1], [0], False),
                               ([2, 1], [2, 0], False), ([2, 3], [2, 3], False), ([2, 3], [-1, -1], False),
                               ([1, 1], [1, 5], False), ([3], [4], True), ([2, 3], [3], True),
                               ([3], [-1, 2, 3], True), ([3, 1], [3, -1], False), ([1, 3], [2, 1, 3], False),
                               ([], [], False), ([2, 1], [4, 2, 5], False), ([2, 3], [2, 2, 3], False)):
        c = f.case("expand/%s-to-%s" % (sname(shape), sname(target)))
        x = c.scalar(2.0) if not shape else c.data(shape)
        c("expand", x, target, err=err)
    c = f.case("expand/of-transposed")
    c("expand", c("t", c.data([1, 3])), [3, 4])
    c = f.case("expand/of-slice")
    c("expand", c("slice", c.data([4, 1]), 0, 1, 4, 2), [2, 5])

    # as_strided (the offset is absolute in the storage)
    for size, stride, off, err in (([4, 3], [1, 1], 0, False), ([3, 3], [0, 1], 2, False), ([], [], 5, False),
                                   ([2, 2], [3, 1], 1, False), ([2, 5], [5, 1], 0, False), ([5, 2], [1, 5], 0, False),
                                   ([3], [4], 1, False), ([0, 4], [4, 1], 12, False), ([4], [3], 0, False),
                                   ([13], [1], 0, True), ([2], [-1], 0, True), ([2, 2], [5, 1], 6, True),
                                   ([1, 1], [100, 100], 11, False)):
        c = f.case("as_strided/%s-%s-%d" % (sname(size), sname(stride), off))
        c("as_strided", c.data([12]), size, stride, off, err=err)
    c = f.case("as_strided/of-offset-view")
    x = c("narrow", c.data([12]), 0, 4, 4)
    c("as_strided", x, [2, 2], [1, 2], 1)
    c = f.case("as_strided/of-transposed")
    c("as_strided", c("t", c.data([3, 4])), [3, 4], [4, 1], 0)
    return f


# ---- reshape.json: view-or-copy ops, clone, the worksheet's block 1 ----

def fam_reshape():
    f = Family("reshape")
    # PyTorch's computeStride table (reshape and flatten)
    anchor = [("x.T-to-24", lambda c: c("t", c.data([4, 6])), [24]),
              ("x.T-to-6x2x2", lambda c: c("t", c.data([4, 6])), [6, 2, 2]),
              ("x[:,:3]-to-12", lambda c: c("slice", c.data([4, 6]), 1, 0, 3, 1), [12]),
              ("x[:2]-to-12", lambda c: c("slice", c.data([4, 6]), 0, 0, 2, 1), [12]),
              ("slice-2x3x4-to-2x12", lambda c: c("slice", c.data([4, 3, 4]), 0, 0, 2, 1), [2, 12]),
              ("expand-3x4-to-12", lambda c: c("expand", c.data([3, 1]), [3, 4]), [12]),
              ("expand-3x4-to-3x2x2", lambda c: c("expand", c.data([3, 1]), [3, 4]), [3, 2, 2]),
              ("size1-stride99-to-24", lambda c: c("as_strided", c.data([24]), [4, 1, 6], [6, 99, 1], 0), [24])]
    for name, mk, target in anchor:
        c = f.case("reshape/anchor-%s" % name)
        c("reshape", mk(c), target)
    for target in ([6, 4], [-1], [4, -1, 2], [24, 1], [1, 2, 1, 12], [2, 3, 4]):
        c = f.case("reshape/contig-to-%s" % sname(target))
        c("reshape", c.data([2, 3, 4]), target)
    for perm, target in (([2, 0, 1], [4, 6]), ([2, 0, 1], [24]), ([1, 0, 2], [3, 8]), ([1, 0, 2], [3, 2, 4]),
                         ([0, 2, 1], [2, 12]), ([0, 2, 1], [2, 4, 3]), ([0, 2, 1], [8, 3])):
        c = f.case("reshape/permute-%s-to-%s" % ("".join(map(str, perm)), sname(target)))
        c("reshape", c("permute", c.data([2, 3, 4]), perm), target)
    for shape, target, err in (([0, 3], [3, 0], False), ([0, 3], [-1], False), ([0, 3], [-1, 0], True),
                               ([2, 0], [0, 5, 2], False), ([], [1], False), ([], [1, 1], False),
                               ([1, 1], [], False), ([2, 3], [7], True), ([2, 3], [-1, 4], True),
                               ([2, 3], [-1, -1], True), ([2, 3], [2, -2], True)):
        c = f.case("reshape/%s-to-%s" % (sname(shape), sname(target)))
        x = c.scalar(1.25) if not shape else c.data(shape)
        c("reshape", x, target, err=err)
    c = f.case("reshape/zero-size-transposed")
    c("reshape", c("t", c.zeros([3, 0])), [0, 3])
    c = f.case("reshape/expanded-to-3x1x4")
    c("reshape", c("expand", c.data([3, 1]), [3, 4]), [3, 1, 4])
    c = f.case("reshape/channels-last-to-n-chw")
    c("reshape", c.cl([2, 3, 2, 2]), [2, 12])
    c = f.case("reshape/channels-last-merge-hw")
    c("reshape", c.cl([2, 3, 2, 2]), [2, 3, 4])
    c = f.case("reshape/channels-last-split-n")
    c("reshape", c.cl([4, 3, 2, 2]), [2, 2, 3, 2, 2])
    c = f.case("reshape/copy-then-view")
    x = c("reshape", c("t", c.data([4, 6])), [24])
    c("reshape", x, [2, 12])
    c = f.case("reshape/offset-view")
    c("reshape", c("narrow", c.data([6, 4]), 0, 2, 2), [8])
    c = f.case("reshape/offset-copy")
    c("reshape", c("narrow", c.data([6, 4]), 1, 1, 2), [12])
    for dt in DNAMES:
        c = f.case("reshape/copy-dtype-%s" % dt)
        c("reshape", c("t", c.data([2, 3], dt)), [6])

    # flatten
    for s, e in ((0, -1), (0, 1), (1, 2), (1, 1), (0, 0), (-2, -1), (2, 2), (-3, -2), (0, 2)):
        c = f.case("flatten/2x3x4-%d-%d" % (s, e))
        c("flatten", c.data([2, 3, 4]), s, e)
    for s, e in ((0, -1), (1, 2), (0, 1)):
        c = f.case("flatten/permuted-021-%d-%d" % (s, e))
        c("flatten", c("permute", c.data([2, 3, 4]), [0, 2, 1]), s, e)
    for shape, s, e, err in (([], 0, -1, False), ([], 0, 0, False), ([5], 0, 0, False), ([5], 0, -1, False),
                             ([0, 3], 0, 1, False), ([2, 3, 4], 1, 0, True), ([2, 3, 4], 0, 3, True),
                             ([2, 1, 3], 0, 1, False)):
        c = f.case("flatten/%s-%d-%d" % (sname(shape), s, e))
        x = c.scalar(0.5) if not shape else c.data(shape)
        c("flatten", x, s, e, err=err)
    c = f.case("flatten/transposed-2d")
    c("flatten", c("t", c.data([3, 4])), 0, 1)
    c = f.case("flatten/channels-last-hw")
    c("flatten", c.cl([2, 3, 2, 2]), 2, 3)
    c = f.case("flatten/channels-last-chw")
    c("flatten", c.cl([2, 3, 2, 2]), 1, 3)
    c = f.case("flatten/expanded")
    c("flatten", c("expand", c.data([3, 1]), [3, 4]), 0, 1)
    c = f.case("flatten/slice-rows")
    c("flatten", c("slice", c.data([6, 4]), 0, 1, 4, 1), 0, 1)

    # contiguous
    mk_inputs = [("contiguous", lambda c: c.data([2, 3, 4])),
                 ("transposed", lambda c: c("transpose", c.data([2, 3, 4]), 0, 2)),
                 ("slice-step2", lambda c: c("slice", c.data([4, 6]), 1, 0, TL_END, 2)),
                 ("slice-rows", lambda c: c("slice", c.data([4, 6]), 0, 1, 3, 1)),
                 ("expanded", lambda c: c("expand", c.data([3, 1]), [3, 4])),
                 ("channels-last", lambda c: c.cl([2, 3, 2, 2])),
                 ("size1-odd-stride", lambda c: c("as_strided", c.data([12]), [3, 1, 4], [4, 9, 1], 0)),
                 ("zero-size-transposed", lambda c: c("t", c.zeros([3, 0]))),
                 ("0d", lambda c: c.scalar(2.0)),
                 ("0d-select", lambda c: c("select", c.data([5]), 0, 3)),
                 ("transposed-size1", lambda c: c("t", c.data([1, 5]))),
                 ("permuted-4d", lambda c: c("permute", c.data([2, 3, 2, 2]), [0, 2, 3, 1]))]
    for name, mk in mk_inputs:
        c = f.case("contiguous/%s" % name)
        c("contiguous", mk(c))
        c = f.case("to_device/cpu-%s" % name)
        c("to_device", mk(c), "cpu")
        c = f.case("clone/%s" % name)
        c("clone", mk(c))
    for name, mk in (("transposed-sliced", lambda c: c("slice", c("t", c.data([4, 6])), 1, 0, 2, 1)),
                     ("permuted-sliced", lambda c: c("slice", c("permute", c.data([2, 3, 4]), [2, 0, 1]), 0, 0, TL_END, 2)),
                     ("expanded-permuted", lambda c: c("permute", c("expand", c.data([1, 3, 1]), [2, 3, 4]), [2, 1, 0])),
                     ("slice-offset-dense", lambda c: c("slice", c.data([4, 3]), 0, 1, TL_END, 1)),
                     ("as-strided-overlap", lambda c: c("as_strided", c.data([12]), [4, 3], [1, 1], 0)),
                     ("channels-last-sliced", lambda c: c("slice", c.cl([2, 3, 4, 2]), 2, 0, TL_END, 2))):
        c = f.case("clone/%s" % name)
        c("clone", mk(c))
        c = f.case("contiguous/%s" % name)
        c("contiguous", mk(c))
    for dt in DNAMES:
        c = f.case("clone/transposed-%s" % dt)
        c("clone", c("t", c.data([2, 3], dt)))

    # to_format
    fmt_inputs = [("contiguous", lambda c: c.data([2, 3, 2, 2])),
                  ("channels-last", lambda c: c.cl([2, 3, 2, 2])),
                  ("c1", lambda c: c.data([2, 1, 2, 3])),
                  ("hw1", lambda c: c.data([2, 3, 1, 1])),
                  ("n1-c1", lambda c: c.data([1, 1, 2, 3])),
                  ("transposed-hw", lambda c: c("transpose", c.data([2, 3, 2, 4]), 2, 3)),
                  ("nhwc-permute", lambda c: c("permute", c.data([2, 2, 4, 3]), [0, 3, 1, 2])),
                  ("expanded", lambda c: c("expand", c.data([1, 3, 1, 2]), [2, 3, 2, 2])),
                  ("sliced", lambda c: c("slice", c.data([2, 3, 4, 4]), 3, 0, TL_END, 2)),
                  ("zero-size", lambda c: c.zeros([0, 3, 2, 2]))]
    for name, mk in fmt_inputs:
        for fmt in ("channels_last", "contiguous"):
            c = f.case("to_format/%s-to-%s" % (name, fmt))
            c("to_format", mk(c), fmt)
    for shape in ([2, 3, 4], [2, 3, 2, 2, 2], [], [6]):
        c = f.case("to_format/channels_last-rank%d-err" % len(shape))
        x = c.scalar(1.0) if not shape else c.data(shape)
        c("to_format", x, "channels_last", err=True)
        c = f.case("to_format/contiguous-rank%d" % len(shape))
        x = c.scalar(1.0) if not shape else c("t", c.data(shape)) if len(shape) <= 2 else c("transpose", c.data(shape), 0, 1)
        c("to_format", x, "contiguous")

    # the worksheet's block 1 with small stand-in shapes, then full size (meta only)
    def block1(c, dims, src):
        n, s, d = dims
        x = src(c, [n, s, d])
        a = c("transpose", x, 1, 2)
        b = c("contiguous", a)
        cc = c("reshape", b, [n * d, s])
        dd = c("to", cc, "f32")
        e = c("slice", dd, 1, 0, s // 2, 1)
        c("clone", e)
        return c
    crosscheck("block1", lambda c: block1(c, (2, 4, 3), lambda c, sh: c.randn(sh, "f16")))
    block1(f.case("worksheet/block1-small-values"), (2, 4, 3), lambda c, sh: c.data(sh, "f16"))
    block1(f.case("worksheet/block1-small-randn"), (2, 4, 3), lambda c, sh: c.randn(sh, "f16"))
    block1(f.case("worksheet/block1-full-cuda", values=False, device="cuda", exec_device="meta"),
           (16, 1024, 4096), lambda c, sh: c.randn(sh, "f16"))
    block1(f.case("worksheet/block1-full-cpu", values=False, exec_device="meta"),
           (16, 1024, 4096), lambda c, sh: c.randn(sh, "f16"))
    c = f.case("worksheet/block1-rewrite")  # the stretch: cast once, slice before copying
    x = c.data([2, 4, 3], "f16")
    e = c("slice", c("transpose", x, 1, 2), 2, 0, 2, 1)
    c("reshape", c("to", e, "f32"), [6, 2])
    return f

# ---- casts.json: every dtype pair of to(), rounding and special values ----

INT_RANGE = {"u8": (0, 255), "i8": (-128, 127), "i16": (-32768, 32767), "i32": (-2 ** 31, 2 ** 31 - 1),
             "i64": (-2 ** 63, 2 ** 63 - 1)}
FLOAT_SPECIALS = [65504.0, 65520.0, 1e-8, -0.0, 70000.0, 0.1, 3.5, -3.5, 2.5, -2.5, 0.0, 1.0,
                  1.0 + 2.0 ** -11 + 2.0 ** -40,  # f64 -> f16 rounds twice (through f32): 1.0
                  1.0 + 2.0 ** -8 + 2.0 ** -40,  # f64 -> bf16 rounds twice (through f32): 1.0
                  1.0 + 2.0 ** -8 + 2.0 ** -20,  # above the bf16 tie, exact in f32: rounds up
                  3.0e38, 3.5e38, 1e39, 6e-8, 5.96e-8, 1e-40, 255.9, 127.5, -128.9, 32767.5,
                  2147483520.0, -1e10, 1e10, 16777217.0,
                  float("nan"), float("inf"), float("-inf")]
INT_SPECIALS = [0, 1, -1, 2, 127, 128, -128, -129, 255, 256, 300, 32767, 32768, -32769, 65504, 65520,
                70000, 2049, 16777217, 16842753, 2147483647, -2147483648, 4294967301, -4294967299]


def cast_defined(v, dst):
    """Whether PyTorch's cast of the (source-typed) value v to dst is defined behaviour."""
    if dst in INT_RANGE:
        if isinstance(v, float):
            if math.isnan(v) or math.isinf(v):
                return False
            lo, hi = INT_RANGE[dst]
            return lo <= math.trunc(v) <= hi
        return True  # integer to integer wraps (two's complement)
    return True


def src_values(src):
    """The special values as they read after the cast to src (python numbers)."""
    if src in FLOATS:
        t = torch.tensor(FLOAT_SPECIALS, dtype=torch.float64).to(DTYPES[src])
        return [float(x) for x in t.to(torch.float64).tolist()]
    if src == "bool":
        return [0, 1]
    t = torch.tensor(INT_SPECIALS, dtype=torch.int64).to(DTYPES[src])
    return [int(x) for x in t.tolist()]


def build_vector(c, vals, dt):
    """A 1-D tensor of dtype dt holding vals: full() of one element each, then cat (in
    lists of at most TL_MAX_LIST tensors)."""
    parts = [c.full([1], v, dt) for v in vals]
    while len(parts) > 1:
        parts = [c("cat", parts[k:k + TL_MAX_LIST], 0) if len(parts[k:k + TL_MAX_LIST]) > 1 else parts[k]
                 for k in range(0, len(parts), TL_MAX_LIST)]
    return parts[0]


def fam_casts():
    f = Family("casts")
    for src in DNAMES:
        # rounding: arange(24, f64) * 0.37 - 3.1 (u8: + 0.2), cast to src, then to every dtype
        c = f.case("to/from-%s-rounding" % src, bits=True)
        x = c("mul_scalar", c.arange(24, "f64"), 0.37)
        x = c("add_scalar", x, 0.2 if src == "u8" else -3.1)
        if src == "bool":
            x = c("to", c("to", x, "i64"), "bool")
        elif src != "f64":
            x = c("to", x, src)
        for dst in DNAMES:
            if dst == "u8" and src in FLOATS:  # a negative float to u8 is undefined: the non-negative tail
                c("to", c("narrow", x, 0, 9, 15), dst)
            else:
                c("to", x, dst)
        # special values, sorted, so that those defined for an integer dtype are one run (narrow)
        c = f.case("to/from-%s-special" % src, bits=True)
        if src in FLOATS:
            pairs = sorted(zip(src_values(src), FLOAT_SPECIALS), key=lambda p: (not math.isnan(p[0]),
                                                                                  p[0] if not math.isnan(p[0]) else 0,
                                                                                  p[1]))
            # the values are built in f64 (full() rejects what does not fit the dtype), then cast
            x = build_vector(c, [p[1] for p in pairs], "f64")
            if src != "f64":
                x = c("to", x, src)
        elif src == "bool":
            pairs = None
            x = c("to", build_vector(c, [0.0, 1.0, 0.0, 1.0, 1.0], "i64"), "bool")
        else:
            pairs = None
            x = build_vector(c, [float(v) for v in INT_SPECIALS], "i64")
            if src != "i64":
                x = c("to", x, src)
        for dst in DNAMES:
            if pairs is not None and dst in INT_RANGE:
                ok = [i for i, p in enumerate(pairs) if cast_defined(p[0], dst)]
                if ok != list(range(ok[0], ok[-1] + 1)):
                    raise GenError("%s: values defined for %s are not one run" % (c.name, dst))
                c("to", c("narrow", x, 0, ok[0], len(ok)), dst)
            else:
                c("to", x, dst)
    # float scale factors: mul_scalar rounds in the tensor's dtype
    for dt in FLOATS:
        c = f.case("to/f64-to-%s-tiny-and-huge" % dt)
        x = c("mul_scalar", c.arange(24, "f64"), 1e-6)
        c("to", c("add_scalar", x, 1e-7), dt)
        c = f.case("to/f64-to-%s-large" % dt)
        x = c("mul_scalar", c.arange(24, "f64"), 4099.7)
        c("to", x, dt)
    # layouts: same dtype aliases, permuted inputs keep their strides, others close gaps
    for dt in DNAMES:
        c = f.case("layout/same-dtype-alias-%s" % dt)
        c("to", c.data([2, 3], dt), dt)
        c = f.case("layout/same-dtype-alias-transposed-%s" % dt)
        c("to", c("t", c.data([2, 3], dt)), dt)
    for name, mk in (("transposed", lambda c: c("t", c.data([3, 4]))),
                     ("permuted-3d", lambda c: c("permute", c.data([2, 3, 4]), [2, 0, 1])),
                     ("channels-last", lambda c: c.cl([2, 3, 2, 2])),
                     ("slice-step2", lambda c: c("slice", c.data([3, 6]), 1, 0, TL_END, 2)),
                     ("transposed-sliced", lambda c: c("slice", c("t", c.data([4, 6])), 0, 1, 5, 1)),
                     ("expanded", lambda c: c("expand", c.data([3, 1]), [3, 4])),
                     ("expanded-leading", lambda c: c("expand", c.data([1, 4]), [3, 4])),
                     ("offset-dense", lambda c: c("narrow", c.data([4, 3]), 0, 1, 2)),
                     ("0d", lambda c: c.scalar(2.75)),
                     ("zero-size", lambda c: c("t", c.zeros([0, 3]))),
                     ("size1-odd-stride", lambda c: c("as_strided", c.data([12]), [3, 1, 4], [4, 9, 1], 0))):
        for dst in ("f64", "i32", "f16"):
            c = f.case("layout/%s-to-%s" % (name, dst))
            c("to", mk(c), dst)
    return f

# ---- compute.json: promotion, scalars, TensorIterator layouts, reductions ----

def operand(c, dt, shape=(3,), nonzero=False):
    """A cheap operand of dtype dt: arange (bool: [F, T, T ...]); nonzero: full(3) (bool: true)."""
    n = prod(shape)
    if nonzero:
        t = c.full([n], 3.0 if dt != "bool" else 1.0, dt)
    elif dt == "bool":
        t = c("to", c.arange(n, "i64"), "bool")
    else:
        t = c.arange(n, dt)
    return t if len(shape) == 1 else c("view", t, list(shape))


def fam_compute():
    f = Family("compute")
    # torch.result_type over every dtype pair: tensor op tensor, tensor op 0-dim, 0-dim op 0-dim
    for a in DNAMES:
        for b in DNAMES:
            c = f.case("add/%s-%s" % (a, b))
            c("add", operand(c, a), operand(c, b))
            c = f.case("add/%s-0d-%s" % (a, b))
            c("add", operand(c, a), c.scalar(2.0 if b != "bool" else 1.0, b))
            c = f.case("div/%s-%s" % (a, b))
            c("div", operand(c, a), operand(c, b, nonzero=True))
    for a, b in (("f32", "f64"), ("i32", "f16"), ("i64", "u8"), ("bool", "i8"), ("bf16", "f16"), ("u8", "i8"),
                 ("f16", "i64"), ("bool", "f32"), ("i8", "f64"), ("i16", "bool")):
        c = f.case("add/0d-%s-plus-%s" % (a, b))
        c("add", c.scalar(3.0, a) if a != "bool" else c.scalar(1.0, a), operand(c, b))
        c = f.case("add/0d-%s-plus-0d-%s" % (a, b))
        c("add", c.scalar(3.0 if a != "bool" else 1.0, a), c.scalar(5.0 if b != "bool" else 0.0, b))
    for a, b in (("i32", "i32"), ("i64", "f32"), ("u8", "i8"), ("f16", "f16"), ("bf16", "f32"), ("f64", "i16"),
                 ("bool", "u8"), ("f32", "f32"), ("i8", "i8"), ("u8", "u8")):
        for op in ("sub", "mul"):
            bad = op == "sub" and "bool" in (a, b)  # torch rejects - on bool
            c = f.case("%s/%s-%s" % (op, a, b))
            c(op, operand(c, a), operand(c, b), err=bad)
            c = f.case("%s/%s-0d-%s" % (op, a, b))
            c(op, operand(c, a), c.scalar(3.0, b), err=bad)
    c = f.case("mul/bool-bool")
    c("mul", operand(c, "bool"), operand(c, "bool"))
    c = f.case("add/u8-wraps")
    c("add", c.full([4], 200.0, "u8"), c.full([4], 100.0, "u8"))
    c = f.case("add/i8-wraps")
    c("add", c.full([4], 100.0, "i8"), c.full([4], 100.0, "i8"))
    c = f.case("mul/i16-wraps")
    c("mul", c.full([3], 300.0, "i16"), c.full([3], 300.0, "i16"))
    c = f.case("div/by-zero")
    c("div", c.data([5], "f32"), c.zeros([5], "f32"))
    c = f.case("div/int-by-zero")
    c("div", c.data([5], "i32"), c.zeros([5], "i32"))
    # python-float scalars: float tensors keep their dtype, integer and bool tensors give f32
    for dt in DNAMES:
        for op, s in (("add_scalar", 2.5), ("add_scalar", -1.0), ("mul_scalar", 2.5), ("mul_scalar", -0.5),
                      ("add_scalar", 0.1)):
            c = f.case("%s/%s-%s" % (op, dt, repr(s)))
            c(op, operand(c, dt), s)
    for op in ("add_scalar", "mul_scalar"):
        c = f.case("%s/transposed" % op)
        c(op, c("t", c.data([3, 4])), 1.5)
        c = f.case("%s/expanded" % op)
        c(op, c("expand", c.data([3, 1]), [3, 4]), 1.5)
        c = f.case("%s/0d" % op)
        c(op, c.scalar(3.0, "i64"), 1.5)
        c = f.case("%s/channels-last" % op)
        c(op, c.cl([2, 3, 2, 2]), 1.5)
    # unary ops over the dtypes torch supports on the CPU (gaps are in errors.json)
    for dt in DNAMES:
        if dt != "bool":
            c = f.case("neg/%s" % dt)
            c("neg", c.sdata([4], dt))
        if dt != "f16":
            c = f.case("exp/%s" % dt)
            c("exp", c.sdata([4], dt))
        if dt not in ("bool", "f16"):
            c = f.case("relu/%s" % dt)
            c("relu", c.sdata([4], dt))
    for op in ("neg", "exp", "relu"):
        for name, mk in (("transposed", lambda c: c("t", c.data([3, 4]))),
                         ("permuted", lambda c: c("permute", c.data([2, 3, 4]), [2, 0, 1])),
                         ("channels-last", lambda c: c.cl([2, 3, 2, 2])),
                         ("slice-step2", lambda c: c("slice", c.data([3, 6]), 1, 0, TL_END, 2)),
                         ("transposed-sliced", lambda c: c("slice", c("t", c.data([4, 6])), 0, 1, 5, 1)),
                         ("expanded", lambda c: c("expand", c.data([3, 1]), [3, 4])),
                         ("offset", lambda c: c("narrow", c.data([4, 3]), 0, 1, 2)),
                         ("0d", lambda c: c.scalar(-1.5)),
                         ("zero-size", lambda c: c("t", c.zeros([0, 3])))):
            c = f.case("%s/layout-%s" % (op, name))
            c(op, mk(c))

    # TensorIterator's output layout for binary ops
    def perm201(c):
        return c("permute", c.data([2, 3, 4]), [2, 0, 1])  # (4,2,3; 1,12,4)
    layouts = [
        ("permuted+contig", lambda c: (perm201(c), c.data([4, 2, 3]))),
        ("contig+permuted", lambda c: (c.data([4, 2, 3]), perm201(c))),
        ("bias+permuted", lambda c: (c.data([3]), perm201(c))),
        ("permuted+bias", lambda c: (perm201(c), c.data([3]))),
        ("xT+y", lambda c: (c("t", c.data([4, 6])), c.data([6, 4]))),
        ("y+xT", lambda c: (c.data([6, 4]), c("t", c.data([4, 6])))),
        ("xT+yT", lambda c: (c("t", c.data([4, 6])), c("t", c.data([4, 6])))),
        ("cl+cl", lambda c: (c.cl([2, 3, 2, 2]), c.cl([2, 3, 2, 2]))),
        ("cl+contig", lambda c: (c.cl([2, 3, 2, 2]), c.data([2, 3, 2, 2]))),
        ("contig+cl", lambda c: (c.data([2, 3, 2, 2]), c.cl([2, 3, 2, 2]))),
        ("cl+bias-c11", lambda c: (c.cl([2, 3, 2, 2]), c.data([3, 1, 1]))),
        ("bias-c11+cl", lambda c: (c.data([3, 1, 1]), c.cl([2, 3, 2, 2]))),
        ("cl+0d", lambda c: (c.cl([2, 3, 2, 2]), c.scalar(2.0))),
        ("col+row", lambda c: (c.data([3, 1]), c.data([1, 4]))),
        ("row+col", lambda c: (c.data([1, 4]), c.data([3, 1]))),
        ("expanded+expanded", lambda c: (c("expand", c.data([3, 1]), [3, 4]), c("expand", c.data([1, 4]), [3, 4]))),
        ("expanded+transposed", lambda c: (c("expand", c.data([3, 1]), [3, 4]), c("t", c.data([4, 3])))),
        ("slice+slice", lambda c: (c("slice", c.data([3, 8]), 1, 0, TL_END, 2), c("slice", c.data([3, 8]), 1, 1, TL_END, 2))),
        ("transposed-slice+contig", lambda c: (c("slice", c("t", c.data([6, 4])), 0, 0, 2, 1), c.data([2, 6]))),
        ("permuted-same", lambda c: (perm201(c), perm201(c))),
        ("permuted-102+permuted-201", lambda c: (c("permute", c.data([2, 4, 3]), [1, 0, 2]), perm201(c))),
        ("size1-dims", lambda c: (c("t", c.data([1, 4])), c.data([4, 1]))),
        ("broadcast-to-3d", lambda c: (c.data([2, 1, 4]), c("t", c.data([4, 3])))),
        ("0d+0d", lambda c: (c.scalar(1.0), c.scalar(2.0))),
        ("zero-size+bias", lambda c: (c("t", c.zeros([3, 0])), c.data([3]))),
        ("permuted-4d-nhwc", lambda c: (c("permute", c.data([2, 2, 2, 3]), [0, 3, 1, 2]), c.data([2, 3, 2, 2]))),
        ("offset+offset", lambda c: (c("narrow", c.data([4, 3]), 0, 1, 2), c("narrow", c.data([4, 3]), 0, 2, 2))),
    ]
    for name, mk in layouts:
        for op in ("add", "mul"):
            c = f.case("layout/%s-%s" % (op, name))
            a, b = mk(c)
            c(op, a, b)
    for name in ("permuted+contig", "xT+y", "cl+contig", "bias+permuted", "expanded+transposed"):
        mk = dict(layouts)[name]
        for op in ("sub", "div"):
            c = f.case("layout/%s-%s" % (op, name))
            a, b = mk(c)
            c(op, a, b)
    c = f.case("layout/add-mixed-dtype-permuted")
    c("add", c("t", c.data([4, 3], "i32")), c.data([3, 4], "f64"))
    c = f.case("layout/add-bf16-permuted")
    c("add", c("t", c.data([4, 3], "bf16")), c.data([3, 4], "bf16"))
    for shape_a, shape_b in (([2, 3], [3]), ([3, 1], [1, 3]), ([2, 1, 4], [3, 1]), ([1], [2, 2]), ([], [2, 3]),
                             ([0, 3], [1, 3]), ([5, 1, 1], [1, 2, 1]), ([2, 3], [1, 1, 1, 3])):
        c = f.case("broadcast/%s-%s" % (sname(shape_a), sname(shape_b)))
        a = c.scalar(1.5) if not shape_a else c.data(shape_a)
        c("add", a, c.data(shape_b))

    # reductions
    for dim in (0, 1, 2, -1, -3):
        for keep in (False, True):
            for op in ("sum", "mean"):
                c = f.case("%s/2x3x4-d%d-%s" % (op, dim, "keep" if keep else "drop"))
                c(op, c.data([2, 3, 4]), dim, keep)
            c = f.case("sum/permuted-d%d-%s" % (dim, "keep" if keep else "drop"))
            c("sum", c("permute", c.data([2, 3, 4]), [2, 0, 1]), dim, keep)
    for dim in (0, 1, 2, 3):
        for keep in (False, True):
            for op in ("sum", "mean"):
                c = f.case("%s/channels-last-d%d-%s" % (op, dim, "keep" if keep else "drop"))
                c(op, c.cl([2, 3, 2, 2]), dim, keep)
    for dt in DNAMES:
        c = f.case("sum/dtype-%s" % dt)
        c("sum", operand(c, dt, (3, 4)), 1, False)
        if dt in FLOATS:
            c = f.case("mean/dtype-%s" % dt)
            c("mean", operand(c, dt, (3, 4)), 0, True)
    for op in ("sum", "mean"):
        for name, mk, dim, keep in (("0d", lambda c: c.scalar(2.5), 0, False), ("0d-keep", lambda c: c.scalar(2.5), -1, True),
                                    ("zero-size-reduced", lambda c: c.zeros([0, 3]), 0, False),
                                    ("zero-size-kept", lambda c: c.zeros([0, 3]), 1, True),
                                    ("1d", lambda c: c.data([7]), 0, False),
                                    ("expanded", lambda c: c("expand", c.data([3, 1]), [3, 4]), 1, False),
                                    ("expanded-keep", lambda c: c("expand", c.data([3, 1]), [3, 4]), 0, True),
                                    ("transposed", lambda c: c("t", c.data([3, 4])), 0, False),
                                    ("transposed-keep", lambda c: c("t", c.data([3, 4])), 1, True),
                                    ("slice-step2", lambda c: c("slice", c.data([3, 8]), 1, 0, TL_END, 2), 1, True),
                                    ("size1-dim", lambda c: c.data([3, 1, 4]), 1, True)):
            c = f.case("%s/%s" % (op, name))
            c(op, mk(c), dim, keep)
    # softmax
    for dim in (0, 1, 2, -1):
        c = f.case("softmax/2x3x4-d%d" % dim)
        c("softmax", c.data([2, 3, 4]), dim)
        c = f.case("softmax/permuted-d%d" % dim)
        c("softmax", c("permute", c.data([2, 3, 4]), [2, 0, 1]), dim)
    for dim in (1, 3):
        c = f.case("softmax/channels-last-d%d" % dim)
        c("softmax", c.cl([2, 3, 2, 2]), dim)
    for name, mk, dim in (("0d", lambda c: c.scalar(3.0), 0), ("1d", lambda c: c.data([6]), 0),
                          ("transposed", lambda c: c("t", c.data([3, 4])), 1),
                          ("expanded", lambda c: c("expand", c.data([3, 1]), [3, 4]), 1),
                          ("slice-step2", lambda c: c("slice", c.data([3, 8]), 1, 0, TL_END, 2), 1),
                          ("zero-size", lambda c: c.zeros([0, 3]), 1), ("large-values", lambda c: c.data([2, 5], scale=40.0), 1)):
        c = f.case("softmax/%s" % name)
        c("softmax", mk(c), dim)
    for dt in ("bf16", "f32", "f64"):
        c = f.case("softmax/dtype-%s" % dt)
        c("softmax", c.data([2, 5], dt), 1)
    return f

# ---- matmul.json ----

def fam_matmul():
    f = Family("matmul")
    shapes = [([3], [3]), ([3], [3, 4]), ([2, 3], [3]), ([2, 3], [3, 4]), ([2, 2, 3], [2, 3, 4]),
              ([2, 2, 3], [3, 4]), ([2, 3], [2, 3, 4]), ([3], [2, 3, 4]), ([2, 2, 3], [3]),
              ([2, 1, 2, 3], [3, 3, 2]), ([1, 2, 3], [2, 3, 2]), ([2, 1, 3], [1, 3, 2]),
              ([0, 3], [3, 4]), ([2, 0], [0, 4]), ([2, 3], [3, 0]), ([0], [0]), ([1, 3], [3, 1]),
              ([2, 2, 2, 3], [3, 2]), ([3], [1, 3, 2]), ([1, 1, 3], [3]), ([4, 1, 3], [1, 3, 2])]
    for sa, sb in shapes:
        c = f.case("shape/%s@%s" % (sname(sa), sname(sb)))
        c("matmul", c.data(sa), c.data(sb))
    layouts = [("aT@b", lambda c: (c("t", c.data([3, 2])), c.data([3, 4]))),
               ("a@bT", lambda c: (c.data([2, 3]), c("t", c.data([4, 3])))),
               ("aT@bT", lambda c: (c("t", c.data([3, 2])), c("t", c.data([4, 3])))),
               ("batched-aT@b", lambda c: (c("transpose", c.data([2, 3, 2]), 1, 2), c.data([2, 3, 4]))),
               ("batched-3d@2d-transposed", lambda c: (c("transpose", c.data([2, 3, 2]), 1, 2), c.data([3, 4]))),
               ("batch-permuted", lambda c: (c("permute", c.data([2, 2, 3]), [1, 0, 2]), c.data([2, 3, 4]))),
               ("sliced", lambda c: (c("slice", c.data([2, 6]), 1, 0, TL_END, 2), c.data([3, 4]))),
               ("expanded-batch", lambda c: (c("expand", c.data([1, 2, 3]), [3, 2, 3]), c.data([3, 3, 2]))),
               ("expanded-rhs", lambda c: (c.data([2, 3]), c("expand", c.data([3, 1]), [3, 4]))),
               ("1d-strided", lambda c: (c("slice", c.data([6]), 0, 0, TL_END, 2), c.data([3, 2]))),
               ("row-vector-stride", lambda c: (c("select", c("t", c.data([3, 2])), 0, 1), c.data([3, 2]))),
               ("offset", lambda c: (c("narrow", c.data([4, 3]), 0, 1, 2), c("narrow", c.data([3, 5]), 1, 1, 4)))]
    for name, mk in layouts:
        c = f.case("layout/%s" % name)
        a, b = mk(c)
        c("matmul", a, b)
    for dt in ("u8", "i8", "i16", "i32", "i64", "bf16", "f32", "f64"):
        c = f.case("dtype/%s" % dt)
        c("matmul", c.data([2, 3], dt), c.data([3, 2], dt))
        c = f.case("dtype/mv-%s" % dt)
        c("matmul", c.data([2, 3], dt), c.data([3], dt))
    # the worksheet's block 2: small stand-in shapes, then full size (meta only)
    def block2(c, d, b, src):
        w = src(c, [d, d])
        h = src(c, [b, d])
        y = c("matmul", h, c("t", w))
        z = c("view", y, [2, b // 2, d])
        p = c("permute", z, [1, 0, 2])
        c("reshape", p, [b // 2, 2 * d])
    crosscheck("block2", lambda c: block2(c, 6, 8, lambda c, s: c.randn(s, "bf16")))
    block2(f.case("worksheet/block2-small-values"), 6, 8, lambda c, s: c.data(s, "bf16", scale=0.125))
    block2(f.case("worksheet/block2-small-randn"), 6, 8, lambda c, s: c.randn(s, "bf16"))
    block2(f.case("worksheet/block2-full-cuda", values=False, device="cuda", exec_device="meta"), 4096, 8,
           lambda c, s: c.randn(s, "bf16"))
    return f


# ---- index.json: index, index_select, gather, cat; the worksheet's block 3 ----

def fam_index():
    f = Family("index")
    def idx(c, vals, shape=None):
        t = build_vector(c, [float(v) for v in vals], "i64")
        return c("view", t, shape) if shape else t
    for name, mk, iv, ishape in (("1d", lambda c: c.data([5]), [0, 4, 2, 2], None),
                                 ("2d", lambda c: c.data([4, 3]), [3, 0, 1], None),
                                 ("2d-negative", lambda c: c.data([4, 3]), [-1, -4, 2], None),
                                 ("2d-idx-2d", lambda c: c.data([4, 3]), [0, 1, 3, 2], [2, 2]),
                                 ("3d", lambda c: c.data([3, 2, 4]), [2, 0], None),
                                 ("transposed", lambda c: c("t", c.data([3, 4])), [1, 3, 0], None),
                                 ("permuted-3d", lambda c: c("permute", c.data([2, 3, 4]), [2, 0, 1]), [3, 1], None),
                                 ("permuted-3d-idx-2d", lambda c: c("permute", c.data([2, 3, 4]), [1, 2, 0]), [0, 2, 1, 1], [2, 2]),
                                 ("channels-last", lambda c: c.cl([3, 3, 2, 2]), [2, 0], None),
                                 ("expanded", lambda c: c("expand", c.data([3, 1]), [3, 4]), [2, 2, 0], None),
                                 ("slice-step2", lambda c: c("slice", c.data([3, 8]), 1, 0, TL_END, 2), [1, 2], None),
                                 ("empty-idx", lambda c: c.data([4, 3]), [], None),
                                 ("0d-idx", lambda c: c.data([4, 3]), [2], []),
                                 ("bf16", lambda c: c.data([4, 3], "bf16"), [1, 1], None),
                                 ("i32", lambda c: c.data([4, 3], "i32"), [3, 2], None),
                                 ("bool", lambda c: c.data([4, 3], "bool"), [3, 2], None)):
        c = f.case("index/%s" % name)
        t = mk(c)
        i = idx(c, iv, ishape) if iv else c("view", c.zeros([0], "i64"), [0])
        c("index", t, i)
    c = f.case("index/transposed-idx")
    c("index", c.data([5, 2]), c("t", idx(c, [0, 1, 2, 3, 4, 0], [2, 3])))
    c = f.case("index/randint-idx")
    c("index", c.data([6, 2]), c.randint(0, 6, [3, 2]))
    for name, mk, dim, iv in (("2d-d0", lambda c: c.data([4, 3]), 0, [3, 0, 0]),
                              ("2d-d1", lambda c: c.data([4, 3]), 1, [2, 0]),
                              ("2d-dneg", lambda c: c.data([4, 3]), -1, [1, 1, 2, 0]),
                              ("3d-d1", lambda c: c.data([2, 3, 4]), 1, [2, 0]),
                              ("transposed-d0", lambda c: c("t", c.data([3, 4])), 0, [3, 1]),
                              ("transposed-d1", lambda c: c("t", c.data([3, 4])), 1, [2, 0, 1]),
                              ("permuted-d2", lambda c: c("permute", c.data([2, 3, 4]), [2, 0, 1]), 2, [1]),
                              ("channels-last-d1", lambda c: c.cl([2, 3, 2, 2]), 1, [2, 0]),
                              ("expanded-d1", lambda c: c("expand", c.data([3, 1]), [3, 4]), 1, [0, 3]),
                              ("1d", lambda c: c.data([6]), 0, [5, 0, 5]),
                              ("0d", lambda c: c.scalar(4.5), 0, [0, 0]),
                              ("empty", lambda c: c.data([4, 3]), 1, [])):
        c = f.case("index_select/%s" % name)
        t = mk(c)
        i = idx(c, iv) if iv else c.zeros([0], "i64")
        c("index_select", t, dim, i)
    c = f.case("index_select/i32-idx")
    c("index_select", c.data([4, 3]), 0, c("to", idx(c, [3, 1]), "i32"))
    c = f.case("index_select/0d-idx")
    c("index_select", c.data([4, 3]), 0, c("view", idx(c, [2]), []))
    for name, mk, dim, iv, ishape in (("2d-d0", lambda c: c.data([3, 4]), 0, [0, 1, 2, 0, 2, 2, 1, 0], [2, 4]),
                                      ("2d-d1", lambda c: c.data([3, 4]), 1, [3, 0, 1, 1, 2, 0], [3, 2]),
                                      ("2d-small-idx", lambda c: c.data([3, 4]), 1, [0, 3], [1, 2]),
                                      ("3d-d2", lambda c: c.data([2, 3, 4]), 2, [0, 3, 1, 2, 2, 1], [2, 3, 1]),
                                      ("3d-dneg", lambda c: c.data([2, 3, 4]), -2, [0, 2, 1, 1], [1, 2, 2]),
                                      ("transposed", lambda c: c("t", c.data([4, 3])), 1, [0, 3, 1, 2, 2, 1], [3, 2]),
                                      ("permuted", lambda c: c("permute", c.data([2, 3, 4]), [2, 0, 1]), 0, [3, 0, 1, 2], [2, 2, 1]),
                                      ("channels-last", lambda c: c.cl([2, 3, 2, 2]), 1, [2, 0, 1, 2, 0, 1, 2, 0], [2, 1, 2, 2]),
                                      ("expanded", lambda c: c("expand", c.data([3, 1]), [3, 4]), 0, [2, 1, 0], [1, 3]),
                                      ("1d", lambda c: c.data([5]), 0, [4, 4, 0], [3]),
                                      ("empty-idx", lambda c: c.data([3, 4]), 0, [], [0, 4])):
        c = f.case("gather/%s" % name)
        t = mk(c)
        i = idx(c, iv, ishape) if iv else c.zeros(ishape, "i64")
        c("gather", t, dim, i)
    c = f.case("gather/transposed-idx")
    c("gather", c.data([3, 4]), 1, c("t", idx(c, [0, 1, 2, 3, 3, 2], [2, 3])))
    c = f.case("gather/expanded-idx")
    c("gather", c.data([3, 4]), 1, c("expand", idx(c, [1, 3, 0], [3, 1]), [3, 2]))
    c = f.case("gather/0d")
    c("gather", c.scalar(2.5), 0, c("view", idx(c, [0]), []))
    # cat
    cats = [("2d-d0", lambda c: [c.data([2, 3]), c.data([1, 3])], 0),
            ("2d-d1", lambda c: [c.data([2, 3]), c.data([2, 1])], 1),
            ("2d-dneg", lambda c: [c.data([2, 3]), c.data([2, 2]), c.data([2, 1])], -1),
            ("3d-d1", lambda c: [c.data([2, 3, 2]), c.data([2, 1, 2])], 1),
            ("single", lambda c: [c.data([2, 3])], 0),
            ("single-transposed", lambda c: [c("t", c.data([2, 3]))], 0),
            ("transposed+transposed", lambda c: [c("t", c.data([2, 3])), c("t", c.data([2, 3]))], 0),
            ("transposed+contig", lambda c: [c("t", c.data([2, 3])), c.data([3, 2])], 1),
            ("contig+transposed", lambda c: [c.data([3, 2]), c("t", c.data([2, 3]))], 1),
            ("cl+cl-d0", lambda c: [c.cl([1, 3, 2, 2]), c.cl([2, 3, 2, 2])], 0),
            ("cl+cl-d1", lambda c: [c.cl([2, 3, 2, 2]), c.cl([2, 1, 2, 2])], 1),
            ("cl+cl-d3", lambda c: [c.cl([2, 3, 2, 2]), c.cl([2, 3, 2, 1])], 3),
            ("cl+contig", lambda c: [c.cl([2, 3, 2, 2]), c.data([2, 3, 2, 2])], 1),
            ("contig+cl", lambda c: [c.data([2, 3, 2, 2]), c.cl([2, 3, 2, 2])], 1),
            ("permuted-3d", lambda c: [c("permute", c.data([2, 3, 4]), [2, 0, 1]), c("permute", c.data([2, 3, 4]), [2, 0, 1])], 1),
            ("expanded", lambda c: [c("expand", c.data([3, 1]), [3, 4]), c.data([3, 2])], 1),
            ("sliced", lambda c: [c("slice", c.data([2, 6]), 1, 0, TL_END, 2), c.data([2, 3])], 0),
            ("zero-size-part", lambda c: [c.data([2, 3]), c.zeros([0, 3]), c.data([1, 3])], 0),
            ("legacy-empty-1d", lambda c: [c.data([2, 3]), c.zeros([0])], 1),
            ("all-empty", lambda c: [c.zeros([0, 3]), c.zeros([0, 3])], 0),
            ("1d", lambda c: [c.data([3]), c.data([2]), c.data([4])], 0),
            ("promote-f32-f64", lambda c: [c.data([2], "f32"), c.data([2], "f64")], 0),
            ("promote-i32-f16", lambda c: [c.data([2], "i32"), c.data([2], "f16")], 0),
            ("promote-u8-i8", lambda c: [c.data([2], "u8"), c.data([2], "i8")], 0),
            ("promote-bool-i64", lambda c: [c.data([2], "bool"), c.data([2], "i64")], 0),
            ("bf16", lambda c: [c.data([2, 2], "bf16"), c.data([2, 2], "bf16")], 1),
            ("many", lambda c: [c.full([1, 2], float(k)) for k in range(9)], 0),
            ("self-twice", None, 1)]
    for name, mk, dim in cats:
        c = f.case("cat/%s" % name)
        if mk is None:
            x = c.data([2, 2])
            c("cat", [x, x], dim)
        else:
            c("cat", mk(c), dim)
    # the worksheet's block 3: small stand-in shapes, then full size (meta only)
    def block3(c, vocab, d, b, s, values):
        ids = c.randint(0, vocab, [b, s])
        emb = c.data([vocab, d], "bf16", scale=0.125) if values else c.randn([vocab, d], "bf16")
        hidden = c("index", emb, ids)
        hidden = c("to", hidden, "f32")
        w = c.data([d, vocab], "f32", scale=0.25) if values else c.randn([d, vocab], "f32")
        c("matmul", hidden, w)
    crosscheck("block3", lambda c: block3(c, 10, 4, 2, 3, False))
    block3(f.case("worksheet/block3-small-values"), 10, 4, 2, 3, True)
    block3(f.case("worksheet/block3-small-randn"), 10, 4, 2, 3, False)
    block3(f.case("worksheet/block3-full-cuda", values=False, device="cuda", exec_device="meta"), 32000, 4096, 4, 2048, False)
    c = f.case("worksheet/block3-fixed-ids")
    emb = c.data([10, 4], "bf16", scale=0.125)
    c("to", c("index", emb, idx(c, [1, 9, 0, 3, 3, 7], [2, 3])), "f32")
    return f


# ---- conv.json ----

def fam_conv():
    f = Family("conv")
    for xs, ws, stride, pad in (([1, 1, 4, 4], [1, 1, 3, 3], 1, 0), ([1, 2, 5, 5], [3, 2, 3, 3], 1, 1),
                                ([2, 2, 5, 6], [2, 2, 3, 3], 2, 0), ([2, 2, 5, 6], [2, 2, 3, 3], 2, 1),
                                ([1, 3, 4, 4], [2, 3, 1, 1], 1, 0), ([1, 3, 4, 4], [2, 3, 1, 1], 3, 2),
                                ([2, 1, 3, 3], [4, 1, 3, 3], 1, 0), ([1, 2, 3, 5], [1, 2, 2, 2], 1, 2),
                                ([1, 1, 7, 7], [1, 1, 3, 3], 3, 1), ([2, 2, 4, 4], [2, 2, 4, 4], 1, 0),
                                ([0, 2, 4, 4], [2, 2, 3, 3], 1, 0),
                                ([1, 2, 2, 2], [1, 2, 3, 3], 1, 1), ([1, 1, 5, 1], [1, 1, 3, 1], 2, 0)):
        c = f.case("shape/x%s-w%s-s%d-p%d" % (sname(xs), sname(ws), stride, pad))
        c("conv2d", c.data(xs, scale=0.25), c.data(ws, scale=0.125), stride, pad)
    c = f.case("shape/unbatched-3d")
    c("conv2d", c.data([2, 4, 4], scale=0.25), c.data([3, 2, 3, 3], scale=0.125), 1, 1)
    layouts = [("x-cl", lambda c: (c.cl([2, 3, 4, 4]), c.data([2, 3, 3, 3], scale=0.125))),
               ("w-cl", lambda c: (c.data([2, 3, 4, 4]), c.cl([2, 3, 3, 3], scale=0.125))),
               ("both-cl", lambda c: (c.cl([2, 3, 4, 4]), c.cl([2, 3, 3, 3], scale=0.125))),
               ("x-cl-1x1", lambda c: (c.cl([1, 4, 3, 3]), c.data([2, 4, 1, 1], scale=0.125))),
               ("x-transposed-hw", lambda c: (c("transpose", c.data([1, 2, 4, 5]), 2, 3), c.data([2, 2, 3, 3]))),
               ("x-sliced", lambda c: (c("slice", c.data([1, 2, 4, 8]), 3, 0, TL_END, 2), c.data([1, 2, 3, 3]))),
               ("x-expanded", lambda c: (c("expand", c.data([1, 2, 4, 4]), [2, 2, 4, 4]), c.data([1, 2, 3, 3]))),
               ("x-cl-batch1", lambda c: (c.cl([1, 3, 4, 4]), c.data([2, 3, 3, 3], scale=0.125))),
               ("x-cl-c1", lambda c: (c.cl([2, 1, 4, 4]), c.data([2, 1, 3, 3], scale=0.125)))]
    for name, mk in layouts:
        for stride, pad in ((1, 0), (2, 1)):
            c = f.case("layout/%s-s%d-p%d" % (name, stride, pad))
            x, w = mk(c)
            c("conv2d", x, w, stride, pad)
    for dt in ("f32", "f64", "bf16"):
        c = f.case("dtype/%s" % dt)
        c("conv2d", c.data([1, 2, 4, 4], dt, scale=0.25), c.data([2, 2, 3, 3], dt, scale=0.125), 1, 1)
    for dt in ("i64", "u8"):
        c = f.case("dtype/%s" % dt)
        c("conv2d", c.data([1, 1, 3, 3], dt), c.data([1, 1, 2, 2], dt), 1, 0)
    c = f.case("chain/conv-relu-sum")
    y = c("conv2d", c.cl([1, 2, 4, 4]), c.data([3, 2, 3, 3], scale=0.125), 1, 1)
    c("sum", c("relu", y), 1, True)
    c = f.case("chain/conv-add-bias")
    y = c("conv2d", c.cl([1, 2, 4, 4]), c.data([3, 2, 3, 3], scale=0.125), 1, 1)
    c("add", y, c.data([3, 1, 1]))
    c = f.case("chain/conv-flatten")
    y = c("conv2d", c.cl([2, 2, 4, 4]), c.data([3, 2, 3, 3], scale=0.125), 2, 1)
    c("flatten", y, 1, -1)
    return f

# ---- inplace.json: in-place writes, set/get, overlap rules ----

def fam_inplace():
    f = Family("inplace")
    for op in ("add_", "sub_"):
        for name, mk in (("same", lambda c: (c.data([2, 3]), c.data([2, 3]))),
                         ("broadcast-row", lambda c: (c.data([2, 3]), c.data([3]))),
                         ("broadcast-col", lambda c: (c.data([2, 3]), c.data([2, 1]))),
                         ("0d-other", lambda c: (c.data([2, 3]), c.scalar(1.5))),
                         ("0d-self", lambda c: (c.scalar(1.5), c.scalar(2.0))),
                         ("transposed-self", lambda c: (c("t", c.data([3, 2])), c.data([2, 3]))),
                         ("transposed-other", lambda c: (c.data([2, 3]), c("t", c.data([3, 2])))),
                         ("expanded-other", lambda c: (c.data([3, 4]), c("expand", c.data([3, 1]), [3, 4]))),
                         ("slice-self", lambda c: (c("slice", c.data([3, 6]), 1, 0, TL_END, 2), c.data([3, 3]))),
                         ("self-other", None),
                         ("i64-i64", lambda c: (c.data([5], "i64"), c.data([5], "i64"))),
                         ("i32-i64", lambda c: (c.data([5], "i32"), c.data([5], "i64"))),
                         ("f32-i64", lambda c: (c.data([5], "f32"), c.data([5], "i64"))),
                         ("f16-f32", lambda c: (c.data([5], "f16"), c.data([5], "f32"))),
                         ("bf16-f64", lambda c: (c.data([5], "bf16"), c.data([5], "f64"))),
                         ("i64-bool", lambda c: (c.data([5], "i64"), c.data([5], "bool"))),
                         ("u8-wraps", lambda c: (c.full([3], 250.0, "u8"), c.full([3], 10.0, "u8"))),
                         ("f32-0d-f64", lambda c: (c.data([4], "f32"), c.scalar(0.1, "f64"))),
                         ("i32-0d-i64", lambda c: (c.data([4], "i32"), c.scalar(7.0, "i64"))),
                         ("zero-size", lambda c: (c.zeros([0, 3]), c.data([3]))),
                         ("disjoint-halves", None),
                         ("interleaved-strided", None)):
            c = f.case("%s/%s" % (op, name))
            if name == "self-other":
                x = c.data([2, 3])
                c(op, x, x)
            elif name == "disjoint-halves":
                x = c.data([6])
                c(op, c("slice", x, 0, 0, 3, 1), c("slice", x, 0, 3, 6, 1))
                c("clone", x)
            elif name == "interleaved-strided":  # neither is dense: torch cannot tell, and allows it
                x = c.data([6])
                c(op, c("slice", x, 0, 0, TL_END, 2), c("slice", x, 0, 1, TL_END, 2))
                c("clone", x)
            else:
                a, b = mk(c)
                c(op, a, b, err=(op == "sub_" and name == "i64-bool"))
    c = f.case("add_/bool-bool")
    c("add_", c.data([4], "bool"), c.data([4], "bool"))
    # writes through a view reach the base
    c = f.case("add_/through-view")
    x = c.data([3, 4])
    c("add_", c("select", x, 0, 1), c.ones([4]))
    c("clone", x)
    c = f.case("add_/through-transpose-of-view")
    x = c.data([3, 4])
    v = c("t", c("slice", x, 1, 1, 3, 1))
    c("add_", v, c.full([2, 1], 10.0))
    c("contiguous", x)
    for dt in DNAMES:
        c = f.case("mul_scalar_/%s" % dt)
        c("mul_scalar_", c.data([5], dt), 2.0 if dt != "bool" else 1.0, err=dt not in FLOATS)
    for name, mk in (("transposed", lambda c: c("t", c.data([3, 4]))),
                     ("slice", lambda c: c("slice", c.data([3, 6]), 1, 1, TL_END, 2)),
                     ("0d", lambda c: c.scalar(3.0)),
                     ("channels-last", lambda c: c.cl([1, 2, 2, 2]))):
        c = f.case("mul_scalar_/%s" % name)
        c("mul_scalar_", mk(c), -1.5)
    c = f.case("mul_scalar_/through-view")
    x = c.data([3, 4])
    c("mul_scalar_", c("narrow", x, 1, 1, 2), 3.0)
    c("clone", x)
    for dt in DNAMES:
        c = f.case("fill_/%s" % dt)
        c("fill_", c.data([2, 3], dt), 2.5 if dt != "u8" else 7.0)
        c = f.case("zero_/%s" % dt)
        c("zero_", c.data([2, 3], dt))
        c = f.case("set/%s" % dt)
        x = c.data([2, 3], dt)
        c("set", x, [1, 2], 3.75 if dt != "u8" else 200.0)
        c("get", x, [1, 2])
        c("get", x, [0, 1])
    for name, mk, v in (("slice", lambda c: c("slice", c.data([3, 6]), 1, 0, TL_END, 2), 9.0),
                        ("transposed", lambda c: c("t", c.data([3, 4])), -1.0),
                        ("expanded", lambda c: c("expand", c.data([3, 1]), [3, 4]), 4.0),
                        ("0d", lambda c: c.scalar(3.0), 0.5),
                        ("zero-size", lambda c: c.zeros([0, 2]), 1.0),
                        ("nan", lambda c: c.data([4]), float("nan")),
                        ("inf", lambda c: c.data([4], "f16"), float("-inf")),
                        ("f16-rounds", lambda c: c.data([4], "f16"), 0.1),
                        ("bf16-rounds", lambda c: c.data([4], "bf16"), 1.0 + 2.0 ** -8 + 2.0 ** -20),
                        ("i32-truncates", lambda c: c.data([4], "i32"), -2.75),
                        ("bool-nonzero", lambda c: c.data([4], "bool"), 0.25)):
        c = f.case("fill_/%s" % name)
        c("fill_", mk(c), v)
    c = f.case("fill_/through-view")
    x = c.data([3, 4])
    c("fill_", c("select", x, 1, 2), -7.0)
    c("clone", x)
    c = f.case("zero_/expanded")
    c("zero_", c("expand", c.data([3, 1]), [3, 4]))
    c = f.case("zero_/through-view")
    x = c.data([3, 4])
    c("zero_", c("slice", x, 0, 1, 3, 1))
    c("clone", x)
    c = f.case("zero_/empty-then-zero")
    x = c.empty([2, 3])
    c("zero_", x)
    c("clone", x)
    c = f.case("fill_/empty-then-fill")
    x = c.empty([2, 3], "i16")
    c("fill_", x, 5.0)
    c("add", x, x)
    # copy_
    for name, mk in (("same", lambda c: (c.zeros([2, 3]), c.data([2, 3]))),
                     ("broadcast-row", lambda c: (c.zeros([2, 3]), c.data([3]))),
                     ("broadcast-0d", lambda c: (c.zeros([2, 3]), c.scalar(4.5))),
                     ("from-transposed", lambda c: (c.zeros([3, 2]), c("t", c.data([2, 3])))),
                     ("into-transposed", lambda c: (c("t", c.zeros([3, 2])), c.data([2, 3]))),
                     ("into-slice", lambda c: (c("slice", c.zeros([3, 6]), 1, 0, TL_END, 2), c.data([3, 3]))),
                     ("f64-to-f16", lambda c: (c.zeros([6], "f16"), c.data([6], "f64", scale=0.1, shift=0.01))),
                     ("f64-to-bf16", lambda c: (c.zeros([6], "bf16"), c.data([6], "f64", scale=0.1, shift=0.01))),
                     ("f32-to-i32", lambda c: (c.zeros([6], "i32"), c.data([6], "f32", scale=0.7, shift=-2.1))),
                     ("i64-to-u8", lambda c: (c.zeros([6], "u8"), c.data([6], "i64", shift=253))),
                     ("f32-to-bool", lambda c: (c.zeros([6], "bool"), c.data([6], "f32"))),
                     ("bool-to-f32", lambda c: (c.zeros([6], "f32"), c.data([6], "bool"))),
                     ("zero-size", lambda c: (c.zeros([0, 2]), c.zeros([2]))),
                     ("0d", lambda c: (c.scalar(1.0), c.scalar(2.5, "f64")))):
        c = f.case("copy_/%s" % name)
        a, b = mk(c)
        c("copy_", a, b)
    c = f.case("copy_/self")
    x = c.data([2, 3])
    c("copy_", x, x)
    c = f.case("copy_/disjoint-halves")
    x = c.data([6])
    c("copy_", c("slice", x, 0, 0, 3, 1), c("slice", x, 0, 3, 6, 1))
    c("clone", x)
    c = f.case("copy_/through-view")
    x = c.zeros([3, 4])
    c("copy_", c("select", x, 1, 0), c.data([3]))
    c("clone", x)
    # set / get
    for name, mk, index, v in (("negative-index", lambda c: c.data([3, 4]), [-1, -2], 9.5),
                               ("transposed", lambda c: c("t", c.data([3, 4])), [3, 0], 9.5),
                               ("expanded-shared", lambda c: c("expand", c.data([3, 1]), [3, 4]), [1, 2], 9.5),
                               ("0d", lambda c: c.scalar(1.0), [], 9.5),
                               ("slice", lambda c: c("slice", c.data([3, 6]), 1, 1, TL_END, 2), [2, 1], 9.5),
                               ("i8-negative", lambda c: c.data([4], "i8"), [0], -100.0),
                               ("f16-rounds", lambda c: c.data([4], "f16"), [1], 0.1),
                               ("bf16-rounds", lambda c: c.data([4], "bf16"), [2], 3.14159),
                               ("nan", lambda c: c.data([4], "f64"), [3], float("nan")),
                               ("bool-false", lambda c: c.ones([3], "bool"), [1], 0.0)):
        c = f.case("set/%s" % name)
        x = mk(c)
        c("set", x, index, v)
        c("get", x, index)
    c = f.case("set/through-view")
    x = c.data([3, 4])
    c("set", c("select", x, 0, 2), [1], -5.0)
    c("get", x, [2, 1])
    c("clone", x)
    for name, mk, index in (("transposed", lambda c: c("t", c.data([3, 4])), [3, 1]),
                            ("expanded", lambda c: c("expand", c.data([3, 1]), [3, 4]), [2, 3]),
                            ("0d", lambda c: c.scalar(6.25, "f64"), []),
                            ("0d-negative", lambda c: c.data([2, 3]), [-2, -3]),
                            ("offset", lambda c: c("narrow", c.data([4, 3]), 0, 2, 2), [1, 2]),
                            ("i64", lambda c: c.data([5], "i64"), [4]),
                            ("bool", lambda c: c.data([5], "bool"), [4]),
                            ("f16", lambda c: c.data([5], "f16"), [3]),
                            ("randn", lambda c: c.randn([3]), [1])):
        c = f.case("get/%s" % name)
        c("get", mk(c), index)
    # overlapping writes
    for op in ("add_", "sub_", "mul_scalar_", "copy_"):
        for name, mk in (("expanded", lambda c: c("expand", c.data([3, 1]), [3, 4])),
                         ("expanded-0d", lambda c: c("expand", c.scalar(1.0), [4])),
                         ("as-strided-overlap", lambda c: c("as_strided", c.data([12]), [4, 3], [1, 1], 0))):
            c = f.case("overlap/%s-%s" % (op, name))
            x = mk(c)
            if op == "mul_scalar_":
                c(op, x, 2.0, err=(name != "as-strided-overlap"))
            else:
                c(op, x, c.data(list(c.env[x].shape)), err=(name != "as-strided-overlap"))
    for op in ("add_", "sub_", "copy_"):
        c = f.case("overlap/%s-partial-shifted" % op)
        x = c.data([6])
        c(op, c("slice", x, 0, 1, TL_END, 1), c("slice", x, 0, 0, 5, 1), err=True)
        c = f.case("overlap/%s-partial-transposed" % op)
        x = c.data([3, 3])
        c(op, x, c("t", x), err=True)
    c = f.case("overlap/fill_-expanded-allowed")
    c("fill_", c("expand", c.data([3, 1]), [3, 4]), 2.0)
    c = f.case("overlap/set-expanded-allowed")
    x = c("expand", c.data([3, 1]), [3, 4])
    c("set", x, [0, 0], 5.0)
    c("get", x, [0, 3])
    return f

# ---- errors.json: what torch 1.13 rejects ----

def fam_errors():
    f = Family("errors")
    def err(name, build):
        c = f.case(name)
        build(c)
        if not c.errored:
            raise GenError("%s: no step failed" % c.name)
    # incompatible views, numel mismatches
    err("view/transposed-flat", lambda c: c("view", c("t", c.data([2, 3])), [6], err=True))
    err("view/permuted-merge", lambda c: c("view", c("permute", c.data([2, 3, 4]), [1, 0, 2]), [6, 4], err=True))
    err("view/channels-last-flat", lambda c: c("view", c.cl([2, 3, 2, 2]), [24], err=True))
    err("view/numel", lambda c: c("view", c.data([2, 3]), [4, 2], err=True))
    err("view/two-inferred", lambda c: c("view", c.data([2, 3]), [-1, -1], err=True))
    err("view/negative-size", lambda c: c("view", c.data([2, 3]), [-2, -3], err=True))
    err("reshape/numel", lambda c: c("reshape", c.data([2, 3]), [5], err=True))
    err("reshape/inferred-mismatch", lambda c: c("reshape", c.data([2, 3]), [4, -1], err=True))
    # bad dims
    for op, args in (("transpose", (0, 2)), ("transpose", (-3, 0)), ("select", (2, 0)), ("narrow", (2, 0, 1)),
                     ("unsqueeze", (3,)), ("squeeze", (-3,)), ("flatten", (0, 2)), ("flatten", (-3, 0)),
                     ("sum", (2, False)), ("mean", (-3, True)), ("softmax", (2,)), ("index_select", (2, None)),
                     ("gather", (2, None)), ("permute", ([0, 2],)), ("permute", ([0],)), ("permute", ([1, 1],))):
        def build(c, op=op, args=args):
            x = c.data([2, 3])
            if op in ("index_select", "gather"):
                i = c.zeros([2] if op == "index_select" else [2, 3], "i64")
                c(op, x, args[0], i, err=True)
            else:
                c(op, x, *args, err=True)
        err("bad-dim/%s-%s" % (op, "_".join(str(a) for a in args if a is not None)), build)
    err("bad-dim/t-3d", lambda c: c("t", c.data([2, 3, 4]), err=True))
    err("bad-dim/cat-dim", lambda c: c("cat", [c.data([2, 3]), c.data([2, 3])], 2, err=True))
    err("bad-dim/select-index", lambda c: c("select", c.data([2, 3]), 1, 3, err=True))
    err("bad-dim/narrow-start", lambda c: c("narrow", c.data([2, 3]), 1, 4, 0, err=True))
    err("bad-dim/narrow-length", lambda c: c("narrow", c.data([2, 3]), 1, 2, 2, err=True))
    err("bad-dim/sum-0d", lambda c: c("sum", c.scalar(1.0), 1, False, err=True))
    err("bad-dim/softmax-0d", lambda c: c("softmax", c.scalar(1.0), -2, err=True))
    err("arg/to_format-channels-last-3d", lambda c: c("to_format", c.data([3, 2, 2]), "channels_last", err=True))
    err("bad-dim/get-too-many", lambda c: c("get", c.data([3]), [0, 0], err=True))
    err("bad-dim/get-out-of-range", lambda c: c("get", c.data([2, 3]), [1, 3], err=True))
    err("bad-dim/get-negative-out-of-range", lambda c: c("get", c.data([2, 3]), [-3, 0], err=True))
    err("bad-dim/set-out-of-range", lambda c: c("set", c.data([2, 3]), [2, 0], 1.0, err=True))
    err("bad-dim/index-out-of-range", lambda c: c("index", c.data([3, 2]), build_vector(c, [0.0, 3.0], "i64"), err=True))
    err("bad-dim/index-negative-out-of-range", lambda c: c("index", c.data([3, 2]), build_vector(c, [-4.0], "i64"), err=True))
    err("bad-dim/index_select-out-of-range", lambda c: c("index_select", c.data([3, 2]), 1, build_vector(c, [2.0], "i64"), err=True))
    err("bad-dim/gather-out-of-range", lambda c: c("gather", c.data([3, 2]), 0, c.full([1, 2], 3.0, "i64"), err=True))
    err("bad-dim/select-0d", lambda c: c("select", c.scalar(2.0), 0, 0, err=True))
    # shape mismatches
    for op in ("add", "sub", "mul", "div"):
        err("shape/%s-broadcast" % op, lambda c, op=op: c(op, c.data([2, 3]), c.data([2]), err=True))
        err("shape/%s-broadcast-3d" % op, lambda c, op=op: c(op, c.data([2, 3, 4]), c.data([3, 3, 1]), err=True))
    err("shape/add-zero-vs-two", lambda c: c("add", c.zeros([0, 3]), c.data([2, 3]), err=True))
    err("shape/expand-non-singleton", lambda c: c("expand", c.data([3]), [2, 4], err=True))
    err("shape/expand-too-few", lambda c: c("expand", c.data([2, 3]), [6], err=True))
    err("shape/matmul-2d", lambda c: c("matmul", c.data([2, 3]), c.data([2, 3]), err=True))
    err("shape/matmul-1d", lambda c: c("matmul", c.data([3]), c.data([4]), err=True))
    err("shape/matmul-mv", lambda c: c("matmul", c.data([2, 3]), c.data([2]), err=True))
    err("shape/matmul-vm", lambda c: c("matmul", c.data([2]), c.data([3, 2]), err=True))
    err("shape/matmul-batched", lambda c: c("matmul", c.data([2, 2, 3]), c.data([2, 4, 2]), err=True))
    err("shape/matmul-batch-broadcast", lambda c: c("matmul", c.data([3, 2, 3]), c.data([2, 3, 2]), err=True))
    err("bad-dim/matmul-0d", lambda c: c("matmul", c.data([2, 3]), c.scalar(1.0), err=True))
    err("bad-dim/matmul-0d-lhs", lambda c: c("matmul", c.scalar(1.0), c.data([3]), err=True))
    err("shape/cat-size", lambda c: c("cat", [c.data([2, 3]), c.data([3, 3])], 1, err=True))
    err("shape/cat-ndim", lambda c: c("cat", [c.data([2, 3]), c.data([2])], 0, err=True))
    err("bad-dim/cat-0d", lambda c: c("cat", [c.scalar(1.0), c.data([2])], 0, err=True))
    err("shape/conv-channels", lambda c: c("conv2d", c.data([1, 3, 5, 5]), c.data([2, 4, 3, 3]), 1, 0, err=True))
    err("shape/conv-kernel-too-big", lambda c: c("conv2d", c.data([1, 3, 2, 2]), c.data([2, 3, 3, 3]), 1, 0, err=True))
    err("shape/conv-2d-input", lambda c: c("conv2d", c.data([3, 5]), c.data([2, 3, 3, 3]), 1, 0, err=True))
    err("shape/conv-zero-out-channels", lambda c: c("conv2d", c.data([1, 2, 4, 4]), c.zeros([0, 2, 3, 3]), 1, 0, err=True))
    err("shape/conv-3d-weight", lambda c: c("conv2d", c.data([1, 3, 5, 5]), c.data([2, 3, 3]), 1, 0, err=True))
    err("shape/gather-ndim", lambda c: c("gather", c.data([3, 4]), 0, c.zeros([2], "i64"), err=True))
    err("shape/gather-size", lambda c: c("gather", c.data([3, 4]), 0, c.zeros([2, 5], "i64"), err=True))
    err("arg/index_select-2d-idx", lambda c: c("index_select", c.data([3, 4]), 0, c.zeros([2, 2], "i64"), err=True))
    err("shape/add_-output-broadcast", lambda c: c("add_", c.data([3]), c.data([2, 3]), err=True))
    err("shape/sub_-output-broadcast", lambda c: c("sub_", c.data([3, 1]), c.data([3, 4]), err=True))
    err("shape/copy_-broadcast", lambda c: c("copy_", c.data([2, 3]), c.data([2]), err=True))
    err("shape/copy_-larger-src", lambda c: c("copy_", c.data([3]), c.data([2, 3]), err=True))
    err("shape/view-0-elements-ambiguous", lambda c: c("view", c.zeros([0, 4]), [-1, 0], err=True))
    # dtype mismatches and unsupported dtypes
    err("dtype/matmul-f32-f64", lambda c: c("matmul", c.data([2, 3]), c.data([3, 2], "f64"), err=True))
    err("dtype/matmul-i64-f32", lambda c: c("matmul", c.data([2, 3], "i64"), c.data([3, 2]), err=True))
    err("dtype/matmul-dot-f32-f64", lambda c: c("matmul", c.data([3]), c.data([3], "f64"), err=True))
    err("dtype/matmul-batched-f32-bf16", lambda c: c("matmul", c.data([2, 2, 3]), c.data([2, 3, 2], "bf16"), err=True))
    err("dtype/matmul-mv-f64-f32", lambda c: c("matmul", c.data([2, 3], "f64"), c.data([3]), err=True))
    err("dtype/conv-f32-f64", lambda c: c("conv2d", c.data([1, 2, 4, 4]), c.data([2, 2, 3, 3], "f64"), 1, 0, err=True))
    for dt in ("bool", "u8", "i8", "i16", "i32", "i64"):
        err("dtype/randn-%s" % dt, lambda c, dt=dt: c.randn([2, 3], dt, err=True))
        err("dtype/mean-%s" % dt, lambda c, dt=dt: c("mean", c.data([2, 3], dt), 0, False, err=True))
        err("dtype/softmax-%s" % dt, lambda c, dt=dt: c("softmax", c.data([2, 3], dt), 1, err=True))
        err("dtype/mul_scalar_-%s" % dt, lambda c, dt=dt: c("mul_scalar_", c.data([3], dt), 0.5, err=True))
        err("dtype/add_-%s-f32" % dt, lambda c, dt=dt: c("add_", c.data([3], dt), c.data([3]), err=True))
    err("dtype/arange-bool", lambda c: c.arange(4, "bool", err=True))
    err("dtype/neg-bool", lambda c: c("neg", c.data([3], "bool"), err=True))
    err("dtype/relu-bool", lambda c: c("relu", c.data([3], "bool"), err=True))
    err("dtype/sub-bool-bool", lambda c: c("sub", c.data([3], "bool"), c.data([3], "bool"), err=True))
    err("dtype/sub-bool-f32", lambda c: c("sub", c.data([3], "bool"), c.data([3]), err=True))
    err("dtype/sub_-bool-bool", lambda c: c("sub_", c.data([3], "bool"), c.data([3], "bool"), err=True))
    err("dtype/add_-i32-f64-0d", lambda c: c("add_", c.data([3], "i32"), c.scalar(1.0, "f64"), err=True))
    err("dtype/add_-bool-i64", lambda c: c("add_", c.data([3], "bool"), c.data([3], "i64"), err=True))
    err("dtype/index-f32-idx", lambda c: c("index", c.data([3, 2]), c.zeros([2]), err=True))
    err("dtype/index-i32-idx", lambda c: c("index", c.data([3, 2]), c.zeros([2], "i32"), err=True))
    err("dtype/index_select-f32-idx", lambda c: c("index_select", c.data([3, 2]), 0, c.zeros([2]), err=True))
    err("dtype/gather-i32-idx", lambda c: c("gather", c.data([3, 2]), 0, c.zeros([1, 2], "i32"), err=True))
    err("dtype/matmul-bool", lambda c: c("matmul", c.data([2, 2], "bool"), c.data([2, 2], "bool"), err=True))
    err("dtype/conv-bool", lambda c: c("conv2d", c.data([1, 1, 3, 3], "bool"), c.data([1, 1, 2, 2], "bool"), 1, 0, err=True))
    # CPU kernels torch 1.13 lacks for f16 (CUDA has them; these cases run on the CPU)
    err("cpu-f16/exp", lambda c: c("exp", c.data([3], "f16"), err=True))
    err("cpu-f16/relu", lambda c: c("relu", c.data([3], "f16"), err=True))
    err("cpu-f16/softmax", lambda c: c("softmax", c.data([2, 3], "f16"), 1, err=True))
    err("cpu-f16/matmul", lambda c: c("matmul", c.data([2, 3], "f16"), c.data([3, 2], "f16"), err=True))
    err("cpu-f16/matmul-mv", lambda c: c("matmul", c.data([2, 3], "f16"), c.data([3], "f16"), err=True))
    err("cpu-f16/conv2d", lambda c: c("conv2d", c.data([1, 1, 3, 3], "f16"), c.data([1, 1, 2, 2], "f16"), 1, 0, err=True))
    # overlapping writes
    err("overlap/add_-expanded", lambda c: c("add_", c("expand", c.data([3, 1]), [3, 4]), c.ones([3, 4]), err=True))
    err("overlap/mul_scalar_-expanded", lambda c: c("mul_scalar_", c("expand", c.data([1]), [5]), 2.0, err=True))
    err("overlap/copy_-expanded", lambda c: c("copy_", c("expand", c.data([2, 1]), [2, 2]), c.zeros([2, 2]), err=True))
    err("overlap/sub_-expanded-leading", lambda c: c("sub_", c("expand", c.data([3]), [2, 3]), c.ones([3]), err=True))
    err("overlap/add_-partial", lambda c: (lambda x: c("add_", c("slice", x, 0, 2, TL_END, 1), c("slice", x, 0, 0, 4, 1), err=True))(c.data([6])))
    # bad arguments
    err("arg/zeros-negative", lambda c: c.zeros([-1, 3], err=True))
    err("arg/empty-negative", lambda c: c.empty([2, -2], err=True))
    err("arg/full-negative", lambda c: c.full([-3], 1.0, err=True))
    err("arg/arange-negative", lambda c: c.arange(-1, "f32", err=True))
    err("arg/randint-low-ge-high", lambda c: c.randint(5, 5, [2], err=True))
    err("arg/randint-low-gt-high", lambda c: c.randint(5, 2, [2], err=True))
    err("arg/full-u8-overflow", lambda c: c.full([2], 300.0, "u8", err=True))
    err("arg/full-u8-negative", lambda c: c.full([2], -1.0, "u8", err=True))
    err("arg/full-i8-overflow", lambda c: c.full([2], 128.0, "i8", err=True))
    err("arg/full-f16-overflow", lambda c: c.full([2], 70000.0, "f16", err=True))
    err("arg/full-i64-nan", lambda c: c.full([2], float("nan"), "i64", err=True))
    err("arg/scalar-u8-overflow", lambda c: c.scalar(300.0, "u8", err=True))
    err("arg/scalar-i16-overflow", lambda c: c.scalar(40000.0, "i16", err=True))
    err("arg/fill_-u8-overflow", lambda c: c("fill_", c.zeros([2], "u8"), 256.0, err=True))
    err("arg/fill_-i8-negative-overflow", lambda c: c("fill_", c.zeros([2], "i8"), -129.0, err=True))
    err("arg/set-u8-overflow", lambda c: c("set", c.zeros([2], "u8"), [0], 300.0, err=True))
    err("arg/slice-step0", lambda c: c("slice", c.data([4]), 0, 0, 4, 0, err=True))
    err("arg/slice-step-negative", lambda c: c("slice", c.data([4]), 0, 0, 4, -1, err=True))
    err("arg/narrow-negative-length", lambda c: c("narrow", c.data([4]), 0, 1, -1, err=True))
    err("arg/as_strided-negative-stride", lambda c: c("as_strided", c.data([4]), [2], [-1], 3, err=True))
    err("arg/as_strided-out-of-bounds", lambda c: c("as_strided", c.data([4]), [2, 2], [2, 1], 2, err=True))
    err("shape/expand-leading-minus1", lambda c: c("expand", c.data([3]), [-1, 3], err=True))
    err("bad-dim/flatten-start-after-end", lambda c: c("flatten", c.data([2, 3, 4]), 2, 1, err=True))
    err("arg/conv-stride0", lambda c: c("conv2d", c.data([1, 1, 3, 3]), c.data([1, 1, 2, 2]), 0, 0, err=True))
    err("arg/conv-negative-padding", lambda c: c("conv2d", c.data([1, 1, 3, 3]), c.data([1, 1, 2, 2]), 1, -1, err=True))
    # an error ends the case: the steps before it are checked, nothing after it runs
    def after(c):
        x = c.data([2, 3])
        y = c("t", x)
        c("view", y, [6], err=True)
    err("flow/error-after-views", after)
    return f


# ---- chains.json: seeded random chains of ops ----

CHAIN_DTYPES = ["f32", "f32", "f32", "f32", "f64", "f64", "i64", "i32", "bf16", "f16", "u8", "i16", "bool"]


def rand_factor_shape(rng, n):
    """A random shape with numel n and 1 to 3 dims (some size-1 dims)."""
    dims = []
    rest = n
    for _ in range(rng.randint(0, 2)):
        divs = [d for d in range(1, rest + 1) if rest % d == 0] if rest > 0 else [0, 1]
        d = rng.choice(divs)
        dims.append(d)
        rest = rest // d if d else rest
    dims.append(rest)
    rng.shuffle(dims)
    if n and rng.random() < 0.3:
        dims[rng.randrange(len(dims))] = -1
    return dims


def chain_step(c, rng, cur):
    """Apply one random op to the variable cur; return the variable to continue with (None: ended)."""
    t = c.env[cur]
    nd, shape, numel = t.dim(), list(t.shape), t.numel()
    dtn = DNAME_OF[t.dtype]
    ops = ["view", "reshape", "transpose", "permute", "slice", "narrow", "select", "unsqueeze", "squeeze",
           "expand", "contiguous", "clone", "to", "flatten", "add", "mul", "add_scalar", "mul_scalar", "neg",
           "relu", "exp", "sum", "mean", "softmax", "matmul", "index_select", "index", "gather", "cat", "add_",
           "fill_", "mul_scalar_", "copy_", "get", "set", "zero_", "sub", "div", "sub_", "t", "as_strided",
           "to_format", "to_device"]
    op = rng.choice(ops)
    rdim = (lambda: rng.randint(-nd, nd - 1)) if nd else (lambda: rng.choice([0, -1]))
    if op in ("view", "reshape"):
        return c(op, cur, rand_factor_shape(rng, numel))
    if op == "transpose":
        return c(op, cur, rdim(), rdim())
    if op == "t":
        return c(op, cur) if nd <= 2 else c("transpose", cur, 0, nd - 1)
    if op == "permute":
        p = list(range(nd))
        rng.shuffle(p)
        return c(op, cur, p)
    if op == "slice":
        if not nd:
            return c("unsqueeze", cur, 0)
        d = rdim()
        size = shape[d]
        start = rng.randint(-size - 1, size + 1)
        end = rng.choice([TL_END, rng.randint(-size, size + 2)])
        return c(op, cur, d, start, end, rng.randint(1, 3))
    if op == "narrow":
        if not nd:
            return c("unsqueeze", cur, -1)
        d = rdim()
        size = shape[d]
        start = rng.randint(0, size)
        return c(op, cur, d, start, rng.randint(0, size - start))
    if op == "select":
        if not nd or 0 in shape:
            return c("clone", cur)
        d = rdim()
        return c(op, cur, d, rng.randint(-shape[d], shape[d] - 1))
    if op == "unsqueeze":
        return c(op, cur, rng.randint(-nd - 1, nd))
    if op == "squeeze":
        return c(op, cur, rdim())
    if op == "expand":
        if numel > 64:
            return c("contiguous", cur)
        target = [rng.choice([1, 2, 3]) if s == 1 else s for s in shape]
        if rng.random() < 0.3 or not target:
            target = [2] + target
        return c(op, cur, target)
    if op in ("contiguous", "clone", "neg", "relu", "exp"):
        return c(op, cur)
    if op == "to":
        return c(op, cur, rng.choice(DNAMES))
    if op == "to_device":
        return c(op, cur, "cpu")
    if op == "to_format":
        if nd == 4:
            return c(op, cur, rng.choice(["contiguous", "channels_last"]))
        return c(op, cur, "contiguous")
    if op == "flatten":
        s = rdim()
        e = rdim()
        if (s % max(nd, 1)) > (e % max(nd, 1)):
            s, e = e, s
        return c(op, cur, s, e)
    if op in ("add", "mul", "sub", "div", "add_", "sub_", "copy_"):
        kind = rng.random()
        if kind < 0.25:
            other = cur
        else:
            oshape = [s if rng.random() < 0.7 else 1 for s in shape[rng.randint(0, nd):]] if nd else []
            odt = dtn if rng.random() < 0.6 else rng.choice(["f32", "f64", "i64", "bool", "bf16"])
            if prod(oshape) > 64:
                oshape = oshape[-1:]
            other = c.data(oshape, odt) if oshape else c.scalar(2.0 if odt != "bool" else 1.0, odt)
        return c(op, cur, other) if op in ("add", "mul", "sub", "div") else (c(op, cur, other), cur)[1]
    if op in ("add_scalar", "mul_scalar"):
        return c(op, cur, rng.choice([0.5, -2.0, 1.25, 3.0]))
    if op in ("fill_", "mul_scalar_"):
        c(op, cur, rng.choice([0.5, -2.0, 1.0, 3.0]))
        return cur
    if op == "zero_":
        c(op, cur)
        return cur
    if op in ("sum", "mean"):
        return c(op, cur, rdim(), rng.random() < 0.5)
    if op == "softmax":
        return c(op, cur, rdim())
    if op == "matmul":
        if numel > 64 or not nd:
            return c("sum", cur, -1 if nd else 0, False)
        k = shape[-1]
        other = c.data([k, rng.randint(1, 3)] if rng.random() < 0.7 else [k], dtn)
        return c(op, cur, other)
    if op in ("index_select", "index"):
        if not nd:
            return c("unsqueeze", cur, 0)
        d = rdim() if op == "index_select" else 0
        size = shape[d]
        vals = [float(rng.randint(-size, size - 1)) for _ in range(rng.randint(1, 3))] if size else []
        idx = build_vector(c, vals, "i64") if vals else c.zeros([0], "i64")
        return c(op, cur, d, idx) if op == "index_select" else c(op, cur, idx)
    if op == "gather":
        if not nd or 0 in shape:
            return c("clone", cur)
        d = rdim()
        ishape = [rng.randint(1, s) for s in shape]
        n = prod(ishape)
        vals = [float(rng.randint(0, shape[d] - 1)) for _ in range(n)]
        return c(op, cur, d, c("view", build_vector(c, vals, "i64"), ishape))
    if op == "cat":
        if numel > 64 or not nd:
            return c("clone", cur)
        return c(op, [cur, cur], rdim())
    if op in ("get", "set"):
        if 0 in shape:
            return c("clone", cur)
        index = [rng.randint(-s, s - 1) for s in shape]
        if op == "get":
            c(op, cur, index)
        else:
            c(op, cur, index, rng.choice([1.5, -3.0, 7.0]))
        return cur
    if op == "as_strided":
        base = c("contiguous", cur)
        n = c.env[base].storage().nbytes() // max(c.env[base].element_size(), 1)
        if n < 2:
            return base
        size = [rng.randint(1, 3), rng.randint(1, 3)]
        stride = [rng.randint(0, 3), rng.randint(0, 2)]
        span = (size[0] - 1) * stride[0] + (size[1] - 1) * stride[1]
        return c(op, base, size, stride, rng.randint(0, max(0, n - 1 - span)))
    raise GenError("chain op %s" % op)


def fam_layout():
    """Two layout rules PyTorch's own tests pin down: channels-last strides of shapes with a
    size-0 dim come from the raw sizes (test_torch.py's memory-format cases over empty
    shapes), and tensor-scalar ops wrap the scalar as a 0-dim tensor, so TensorIterator takes
    its general path (stride sorting, size-1 dims included) rather than the unary fast path."""
    f = Family("layout")
    zero_shapes = [[2, 0, 3, 4], [0, 3, 1, 4], [2, 3, 0, 4], [2, 3, 4, 0], [0, 0, 2, 2], [1, 0, 1, 1],
                   [0, 1, 1, 1], [3, 1, 0, 1]]
    for shape in zero_shapes:
        c = f.case("channels-last-zero/empty-to-format-%s" % sname(shape))
        c("to_format", c.zeros(shape), "channels_last")
        c = f.case("channels-last-zero/permuted-to-format-%s" % sname(shape))
        c("to_format", c("permute", c.zeros([shape[0], shape[2], shape[3], shape[1]]), [0, 3, 1, 2]),
          "channels_last")
        c = f.case("channels-last-zero/add-%s" % sname(shape))
        t = c("to_format", c.zeros(shape), "channels_last")
        c("add", t, t)
        c = f.case("channels-last-zero/clone-%s" % sname(shape))
        c("clone", c("to_format", c.zeros(shape), "channels_last"))
        c = f.case("channels-last-zero/cat-%s" % sname(shape))
        t = c("to_format", c.zeros(shape), "channels_last")
        c("cat", [t, t], 0)
    # tensor-scalar ops over layouts where the general path and the unary shortcut differ
    def size1_dense(c):  # contiguous except for the stride of a size-1 dim
        return c("as_strided", c.data([6]), [2, 1, 3], [3, 100, 1], 0)

    def size1_permuted(c):
        return c("as_strided", c.data([24]), [4, 1, 2, 3], [1, 7, 12, 4], 0)

    def size1_cl(c):
        return c("to_format", c.data([2, 3, 1, 1]), "channels_last")

    layouts = [
        ("size1-stride100", size1_dense),
        ("size1-permuted", size1_permuted),
        ("size1-channels-last", size1_cl),
        ("cl-1x3x2x2", lambda c: c.cl([1, 3, 2, 2])),
        ("cl-2x1x2x2", lambda c: c.cl([2, 1, 2, 2])),
        ("cl-2x3x1x2", lambda c: c.cl([2, 3, 1, 2])),
        ("permuted", lambda c: c("permute", c.data([2, 3, 4]), [2, 0, 1])),
        ("permuted-size1", lambda c: c("permute", c.data([2, 1, 4]), [2, 1, 0])),
        ("transposed-unsq", lambda c: c("unsqueeze", c("t", c.data([3, 4])), 1)),
        ("sliced", lambda c: c("slice", c.data([2, 3, 4]), 2, 0, TL_END, 2)),
        ("sliced-permuted", lambda c: c("permute", c("slice", c.data([2, 3, 4]), 2, 0, TL_END, 2), [2, 1, 0])),
        ("expanded", lambda c: c("expand", c.data([3, 1]), [3, 4])),
        ("expanded-t", lambda c: c("t", c("expand", c.data([3, 1]), [3, 4]))),
        ("zero-size-permuted", lambda c: c("permute", c.zeros([0, 4, 1]), [1, 2, 0])),
        ("zero-size", lambda c: c.zeros([0, 4, 1])),
        ("0d", lambda c: c.scalar(2.0)),
        ("1d-step", lambda c: c("slice", c.data([8]), 0, 1, TL_END, 3)),
    ]
    for name, mk in layouts:
        for op, s in (("add_scalar", 1.5), ("mul_scalar", -2.0)):
            c = f.case("scalar-op/%s-%s" % (op, name))
            c(op, mk(c), s)
        c = f.case("scalar-op/add_scalar-i32-%s" % name)
        c("add_scalar", c("to", mk(c), "i32"), 0.5)
    return f


def fam_model():
    """The ops for real models: activations, scalar pow/div, maximum/minimum, amax/argmax,
    where, masked_fill, triu/tril, stack, eq/lt, mul_/div_/add_scalar_, the out= forms with
    PyTorch's resize rules, and host data (from_data, from_blob, copy_to_host)."""
    f = Family("model")
    unary = ["sqrt", "rsqrt", "log", "sin", "cos", "tanh", "sigmoid", "silu", "gelu"]
    for op in unary:
        for dt in DNAMES:
            bad = op in ("silu", "gelu") and dt not in FLOATS
            c = f.case("%s/%s" % (op, dt), allow_error=dt == "f16")  # no f16 CPU kernels
            x = c.data([5], dt, shift=1) if dt in INTS else (c.data([5], dt, scale=0.75, shift=0.25)
                                                               if dt in FLOATS else c.data([5], dt))
            c(op, x, err=bad)
    layouts = [
        ("transposed", lambda c: c("t", c.data([3, 4], scale=0.5, shift=0.5))),
        ("permuted", lambda c: c("permute", c.data([2, 3, 4], scale=0.25, shift=0.5), [2, 0, 1])),
        ("channels-last", lambda c: c.cl([2, 3, 2, 2], scale=0.5, shift=0.5)),
        ("size1-stride100", lambda c: c("as_strided", c.data([6], scale=0.5, shift=0.5), [2, 1, 3], [3, 100, 1], 0)),
        ("slice-step2", lambda c: c("slice", c.data([3, 6], scale=0.5, shift=0.5), 1, 0, TL_END, 2)),
        ("expanded", lambda c: c("expand", c.data([3, 1], scale=0.5, shift=0.5), [3, 4])),
        ("offset", lambda c: c("narrow", c.data([4, 3], scale=0.5, shift=0.5), 0, 1, 2)),
        ("0d", lambda c: c.scalar(1.5)),
        ("zero-size", lambda c: c("t", c.zeros([0, 3]))),
    ]
    for op in ("sqrt", "sigmoid", "silu", "gelu", "tanh"):
        for name, mk in layouts:
            c = f.case("%s/layout-%s" % (op, name))
            c(op, mk(c))
    for op in ("pow_scalar", "div_scalar"):
        for dt in DNAMES:
            for sc in (2.0, 0.5, -1.5):
                c = f.case("%s/%s-%s" % (op, dt, repr(sc)))
                c(op, c.data([4], dt, shift=1) if dt in INTS else c.data([4], dt), sc)
        for name, mk in layouts:
            c = f.case("%s/layout-%s" % (op, name))
            c(op, mk(c), 2.0)
    c = f.case("div_scalar/by-zero")
    c("div_scalar", c.sdata([4]), 0.0)
    # maximum / minimum / eq / lt: promotion, broadcasting, layouts, NaN
    pairs = [("f32", "f32"), ("i32", "f32"), ("i64", "u8"), ("bool", "bool"), ("bool", "i8"), ("f16", "f32"),
             ("bf16", "f16"), ("f64", "i16"), ("u8", "i8"), ("i64", "i64")]
    for op in ("maximum", "minimum", "eq", "lt"):
        for a, b in pairs:
            c = f.case("%s/%s-%s" % (op, a, b))
            c(op, c.sdata([6], a), c.data([6], b))
            c = f.case("%s/%s-0d-%s" % (op, a, b))
            c(op, c.sdata([6], a), c.scalar(2.0 if b != "bool" else 1.0, b))
        c = f.case("%s/broadcast" % op)
        c(op, c.sdata([3, 1]), c.data([4]))
        c = f.case("%s/broadcast-mismatch" % op)
        c(op, c.sdata([3, 2]), c.data([3]), err=True)
        c = f.case("%s/permuted-contig" % op)
        c(op, c("permute", c.data([2, 3, 4]), [2, 0, 1]), c.data([4, 2, 3]))
        c = f.case("%s/contig-permuted" % op)
        c(op, c.data([4, 2, 3]), c("permute", c.data([2, 3, 4]), [2, 0, 1]))
        c = f.case("%s/channels-last" % op)
        c(op, c.cl([2, 3, 2, 2]), c.cl([2, 3, 2, 2], shift=1.0, scale=0.5))
    for op in ("maximum", "minimum"):
        c = f.case("%s/nan" % op)
        nan = c("div", c.zeros([3]), c.zeros([3]))
        c(op, nan, c.data([3]))
    # amax / argmax
    for op in ("max", "argmax"):
        for dt in DNAMES:
            c = f.case("%s/%s" % (op, dt))
            c(op, c.sdata([2, 3], dt), 1, False, err=(op == "argmax" and dt == "bool"))
        for dim in (0, 1, 2, -1, -3):
            for keep in (False, True):
                c = f.case("%s/dim%d-keep%d" % (op, dim, keep))
                c(op, c.sdata([2, 3, 4]), dim, keep)
        for name, mk in layouts:
            c = f.case("%s/layout-%s" % (op, name))
            x = mk(c)
            c(op, x, -1, False, err=name == "zero-size")
        c = f.case("%s/0d-keep" % op)
        c(op, c.scalar(3.0), 0, True)
        c = f.case("%s/zero-size-other-dim" % op)
        c(op, c.zeros([2, 0, 3]), 2, True)
        c = f.case("%s/zero-size-dim" % op)
        c(op, c.zeros([2, 0, 3]), 1, True, err=True)
        c = f.case("%s/bad-dim" % op)
        c(op, c.sdata([2, 3]), 2, False, err=True)
        c = f.case("%s/nan" % op)
        x = c("div", c.sdata([4]), c("sub", c.data([4]), c.full([4], 2.0)))  # 0/0 at index 2
        c(op, c("div", x, x), 0, False)
        c = f.case("%s/ties" % op)
        c(op, c.full([2, 3], 1.0), 1, False)
    # where
    for cd, ad, bd in (("bool", "f32", "f32"), ("bool", "i32", "f32"), ("bool", "i64", "u8"), ("u8", "f32", "f64"),
                       ("bool", "f16", "bf16"), ("bool", "bool", "bool")):
        c = f.case("where/%s-%s-%s" % (cd, ad, bd))
        cond = c("to", c.data([6], "bool"), cd)
        c("where", cond, c.data([6], ad), c.sdata([6], bd))
    for cd in ("f32", "i64", "i8"):
        c = f.case("where/cond-%s" % cd)
        c("where", c.data([3], cd), c.data([3]), c.data([3]), err=True)
    c = f.case("where/broadcast3")
    c("where", c("view", c.data([3], "bool"), [3, 1]), c.data([4]), c.scalar(-1.0))
    c = f.case("where/permuted-cond")
    cond = c("permute", c("lt", c.data([2, 3, 4]), c.full([1], 10.0)), [2, 0, 1])
    c("where", cond, c.data([4, 2, 3]), c("permute", c.data([2, 3, 4]), [2, 0, 1]))
    c = f.case("where/contig-cond-permuted-a")
    cond = c("lt", c.data([4, 2, 3]), c.full([1], 10.0))
    c("where", cond, c("permute", c.data([2, 3, 4]), [2, 0, 1]), c.data([4, 2, 3]))
    c = f.case("where/mismatch")
    c("where", c.data([2, 3], "bool"), c.data([2, 3]), c.data([3, 2]), err=True)
    # masked_fill
    for dt in DNAMES:
        for v in (-1.5, 0.0, 2.0):
            c = f.case("masked_fill/%s-%s" % (dt, repr(v)))
            c("masked_fill", c.sdata([2, 3], dt), c.data([2, 3], "bool"), v, err=dt == "u8" and v < 0)
    for dt, v in (("u8", 300.0), ("u8", -256.0), ("u8", -1.0), ("i8", 200.0), ("i16", 1e5), ("i32", 1e10),
                  ("i64", 1e19), ("f16", 1e6), ("bf16", 1e39), ("f32", 1e39), ("bool", 5.0), ("i32", float("nan")),
                  ("f32", float("-inf")), ("f16", float("-inf")), ("f32", float("nan"))):
        c = f.case("masked_fill/value-%s-%s" % (dt, repr(v)))
        c("masked_fill", c.data([3], dt), c.data([3], "bool"), v,
          err=dt in INTS or (dt in ("f16", "bf16", "f32") and v in (1e6, 1e39)))
    c = f.case("masked_fill/mask-broadcasts-input")
    c("masked_fill", c.data([3]), c.data([2, 3], "bool"), 9.0)
    c = f.case("masked_fill/mask-broadcasts")
    c("masked_fill", c.data([2, 3]), c("view", c.data([3], "bool"), [3]), 9.0)
    c = f.case("masked_fill/mismatch")
    c("masked_fill", c.data([2, 3]), c.data([2, 2], "bool"), 9.0, err=True)
    c = f.case("masked_fill/permuted")
    c("masked_fill", c("permute", c.data([2, 3, 4]), [2, 0, 1]), c.data([4, 2, 3], "bool"), 0.5)
    c = f.case("masked_fill/causal")
    mask = c("lt", c("view", c.arange(4, "i64"), [4, 1]), c("view", c.arange(4, "i64"), [1, 4]))
    c("masked_fill", c.data([2, 4, 4]), mask, float("-inf"))
    for md in ("i64", "f32", "u8", "i32", "f64"):
        c = f.case("masked_fill/mask-%s-01" % md)
        c("masked_fill", c.data([4]), c("to", c.data([4], "bool"), md), 7.0)
        c = f.case("masked_fill/mask-%s-values" % md)
        c("masked_fill", c.data([4]), c.data([4], md), 7.0, err=md not in FLOATS)  # floats: see meta_model.c
    # triu / tril
    for op in ("triu", "tril"):
        for k in (-1, 0, 1, 5):
            c = f.case("%s/k%d" % (op, k))
            c(op, c.data([3, 4]), k)
        c = f.case("%s/batched" % op)
        c(op, c.data([2, 3, 3]), 0)
        c = f.case("%s/transposed" % op)
        c(op, c("t", c.data([3, 4])), 1)
        c = f.case("%s/permuted" % op)
        c(op, c("permute", c.data([2, 3, 4]), [2, 0, 1]), 0)
        c = f.case("%s/bool" % op)
        c(op, c.data([3, 3], "bool"), 0)
        c = f.case("%s/i64" % op)
        c(op, c.data([3, 3], "i64"), -1)
        c = f.case("%s/1d" % op)
        c(op, c.data([3]), 0, err=True)
        c = f.case("%s/0d" % op)
        c(op, c.scalar(1.0), 0, err=True)
        c = f.case("%s/zero-size" % op)
        c(op, c.zeros([0, 3]), 0)
    # stack
    for dim in (0, 1, 2, -1, -3):
        c = f.case("stack/dim%d" % dim)
        c("stack", [c.data([2, 3]), c.sdata([2, 3]), c.data([2, 3])], dim)
    for dim in (0, 1, 2, 3, 4, -1, -5):
        c = f.case("stack/channels-last-dim%d" % dim)
        c("stack", [c.cl([2, 3, 4, 5]), c.cl([2, 3, 4, 5])], dim)
    c = f.case("stack/mixed-formats")
    c("stack", [c.cl([2, 3, 2, 2]), c.data([2, 3, 2, 2])], 1)
    c = f.case("stack/permuted")
    c("stack", [c("permute", c.data([2, 3, 4]), [2, 0, 1]), c("permute", c.data([2, 3, 4]), [2, 0, 1])], 1)
    c = f.case("stack/promote")
    c("stack", [c.data([3], "i64"), c.data([3], "f16"), c.data([3], "bool")], 0)
    c = f.case("stack/0d")
    c("stack", [c.scalar(1.0), c.scalar(2.0)], 0)
    c = f.case("stack/one")
    c("stack", [c.data([2, 2])], -1)
    c = f.case("stack/mismatch")
    c("stack", [c.data([2, 3]), c.data([3])], 0, err=True)
    c = f.case("stack/bad-dim")
    c("stack", [c.data([2, 3]), c.data([2, 3])], 3, err=True)
    c = f.case("stack/zero-size")
    c("stack", [c.zeros([0, 3]), c.zeros([0, 3])], 1)
    # in place
    for op in ("mul_", "div_"):
        for a, b in (("f32", "f32"), ("f32", "i64"), ("f16", "f32"), ("i64", "i64"), ("i32", "f32"),
                     ("bool", "bool"), ("u8", "u8"), ("f64", "bool"), ("bf16", "f64"), ("i16", "i8")):
            c = f.case("%s/%s-%s" % (op, a, b))
            t = c("clone", c.sdata([6], a))
            bad = (op == "div_" and a not in FLOATS) or (a not in FLOATS and b in FLOATS) or \
                (a == "bool" and b != "bool")
            c(op, t, c.data([6], b, shift=1) if b in INTS else c.data([6], b), err=bad)
        c = f.case("%s/broadcast-other" % op)
        c(op, c.data([2, 3]), c.full([3], 2.0))
        c = f.case("%s/broadcast-self" % op)
        c(op, c.data([3]), c.full([2, 3], 2.0), err=True)
        c = f.case("%s/expanded-self" % op)
        c(op, c("expand", c.data([3, 1]), [3, 4]), c.full([3, 4], 2.0), err=True)
        c = f.case("%s/view" % op)
        base = c.data([4, 4])
        c(op, c("slice", base, 1, 0, TL_END, 2), c.full([1], 2.0))
        c = f.case("%s/partial-overlap" % op)
        base = c.data([8])
        c(op, c("narrow", base, 0, 0, 6), c("narrow", base, 0, 2, 6), err=True)
    for dt in DNAMES:
        c = f.case("add_scalar_/%s" % dt)
        c("add_scalar_", c("clone", c.sdata([4], dt)), 1.5, err=dt not in FLOATS)
    c = f.case("add_scalar_/expanded")
    c("add_scalar_", c("expand", c.data([3, 1]), [3, 4]), 1.0, err=True)
    c = f.case("add_scalar_/permuted")
    c("add_scalar_", c("permute", c.data([2, 3, 4]), [2, 0, 1]), -0.5)
    # out= forms: PyTorch's resize_output
    def mm_out(name, out_mk, a_shape, b_shape, dt="f32", err=False):
        c = f.case("matmul_out/%s" % name)
        o = out_mk(c)
        c("matmul_out", o, c.data(a_shape, dt), c.data(b_shape, dt), err=err)
        return c, o
    mm_out("right-shape", lambda c: c.empty([2, 4]), [2, 3], [3, 4])
    mm_out("right-shape-transposed", lambda c: c("t", c.empty([4, 2])), [2, 3], [3, 4])
    mm_out("shrinks-not", lambda c: c.empty([3, 3]), [2, 3], [3, 4])
    mm_out("grows-1d", lambda c: c.empty([3]), [2, 3], [3, 4])
    mm_out("grows-from-empty", lambda c: c.empty([0]), [2, 3], [3, 4])
    mm_out("offset", lambda c: c("slice", c.empty([20]), 0, 5, TL_END, 1), [2, 3], [3, 4])
    mm_out("offset-grows", lambda c: c("slice", c.empty([8]), 0, 5, TL_END, 1), [2, 3], [3, 4])
    mm_out("wrong-dtype", lambda c: c.empty([2, 4], "f64"), [2, 3], [3, 4], err=True)
    mm_out("expanded", lambda c: c("expand", c.empty([1, 4]), [2, 4]), [2, 3], [3, 4], err=True)
    mm_out("expanded-wrong-shape", lambda c: c("expand", c.empty([1, 4]), [3, 4]), [2, 3], [3, 4])
    mm_out("strided-right-shape", lambda c: c("t", c("slice", c.empty([4, 4]), 1, 0, 2, 1)), [2, 3], [3, 4])
    mm_out("dot", lambda c: c.empty([3]), [3], [3])
    mm_out("mv", lambda c: c.empty([2]), [2, 3], [3])
    mm_out("vm", lambda c: c.empty([5]), [3], [3, 4])
    mm_out("batched", lambda c: c.empty([5, 2, 4]), [5, 2, 3], [5, 3, 4])
    mm_out("batched-broadcast", lambda c: c.empty([5, 2, 4]), [5, 2, 3], [3, 4])
    mm_out("batched-permuted", lambda c: c("permute", c.empty([4, 5, 2]), [1, 2, 0]), [5, 2, 3], [5, 3, 4])
    mm_out("batched-transposed", lambda c: c("transpose", c.empty([2, 5, 4]), 0, 1), [5, 2, 3], [3, 4])
    mm_out("batched-grows", lambda c: c.empty([7]), [5, 2, 3], [5, 3, 4])
    mm_out("i64", lambda c: c.empty([2, 2], "i64"), [2, 3], [3, 4], dt="i64")
    mm_out("shape-mismatch", lambda c: c.empty([2, 4]), [2, 3], [4, 4], err=True)
    c, o = mm_out("view-sees-growth", lambda c: c.empty([2, 2]), [2, 3], [3, 4])
    c = f.case("matmul_out/earlier-view-keeps-storage")
    o = c.zeros([4])
    v = c("view", o, [2, 2])
    c("matmul_out", o, c.data([2, 3]), c.data([3, 4]))
    c("clone", v)
    c("clone", o)
    c = f.case("matmul_out/twice")
    o = c.empty([1])
    a, b = c.data([2, 3]), c.data([3, 4])
    c("matmul_out", o, a, b)
    c("matmul_out", o, a, b)
    c("matmul_out", o, c.data([3, 3]), c.data([3, 3]))
    c = f.case("matmul_out/from-blob-cannot-grow")
    o = c("from_blob", [0.0] * 4, [4], "f32")
    c("matmul_out", o, c.data([2, 3]), c.data([3, 4]), err=True)
    c = f.case("matmul_out/from-blob-resized-within")
    o = c("from_blob", [0.0] * 12, [12], "f32")
    c("matmul_out", o, c.data([2, 3]), c.data([3, 4]))
    for name, mk in (("right-shape", lambda c: c.empty([2, 3])), ("transposed", lambda c: c("t", c.empty([3, 2]))),
                     ("grows", lambda c: c.empty([7])), ("shrinks-not", lambda c: c.empty([4, 4])),
                     ("wrong-dtype", lambda c: c.empty([2, 3], "f64")),
                     ("expanded", lambda c: c("expand", c.empty([1, 3]), [2, 3]))):
        for dim in (1, 0):
            c = f.case("softmax_out/%s-dim%d" % (name, dim))
            c("softmax_out", mk(c), c.sdata([2, 3]), dim, err=name in ("wrong-dtype", "expanded"))
    c = f.case("softmax_out/int-input")
    c("softmax_out", c.empty([2, 3]), c.data([2, 3], "i64"), 1, err=True)
    c = f.case("softmax_out/bad-dim")
    c("softmax_out", c.empty([2, 3]), c.data([2, 3]), 2, err=True)
    # host data
    for dt in ("f32", "f64", "i64", "i32", "u8", "bool", "f16"):
        vals = [0, 1, 0, 1, 1, 0] if dt == "bool" else [0.5 * k - 1 for k in range(6)] if dt in FLOATS \
            else [k * 3 for k in range(6)]
        for op in ("from_data", "from_blob"):
            c = f.case("%s/%s" % (op, dt))
            args = (vals, [2, 3], dt, "cpu") if op == "from_data" else (vals, [2, 3], dt)
            t = c(op, *args)
            c("add", t, t)
    c = f.case("from_blob/views-and-copies")
    t = c("from_blob", [float(k) for k in range(12)], [3, 4], "f32")
    v = c("t", t)
    c("contiguous", v)
    c("sum", t, 0, False)
    c = f.case("from_data/0d")
    c("from_data", [2.5], [], "f64", "cpu")
    c = f.case("from_blob/empty")
    c("from_blob", [], [0, 3], "f32")
    for nb, bad in ((24, False), (100, False), (23, True)):
        c = f.case("copy_to_host/%d" % nb)
        c("copy_to_host", c("t", c.data([3, 2])), None, nb, err=bad)
    return f


def load_op_db():
    """PyTorch's own OpInfo database (torch.testing._internal.common_methods_invocations).
    Its common_utils imports expecttest, a test-only package Debian does not ship; the
    OpInfos need none of it, so a stand-in module is installed when it is missing."""
    try:
        import expecttest  # noqa: F401
    except ImportError:
        import types
        import unittest
        stub = types.ModuleType("expecttest")
        stub.TestCase = unittest.TestCase
        stub.ACCEPT = False
        sys.modules["expecttest"] = stub
    from torch.testing._internal.common_methods_invocations import op_db
    return op_db


# OpInfo name -> how its SampleInput maps onto a fixture step:
# (fixture op, argument builder) where the builder gets (case, input var, args, kwargs, tensor
# maker) and returns the step's arguments, or None when the sample has no spelling in the API.
def _num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _int(x):
    return isinstance(x, int) and not isinstance(x, bool)


OPINFO_MAP = {
    "sqrt": ("sqrt", lambda c, x, a, k, mk: [x] if not a and not k else None),
    "rsqrt": ("rsqrt", lambda c, x, a, k, mk: [x] if not a and not k else None),
    "log": ("log", lambda c, x, a, k, mk: [x] if not a and not k else None),
    "sin": ("sin", lambda c, x, a, k, mk: [x] if not a and not k else None),
    "cos": ("cos", lambda c, x, a, k, mk: [x] if not a and not k else None),
    "tanh": ("tanh", lambda c, x, a, k, mk: [x] if not a and not k else None),
    "sigmoid": ("sigmoid", lambda c, x, a, k, mk: [x] if not a and not k else None),
    "nn.functional.silu": ("silu", lambda c, x, a, k, mk: [x] if not a and not k.get("inplace") else None),
    "nn.functional.gelu": ("gelu", lambda c, x, a, k, mk: [x] if not a and k.get("approximate", "none") == "none"
                           else None),
    "triu": ("triu", lambda c, x, a, k, mk: [x, a[0] if a else 0] if not k and (not a or _int(a[0])) else None),
    "tril": ("tril", lambda c, x, a, k, mk: [x, a[0] if a else 0] if not k and (not a or _int(a[0])) else None),
    "masked_fill": ("masked_fill", lambda c, x, a, k, mk: [x, mk(a[0]), float(a[1])] if _num(a[1]) else None),
    "where": ("where", lambda c, x, a, k, mk: [mk(a[0]), x, mk(a[1])] if isinstance(a[1], torch.Tensor) else None),
    "amax": ("max", lambda c, x, a, k, mk: [x, k["dim"], k.get("keepdim", False)] if _int(k.get("dim")) else None),
    "argmax": ("argmax", lambda c, x, a, k, mk: [x, k["dim"], k.get("keepdim", False)] if _int(k.get("dim"))
               else None),
    "maximum": ("maximum", lambda c, x, a, k, mk: [x, mk(a[0])]),
    "minimum": ("minimum", lambda c, x, a, k, mk: [x, mk(a[0])]),
    "eq": ("eq", lambda c, x, a, k, mk: [x, mk(a[0])] if isinstance(a[0], torch.Tensor) else None),
    "lt": ("lt", lambda c, x, a, k, mk: [x, mk(a[0])] if isinstance(a[0], torch.Tensor) else None),
    "pow": ("pow_scalar", lambda c, x, a, k, mk: [x, float(a[0])] if _num(a[0]) else None),
    "div": ("div", lambda c, x, a, k, mk: [x, mk(a[0])] if not k and isinstance(a[0], torch.Tensor) else None),
    "softmax": ("softmax", lambda c, x, a, k, mk: [x, a[0]] if not k and _int(a[0]) else None),
    "matmul": ("matmul", lambda c, x, a, k, mk: [x, mk(a[0])]),
    "transpose": ("transpose", lambda c, x, a, k, mk: [x, a[0], a[1]]),
    "permute": ("permute", lambda c, x, a, k, mk: [x, list(a[0])] if isinstance(a[0], (list, tuple)) else None),
    "narrow": ("narrow", lambda c, x, a, k, mk: [x, a[0], a[1], a[2]] if all(_int(v) for v in a) else None),
    "select": ("select", lambda c, x, a, k, mk: [x, a[0], a[1]]),
    "unsqueeze": ("unsqueeze", lambda c, x, a, k, mk: [x, a[0]]),
    "squeeze": ("squeeze", lambda c, x, a, k, mk: [x, a[0]] if a and _int(a[0]) else None),
    "flatten": ("flatten", lambda c, x, a, k, mk: [x, k.get("start_dim", 0), k.get("end_dim", -1)] if not a
                else None),
    "expand": ("expand", lambda c, x, a, k, mk: [x, list(a[0])] if isinstance(a[0], (list, tuple)) else None),
    "reshape": ("reshape", lambda c, x, a, k, mk: [x, list(a[0])] if isinstance(a[0], (list, tuple)) else None),
    "view": ("view", lambda c, x, a, k, mk: [x, list(a[0])] if isinstance(a[0], (list, tuple)) else None),
    "t": ("t", lambda c, x, a, k, mk: [x]),
    "stack": ("stack", None),
}


def opinfo_tensor(c, t, noncontig):
    """A fixture tensor with t's shape and dtype (our values); noncontig: torch's
    noncontiguous_like layout (the last dim doubled, then every other element)."""
    dt = DNAME_OF[t.dtype]
    shape = list(t.shape)
    if t.dim() == 0:
        return c.scalar(1.0 if dt == "bool" else 1.5, dt)
    if not noncontig or t.numel() == 0:
        return c.sdata(shape, dt) if dt != "bool" else c.data(shape, dt)
    wide = shape[:-1] + [2 * shape[-1]]
    base = c.sdata(wide, dt) if dt != "bool" else c.data(wide, dt)
    return c("slice", base, -1, 0, TL_END, 2)


OPS_FOR_MODELS = {"sqrt", "rsqrt", "log", "sin", "cos", "tanh", "sigmoid", "silu", "gelu", "triu", "tril",
                  "masked_fill", "where", "max", "argmax", "maximum", "minimum", "eq", "lt", "pow_scalar",
                  "stack"}
OPINFO_MORE_DTYPES = [torch.float64, torch.bfloat16, torch.int64, torch.int32, torch.uint8, torch.bool]


def fam_opinfo():
    """PyTorch's own test inputs: every SampleInput of the OpInfos of the ops this API has
    (common_methods_invocations.py, the inputs test_ops.py runs): at f32, contiguous and in
    test_ops' noncontiguous layout, and for the ops for real models contiguous at every other
    dtype of OPINFO_MORE_DTYPES the OpInfo supports on the CPU; a sample with no spelling in
    the API is skipped."""
    f = Family("opinfo")
    for op in load_op_db():
        if op.name not in OPINFO_MAP or op.variant_test_name not in ("", "no_rounding_mode"):
            continue
        fop, build = OPINFO_MAP[op.name]
        variants = [(torch.float32, False), (torch.float32, True)]
        if fop in OPS_FOR_MODELS:  # the views, div and matmul have dtype cases elsewhere
            variants += [(dt, False) for dt in OPINFO_MORE_DTYPES if dt in op.supported_dtypes("cpu")]
        for dtype, noncontig in variants:
            samples = list(op.sample_inputs("cpu", dtype))
            for k, smp in enumerate(samples):
                name = "%s/%d%s%s" % (op.name, k, "" if dtype == torch.float32 else "-" + DNAME_OF[dtype],
                                      "-noncontiguous" if noncontig else "")
                # torch 1.13's CPU bf16 matmul rounds its partial sums to bf16; this runtime
                # accumulates in f32 as PyTorch's CUDA backend does: layouts only for those
                c = Case("opinfo/" + name, allow_error=True,
                         values=not (fop == "matmul" and dtype == torch.bfloat16))
                mk = (lambda c_: lambda t: opinfo_tensor(c_, t, noncontig))(c)
                if fop == "stack":
                    if not (smp.args and _int(smp.args[0])) or len(smp.input) > TL_MAX_LIST:
                        continue
                    args = [[mk(t) for t in smp.input], smp.args[0]]
                else:
                    x = mk(smp.input)
                    args = build(c, x, list(smp.args), dict(smp.kwargs), mk)
                if args is None or any(isinstance(a, (list, tuple)) and len(a) > TL_MAX_DIMS for a in args[1:]):
                    continue
                c(fop, *args)
                f.cases.append(c)
    return f


def fam_chains(n=160):
    f = Family("chains")
    for k in range(n):
        rng = random.Random(9001 + 7919 * k)
        c = f.case("chain-%03d" % k, allow_error=True)
        nd = rng.randint(0, 4)
        shape = [rng.choice([1, 2, 2, 3, 3, 4]) for _ in range(nd)]
        if nd and rng.random() < 0.05:
            shape[rng.randrange(nd)] = 0
        dt = rng.choice(CHAIN_DTYPES)
        cur = c.sdata(shape, dt) if shape else c.scalar(1.5 if dt != "bool" else 1.0, dt)
        for _ in range(rng.randint(3, 8)):
            if c.ended:
                break
            nxt = chain_step(c, rng, cur)
            if nxt is None:
                break
            cur = nxt
    return f


# ---- devices.json: operands on two devices (TensorIterator's device rule) ----

# MIXED_NOTE: this torch has no CUDA.  TensorIterator's compute_types treats
# every device that is not the CPU alike (the common device is the first
# operand's that is not a CPU scalar; a CPU 0-dim input may join, nothing else
# on another device may; outputs are never CPU scalars), so "cuda" runs on
# torch's meta device and the answers (devices, layouts, errors, with "meta"
# read as "cuda") are PyTorch's own.  Only ops whose device check is
# TensorIterator's are generated: the others' meta kernels check less.

def fam_devices():
    f = Family("devices")
    mk = {"cpu3": lambda c: c("full", [3], 2.0, "f32", "cpu"),
          "cuda3": lambda c: c("full", [3], 1.0, "f32", "cuda"),
          "cpu0": lambda c: c("scalar", 4.0, "f32", "cpu"),
          "cuda0": lambda c: c("scalar", 8.0, "f32", "cuda"),
          "cuda23h": lambda c: c("ones", [2, 3], "f16", "cuda"),
          "cpu0d": lambda c: c("scalar", 0.5, "f64", "cpu"),
          "cuda3i": lambda c: c("full", [3], 3.0, "i64", "cuda"),
          "cpu0i": lambda c: c("scalar", 2.0, "i32", "cpu")}
    pairs = [("cuda3", "cpu0"), ("cpu0", "cuda3"), ("cpu0", "cuda0"), ("cuda0", "cpu0"),
             ("cpu3", "cuda0"), ("cuda0", "cpu3"), ("cpu3", "cuda3"), ("cuda3", "cpu3"),
             ("cuda23h", "cpu0d"), ("cuda3i", "cpu0i"), ("cpu0i", "cuda3i")]
    for op in ("add", "sub", "mul", "div"):
        for a, b in pairs:
            c = f.case("%s/%s-%s" % (op, a, b), values=False, device="mixed", allow_error=True)
            c(op, mk[a](c), mk[b](c))
    for op in ("add_", "sub_"):
        for a, b in pairs + [("cuda23h", "cpu0"), ("cpu0", "cpu0")]:
            c = f.case("%s/%s-%s" % (op, a, b), values=False, device="mixed", allow_error=True)
            c(op, mk[a](c), mk[b](c))
    return f


# ---- ported.json: the layout cases of PyTorch's own test suite ----
#
# Every case is named ported/<test file>/<test function>/<what>.  The cases check what
# the PyTorch test checks (shape, strides, offset, dtype, view or copy, writes through a
# view, contiguity, the error) with this API's ops.  Where the test calls an op the API
# spells otherwise (split, chunk, tensor_split, unbind, movedim, swapdims, .T/.mT,
# expand_as, view_as, reshape_as, ravel, broadcast_to, atleast_nd, t[...] indexing), the
# case spells it by PyTorch's own decomposition (narrow, slice, select, permute,
# transpose, expand, view, reshape, unsqueeze), and ported_like() checks at generation
# time that the decomposition answers exactly as the op itself.

def ported_like(c, var, ref, base):
    """The step's result c.env[var] must have ref's layout and share storage with base
    exactly when ref does."""
    got = c.env[var]
    def shares(a, b):
        return a.storage()._cdata == b.storage()._cdata or \
            (a.storage().data_ptr() != 0 and a.storage().data_ptr() == b.storage().data_ptr())
    if (tuple(got.shape) != tuple(ref.shape) or got.stride() != ref.stride() or got.dtype != ref.dtype
            or got.storage_offset() != ref.storage_offset() or shares(got, base) != shares(ref, base)):
        raise GenError("%s: %s answers %s %s +%d, the op itself %s %s +%d" % (
            c.name, var, tuple(got.shape), got.stride(), got.storage_offset(), tuple(ref.shape),
            ref.stride(), ref.storage_offset()))


def movedim_perm(nd, src, dst):
    """torch.movedim(x, src, dst) as the permutation it applies."""
    src = [s % nd for s in src]
    dst = [d % nd for d in dst]
    perm = [None] * nd
    for s, d in zip(src, dst):
        perm[d] = s
    rest = iter([k for k in range(nd) if k not in src])
    return [p if p is not None else next(rest) for p in perm]


def ported_view_ops(f):
    """test/test_view_ops.py: TestViewOps and TestOldViewOps."""
    def case(test, name, **kw):
        return f.case("test_view_ops/%s/%s" % (test, name), **kw)

    def through(c, view, vidx, base, bidx, value=0.0):
        """v[vidx] = value, then base[bidx]: the write reaches the base (or not, for a copy)."""
        c("set", view, vidx, value)
        c("get", base, bidx)

    # is_view_of + a write through the view, one op each
    c = case("test_select_view", "5x5-d0-2")
    t = c.ones([5, 5])
    through(c, c("select", t, 0, 2), [0], t, [2, 0])
    c = case("test_unbind_view", "5x5-all-rows")  # unbind(t) is select(t, 0, i) for each i
    t = c.zeros([5, 5])
    for i in range(5):
        through(c, c("select", t, 0, i), [0], t, [i, 0], float(i + 1))
    for dt in DNAMES:  # tensor_split(7, dim) slices; every piece is a view
        c = case("test_view_tensor_split", dt)
        a = c.data([40, 30], dt)
        for dim in (0, 1):
            size, start = c.env[a].shape[dim], 0
            for piece, ref in zip(range(7), torch.tensor_split(c.env[a], 7, dim)):
                n = size // 7 + (1 if piece < size % 7 else 0)
                ported_like(c, c("slice", a, dim, start, start + n, 1), ref, c.env[a])
                start += n
    for test, fn, dim, vidx in (("test_view_tensor_hsplit", torch.hsplit, 1, [2, 0, 2]),
                                ("test_view_tensor_vsplit", torch.vsplit, 0, [0, 2, 2]),
                                ("test_view_tensor_dsplit", torch.dsplit, 2, [2, 2, 0])):
        for dt in ("f32", "i64", "bool"):
            c = case(test, "4x4x4-%s" % dt)
            t = c.data([4, 4, 4], dt)
            pieces = [c("slice", t, dim, 0, 2, 1), c("slice", t, dim, 2, 4, 1)]
            for p, ref in zip(pieces, fn(c.env[t], 2)):
                ported_like(c, p, ref, c.env[t])
            c("set", t, [2, 2, 2], 7.0 if dt != "bool" else 1.0)
            c("get", pieces[1], vidx)
    c = case("test_expand_view", "5x1-to-5x5")
    t = c.ones([5, 1])
    through(c, c("expand", t, [5, 5]), [2, 2], t, [2, 0])
    c = case("test_expand_as_view", "5x1-as-5x5")
    t = c.ones([5, 1])
    e = c.empty([5, 5])
    v = c("expand", t, list(c.env[e].shape))
    ported_like(c, v, c.env[t].expand_as(c.env[e]), c.env[t])
    through(c, v, [2, 2], t, [2, 0])
    c = case("test_narrow_view", "5x5-d1-2-2")
    t = c.ones([5, 5])
    through(c, c("narrow", t, 1, 2, 2), [0, 0], t, [0, 2])
    c = case("test_permute_view", "5x5-1-0")
    t = c.ones([5, 5])
    through(c, c("permute", t, [1, 0]), [0, 1], t, [1, 0])
    for name, d0, d1 in (("transpose-0-1", 0, 1), ("swapdims-1-0", 1, 0), ("swapaxes-neg", -1, -2)):
        c = case("test_transpose_view", name)
        t = c.ones([5, 5])
        v = c("transpose", t, d0, d1)
        ported_like(c, v, torch.swapaxes(c.env[t], d0, d1), c.env[t])
        through(c, v, [0, 1], t, [1, 0])
    c = case("test_transpose_inplace_view", "view-as-then-transpose")
    t = c.ones([5, 5])
    through(c, c("transpose", c("view", t, [5, 5]), 0, 1), [0, 1], t, [1, 0])
    c = case("test_t_view", "5x5")
    t = c.ones([5, 5])
    through(c, c("t", t), [0, 1], t, [1, 0])
    c = case("test_t_inplace_view", "view-as-then-t")
    t = c.ones([5, 5])
    through(c, c("t", c("view", t, [5, 5])), [0, 1], t, [1, 0])
    c = case("test_T_view", "T-and-mT")  # .T reverses the dims, .mT swaps the last two
    t = c.ones([5, 5])
    v = c("permute", t, [1, 0])
    ported_like(c, v, c.env[t].T, c.env[t])
    through(c, v, [0, 1], t, [1, 0])
    w = c("transpose", t, -2, -1)
    ported_like(c, w, c.env[t].mT, c.env[t])
    through(c, w, [0, 2], t, [2, 0], 5.0)
    c = case("test_squeeze_view", "5x1x5")  # squeeze() of (5, 1, 5) drops dim 1
    t = c.ones([5, 1, 5])
    v = c("squeeze", t, 1)
    ported_like(c, v, torch.squeeze(c.env[t]), c.env[t])
    through(c, v, [0, 1], t, [0, 0, 1])
    c = case("test_squeeze_inplace_view", "5x5-nothing-to-squeeze")
    t = c.ones([5, 5])
    v = c("squeeze", c("squeeze", c("view", t, [5, 5]), 0), 1)
    through(c, v, [0, 1], t, [0, 1])
    c = case("test_unsqueeze_view", "5x5-d1")
    t = c.ones([5, 5])
    through(c, c("unsqueeze", t, 1), [0, 0, 1], t, [0, 1])
    c = case("test_unsqueeze_inplace_view", "view-as-then-unsqueeze")
    t = c.ones([5, 5])
    through(c, c("unsqueeze", c("view", t, [5, 5]), 1), [0, 0, 1], t, [0, 1])
    c = case("test_as_strided_view", "5x5-to-25")
    t = c.ones([5, 5])
    through(c, c("as_strided", t, [25], [1], 0), [6], t, [1, 1])
    c = case("test_as_strided_inplace_view", "view-as-then-as-strided")
    t = c.ones([5, 5])
    through(c, c("as_strided", c("view", t, [5, 5]), [25], [1], 0), [6], t, [1, 1])
    # as_strided's size, stride and (absolute) offset from the gradient test's inputs
    for name, mk, size, stride, off in (
            ("arange25-5x5-3x3", lambda c: c("view", c.arange(25, "f64"), [5, 5]), [3, 3], [6, 2], 2),
            ("size1-crazy-stride", lambda c: c.data([12], "f64"), [1, 2, 1, 5], [0, 5, 100, 1], 2),
            ("expand-0-1-0", lambda c: c.data([5], "f64"), [3, 3, 3], [0, 1, 0], 2),
            ("expand-all-0", lambda c: c.data([5], "f64"), [3, 3, 3], [0, 0, 0], 4),
            ("of-expanded", lambda c: c("expand", c.data([5], "f64"), [5, 5]), [5, 5], [0, 1], 0),
            ("overlapping-6x6", lambda c: c.data([35], "f64"), [6, 6], [5, 1], 2),
            ("overlapping-3x2", lambda c: c.data([15], "f64"), [3, 2], [3, 6], 2),
            ("transpose", lambda c: c.data([3, 4], "f64"), [4, 3], [1, 4], 0),
            ("of-offset-view-reads-before-it", lambda c: c("slice", c.data([6, 2], "f64"), 0, 3, TL_END, 1),
             [3, 2], [2, 1], 0),
            ("of-expanded-3d", lambda c: c("expand", c.data([2, 3], "f64"), [10, 2, 3]), [2, 3], [3, 1], 0)):
        c = case("test_as_strided_gradients", name)
        c("as_strided", mk(c), size, stride, off)
    c = case("test_view_view", "5x5-to-25")
    t = c.ones([5, 5])
    through(c, c("view", t, [25]), [6], t, [1, 1])
    c = case("test_view_as_view", "5x5-as-25")
    t = c.ones([5, 5])
    e = c.empty([25])
    through(c, c("view", t, list(c.env[e].shape)), [6], t, [1, 1])
    c = case("test_contiguous_self", "5x5")
    c("contiguous", c.ones([5, 5]))
    c = case("test_contiguous_nonview", "5x5-t")
    t = c.ones([5, 5])
    through(c, c("contiguous", c("t", t)), [0, 0], t, [0, 0])
    c = case("test_reshape_view", "5x5-to-25")
    t = c.ones([5, 5])
    through(c, c("reshape", t, [25]), [6], t, [1, 1])
    c = case("test_reshape_as_view", "5x5-as-25")
    t = c.ones([5, 5])
    e = c.empty([25])
    through(c, c("reshape", t, list(c.env[e].shape)), [6], t, [1, 1])
    c = case("test_reshape_nonview", "5x5-t-to-25")
    t = c.ones([5, 5])
    through(c, c("reshape", c("t", t), [25]), [6], t, [1, 1])
    # flatten: views where strides merge, copies where they do not
    c = case("test_flatten_view", "1x2x3x4")
    t = c.ones([1, 2, 3, 4])
    through(c, c("flatten", t, 0, -1), [0], t, [0, 0, 0, 0])
    c = case("test_flatten_view", "0d")
    t = c.scalar(1.0, "i64")
    through(c, c("flatten", t, 0, -1), [0], t, [])
    c = case("test_flatten_view", "transposed-flatten-0-1")
    t = c("transpose", c.ones([1, 2, 3, 4]), 2, 3)
    through(c, c("flatten", t, 0, 1), [0, 0, 0], t, [0, 0, 0, 0])
    c = case("test_flatten_view", "three-mergeable-groups")
    t = c("as_strided", c.ones([720]), [2, 3, 2, 3, 5, 4], [6, 2, 15, 5, 1, 0], 0)
    v1 = c("flatten", t, 0, 1)
    v2 = c("flatten", v1, 1, 3)
    v3 = c("flatten", v2, 2, 2)
    for v, n in ((v1, 5), (v2, 3), (v3, 3)):
        through(c, v, [0] * n, t, [0] * 6)
    c = case("test_flatten_nonview", "transposed-flatten-1-3")
    t = c("transpose", c.ones([2, 3, 2, 3]), 2, 3)
    through(c, c("flatten", t, 1, 3), [0, 0], t, [0, 0, 0, 0])
    c = case("test_flatten_nonview", "T-flatten")
    t = c("t", c.ones([2, 2]))
    through(c, c("flatten", t, 0, -1), [0], t, [0, 0])
    c = case("test_flatten_nonview", "start-equals-end-returns-self")
    c("flatten", c.ones([2, 2]), 1, 1)
    # basic indexing: t[:2, :3], t[..., :2], t[None, :2, 3]
    c = case("test_basic_indexing_slice_view", "5x5-:2-:3")
    t = c.ones([5, 5])
    through(c, c("slice", c("slice", t, 0, 0, 2, 1), 1, 0, 3, 1), [0, 0], t, [0, 0])
    c = case("test_basic_indexing_ellipses_view", "5x5-...-:2")
    t = c.ones([5, 5])
    through(c, c("slice", t, -1, 0, 2, 1), [0, 0], t, [0, 0])
    c = case("test_basic_indexing_newaxis_view", "5x5-None-:2-3")
    t = c.ones([5, 5])
    v = c("select", c("slice", c("unsqueeze", t, 0), 1, 0, 2, 1), 2, 3)
    ported_like(c, v, c.env[t][None, :2, 3], c.env[t])
    through(c, v, [0, 0], t, [0, 3])
    c = case("test_advanced_indexing_nonview", "3x3-one-index-tensor")  # t[rows] (one index tensor)
    t = c.ones([3, 3])
    rows = c("view", build_vector(c, [0.0, 0.0, 2.0, 2.0], "i64"), [2, 2])
    through(c, c("index", t, rows), [1, 1, 2], t, [2, 2])
    c = case("test_movedim_view", "3x3")  # movedim((0, 1), (1, 0)) and movedim(0, 1): permute([1, 0])
    t = c.zeros([3, 3])
    for k, (src, dst) in enumerate((((0, 1), (1, 0)), ((0,), (1,)))):
        out = c("permute", t, movedim_perm(2, src, dst))
        ported_like(c, out, torch.movedim(c.env[t], src, dst), c.env[t])
        for i, j in ((0, 2), (2, 1), (1, 1)):
            through(c, out, [i, j], t, [j, i], float(10 * k + 3 * i + j))

    # TestOldViewOps
    def ravel(c, t):  # ravel is contiguous().view(-1)
        v = c("view", c("contiguous", t), [-1])
        ported_like(c, v, c.env[t].ravel(), c.env[t])
    c = case("test_ravel", "0d")
    ravel(c, c.scalar(123.0, "i64"))
    c.full([1], 123.0, "i64")
    c = case("test_ravel", "strided-copies")
    ravel(c, c("slice", c.ones([10]), 0, 0, TL_END, 2))
    for shape in ([5, 5, 5, 5], [0, 2, 3], [3, 0, 2], [5, 5]):
        c = case("test_ravel", sname(shape))
        t = c.data(shape)
        ravel(c, t)
        if len(shape) == 2:
            ravel(c, c("t", t))
    c = case("test_empty_reshape", "0x6-to-1x0x6x1x1")
    c("reshape", c.zeros([0, 6]), [1, 0, 6, 1, 1])
    c = case("test_empty_reshape", "0x6-to-0x-1")
    c("reshape", c.zeros([0, 6]), [0, -1], err=True)
    c = case("test_expand", "1x8x1-to-4x8x5")
    t = c.data([1, 8, 1])
    c("expand", t, [4, 8, 5])
    c("expand", t, [4, -1, 5])
    c = case("test_expand", "5-to-4x8x5")
    c("expand", c.data([5]), [4, 8, 5])
    c = case("test_expand", "double-expand")
    c("expand", c("expand", c.data([5]), [1, 5]), [2, 2, 5])
    c = case("test_expand", "noncontiguous")
    c("expand", c("select", c.data([5, 2, 1, 3]), 1, 0), [2, 5, 4, 3])
    c = case("test_expand", "like-unsqueeze")
    t = c.data([5])
    c("expand", t, [1, 1, 5])
    c("unsqueeze", c("unsqueeze", t, 0), 1)
    c = case("test_expand", "minus-one-leading-err")
    c("expand", c.data([5]), [-1, -1], err=True)
    c = case("test_expand", "empty-to-empty")
    c("expand", c.zeros([0]), [0])
    c = case("test_view_empty", "0x6-to-1x0x6x1x1")
    c("view", c.zeros([0, 6]), [1, 0, 6, 1, 1])
    c = case("test_reshape", "3x3")
    x = c.data([3, 3])
    c("reshape", x, [-1])
    c("reshape", x, [1, 9, 1])
    c("reshape", x, [9])
    c("reshape", x, list(c.env[c.data([9])].shape))  # reshape_as(rand(9))
    c("reshape", x, [1, 9, 1])
    for name, target in (("3x3-to--1x-1", [-1, -1]), ("3x3-as-10", [10])):
        c = case("test_reshape", name + "-err")
        c("reshape", c.data([3, 3]), target, err=True)
    c = case("test_reshape", "4x4x4-select")
    y = c("select", c.data([4, 4, 4]), 1, 0)
    c("reshape", y, [-1])
    c("reshape", y, [2, 2, 4])
    c = case("test_reshape", "0d")
    s = c.scalar(0.5)
    c("reshape", s, [])
    c("reshape", s, [-1])
    c = case("test_reshape", "0d-to-2-err")
    c("reshape", c.scalar(0.5), [2], err=True)
    c = case("test_reshape", "empty-1d")
    e = c.zeros([0])
    for target in ([-1], [0], [0, 1], [1, -1]):
        c("reshape", e, target)
    c = case("test_reshape", "empty-1d-to-1-err")
    c("reshape", c.zeros([0]), [1], err=True)
    c = case("test_flatten", "0d")
    c("flatten", c.scalar(123.0, "i64"), 0, -1)
    c = case("test_flatten", "5x5x5x5")
    x = c.data([5, 5, 5, 5])
    for s, e in ((0, -1), (0, 2), (0, 1), (1, 2), (2, 3), (-2, -1), (2, 2)):
        c("flatten", x, s, e)
    for name, s, e in (("dim-out-of-range", 5, 10), ("start-after-end", 2, 0)):
        c = case("test_flatten", "5x5x5x5-%s-err" % name)
        c("flatten", c.data([5, 5, 5, 5]), s, e, err=True)
    c = case("test_narrow", "3x3")
    x = c.data([3, 3], "i64")
    for dim, start, length in ((0, 0, 1), (0, 0, 2), (0, 1, 1), (0, -1, 1), (0, -2, 2), (0, -3, 3),
                               (-1, -1, 1), (-2, -1, 1)):
        c("narrow", x, dim, start, length)
    c = case("test_narrow_tensor", "3x3-start-0")
    c("narrow", c.data([3, 3], "i64"), 0, 0, 1)
    c = case("test_t", "0d-1d-2d")
    c("t", c.scalar(0.25))
    c("t", c.arange(4, "i64"))
    x = c.data([2, 2])
    c("t", x)
    c("transpose", x, 0, 1)
    c = case("test_t", "3d-err")
    c("t", c.data([2, 2, 2]), err=True)
    c = case("test_split", "7x4-by-3-d0")  # split is narrow per piece
    t = c.data([7, 4])
    for start, n in ((0, 3), (3, 3), (6, 1)):
        c("narrow", t, 0, start, n)
    c = case("test_split", "20x10-sizes-5-5-10-d0")
    t = c.data([20, 10])
    for start, n in ((0, 5), (5, 5), (10, 10)):
        c("narrow", t, 0, start, n)
    c = case("test_split", "20x10-sizes-2-2-6-d1")
    t = c.data([20, 10])
    for start, n in ((0, 2), (2, 2), (4, 6)):
        c("narrow", t, 1, start, n)
    c = case("test_chunk", "4x7-in-3-d1")
    t = c.data([4, 7])
    refs = c.env[t].chunk(3, 1)
    for (start, n), ref in zip(((0, 3), (3, 3), (6, 1)), refs):
        ported_like(c, c("narrow", t, 1, start, n), ref, c.env[t])
    c = case("test_unsqueeze", "2x3x4")
    x = c.data([2, 3, 4])
    c("unsqueeze", x, 1)
    c("view", x, [2, 1, 3, 4])
    c("unsqueeze", c("clone", x), 2)
    c("view", x, [2, 3, 1, 4])
    c = case("test_unsqueeze", "noncontiguous-select")
    x = c("select", c.data([2, 3, 4]), 1, 1)
    c("unsqueeze", x, 1)
    c("view", c("contiguous", x), [2, 1, 4])
    c("unsqueeze", c("clone", x), 2)
    c("view", c("contiguous", x), [2, 4, 1])
    c = case("test_big_transpose", "456x789")
    c("contiguous", c("t", c.data([456, 789])))
    c = case("test_T", "3d-1d-0d")  # .T reverses the dims
    for t in (c.data([2, 3, 4]), c.data([10]), c.scalar(5.0, "i64")):
        nd = c.env[t].dim()
        v = c("permute", t, list(range(nd))[::-1])
        ported_like(c, v, c.env[t].T if nd != 3 else c.env[t].permute(2, 1, 0), c.env[t])
    for dt in DNAMES:
        c = case("test_transposes", dt)
        for shape in ([], [2, 3]):
            t = c.data(shape, dt) if shape else c.scalar(1.0, dt)
            c("permute", t, list(range(len(shape)))[::-1])
        for shape in ([2, 3], [2, 3, 4]):
            t = c.data(shape, dt)
            v = c("transpose", t, -2, -1)
            ported_like(c, v, c.env[t].mT, c.env[t])
    c = case("test_transposes_errors", "mT-of-1d-err")
    c("transpose", c.data([2]), -2, -1, err=True)
    c = case("test_transposes_errors", "H-of-3d-err")
    c("t", c.data([2, 3, 4]), err=True)
    for dt in ("i64", "f32"):
        for d0, d1 in ((5, 0), (0, 5)):
            c = case("test_transpose_invalid", "%s-%d-%d-err" % (dt, d0, d1))
            c("transpose", c.data([5, 6, 7, 8], dt), d0, d1, err=True)
    for nd in range(2, 5):
        for src, dst in permutations(range(nd), 2):
            c = case("test_transpose_vs_numpy", "%dd-%d-%d" % (nd, src, dst))
            t = c.data([5, 6, 7, 8][:nd], "i64")
            for s, d in ((src, dst), (src - nd, dst), (src, dst - nd), (src - nd, dst - nd)):
                c("transpose", t, s, d)
    c = case("test_transpose_vs_numpy", "5d-0-0")
    c("transpose", c.data([2, 3, 5, 7, 11]), 0, 0)
    # atleast_1d/2d/3d as PyTorch writes them: reshape of a 0-d, unsqueeze of a 1-d or 2-d
    for nd in range(5):
        for transposed in (False, True):
            c = case("test_atleast", "%dd%s" % (nd, "-T" if transposed else ""))
            x = c.data([5, 6, 7, 8][:nd]) if nd else c.scalar(0.5)
            if transposed:
                x = c("permute", x, list(range(nd))[::-1])
            tx = c.env[x]
            if nd == 0:
                for fn, shape in ((torch.atleast_1d, [1]), (torch.atleast_2d, [1, 1]),
                                  (torch.atleast_3d, [1, 1, 1])):
                    ported_like(c, c("reshape", x, shape), fn(tx), tx)
            elif nd == 1:
                ported_like(c, c("unsqueeze", x, 0), torch.atleast_2d(tx), tx)
                ported_like(c, c("unsqueeze", c("unsqueeze", x, 0), -1), torch.atleast_3d(tx), tx)
            elif nd == 2:
                ported_like(c, c("unsqueeze", x, -1), torch.atleast_3d(tx), tx)
    c = case("test_broadcast_tensors", "2x1x3-3-3x1")
    for shape in ([2, 1, 3], [3], [3, 1]):
        c("expand", c.data(shape), [2, 3, 3])
    examples = [[], [1], [2], [1, 1], [3, 1], [3, 2], [4, 1, 1], [4, 3, 2]]
    for s0 in examples:
        c = case("test_broadcast_shapes", "with-%s" % sname(s0))
        x0 = c.zeros(s0)
        for s1 in examples:
            c("add", x0, c.zeros(s1))
    for name, shapes in (("ints-1-4", [[1], [4]]), ("ints-4-1", [[4], [1]]), ("ints-1-1-3", [[1], [1], [3]]),
                         ("int-and-5", [[1], [5]]), ("int-and-1", [[3], [1]]), ("int-and-3x4", [[1], [3, 4]])):
        c = case("test_broadcast_shapes", name)
        acc = c.zeros(shapes[0])
        for s in shapes[1:]:
            acc = c("add", acc, c.zeros(s))
    for shape in ([-1], [1, -12], [4, -11], [-4, 1], [1, 1, -2]):
        c = case("test_broadcast_shapes", "negative-%s-err" % "x".join(str(s) for s in shape))
        c.zeros(shape, err=True)
    for s0, s1 in ([3, 5], [2, 4, 1]), ([2, 4, 1], [3, 5]):
        c = case("test_broadcast_shapes", "mismatch-%s-%s-err" % (sname(s0), sname(s1)))
        c("add", c.zeros(s0), c.zeros(s1), err=True)
    sizes = [[], [1], [2], [1, 1], [3, 1], [3, 2], [4, 1, 1], [4, 3, 2]]
    dts = [d for d in DNAMES if d != "bf16"]
    for k, (s0, s1) in enumerate(combinations(sizes, 2)):
        ok = all(a == 1 or a == b for a, b in zip(reversed(s0), reversed(s1)))
        dt = dts[k % len(dts)]
        c = case("test_broadcast_to", "%s-to-%s-%s" % (sname(s0), sname(s1), dt))
        x = c.data(s0, dt) if s0 else c.scalar(1.0, dt)
        v = c("expand", x, s1, err=not ok)
        if ok:
            ported_like(c, v, torch.broadcast_to(c.env[x], s1), c.env[x])
    c = case("test_view", "15")
    x = c.data([15])
    c("view", x, list(c.env[c.data([3, 5])].shape))  # view_as(template)
    for target in ([3, 5], [-1, 5], [3, -1]):
        c("view", x, target)
    c("fill_", c("view", x, [5, 3]), 0.5)
    c = case("test_view", "empty")
    e = c.zeros([0])
    c("view", e, [0])
    v = c("view", e, [0, 3, 0, 1])
    c("view", v, [0])
    c("view", e, [-1])
    c("view", e, [10, 3, -1])
    for name, mk, target in (("empty-to--1x0", lambda c: c.zeros([0]), [-1, 0]),
                             ("empty-to-3x0x-1x0", lambda c: c.zeros([0]), [3, 0, -1, 0]),
                             ("15-to-15x0", lambda c: c.data([15]), [15, 0]),
                             ("15-to-7x-1", lambda c: c.data([15]), [7, -1]),
                             ("15-to-15x-1x-1", lambda c: c.data([15]), [15, -1, -1])):
        c = case("test_view", name + "-err")
        c("view", mk(c), target, err=True)

    def chunked(c):  # (4, 2, 3, 9, 6, 2, 1, 5): contiguous chunks [4, 2] [3] [9] [6, 2] [1, 5]
        x = c.data([4, 2, 5, 1, 6, 2, 9, 3])
        return c("transpose", c("transpose", x, -1, 2), -2, 3)
    c = case("test_view", "only-contiguous-chunks-touched")
    x = chunked(c)
    for target in ([8, 3, 9, 12, 5], [8, 3, 3, 3, 4, 3, 5], [2, 4, 3, 9, 2, 2, 3, 5], [8, 3, 9, 6, 2, 5],
                   [1, 8, 3, 9, 12, 1, 5, 1]):
        c("view", x, target)
    for name, target in (("flat", [-1]), ("crossing-4x2-3", [24, 9, 6, 2, 1, 5]),
                         ("crossing-6x2-1x5", [8, 3, 9, 6, 10]), ("crossing-9-6x2", [8, 3, 54, 2, 1, 5])):
        c = case("test_view", "chunks-%s-err" % name)
        c("view", chunked(c), target, err=True)
    c = case("test_view", "stride-0-dims")
    x = c("expand", c.data([1, 1]), [3, 4])
    for target in ([-1], [1, -1, 1], [-1, 1], [6, 2, 1], [1, 6, 2, 1]):
        c("view", x, target)
    for dt in DNAMES:
        c = case("test_reshape_view_semantics", dt)
        t = c.data([15, 4], dt)
        c("reshape", t, [20, 3])
        c("reshape", c("transpose", t, 0, 1), [20, 3])
    c = case("test_contiguous", "size1-dim-stride-20")
    x = c("as_strided", c.data([1, 16, 5, 5]), [1, 16, 5, 5], [20, 25, 5, 1], 0)
    c("contiguous", x)

    # tensor_split: slices of Python's clamping, checked against torch.tensor_split
    def split_slices(c, t, dim, bounds, ref):
        for (start, end), r in zip(bounds, ref):
            ported_like(c, c("slice", t, dim, start, end, 1), r, c.env[t])
    for shape in ([0], [10], [10, 0], [0, 10], [4, 10], [12, 3]):
        for dim in range(-len(shape), len(shape)):
            size = shape[dim]
            for sections in sorted({1, 2, 3, size, size + 3} & set(range(1, 2 * size))):
                c = case("test_tensor_split_sections", "%s-d%d-%d" % (sname(shape), dim, sections))
                t = c.data(shape)
                base, extra = divmod(size, sections)
                bounds, start = [], 0
                for i in range(sections):
                    n = base + (1 if i < extra else 0)
                    bounds.append((start, start + n))
                    start += n
                split_slices(c, t, dim, bounds, torch.tensor_split(c.env[t], sections, dim))
    indices_args = [(), (0,), (3,), (10,), (-1,), (-10,), (2, -1), (3, 4, 10), (0, -1, 0, 10), (1, 5, 2, 8)]
    for shape, dims in (([10], [0]), ([10, 0], [0]), ([0, 10], [1]), ([4, 10], [0, -1]), ([12, 3], [0])):
        for dim in dims:
            for ind in indices_args:
                c = case("test_tensor_split_indices", "%s-d%d-%s" % (sname(shape), dim,
                                                                    "_".join(str(i) for i in ind) or "none"))
                t = c.data(shape)
                edges = [0] + list(ind) + [shape[dim]]
                split_slices(c, t, dim, list(zip(edges[:-1], edges[1:])),
                             torch.tensor_split(c.env[t], list(ind), dim))
    c = case("test_tensor_split_errors", "1d-dim-1-err")
    c("slice", c.data([10]), 1, 0, 10, 1, err=True)
    c = case("test_tensor_split_errors", "0d-err")
    c("slice", c.scalar(1.5), 0, 0, 10, 1, err=True)
    for dt in DNAMES:
        c = case("test_view_all_dtypes_and_devices", dt)
        c("view", c.data([3, 2], dt, shift=1) if dt != "bool" else c.data([3, 2], dt), [6])


def ported_shape_ops(f):
    """test/test_shape_ops.py (TestShapeOps): the tests of ops this API has."""
    def case(test, name, **kw):
        return f.case("test_shape_ops/%s/%s" % (test, name), **kw)

    for dim in range(4):  # unbind(x, dim) is select(x, dim, i) for each i
        c = case("test_unbind", "2x3x4x5-d%d" % dim)
        x = c.data([2, 3, 4, 5])
        refs = c.env[x].unbind(dim)
        for i, ref in enumerate(refs):
            ported_like(c, c("select", x, dim, i), ref, c.env[x])
    c = case("test_tolist", "noncontiguous-select")
    x = c("view", c("add", c.arange(8, "i64"), c.scalar(1.0, "i64")), [2, 2, 2])
    c("select", x, 1, 1)
    c = case("test_tolist", "1d-2d")
    c("view", c("add", c.arange(4, "i64"), c.scalar(1.0, "i64")), [2, 2])
    c("add_scalar", c.arange(3, "f32"), 1.0)
    rng = random.Random(13)
    for nd in range(5):
        shape = [5, 6, 7, 8][:nd]
        for dt in ("i64", "f32"):
            c = case("test_movedim", "%dd-%s" % (nd, dt))
            x = c.data(shape, dt) if nd else c.scalar(2.0, dt)
            moves = [((s,), (d,)) for s, d in permutations(range(nd), 2)]
            moves += [((s - nd,), (d,)) for s, d in permutations(range(nd), 2)][:3]
            moves += [((s,), (d - nd,)) for s, d in permutations(range(nd), 2)][-3:]
            for _ in range(3 if nd else 0):  # sequences of source and destination dims
                src = rng.sample(range(nd), rng.randint(1, nd))
                moves.append((tuple(src), tuple(rng.sample(range(nd), len(src)))))
            moves += [((0, 1)[:nd], (0, 1)[:nd]), ((), ())]
            for src, dst in moves:
                ref = torch.movedim(c.env[x], src, dst)
                ported_like(c, c("permute", x, movedim_perm(nd, src, dst)), ref, c.env[x])


def ported_torch(f):
    """test/test_torch.py (TestTorchDeviceType, TestTorch, TestDevicePrecision)."""
    def case(test, name, **kw):
        return f.case("test_torch/%s/%s" % (test, name), **kw)

    # test_scalar_check: 0-dim stays 0-dim, 1-element 1-d stays 1-d
    c = case("test_scalar_check", "unary-binary-clone-gather-amax")
    zero_d, one_d = c.scalar(0.5), c.full([1], 0.25)
    for op in ("exp", "cos", "tanh"):
        c(op, zero_d)
        c(op, one_d)
    for op in ("maximum", "minimum"):
        c(op, zero_d, zero_d)
        c(op, one_d, zero_d)
        c(op, zero_d, one_d)
    c("clone", zero_d)
    for src in (zero_d, one_d):
        c("gather", src, 0, c.zeros([], "i64"))
        c("gather", src, 0, c.zeros([1], "i64"))
        c("max", src, 0, True)
        c("max", src, 0, False)
    c = case("test_scalar_check", "conv2d-of-0d-err")
    c("conv2d", c.scalar(0.5), c.data([2, 1, 3, 3]), 1, 0, err=True)
    # test_broadcast: the result of the expanded operands equals the result of broadcasting
    for cfg, small, large, full in (("3x1-2x1x4", [3, 1], [2, 1, 4], [2, 3, 4]),
                                    ("4-3x1", [4], [3, 1], [3, 4]),
                                    ("1x3x1-2x1x5", [1, 3, 1], [2, 1, 5], [2, 3, 5])):
        for op in ("add", "sub", "mul", "div", "eq", "lt", "maximum", "minimum"):
            c = case("test_broadcast", "%s-%s" % (op, cfg))
            s, l = c.data(small, shift=1.0, scale=0.5), c.data(large, shift=2.0, scale=0.25)
            se, le = c("expand", s, full), c("expand", l, full)
            for a, b in ((l, s), (s, l)):
                c(op, a, b)
            for a, b in ((le, se), (se, le)):
                c(op, a, b)
        c = case("test_broadcast", "masked_fill-%s" % cfg)
        s, l = c.data(small, scale=0.25), c.data(large, scale=0.125)
        half = c.scalar(0.5)
        c("masked_fill", l, c("lt", s, half), 1.0)
        c("masked_fill", s, c("lt", l, half), 1.0)
        for op in ("add_", "sub_", "mul_", "div_", "copy_"):
            c = case("test_broadcast", "%s-%s" % (op, cfg))
            s, l = c.data(small, shift=1.0), c.data(large, shift=1.0)
            big = c("clone", c("expand", l, full))
            c(op, big, s)
            c(op, big, c("expand", s, full))
            c = case("test_broadcast", "%s-%s-into-small-err" % (op, cfg))
            s, l = c.data(small, shift=1.0), c.data(large, shift=1.0)
            c(op, s, l, err=True)
    # test_copy_mem_overlap: internal overlap, then input/output overlap
    c = case("test_copy_mem_overlap", "expanded-dst-err")
    c("copy_", c("expand", c.data([1], "f64"), [3, 3]), c.data([3, 3], "f64"), err=True)
    c = case("test_copy_mem_overlap", "identical-and-independent")
    d = c.data([18], "f64")
    c("copy_", c("slice", d, 0, 0, 9, 1), c("slice", d, 0, 0, 9, 1))
    c("copy_", c("slice", d, 0, 0, 9, 1), c("slice", d, 0, 9, 18, 1))
    c = case("test_copy_mem_overlap", "partial-overlap-err")
    d = c.data([18], "f64")
    c("copy_", c("slice", d, 0, 0, 9, 1), c("slice", d, 0, 1, 10, 1), err=True)
    c = case("test_copy_mem_overlap", "transpose-of-input-err")
    inp = c("view", c("slice", c.data([18], "f64"), 0, 0, 9, 1), [3, 3])
    c("copy_", c("t", inp), inp, err=True)
    c = case("test_narrow_empty", "2x3x4")
    x = c.data([2, 3, 4])
    for d in range(3):
        c("narrow", x, d, [2, 3, 4][d], 0)
    # test_tensor_shape_empty: (0, 1, 3, 0)
    c = case("test_tensor_shape_empty", "0x1x3x0")
    x = c.zeros([0, 1, 3, 0])
    for s, e in ((0, 3), (0, 2), (1, 2)):
        c("flatten", x, s, e)
    c("unsqueeze", x, 1)
    c("squeeze", x, 1)
    c("transpose", x, 1, 3)
    c("t", c.zeros([5, 0]))
    c("select", x, 2, 2)
    c("permute", x, [2, 3, 0, 1])
    c("stack", [x, x, x, x], 0)
    for start, n in ((0, 0), (0, 1), (1, 2)):  # split(x, (0, 1, 2), dim=2)
        c("narrow", x, 2, start, n)
    for start in range(3):  # chunk(x, 3, dim=2)
        c("narrow", x, 2, start, 1)
    # test_dim_function_empty: (0, 1, 2, 0)
    c = case("test_dim_function_empty", "0x1x2x0")
    x = c.zeros([0, 1, 2, 0])
    for d in (0, 2, 3):
        c("softmax", x, d)
    for d in (0, 2):
        c("gather", x, d, c.zeros([0, 1, 2, 0], "i64"))
    c("gather", x, 2, c.zeros([0, 1, 3, 0], "i64"))
    c("gather", x, 2, c.zeros([0, 1, 0, 0], "i64"))
    c("gather", c.data([2, 3, 4]), 0, c.zeros([0, 3, 4], "i64"))
    ind_empty = c.zeros([0], "i64")
    ind_01 = c("to", c.arange(2, "f32"), "i64")
    c("index_select", x, 0, ind_empty)
    c("index_select", x, 2, ind_empty)
    c("index_select", x, 2, ind_01)
    c("index_select", c.data([2, 3, 4]), 0, ind_empty)
    c("index_select", c.zeros([0, 1, 2]), 0, ind_empty)
    c("index_select", c.zeros([0, 3]), 1, ind_01)
    w = c.zeros([3, 0])
    c("index_select", w, 0, ind_01)
    c("index_select", w, 0, c("to", ind_01, "i32"))
    c("index_select", c.scalar(0.5), 0, c.zeros([1], "i32"))
    # torch 1.13 takes an empty index into a 0-dim tensor (later versions raise "Index to scalar
    # can have only 1 value"); nothing is written, so the result's value is not determined
    c = case("test_dim_function_empty", "index_select-0d-empty-index", values=False)
    c("index_select", c.ones([]), 0, c.zeros([0], "i64"))
    c = case("test_dim_function_empty", "index_select-of-empty-dim-err")
    c("index_select", c.zeros([0, 3]), 0, c("to", c.arange(2, "f32"), "i64"), err=True)
    c = case("test_dim_function_empty", "index_select-out-of-bounds-err")
    c("index_select", c.zeros([0, 3]), 1, build_vector(c, [0.0, 5.0], "i64"), err=True)
    # masked_fill: every dtype, bool and u8 masks (torch 1.13 takes a u8 mask with a warning)
    for dt in DNAMES:
        for mdt in ("bool", "u8"):
            c = case("test_masked_fill", "%s-mask-%s" % (dt, mdt))
            mask = c.data([10], "bool")
            if mdt == "u8":
                mask = c("to", mask, "u8")
            c("masked_fill", c.zeros([10], dt), mask, 0.5 if dt != "u8" else 1.0)
            dst = c("permute", c.sdata([5, 5, 5], dt), [2, 0, 1])
            m = c("lt", c.scalar(0.0, dt), dst)
            if mdt == "u8":
                m = c("to", m, "u8")
            c("masked_fill", dst, m, 0.5 if dt != "u8" else 1.0)
            c("masked_fill", c("contiguous", dst), m, 0.5 if dt != "u8" else 1.0)
    c = case("test_masked_fill_bool_tensor", "bool")
    dst = c("to", build_vector(c, [1.0, 0.0, 1.0], "i64"), "bool")
    mask = c("to", build_vector(c, [0.0, 1.0, 0.0], "i64"), "bool")
    c("masked_fill", dst, mask, 1.0)
    c("masked_fill", dst, mask, 0.0)
    # memory formats
    c = case("test_memory_format_preserved_after_permute", "channels-last")
    y = c("permute", c("permute", c.cl([4, 3, 8, 8]), [0, 1, 3, 2]), [0, 1, 3, 2])
    c("contiguous", y)
    c = case("test_memory_format_preserved_after_permute", "channels-last-3d")  # built by permute
    x = c("permute", c.data([4, 8, 8, 8, 3]), [0, 4, 1, 2, 3])
    c("permute", c("permute", x, [0, 1, 4, 3, 2]), [0, 1, 4, 3, 2])
    for second in (False, True):  # the second round goes through to(memory_format=...)
        c = case("test_memory_format_propagation_rules", "round%d" % (2 if second else 1))
        contiguous = c.data([10, 3, 5, 5])
        cl = c.cl([10, 3, 5, 5])
        ambiguous = c.cl([10, 3, 1, 1])
        bias = c.cl([1, 1, 1, 1])
        if second:
            cl, ambiguous, bias = (c("to_format", t, "channels_last") for t in (cl, ambiguous, bias))
        for a, b in ((ambiguous, contiguous), (ambiguous, cl), (contiguous, ambiguous), (contiguous, cl),
                     (cl, ambiguous), (cl, contiguous), (bias, cl), (cl, bias)):
            c("add", a, b)
    for fmt in ("channels_last", "contiguous"):
        c = case("test_memory_format_propagation_rules", "ambiguous-%s-plus-bias" % fmt)
        ambiguous = c("to_format", c.data([10, 3, 1, 1]), fmt)
        bias = c.data([3, 1, 1])
        c("add", ambiguous, bias)
        c("add", bias, ambiguous)
        c("mul_scalar", ambiguous, 5.0)
    c = case("test_memory_format_consistency", "10x3x1x1")
    x = c.data([10, 3, 1, 1])
    c("as_strided", x, list(c.env[x].shape), list(c.env[x].stride()), 0)
    for variant in ("channels-last", "channels-last-3d"):
        c = case("test_memory_format_operators", variant)
        if variant == "channels-last":
            x = c.cl([4, 3, 8, 8], scale=0.01, shift=0.5)
            y = c.data([4, 3, 8, 8], scale=0.02, shift=1.0)
            bias = c.cl([1, 3, 1, 1], shift=1.0)
        else:  # channels_last_3d, built by permute
            x = c("permute", c.data([2, 4, 4, 4, 3], scale=0.01, shift=0.5), [0, 4, 1, 2, 3])
            y = c.data([2, 3, 4, 4, 4], scale=0.02, shift=1.0)
            bias = c("permute", c.data([1, 1, 1, 1, 3], shift=1.0), [0, 4, 1, 2, 3])
        c("clone", x)
        c("add_scalar", x, 3.0)
        c("mul_scalar", x, 3.0)
        c("add", x, y)
        c("mul", x, y)
        c("div", x, y)
        for op in ("neg", "exp", "sigmoid", "sqrt", "rsqrt", "log", "sin", "cos", "tanh", "relu"):
            c(op, x)
        c("div_scalar", x, 0.5)
        c("pow_scalar", x, 3.0)
        for op, arg in (("add_", y), ("mul_", y), ("div_", y)):
            c(op, c("clone", x), arg)
        c("mul_scalar_", c("clone", x), 3.0)
        if variant == "channels-last":  # x.chunk(2, dim=1): x1 + x2; x[0].unsqueeze(0) + 3 and clone
            c("add", c("narrow", x, 1, 0, 2), c("narrow", x, 1, 2, 1))
            c("add_scalar", c("unsqueeze", c("select", x, 0, 0), 0), 3.0)
            c("clone", c("unsqueeze", c("select", x, 0, 0), 0))
        c("add", x, bias)
        c("add", bias, x)
        c("add", y, x)  # the first operand's layout wins: contiguous
        c("mul", y, x)
    xs = (("2x3x4", lambda c: c.data([2, 3, 4])),
          ("2x3x8-sliced", lambda c: c("slice", c.data([2, 3, 8]), 2, 0, TL_END, 2)),
          ("1x1x4x12-sliced", lambda c: c("slice", c.data([1, 1, 4, 12]), 3, 0, TL_END, 2)))
    for name, mk in xs:
        nd = 4 if name.startswith("1x1") else 3
        for p in permutations(range(nd)):
            c = case("test_strides_propagation", "%s-%s" % (name, "".join(map(str, p))))
            xp = c("permute", mk(c), list(p))
            y = c.data([c.env[xp].shape[-1]], shift=1.0)
            for op in ("eq", "add"):
                for a, b in ((xp, xp), (xp, y), (y, xp)):
                    c(op, a, b)
            c("exp", xp)
    for test, dst in (("test_memory_format_to", "f64"), ("test_memory_format_type", "f64"),
                      ("test_memory_format_clone", None)):
        def tf(c, x):
            return c("clone", x) if dst is None else c("to", x, dst)
        c = case(test, "channels-last-sliced")  # not dense: preserve_format gives channels-last
        tf(c, c("slice", c("slice", c.cl([4, 3, 8, 8]), 2, 0, TL_END, 2), 3, 0, TL_END, 2))
        c = case(test, "channels-last")
        tf(c, c.cl([4, 3, 8, 8]))
        c = case(test, "permuted-7d")
        rng = random.Random(7)
        x = c.data([3, 4, 5, 6, 7, 8, 9])
        for _ in range(10):
            perm = list(range(7))
            rng.shuffle(perm)
            x = c("permute", x, perm)
            tf(c, x)
    for dt in ("u8", "i8", "f64", "bool", "f16", "i32", "i64", "i16", "bf16"):
        c = case("test_memory_format_type_shortcuts", "f32-to-%s" % dt)
        x = c.cl([4, 3, 8, 8], scale=0.01)
        c("to", c("slice", c("slice", x, 2, 0, TL_END, 2), 3, 0, TL_END, 2), dt)
        c("to", x, dt)
    c = case("test_memory_format_type_shortcuts", "f64-to-f32")
    x = c.cl([4, 3, 8, 8], "f64", scale=0.01)
    c("to", c("slice", c("slice", x, 2, 0, TL_END, 2), 3, 0, TL_END, 2), "f32")
    c("to", x, "f32")
    c = case("test_memory_format", "4x3x8x8")
    c("to_format", c.data([4, 3, 8, 8]), "channels_last")
    c = case("test_memory_format_contiguous_returns_same_tensor_if_already_satisfies", "nhwc-permuted")
    x = c("permute", c.data([4, 8, 8, 3]), [0, 3, 1, 2])
    alias = c("to_format", x, "channels_last")
    c("fill_", alias, 7.0)
    c("get", x, [1, 2, 3, 4])
    c = case("test_permute", "7d")
    perm = list(range(7))
    random.Random(11).shuffle(perm)
    c("permute", c.zeros([1, 2, 3, 4, 5, 6, 7]), perm)
    c = case("test_t_not_2d_error", "3d-err")
    c("t", c.data([2, 3, 4]), err=True)
    c = case("test_ndim", "shapes")
    c.data([1, 2, 3])
    c.scalar(0.5)
    c.zeros([1, 0])
    c = case("test_nbytes", "shapes")
    c.data([1, 2, 3], "f64")
    c.scalar(0.5)
    c.zeros([1, 0])
    c = case("test_tensoriterator_output_setup", "contiguous")
    c("add", c.data([2, 3, 4, 4]), c.data([2, 3, 4, 4], scale=0.5))
    c = case("test_tensoriterator_output_setup", "channels-last")
    c("add", c.cl([2, 3, 4, 4]), c.cl([2, 3, 4, 4], scale=0.5))
    c = case("test_tensoriterator_output_setup", "permuted-same-strides")
    c("add", c("permute", c.data([2, 3, 4, 4]), [0, 2, 3, 1]), c("permute", c.data([2, 3, 4, 4]), [0, 2, 3, 1]))
    c = case("test_tensoriterator_output_setup", "permuted-different-strides")
    c("add", c("permute", c.data([2, 3, 4, 4]), [0, 2, 3, 1]), c("permute", c.data([2, 3, 4, 4]), [0, 3, 2, 1]))
    c = case("test_empty_storage_view", "zero-size-strided-write")
    t = c("from_blob", [], [0, 4], "f64")
    c("mul_scalar_", c("slice", t, 1, 1, TL_END, 2), 1.0)
    c = case("test_data_ptr_of_empty_view_with_storage", "2x2-0:0-view")
    c("view", c("slice", c.empty([2, 2]), 0, 0, 0, 1), [0, 1])
    c = case("test_size_stride", "2x3")
    c("t", c.data([2, 3]))
    # the negative-dim tests: the op with dim d and with d - ndim answer alike
    for op, shape, nd in (("narrow", [10, 20, 30], 3), ("transpose", [10, 20, 30], 3), ("squeeze", [10, 1, 20, 1], 4),
                          ("unsqueeze", [10, 20], 3), ("mean", [10, 20], 2), ("sum", [10, 20], 2),
                          ("max", [10, 20], 2), ("select", [10, 20], 2), ("cat", [2, 3, 4], 3),
                          ("gather", [10, 20], 2), ("index_select", [10, 10], 2)):
        c = case("test_%s_neg_dim" % ("max" if op == "max" else op), sname(shape))
        x = c.data(shape)
        dims = list(combinations(range(nd), 2)) if op == "transpose" else [(d,) for d in range(nd)]
        for ds in dims:
            for sign in (0, 1):
                dd = [d - nd * sign for d in ds]
                if op == "narrow":
                    c("narrow", x, dd[0], 0, 5)
                elif op == "transpose":
                    c("transpose", x, dd[0], dd[1])
                elif op in ("squeeze", "unsqueeze"):
                    c(op, x, dd[0])
                elif op in ("mean", "sum", "max"):
                    c(op, x, dd[0], False)
                elif op == "select":
                    c("select", x, dd[0], 3)
                elif op == "cat":
                    c("cat", [x, x], dd[0])
                elif op == "gather":
                    c("gather", x, dd[0], c("to", c("mul_scalar", c("exp", c.data(shape, scale=-0.01)), 9.0), "i64"))
                else:
                    c("index_select", x, dd[0], build_vector(c, [3.0, 0.0, 9.0], "i64"))
    # copies
    c = case("test_copy_transpose", "100x100")
    x = c("t", c("reshape", c.arange(10000, "f32"), [100, 100]))
    for dt in ("f32", "f64"):
        y = c.empty([100, 100], dt)
        c("copy_", y, x)
        c("get", y, [5, 0])
        c("get", y, [5, 40])
    c = case("test_copy_broadcast", "5x6-from-6")
    c("copy_", c.zeros([5, 6]), c.data([6]))
    c = case("test_copy_broadcast", "5x6-from-30-err")
    c("copy_", c.zeros([5, 6]), c.data([30]), err=True)
    c = case("test_copy_broadcast", "10x5-from-5")
    x = c.data([10, 5])
    c("copy_", x, c.data([5], scale=-1.0))
    c("get", x, [3, 2])
    c = case("test_copy_many_to_one", "expanded-dst-err")
    c("copy_", c("expand", c.zeros([1, 6]), [5, 6]), c.zeros([5, 6]), err=True)
    for out_shape, src_shape, ok in (([1, 2, 3], [0, 2, 3], False), ([1, 5, 6], [4, 5, 6], False),
                                     ([1], [0, 2, 3], False), ([4, 5, 6], [0, 2, 3], False),
                                     ([4, 5, 6], [1, 2, 3], False), ([4, 5, 6], [6, 5, 4], False),
                                     ([4, 5, 6], [1, 5, 6], True), ([4, 5, 6], [4, 5, 6], True),
                                     ([0, 2, 3], [1], True), ([4, 5, 6], [4, 5, 1], True)):
        for odt, sdt in (("f32", "f16"), ("f16", "f32"), ("f32", "f32")):
            c = case("test_copy_float16", "%s-%s-from-%s-%s%s" % (sname(out_shape), odt, sname(src_shape), sdt,
                                                                 "" if ok else "-err"))
            c("copy_", c.zeros(out_shape, odt), c.ones(src_shape, sdt), err=not ok)
    c = case("test_to", "same-dtype-and-device-alias")
    a = c.scalar(5.0, "i64")
    c("to", a, "i64")
    c("to_device", a, "cpu")
    c("to", a, "f32")
    c = case("test_slice", "4x4")
    x = c("view", c.arange(16, "f32"), [4, 4])
    for start, end, step in ((0, TL_END, 1), (0, 4, 1), (0, 5, 1), (2, 1, 1), (2, 2, 1), (10, 12, 1), (0, 1, 1),
                             (0, -3, 1), (0, -1, 2)):
        c("slice", x, 0, start, end, step)
    c("slice", x, 1, -2, 3, 1)
    c = case("test_type", "f64-to-f32-i32")
    x = c("to", c.data([3, 3]), "f64")
    c("to", x, "f32")
    c("to", c("to", x, "i32"), "f32")
    c("to", x, "i32")
    c = case("test_type_conversion_via_dtype_name", "i64")
    x = c.full([1], 1.0, "i64")
    for dt in ("u8", "bool", "i8", "f64", "f32", "f16", "i32", "bf16"):
        c("to", x, dt)
    c = case("test_clone_zero_stride_dim", "as-strided-2x1x5")
    c("clone", c("as_strided", c.data([10]), [2, 1, 5], [1, 0, 2], 0))
    c = case("test_clone_not_memory_dense", "10x8-t-step2")
    x = c("t", c.data([10, 8]))
    c("clone", c("slice", c("slice", x, 0, 0, TL_END, 2), 1, 0, TL_END, 2))
    # test_has_internal_overlap: in-place writes raise only where two elements surely share memory
    c = case("test_has_internal_overlap", "contiguous")
    c("add_", c.data([3, 3]), c.ones([3, 3]))
    c = case("test_has_internal_overlap", "expanded-err")
    c("add_", c("expand", c.data([1, 3]), [4, 3]), c.ones([4, 3]), err=True)
    c = case("test_has_internal_overlap", "size1-stride0-no-overlap")
    c("add_", c("as_strided", c.data([10]), [2, 1, 5], [1, 0, 2], 0), c.ones([2, 1, 5]))
    c = case("test_has_internal_overlap", "size1-stride0-too-hard")
    x = c("slice", c.data([2, 1, 10]), 0, 0, TL_END, 2)
    c("add_", c("as_strided", x, [2, 1, 5], [10, 0, 2], 0), c.ones([2, 1, 5]))
    for dt in DNAMES:
        c = case("test_copy_", "into-%s" % dt)
        t = c.data([50], dt)
        for src in DNAMES:
            c("copy_", t, c.data([50], src))
    c = case("test_item", "every-dtype")
    for dt in DNAMES:
        c("get", c.ones([], dt), [])
    c = case("test_clone_all_dtypes_and_devices", "every-dtype")
    for dt in DNAMES:
        c("clone", c.ones([2], dt))
    c = case("test_bool_tensor_value_change", "bool")
    x = c("to", build_vector(c, [1.0, 0.0], "i64"), "bool")
    c("set", x, [0], 0.0)
    c("set", x, [1], 1.0)
    c("clone", x)
    for dt in ("bf16", "f16"):
        for shape in ([20, 7], [1, 7, 19, 17], [3, 77, 11]):
            c = case("test_reduced_type_float_copy", "%s-%s" % (sname(shape), dt))
            x = c.data(shape, scale=0.01)
            c("to", c("to", x, dt), "f32")
            c("to", c("to", c("slice", x, -2, 0, TL_END, 2), dt), "f32")
    c = case("test_is_set_to", "views")
    t1 = c.empty([2, 3, 4])
    c("view", t1, [4, 3, 2])
    c("view", c.empty([2, 5, 0]), [0])
    c = case("test_add_meta_scalar", "2")
    c("add_scalar", c.empty([2]), 2.0)
    c = case("test_empty_meta", "2^20x2^20-plus-2^20", values=False, device="cuda", exec_device="meta")
    c("add", c.empty([2 ** 20, 2 ** 20]), c.empty([2 ** 20]))


def ported_type_promotion(f):
    """test/test_type_promotion.py (TestTypePromotion).  A Python int scalar is spelled as
    a 0-dim i64 tensor where the result is the same (an integer 0-dim operand never
    promotes an integer tensor), a Python float as add_scalar / mul_scalar / div_scalar."""
    def case(test, name, **kw):
        return f.case("test_type_promotion/%s/%s" % (test, name), **kw)

    c = case("test_inplace", "i32-add-float-err")
    c("add_scalar_", c.ones([4, 4, 4], "i32"), 1.5, err=True)
    c = case("test_inplace", "i32-add-i64-and-int")
    x = c.ones([4, 4, 4], "i32")
    c("add_", x, c.ones([4, 4, 4], "i64"))
    c("add_", x, c.scalar(1.0, "i64"))
    c("get", x, [1, 2, 3])
    c = case("test_inplace", "bool-add-u8-err")
    c("add_", c.ones([3], "bool"), c.ones([3], "u8"), err=True)
    c = case("test_inplace", "u8-mul-i16")
    c("mul_", c.ones([3], "u8"), c.ones([3], "i16"))
    c = case("test_unsigned", "u8-plus-int")
    c("add", c.ones([3], "u8"), c.scalar(5.0, "i64"))
    c = case("test_int_promotion", "i32-i64")
    c("add", c.ones([4, 4, 4], "i32"), c.ones([4, 4, 4], "i64"))
    c = case("test_float_promotion", "f32-f64")
    a, b = c.ones([4, 4, 4], "f32"), c.ones([4, 4, 4], "f64")
    c("add", a, b)
    c("add", b, a)
    c = case("test_add_wrapped", "i32-plus-int")
    c("add", c.ones([4, 4, 4], "i32"), c.scalar(1.0, "i64"))
    c = case("test_int_to_float", "i32-f32")
    c("add", c.ones([4, 4, 4], "i32"), c.ones([4, 4, 4], "f32"))
    c = case("test_from_issue", "f32-u8")
    a = c.data([3], scale=0.25)
    u = c("to", build_vector(c, [0.0, 0.0, 1.0], "i64"), "u8")
    other = c.scalar(5.5, "f64")
    c("mul_scalar", a, 5.0)
    c("add", u, c.scalar(1.0, "i64"))
    c("add", u, c.scalar(1000.0, "i64"))
    c("add_scalar", u, 5.5)
    c("add", u, other)
    c("add", a, other)
    c = case("test_half", "0d-f16")  # torch 1.13's CPU computes these in f16, as the test expects
    half = c.scalar(5.5, "f16")
    c("add_scalar", half, 2.2)
    c("add_scalar", half, 100000.0)
    c("add", half, c.scalar(100000.0))
    c = case("test_bfloat16", "0d-bf16-with-scalars")
    bf = c.scalar(5.5, "bf16")
    for s in (2.2, 5.0, 100000.0):
        c("add_scalar", bf, s)
    c = case("test_bfloat16", "0d-bf16-with-0d-tensors")
    bf = c.scalar(5.5, "bf16")
    for dt in DNAMES:
        t = c.scalar(1.0, dt)
        c("add", bf, t)
        c("add", t, bf)
    # test_many_promotions: (5, 5, 5) operands of every math dtype pair, transposed or not
    math_dts = ["u8", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"]
    for d1 in math_dts:
        for d2 in math_dts:
            if torch.promote_types(DTYPES[d1], DTYPES[d2]) == torch.float16:
                continue  # the test skips a half result on the CPU
            for noncontig in (False, True):
                c = case("test_many_promotions", "%s-%s%s" % (d1, d2, "-noncontiguous" if noncontig else ""))
                first = c.sdata([5, 5, 5], d1) if d1 != "u8" else c.data([5, 5, 5], d1)
                second = c.data([5, 5, 5], d2, shift=1) if d2 in INTS else c.data([5, 5, 5], d2, scale=0.5,
                                                                                  shift=1.0)
                if noncontig:
                    first = c("transpose", first, 0, 2)
                    second = c("transpose", second, 2, 1)
                for op in ("add", "mul", "div"):
                    c(op, first, second)
                c("sub", second, first)  # rsub
    c = case("test_booleans", "bool-bool")
    one = c.ones([1], "bool")
    c("add", one, one)
    z = c.ones([], "bool")
    c("add", z, z)
    for a in DNAMES:
        c = case("test_result_type", a)
        for b in DNAMES:
            ta = c.data([2], a)
            sa = c.ones([], a)
            tb = c.data([2], b)
            sb = c.ones([], b)
            for x, y in ((ta, tb), (ta, sb), (sa, tb), (sa, sb)):
                c("add", x, y)
    c = case("test_result_type_tensor_vs_scalar", "spots")
    for x, y in ((c.data([2], "f16"), c.ones([], "i64")), (c.ones([], "f32"), c.data([2], "f64")),
                 (c.ones([], "i64"), c.data([2], "i32"))):
        c("add", x, y)
        c("add", y, x)
    c("add_scalar", c.ones([], "i64"), 1.0)
    c("add_scalar", c.data([2], "f32"), 1.0)
    c("add_scalar", c.data([2], "bool"), 1.0)
    value_for_type = {"u8": 1 << 5, "i8": 1 << 5, "i16": 1 << 10, "i32": 1 << 20, "i64": 1 << 35, "f16": 1 << 10,
                      "f32": 1 << 20, "f64": 1 << 35}
    for d1, v1 in value_for_type.items():
        c = case("test_comparison_ops_with_type_promotion", d1)
        for d2, v2 in value_for_type.items():
            for op in ("lt", "eq"):
                c(op, c.full([1], float(v1), d1), c.full([1], float(v2), d2))
                c(op, c.scalar(float(v1), d1), c.scalar(float(v2), d2))
    c = case("test_lt_with_type_promotion", "every-math-dtype")
    half = c.scalar(0.5)
    for dt in math_dts:
        c("lt", c.zeros([1], dt), half)
        c("lt", c.zeros([], dt), half)
    c = case("test_promote_types", "pairs")
    for a, b in (("f32", "i32"), ("f32", "f64"), ("i32", "u8")):
        c("add", c.ones([2], a), c.ones([2], b))
    c = case("test_promote_self", "every-dtype")
    for dt in DNAMES:
        x = c.ones([2], dt)
        c("add", x, x)
    c = case("test_indexing", "f32-plus-sliced-u8")
    c("add", c.ones([9, 9]), c("slice", c("slice", c.ones([10, 10], "u8"), 0, 1, TL_END, 1), 1, 1, TL_END, 1))
    c = case("test_transpose", "bool-t-eq")
    a = c("to", c("view", build_vector(c, [1.0, 1.0, 0.0, 1.0], "i64"), [2, 2]), "bool")
    c("eq", c("t", a), c.scalar(0.0, "i64"))
    c("eq", c("t", a), c.scalar(0.0, "bool"))
    for dt in ("bool", "u8", "i8", "i16", "i32", "i64"):
        c = case("test_div_promotion", dt)
        dividend = c.sdata([5], dt)
        divisor = c("to", c("add_scalar", c.arange(5, "f32"), 1.0), dt)
        c("div", dividend, divisor)
        c("div_scalar", dividend, 2.0)
    for dt in ("f32", "f64", "bool", "u8", "i8", "i16", "i32", "i64"):
        c = case("test_div_promotion_inplace", dt)
        dividend = c.sdata([5], dt)
        divisor = c("to", c("add_scalar", c.arange(5, "f32"), 1.0), dt)
        c("div_", dividend, divisor, err=dt not in FLOATS)
    cat_dts = [d for d in DNAMES if d != "bf16"]
    for a in cat_dts:
        for b in cat_dts:
            c = case("test_cat_different_dtypes", "%s-%s" % (a, b))
            x = c("to", c("add_scalar", c.arange(3, "f64"), 1.0), a)
            y = c("to", c("add_scalar", c.arange(3, "f64"), 4.0), b)
            c("cat", [x, y], 0)
            c("cat", [x, c.zeros([0], b)], 0)


def fam_train():
    """The ops for training: index_add_ / index_add, gelu(approximate="tanh"), the in-place
    sqrt_, addcmul_, addcdiv_, lerp_ (AdamW's), log_softmax and cross_entropy (class
    indices, mean, ignore_index), with PyTorch's errors.  The index_add cases follow
    PyTorch's test_index_add (a 20 x 4 x 5 destination, 3 rows copied, destination,
    source and index contiguous or not; repeated indices) and the documentation's
    example; addcmul/addcdiv/lerp follow test_addcmul, test_addcdiv and test_lerp
    (broadcast operands, scalar values, integer and floating dtypes); cross_entropy follows
    test_cross_entropy_loss* and test_nll_loss* (1-d, 2-d and N-d logits with the class dim
    1, ignore_index, every target ignored, empty batches, PyTorch's shape errors)."""
    f = Family("train")

    def vec(c, vals, dt="i64"):
        return build_vector(c, [float(v) for v in vals], dt) if vals else c.zeros([0], dt)

    # index_add_: PyTorch's docs example, then test_index_add's contiguity product
    c = f.case("index_add_/docs-example")
    x = c.ones([5, 3])
    c("index_add_", x, 0, vec(c, [0, 4, 2]), c.data([3, 3], shift=1.0, scale=1.0))
    for dest_c in (True, False):
        for src_c in (True, False):
            for idx_c in (True, False):
                name = "index_add_/test-index-add-%s%s%s" % ("c" if dest_c else "n", "c" if src_c else "n",
                                                             "c" if idx_c else "n")
                c = f.case(name)
                dest = c.sdata([20, 4, 5]) if dest_c else c("slice", c.sdata([20, 4, 10]), 2, 0, TL_END, 2)
                src = c.data([3, 4, 5], scale=0.25, shift=1.0) if src_c else \
                    c("transpose", c.data([3, 5, 4], scale=0.25, shift=1.0), 1, 2)
                idx = vec(c, [7, 13, 2]) if idx_c else c("slice", vec(c, [7, 0, 13, 0, 2, 0]), 0, 0, TL_END, 2)
                c("index_add_", dest, 0, idx, src)
    for name, mk, dim, iv, src_shape, dt in (
            ("dim1", lambda c: c.data([3, 5]), 1, [4, 0], [3, 2], "f32"),
            ("dim-neg", lambda c: c.data([3, 5]), -1, [4, 0], [3, 2], "f32"),
            ("duplicates", lambda c: c.data([4, 3]), 0, [1, 1, 1, 3], [4, 3], "f32"),
            ("1d", lambda c: c.data([6]), 0, [5, 0, 5], [3], "f32"),
            ("1d-src-0d", lambda c: c.data([6]), 0, [2], [], "f32"),
            ("0d", lambda c: c.scalar(1.5), 0, [0], [], "f32"),
            ("src-broadcast", lambda c: c.data([3, 4]), 0, [0, 2], [2, 1], "f32"),
            ("src-1d-into-2d", lambda c: c.data([3, 4]), 0, [0, 2], [2], "f32"),
            ("empty-index", lambda c: c.data([3, 4]), 0, [], [0, 4], "f32"),
            ("transposed-self", lambda c: c("t", c.data([4, 3])), 1, [3, 1], [3, 2], "f32"),
            ("f64", lambda c: c.data([4, 3], "f64"), 0, [3, 0], [2, 3], "f64"),
            ("bf16", lambda c: c.data([4, 3], "bf16"), 0, [3, 0], [2, 3], "bf16"),
            ("i64", lambda c: c.data([4, 3], "i64"), 0, [3, 3], [2, 3], "i64"),
            ("i32-index", lambda c: c.data([4, 3]), 0, [1, 2], [2, 3], "f32"),
            ("bool", lambda c: c.data([4, 3], "bool"), 0, [1, 2], [2, 3], "bool")):
        for op in ("index_add_", "index_add"):
            c = f.case("%s/%s" % (op, name))
            t = mk(c)
            idx = vec(c, iv, "i32" if name == "i32-index" else "i64")
            src = c.data(src_shape, dt) if src_shape else c.scalar(2.0, dt)
            c(op, t, dim, idx, src)
    errs = [
        ("dtype", lambda c: (c.zeros([3, 4]), 0, vec(c, [0, 1]), c.ones([2, 4], "f64"))),
        ("index-float", lambda c: (c.zeros([3, 4]), 0, vec(c, [0, 1], "f32"), c.ones([2, 4]))),
        ("index-2d", lambda c: (c.zeros([3, 4]), 0, c("view", vec(c, [0, 1]), [1, 2]), c.ones([2, 4]))),
        ("count", lambda c: (c.zeros([3, 4]), 0, vec(c, [0, 1]), c.ones([3, 4]))),
        ("slice-shape", lambda c: (c.zeros([3, 4]), 0, vec(c, [0, 1]), c.ones([2, 5]))),
        ("slice-broadcast", lambda c: (c.zeros([3, 4]), 0, vec(c, [0, 1]), c.ones([2, 4, 1]))),
        ("dim-range", lambda c: (c.zeros([3, 4]), 2, vec(c, [0, 1]), c.ones([2, 4]))),
        ("src-dim", lambda c: (c.zeros([5]), 0, vec(c, [1]), c.ones([1, 1]))),
        ("out-of-range", lambda c: (c.zeros([3, 4]), 0, vec(c, [0, 5]), c.ones([2, 4]))),
        ("negative", lambda c: (c.zeros([3, 4]), 0, vec(c, [0, -1]), c.ones([2, 4]))),
        ("self-expanded", lambda c: (c("expand", c.zeros([3, 4]), [2, 3, 4]), 0, vec(c, [0]), c.ones([1, 3, 4]))),
    ]
    for name, mk in errs:
        for op in ("index_add_", "index_add"):
            if op == "index_add" and name == "self-expanded":
                continue
            c = f.case("%s/error-%s" % (op, name))
            args = mk(c)
            c(op, args[0], args[1], args[2], args[3], err=True)
    c = f.case("index_add_/error-source-overlaps")
    x = c.zeros([3, 4])
    c("index_add_", x, 0, vec(c, [0]), c("narrow", x, 0, 1, 1), err=True)
    # gelu_tanh: dtypes and layouts
    for dt in DNAMES:
        c = f.case("gelu_tanh/%s" % dt, allow_error=dt == "f16")
        x = c.data([5], dt, scale=0.75, shift=-1.5) if dt in FLOATS else c.data([5], dt)
        c("gelu_tanh", x, err=dt not in FLOATS)
    layouts = [
        ("transposed", lambda c: c("t", c.data([3, 4], scale=0.5, shift=-1.0))),
        ("expanded", lambda c: c("expand", c.data([3, 1], scale=0.5, shift=-0.5), [3, 4])),
        ("slice-step2", lambda c: c("slice", c.data([3, 6], scale=0.5, shift=-2.0), 1, 0, TL_END, 2)),
        ("0d", lambda c: c.scalar(-0.75)),
        ("zero-size", lambda c: c("t", c.zeros([0, 3]))),
    ]
    for name, mk in layouts:
        c = f.case("gelu_tanh/layout-%s" % name)
        c("gelu_tanh", mk(c))
    # sqrt_
    for dt in DNAMES:
        c = f.case("sqrt_/%s" % dt, allow_error=dt == "f16")
        x = c.data([5], dt, scale=0.75, shift=0.25) if dt in FLOATS else c.data([5], dt)
        c("sqrt_", x, err=dt not in FLOATS)
    c = f.case("sqrt_/transposed")
    c("sqrt_", c("t", c.data([3, 4], scale=0.5, shift=0.5)))
    c = f.case("sqrt_/slice")
    c("sqrt_", c("slice", c.data([3, 6], scale=0.5, shift=0.5), 1, 1, TL_END, 2))
    c = f.case("sqrt_/error-expanded")
    c("sqrt_", c("expand", c.data([3, 1], scale=0.5, shift=0.5), [3, 4]), err=True)
    # addcmul_ / addcdiv_ (test_addcmul, test_addcdiv): dtypes, broadcasting, values
    for op in ("addcmul_", "addcdiv_"):
        for dt in DNAMES:
            bad = dt == "bool" or (op == "addcdiv_" and dt in INTS)
            c = f.case("%s/%s" % (op, dt), allow_error=dt == "f16")
            t = c.data([2, 3], dt, scale=0.5, shift=0.25) if dt in FLOATS else c.data([2, 3], dt)
            a = c.data([2, 3], dt, scale=0.25, shift=1.0) if dt in FLOATS else c.data([2, 3], dt, shift=1)
            b = c.data([2, 3], dt, scale=-0.5, shift=2.0) if dt in FLOATS else c.data([2, 3], dt, shift=2)
            c(op, t, a, b, 2.0 if dt in INTS else 0.5, err=bad)
        for name, shapes, val in (("broadcast-a", ([2, 3], [3], [2, 3]), -1.5),
                                  ("broadcast-both", ([2, 3], [2, 1], [3]), 0.1),
                                  ("0d-operands", ([4], [], []), 3.0),
                                  ("value-zero", ([3], [3], [3]), 0.0)):
            c = f.case("%s/%s" % (op, name))
            t = c.data(shapes[0], scale=0.5, shift=0.25)
            a = c.data(shapes[1], scale=0.25, shift=1.0) if shapes[1] else c.scalar(1.25)
            b = c.data(shapes[2], scale=-0.5, shift=2.0) if shapes[2] else c.scalar(-0.5)
            c(op, t, a, b, val)
        c = f.case("%s/transposed-self" % op)
        c(op, c("t", c.data([3, 2], scale=0.5)), c.data([2, 3], scale=0.25, shift=1.0),
          c.data([2, 3], scale=0.5, shift=1.0), 0.5)
        c = f.case("%s/same-tensor" % op)
        x = c.data([4], scale=0.5, shift=1.0)
        c(op, x, x, x, 1.0)
        c = f.case("%s/error-broadcast-out" % op)
        c(op, c.ones([3]), c.ones([2, 3]), c.ones([3]), 1.0, err=True)
        c = f.case("%s/error-shape" % op)
        c(op, c.ones([2, 3]), c.ones([4]), c.ones([2, 1]), 1.0, err=True)
        c = f.case("%s/error-int-self-float-inputs" % op)
        c(op, c.ones([3], "i64"), c.ones([3]), c.ones([3]), 1.0, err=True)
        c = f.case("%s/error-mixed-float" % op)
        c(op, c.ones([3]), c.ones([3], "f64"), c.ones([3]), 0.5, err=True)
        c = f.case("%s/error-overlap" % op)
        x = c.data([4], scale=0.5, shift=1.0)
        c(op, c("narrow", x, 0, 0, 3), c("narrow", x, 0, 1, 3), c.ones([3]), 1.0, err=True)
    c = f.case("addcmul_/i8-value-overflow")
    c("addcmul_", c.ones([3], "i8"), c.ones([3], "i8"), c.ones([3], "i8"), 300.0, err=True)
    c = f.case("addcmul_/i64-value-fraction")
    c("addcmul_", c.data([3], "i64"), c.data([3], "i64", shift=1), c.data([3], "i64", shift=2), 0.5)
    c = f.case("addcmul_/f32-long-inputs")
    c("addcmul_", c.data([3], scale=0.5), c.data([3], "i64", shift=1), c.data([3], "i64"), 1.0)
    c = f.case("addcdiv_/by-zero")
    c("addcdiv_", c.data([3], scale=0.5), c.data([3], scale=1.0, shift=-1.0), c.zeros([3]), 1.0)
    # lerp_ (test_lerp): weights below and above 0.5, broadcasting
    for dt in DNAMES:
        c = f.case("lerp_/%s" % dt, allow_error=dt == "f16")
        t = c.data([4], dt, scale=0.5, shift=0.25) if dt in FLOATS else c.data([4], dt)
        e = c.data([4], dt, scale=-1.5, shift=3.0) if dt in FLOATS else c.data([4], dt, shift=3)
        c("lerp_", t, e, 0.3, err=dt not in FLOATS)
    for w in (0.0, 0.25, 0.5, 0.75, 1.0, -0.5, 2.0):
        c = f.case("lerp_/weight-%s" % repr(w))
        c("lerp_", c.data([2, 3], scale=0.5, shift=0.25), c.data([3], scale=-1.5, shift=3.0), w)
    c = f.case("lerp_/same-tensor")
    x = c.data([4], scale=0.5, shift=1.0)
    c("lerp_", x, x, 0.2)
    c = f.case("lerp_/error-dtype")
    c("lerp_", c.ones([3]), c.ones([3], "f64"), 0.5, err=True)
    c = f.case("lerp_/error-dtype-0d")
    c("lerp_", c.ones([3]), c.scalar(1.0, "f64"), 0.5, err=True)
    c = f.case("lerp_/error-broadcast-out")
    c("lerp_", c.ones([3]), c.ones([2, 3]), 0.5, err=True)
    c = f.case("lerp_/error-overlap")
    x = c.data([4], scale=0.5, shift=1.0)
    c("lerp_", c("narrow", x, 0, 0, 3), c("narrow", x, 0, 1, 3), 0.5, err=True)
    # log_softmax
    for dt in DNAMES:
        c = f.case("log_softmax/%s" % dt, allow_error=dt == "f16")
        x = c.data([2, 3], dt, scale=0.75, shift=-1.5) if dt in FLOATS else c.data([2, 3], dt)
        c("log_softmax", x, 1, err=dt not in FLOATS)
    for name, mk, dim in (("dim0", lambda c: c.data([3, 4], scale=0.5, shift=-1.0), 0),
                          ("dim-neg", lambda c: c.data([3, 4], scale=0.5, shift=-1.0), -1),
                          ("transposed", lambda c: c("t", c.data([3, 4], scale=0.5, shift=-1.0)), 0),
                          ("3d-mid", lambda c: c.data([2, 3, 4], scale=0.25, shift=-2.0), 1),
                          ("expanded", lambda c: c("expand", c.data([3, 1], scale=0.5), [3, 4]), 1),
                          ("0d", lambda c: c.scalar(2.5), 0),
                          ("zero-size", lambda c: c.zeros([0, 3]), 1),
                          ("large-values", lambda c: c.data([4], scale=300.0, shift=-100.0), 0)):
        c = f.case("log_softmax/%s" % name)
        c("log_softmax", mk(c), dim)
    c = f.case("log_softmax/error-dim")
    c("log_softmax", c.ones([3]), 2, err=True)
    # cross_entropy (test_cross_entropy_loss: class indices, ignore_index, mean)
    def targets(c, vals, dt="i64"):
        return vec(c, vals, dt)
    for name, xs, tv, ign, dt in (("2d", [3, 5], [1, 2, 3], -100, "f32"),
                                  ("2d-f64", [3, 5], [4, 0, 3], -100, "f64"),
                                  ("2d-bf16", [3, 5], [4, 0, 3], -100, "bf16"),
                                  ("1d", [5], None, -100, "f32"),
                                  ("ignore-one", [4, 3], [1, -100, 2, 0], -100, "f32"),
                                  ("ignore-custom", [4, 3], [1, 2, 2, 0], 2, "f32"),
                                  ("ignore-out-of-range", [3, 5], [1, 7, 3], 7, "f32"),
                                  ("ignore-all", [3, 5], [-100, -100, -100], -100, "f32"),
                                  ("empty-batch", [0, 5], [], -100, "f32"),
                                  ("u8-targets", [3, 5], [1, 2, 3], -100, "f32")):
        c = f.case("cross_entropy/%s" % name)
        x = c.data(xs, dt, scale=0.375, shift=-2.0)
        t = c.scalar(3.0, "i64") if tv is None else targets(c, tv, "u8" if name == "u8-targets" else "i64")
        c("cross_entropy", x, t, ign)
    c = f.case("cross_entropy/transposed-logits")
    c("cross_entropy", c("t", c.data([5, 3], scale=0.375, shift=-2.0)), targets(c, [0, 4, 2]), -100)
    ce_errs = [
        ("targets-i32", lambda c: (c.data([3, 5]), targets(c, [1, 2, 3], "i32"))),
        ("batch", lambda c: (c.data([3, 5]), targets(c, [1, 2]))),
        ("batch-2d-targets", lambda c: (c.data([3, 5]), c("view", targets(c, [1, 2, 3]), [1, 3]))),
        ("1d-targets-1", lambda c: (c.data([5]), targets(c, [1]))),
        ("out-of-range", lambda c: (c.data([3, 5]), targets(c, [1, 2, 5]))),
        ("negative", lambda c: (c.data([3, 5]), targets(c, [1, 2, -3]))),
        ("int-logits", lambda c: (c.data([3, 5], "i64"), targets(c, [1, 2, 3]))),
        ("0d", lambda c: (c.scalar(1.0), c.scalar(0.0, "i64"))),
        ("no-classes", lambda c: (c.zeros([3, 0]), targets(c, [0, 0, 0]))),
    ]
    for name, mk in ce_errs:
        c = f.case("cross_entropy/error-%s" % name)
        x, t = mk(c)
        c("cross_entropy", x, t, -100, err=True)
    # cross_entropy over N-D logits (N, C, d1, ...) with the class dim 1 and targets
    # (N, d1, ...) (test_cross_entropy_loss_2d / _nd: nll_loss2d, viewed for 3 and 5 dims)
    def spatial(c, shape, vals, dt="i64"):
        return c("view", targets(c, vals, dt), shape) if vals else c.zeros(shape, "i64")
    for name, xs, ts, tv, ign, dt in (
            ("3d", [2, 3, 4], [2, 4], [0, 1, 2, 1, 2, 2, 0, 1], -100, "f32"),
            ("3d-f64", [2, 3, 4], [2, 4], [2, 1, 0, 1, 2, 0, 0, 1], -100, "f64"),
            ("3d-ignore", [2, 3, 4], [2, 4], [0, -100, 2, 1, -100, 2, 0, 1], -100, "f32"),
            ("3d-ignore-all", [2, 3, 2], [2, 2], [1, 1, 1, 1], 1, "f32"),
            ("4d", [2, 3, 2, 2], [2, 2, 2], [0, 1, 2, 1, 2, 2, 0, 1], -100, "f32"),
            ("4d-ignore", [2, 3, 2, 2], [2, 2, 2], [0, 5, 2, 5, 2, 2, 0, 1], 5, "f32"),
            ("5d", [2, 3, 2, 1, 2], [2, 2, 1, 2], [0, 1, 2, 1, 2, 2, 0, 1], -100, "f32"),
            ("3d-empty-batch", [0, 3, 4], [0, 4], [], -100, "f32"),
            ("3d-empty-spatial", [2, 3, 0], [2, 0], [], -100, "f32")):
        c = f.case("cross_entropy/%s" % name)
        x = c.data(xs, dt, scale=0.375, shift=-2.0)
        t = spatial(c, ts, tv)
        c("cross_entropy", x, t, ign)
    c = f.case("cross_entropy/4d-permuted-logits")
    c("cross_entropy", c("permute", c.data([2, 2, 2, 3], scale=0.375, shift=-2.0), [0, 3, 1, 2]),
      spatial(c, [2, 2, 2], [2, 1, 0, 0, 1, 1, 2, 2]), -100)
    nd_errs = [
        ("3d-target-size", [2, 3, 4], [2, 3]),
        ("3d-target-1d", [2, 3, 4], [2]),
        ("3d-target-extra-dim", [2, 3, 4], [2, 4, 1]),
        ("3d-batch", [2, 3, 4], [3, 4]),
        ("4d-target-2d", [2, 3, 2, 2], [2, 2]),
        ("4d-target-size", [2, 3, 2, 2], [2, 2, 3]),
        ("4d-batch", [2, 3, 2, 2], [3, 2, 2]),
        ("5d-target-size", [2, 3, 2, 2, 2], [2, 2, 2, 3]),
    ]
    for name, xs, ts in nd_errs:
        c = f.case("cross_entropy/error-%s" % name)
        c("cross_entropy", c.data(xs), c.zeros(ts, "i64"), -100, err=True)
    c = f.case("cross_entropy/error-3d-targets-i32")
    c("cross_entropy", c.data([2, 3, 4]), c.zeros([2, 4], "i32"), -100, err=True)
    c = f.case("cross_entropy/error-3d-u8-targets")
    c("cross_entropy", c.data([2, 3, 2]), spatial(c, [2, 2], [1, 0, 2, 1], "u8"), -100, err=True)
    c = f.case("cross_entropy/error-3d-out-of-range")
    c("cross_entropy", c.data([2, 3, 2]), spatial(c, [2, 2], [0, 1, 3, 1]), -100, err=True)
    # log_softmax over empty tensors and negative dims of 3-d inputs
    for name, shape, dim in (("empty-dim", [3, 0], 1), ("empty-other-dim", [3, 0], 0),
                             ("3d-empty", [2, 0, 3], -1), ("3d-dim-neg2", [2, 3, 4], -2),
                             ("3d-dim-neg3", [2, 3, 4], -3)):
        c = f.case("log_softmax/%s" % name)
        c("log_softmax", c.data(shape, scale=0.25, shift=-1.0), dim)
    c = f.case("log_softmax/3d-permuted-dim-neg2")
    c("log_softmax", c("permute", c.data([2, 3, 4], scale=0.25, shift=-1.0), [2, 0, 1]), -2)
    c = f.case("log_softmax/error-dim-neg")
    c("log_softmax", c.ones([2, 3]), -3, err=True)
    # addcdiv_ with integer operands: both integer is an error, one is promoted
    c = f.case("addcdiv_/error-int-inputs")
    c("addcdiv_", c.zeros([3]), c.ones([3], "i64"), c.ones([3], "i64"), 0.5, err=True)
    c = f.case("addcdiv_/f32-long-numerator")
    c("addcdiv_", c.data([3], scale=0.5), c.data([3], "i64", shift=1), c.data([3], scale=0.5, shift=1.0), 0.5)
    c = f.case("addcdiv_/f32-long-denominator")
    c("addcdiv_", c.data([3], scale=0.5), c.data([3], scale=0.5, shift=1.0), c.data([3], "i64", shift=1), 0.5)
    c = f.case("addcmul_/error-i32-self-f64-input")
    c("addcmul_", c.ones([3], "i32"), c.ones([3], "f64"), c.ones([3], "i32"), 1.0, err=True)
    c = f.case("lerp_/error-int-end-into-float")
    c("lerp_", c.ones([3]), c.ones([3], "i64"), 0.5, err=True)
    return f


def fam_ported():
    f = Family("ported")
    ported_view_ops(f)
    ported_shape_ops(f)
    ported_torch(f)
    ported_type_promotion(f)
    return f


FAMILIES = [("views", fam_views), ("reshape", fam_reshape), ("casts", fam_casts), ("compute", fam_compute),
            ("matmul", fam_matmul), ("index", fam_index), ("conv", fam_conv), ("inplace", fam_inplace),
            ("errors", fam_errors), ("layout", fam_layout), ("model", fam_model), ("train", fam_train),
            ("opinfo", fam_opinfo),
            ("chains", fam_chains), ("devices", fam_devices), ("ported", fam_ported)]


def build_all():
    files = {}
    names = set()
    for fname, fn in FAMILIES:
        cases = fn().cases
        for c in cases:
            if c.name in names:
                raise GenError("duplicate case name %s" % c.name)
            names.add(c.name)
            if not c.steps:
                raise GenError("%s: no steps" % c.name)
        files[fname] = cases
    return files


def dump_file(cases):
    head = {"schema": 1, "torch": torch.__version__}
    lines = ['{"schema": %d, "torch": %s, "cases": [' % (head["schema"], json.dumps(head["torch"]))]
    body = [json.dumps(c.json(), sort_keys=True, allow_nan=False, separators=(",", ":")) for c in cases]
    lines.append(",\n".join(body))
    lines.append("]}")
    return "\n".join(lines) + "\n"


def coverage(files):
    used = {}
    for cases in files.values():
        for c in cases:
            for s in c.steps:
                ok = "error" not in s["expect"]
                u = used.setdefault(s["op"], [0, 0])
                u[0 if ok else 1] += 1
    missing = [op for op, (fam, _) in OPS.items() if fam != "RELEASE" and op not in used]
    return used, missing


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=OUT_DIR, help="fixture folder (default tests/fixtures)")
    ap.add_argument("--check", action="store_true", help="compare with the files on disk, write nothing")
    ap.add_argument("--stats", action="store_true", help="print cases per file and op coverage")
    ap.add_argument("--error-table", action="store_true", help="print the error mapping as a Markdown table")
    args = ap.parse_args()
    if args.error_table:
        print("| torch message (regular expression) | status |\n|---|---|")
        for pattern, status in ERROR_MAP:
            print("| `%s` | %s |" % (pattern.replace("|", "\\|"), status))
        return 0
    torch.set_num_threads(1)
    torch.manual_seed(0)
    # deprecations the cases exercise on purpose (u8 masks and conditions, out= resizes)
    warnings.simplefilter("ignore", UserWarning)
    files = build_all()
    used, missing = coverage(files)
    if missing:
        raise GenError("ops with no case: %s" % ", ".join(missing))
    stale = []
    total = 0
    for fname, cases in files.items():
        text = dump_file(cases)
        path = os.path.join(args.out, fname + ".json")
        total += len(cases)
        if args.check:
            old = open(path).read() if os.path.exists(path) else None
            if old != text:
                stale.append(path)
        else:
            os.makedirs(args.out, exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        if args.stats:
            n_steps = sum(len(c.steps) for c in cases)
            n_err = sum(1 for c in cases if c.errored)
            n_val = sum(1 for c in cases if c.values)
            print("%-14s %5d cases %6d steps %4d errors %4d value cases %8d bytes"
                  % (fname + ".json", len(cases), n_steps, n_err, n_val, len(text)))
    if args.stats:
        print("total %d cases" % total)
        for op in OPS:
            if op in used:
                print("  %-13s %5d ok %4d error" % (op, used[op][0], used[op][1]))
    if stale:
        print("stale fixtures (rerun tests/oracle/gen_fixtures.py):\n  " + "\n  ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
