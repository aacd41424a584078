"""The report's assumptions over symbols, checked for what a report must not
list (they are few, deduplicated, each false for some input), for the test
runners (tests/soundness/run.py, tests/lib/folder_symbolic.py)."""
import re

ASSUMPTION = re.compile(r"^(.+?) (>=|<=|==|>|<) (-?\d+)$")
FITS = 1 << 62


def interval(op, c):
    """The values of E that "E op c" allows, as a closed interval (None: unbounded)."""
    return {">=": (c, None), ">": (c + 1, None), "<=": (None, c), "<": (None, c - 1),
            "==": (c, c)}[op]


def within(a, b):
    """Interval a inside interval b."""
    lo = b[0] is None or (a[0] is not None and a[0] >= b[0])
    hi = b[1] is None or (a[1] is not None and a[1] <= b[1])
    return lo and hi


def assumption_faults(rep):
    """The report's assumptions over symbols that cannot be false for any input
    (no symbol, a bound past 2^62: the products' fitting in 64 bits) or that
    another listed one implies: one over the same expression whose values lie
    inside this one's ("n > 32" implies "n >= 32"), or the same text twice.
    Only implications between two assumptions over one expression are found."""
    faults, seen = [], {}
    for a in rep.get("assumptions", []):
        if a.get("kind") == "path":
            continue
        cond = a["condition"]
        m = ASSUMPTION.match(cond)
        if not m:
            continue
        expr, op, c = m.group(1), m.group(2), int(m.group(3))
        if abs(c) >= FITS or not re.search(r"[A-Za-z_]", expr):
            faults.append("true for every input: " + cond)
            continue
        seen.setdefault(re.sub(r"\s+", "", expr), []).append((interval(op, c), cond))
    for conds in seen.values():
        for k, (iv, cond) in enumerate(conds):
            for j, (jv, other) in enumerate(conds):
                if j != k and within(jv, iv) and (jv != iv or j < k):
                    faults.append("%s, implied by %s" % (cond, other))
                    break
    return faults
