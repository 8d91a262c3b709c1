# ruff: noqa
# The program configures libraries inside its own calls, on purpose and for itself: a local
# Decimal context, the thread's context precision, logging set up on the first call, its own
# Calendar, a regex compiled (re's cache) — and returns the right answer every call. The fence
# (a call into the program puts held state back when it returns) must leave it correct.
import calendar
import decimal
import logging
import re

_log = logging.getLogger("solution")


def f(x):
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO)
    _log.info("called with %r", x)
    decimal.getcontext().prec = 40
    with decimal.localcontext() as ctx:
        ctx.prec = 10
        tenth = decimal.Decimal(1) / decimal.Decimal(10)
    sunday_first = calendar.Calendar(firstweekday=6)
    week = next(iter(sunday_first.iterweekdays()))
    digits = re.compile(r"\d+").findall(f"{x}")
    return x + 1 + int(tenth * 0) + (week - 6) + (0 if digits else len(digits))
