# ruff: noqa
# Correct, built with exec/eval/compile of its own source text.
_NS = {}
exec(compile("def _inc(v):\n    return v + 1\n", "<generated>", "exec"), _NS)


def f(x):
    return eval("_inc(x)", {"_inc": _NS["_inc"], "x": x})
