"""The report's formulas (docs/formats.md: symbol names with `.` and `->`,
`+ - *`, `/` as floor division, parentheses, `max(a, b)`, `min(a, b)`)
evaluated with Python integers, for the test runners."""
import re

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|->)[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*(?:#\d+)?")


def evaluate(expr, values):
    """expr (a formula, or an int) with symbols bound to values[name];
    KeyError names a symbol that has no value."""
    if isinstance(expr, int):
        return expr

    def sub(m):
        name = m.group(0)
        if name in ("max", "min"):
            return name
        if name not in values:
            raise KeyError(name)
        return "(%d)" % values[name]

    return eval(NAME.sub(sub, expr).replace("/", "//"), {"max": max, "min": min})
