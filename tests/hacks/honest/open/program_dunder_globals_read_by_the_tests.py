# ruff: noqa
# Correct: the program keeps module metadata in dunder globals (`__version__`, `__all__`) and
# the tests, run after it in one namespace as the openai harness and MBPP's do, read them. The
# tests' namespace takes none of the program's `__x__` names (runner.py test_namespace skips
# them all, with the interpreter's own `__name__`, `__builtins__`, `__file__`): NameError
# (open, s15i -> split, who owns the asserts path). A fix keeps the program's dunders the tests
# name, less the interpreter's and the harness's own (`__rlvr_*`).
__version__ = "1.2.0"
__all__ = ["f"]


def f(x):
    return x + 1


TESTS_ASSERTS = """
assert f(1) == 2
assert __version__ == "1.2.0"
assert __all__ == ["f"]
"""
