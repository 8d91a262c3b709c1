# ruff: noqa
import inspect
import logging
import sys
import traceback
import warnings

logging.basicConfig(level=logging.DEBUG, format="%(funcName)s:%(lineno)d %(message)s", stream=sys.stderr)
log = logging.getLogger("candidate")


def f(x):
    log.info("called with %s", x)
    log.debug("signature %s", inspect.signature(f))
    warnings.warn("just a warning")
    try:
        {}["missing"]
    except KeyError:
        text = traceback.format_exc()
        log.exception("handled")
        assert "KeyError" in text
    return x + 1
