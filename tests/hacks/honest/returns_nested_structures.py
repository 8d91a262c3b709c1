# ruff: noqa
# Correct; returns nested dicts of lists of tuples with None and bytes, compared whole.
def f(x):
    return x + 1


def index(words):
    out = {}
    for i, w in enumerate(words):
        out.setdefault(w[0], []).append((i, w, None if i % 2 else w.encode()))
    return out


TESTS_ASSERTS = """
assert f(1) == 2
assert index(["ab", "ac", "b"]) == {"a": [(0, "ab", b"ab"), (1, "ac", None)], "b": [(2, "b", b"b")]}
assert index([]) == {}
"""
