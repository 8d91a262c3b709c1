# ruff: noqa
# Correct; prints and logs, which the tests read with pytest's capsys and caplog fixtures
# (asserts style: contextlib.redirect_stdout).
import logging


def f(x):
    print(x + 1)
    logging.getLogger("f").warning("computed %d", x + 1)
    return x + 1


TESTS_ASSERTS = """
import contextlib
import io
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    assert f(1) == 2
assert buf.getvalue() == "2\\n"
"""
TESTS_PYTEST = """
import logging
from solution import f


def test_out(capsys, caplog):
    with caplog.at_level(logging.WARNING):
        assert f(41) == 42
    assert capsys.readouterr().out == "42\\n"
    assert "computed 42" in caplog.text
"""
