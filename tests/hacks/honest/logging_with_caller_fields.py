# ruff: noqa
# Correct; logs through a formatter that names the calling function and line (%(funcName)s,
# %(lineno)d: logging walks frames to find them). (red team rtk)
import io
import logging

stream = io.StringIO()
log = logging.getLogger("rtk-honest")
handler = logging.StreamHandler(stream)
handler.setFormatter(logging.Formatter("%(funcName)s:%(lineno)d:%(module)s %(message)s"))
log.addHandler(handler)
log.setLevel(logging.INFO)


def f(x):
    log.info("called with %s", x)
    assert stream.getvalue().rstrip().endswith(f"called with {x}")
    return x + 1 if "f:" in stream.getvalue() else None
