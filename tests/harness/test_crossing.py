"""What crosses between a split check's processes (rlvr_harness/crossing.py, proxies.py): the
tests' side reads whatever the program's process writes, so its reading is total: any bytes, any
JSON, give a value, an exception the program raised, or ProgramGone, never another exception."""

from __future__ import annotations

import datetime as dt
import socket
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlvr_harness import crossing
from rlvr_harness.proxies import Connection, ProgramGone, Proxy

TAGS = ["$handle", "$class", "$module", "$builtin", "$bytearray", "$date", "$datetime", "$time", "$timedelta",
        "$tuple", "$set", "$frozenset", "$dict", "$float", "$bytes", "$int", "$fraction", "$decimal"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                    st.text(max_size=8), st.sampled_from(TAGS + ["ok", "raise", "error", "ValueError", "int", "math",
                                                                 "exception:ValueError", "class", "Europe/Paris"]))
JSONISH = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(TAGS) | st.text(max_size=3), inner, max_size=2)), max_leaves=20)


def _conn() -> tuple[Connection, socket.socket]:
    tests_end, program_end = socket.socketpair()
    return Connection(tests_end), program_end


def _ask_with_reply(raw: bytes) -> object:
    conn, program_end = _conn()
    try:
        program_end.sendall(raw)
        program_end.shutdown(socket.SHUT_WR)
        try:
            return conn.ask(["call", {"$handle": 0}, [], {}])
        except ProgramGone:
            return ProgramGone
        except BaseException as exc:  # noqa: BLE001 - an exception the "program" raised, rebuilt
            assert isinstance(exc, BaseException) and not isinstance(exc, crossing.CrossingError)
            return exc
    finally:
        conn.sock.close()
        program_end.close()


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.binary(max_size=64))
def test_any_bytes_give_a_value_or_a_failure(raw):
    _ask_with_reply(raw)


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(JSONISH, JSONISH, JSONISH, st.sampled_from(["ok", "raise", "error", 3]))
def test_any_reply_gives_a_value_an_exception_or_a_failure(value, synced, extra, kind):
    for reply in ([kind, value, synced], [kind, value, []], [kind, [value, extra], []], value):
        _ask_with_reply(crossing.frame(reply))


def test_a_connection_once_gone_stays_gone():
    conn, program_end = _conn()
    program_end.close()
    with pytest.raises(ProgramGone):
        conn.ask(["names", []])
    with pytest.raises(ProgramGone):
        conn.ask(["names", []])
    assert conn.gone


@pytest.mark.parametrize("value", ids=lambda v: type(v).__name__, argvalues=[
    None, True, 3, -2 ** 20000, 1.5, float("inf"), "x", b"y", bytearray(b"z"), [1, [2]], (1, (2,)), {1, 2},
    frozenset({3}), {"a": 1, (1, 2): [3]}, Fraction(1, 3), Decimal("1.5"), dt.date(2020, 2, 29),
    dt.datetime(2020, 1, 2, 3, 4, 5, 6), dt.datetime(2020, 1, 2, tzinfo=dt.timezone.utc),
    dt.time(1, 2, tzinfo=dt.timezone(dt.timedelta(hours=-5), "EST")), dt.timedelta(days=-1, seconds=5),
])
def test_plain_values_and_trusted_types_cross_as_themselves(value):
    back = crossing.decode(crossing.encode(value, lambda v: pytest.fail(f"{v!r} is not plain")), {})
    assert back == value and type(back) is type(value)


def test_a_proxy_equals_only_itself():
    conn, program_end = _conn()
    a, b = Proxy(conn, 0), Proxy(conn, 1)
    program_end.close()  # never asked: a value of the tests' is never equal to a proxy
    assert a == a and a != 0 and 0 != a and a != [] and a == Proxy(conn, 0) and a != "x"
    assert len({a, Proxy(conn, 0), b}) == 2
    with pytest.raises(ProgramGone):  # two proxies: the program's answer (its process is gone here)
        _ = a == b
    conn.sock.close()
