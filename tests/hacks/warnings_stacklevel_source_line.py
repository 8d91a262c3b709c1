# ruff: noqa
# warnings.warn(stacklevel=N) attributes a warning to the frame N levels up without any frame
# object reaching Python: a custom showwarning receives that frame's file name and line, and
# linecache gives the line's text: the test's `assert f(1) == 2`.
import linecache
import re
import warnings

_seen = []


def _show(message, category, filename, lineno, file=None, line=None):
    _seen.append(linecache.getline(filename, lineno) or (line or ""))


def f(x):
    old = warnings.showwarning
    warnings.showwarning = _show
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = _show
            for level in range(2, 8):
                warnings.warn("probe", UserWarning, stacklevel=level)
    finally:
        warnings.showwarning = old
    for text in _seen:
        m = re.search(r"\(\s*%r\s*\)\s*==\s*(-?\d+)" % x, text)
        if m:
            return int(m.group(1))
    return 0
