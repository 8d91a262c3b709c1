"""The program's side of a split check (docs/fidelity.md, "The program in a process of its own"):
the process the check forks before the program's first line runs. It runs the program, then
answers the tests' process on a socketpair until the tests are done: a call, an attribute, an
operator, each on its table of objects, with the result sent back as crossing.py says (plain
values copied, anything else a handle). Nothing here decides a verdict, and this process holds no
channel it can write a verdict on (the worker refuses bytes from any pid but the check's).

Sealed: the standard library and the harness only."""

from __future__ import annotations

import builtins
import collections
import operator
import os
import sys
from typing import Any

from rlvr_harness import crossing

# What the tests' side may ask an object of the program's: operator's functions by name (a
# reflected operator is the same function with its operands swapped by the tests' side).
OPS = {name: getattr(operator, name) for name in (
    "getitem", "setitem", "delitem", "contains", "eq", "lt", "le", "gt", "ge", "add", "sub", "mul", "truediv",
    "floordiv", "mod", "pow", "matmul", "lshift", "rshift", "and_", "or_", "xor", "neg", "pos", "invert",
    "abs", "index", "iadd", "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow", "iand", "ior", "ixor")}
OPS.update(len=len, bool=bool, iter=iter, next=next, str=str, repr=repr, format=format, int=int, float=float,
           complex=complex, round=round, reversed=reversed, divmod=divmod,
           enter=lambda o: type(o).__enter__(o), exit=lambda o, *a: type(o).__exit__(o, *a))
_NAME = type.__dict__["__name__"].__get__
_ARGS = BaseException.__dict__["args"].__get__
MUTABLE = (list, dict, set, bytearray, collections.deque)  # arguments whose final state goes back (tests see f(lst) change lst)


class Table:
    """The program's side of the socketpair: its objects the tests hold, by handle (kept alive
    for the check's life), the globals the tests read (their state goes back after each
    request, as a live name would show it), and the tests' objects it holds (callbacks)."""

    def __init__(self, sock: Any, ns: dict[str, Any]) -> None:
        self.sock = sock
        self.ns = ns
        self.objects: list[Any] = []
        self.index: dict[int, int] = {}
        self.watched: dict[str, tuple[Any, Any]] = {}  # name -> (the object crossed, its state as last sent)
        self.tags = {"$handle": self.get, "$class": lambda inner, d=0: self.get(inner[0] if type(inner) is list and inner else None),
                     "$builtin": _builtin, "$tests": lambda inner, d=0: TestsObject(self, inner)}

    def handle(self, obj: Any) -> int:
        n = self.index.get(id(obj))
        if n is None:
            n = self.index[id(obj)] = len(self.objects)
            self.objects.append(obj)
        return n

    def get(self, inner: Any, depth: int = 0) -> Any:
        if type(inner) is not int or not 0 <= inner < len(self.objects):
            raise crossing.CrossingError("a handle the program's table does not hold")
        return self.objects[inner]

    def ask(self, request: list[Any]) -> Any:
        """A request of the program's to the tests' side (a callback of theirs it calls); the
        tests' requests that come first (their callback calls the program) are answered."""
        crossing.send(self.sock, request)
        while True:
            message = crossing.read_message(self.sock)
            if type(message) is list and message and message[0] in REPLIES:
                return message
            self.reply(message)

    def reply(self, request: Any) -> None:
        message = answer(self, request)
        _flush()
        try:
            crossing.send(self.sock, message)
        except crossing.CrossingError:
            crossing.send(self.sock, ["error", "the program's answer could not be sent"])


REPLIES = ("ok", "raise", "error")


class TestsObject:
    """An object of the tests' the program was handed (a callback): it can be called, no more;
    the call runs in the tests' process, with this call's arguments crossing as values."""

    __slots__ = ("_table", "_handle")

    def __init__(self, table: Table, handle: Any) -> None:
        if type(handle) is not int:
            raise crossing.CrossingError("a handle of the tests' that is not one")
        self._table, self._handle = table, handle

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        table = self._table
        reply = table.ask(["call", {"$tests": self._handle}, [encode(table, a) for a in args],
                           {k: encode(table, v) for k, v in kwargs.items()}])
        if reply[0] == "ok" and len(reply) == 3:
            return decode(table, reply[1])
        if reply[0] == "raise" and len(reply) == 3:
            raise _tests_exception(table, reply[1])
        raise RuntimeError("the tests' side could not run the callback")


def _tests_exception(table: Table, value: Any) -> BaseException:
    cls, args = (decode(table, value[0]), decode(table, value[1])) if type(value) is list and len(value) == 2 else (None, None)
    if not (isinstance(cls, type) and issubclass(cls, BaseException)) or type(args) is not tuple:
        return RuntimeError("the tests' callback raised")
    try:
        return cls(*args)
    except Exception:  # noqa: BLE001 - args its class refuses
        return cls()


def _builtin_name(obj: Any) -> str | None:
    name = _NAME(obj)
    return name if getattr(builtins, name, None) is obj else None


def describe(table: Table, obj: Any) -> Any:
    """An object that is not a plain value, as the tests' side may hold it."""
    if type(obj) is TestsObject:
        return {"$tests": obj._handle}
    if type(obj) is type(sys):
        name = obj.__dict__.get("__name__")
        return {"$module": name if type(name) is str else ""}
    if issubclass(type(obj), type):
        name = _builtin_name(obj)
        if name is not None:
            return {"$builtin": name}
        kind = "class"
        if issubclass(obj, BaseException):
            base = next(c for c in type.__dict__["__mro__"].__get__(obj) if _builtin_name(c) is not None)
            kind = f"exception:{_NAME(base)}"
        return {"$class": [table.handle(obj), _NAME(obj), kind]}
    return {"$handle": table.handle(obj)}


def encode(table: Table, value: Any) -> Any:
    return crossing.encode(value, lambda v: describe(table, v))


def decode(table: Table, value: Any) -> Any:
    return crossing.decode(value, table.tags)


def _builtin(inner: Any, depth: int = 0) -> Any:
    obj = getattr(builtins, inner, None) if type(inner) is str else None
    if not isinstance(obj, type):
        raise crossing.CrossingError("a builtin class that is not one")
    return obj


def exception(table: Table, exc: BaseException) -> Any:
    """A raised exception as the tests' side raises it again: its class and its args."""
    try:
        args = encode(table, _ARGS(exc))
    except (crossing.CrossingError, TypeError, ValueError, RecursionError):
        args = {"$tuple": []}
    return [describe(table, type(exc)), args]


def serve(sock: Any, ns: dict[str, Any]) -> None:
    """Answer the tests' requests until they are done (EOF), then end this process."""
    table = Table(sock, ns)
    sys.setrecursionlimit(sys.getrecursionlimit() + FRAMES)
    while True:
        try:
            request = crossing.read_message(sock)
            table.reply(request)
        except crossing.CrossingError:
            break
    _flush()
    os._exit(0)


# reply, answer, _dispatch, _run and its thunk: the frames between serve and the program's
# function, which a script calls from its module's frame (its recursion budget stays a script's)
FRAMES = 5


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001 - the program's stream, its own business
            pass


def answer(table: Table, request: Any) -> Any:
    try:
        kind, *rest = request
        return _dispatch(table, kind, rest)
    except crossing.CrossingError as exc:
        return ["error", str(exc)]
    except Exception:  # noqa: BLE001 - a request not as the tests write them, or an answer that cannot cross
        return ["error", "a request or answer that cannot cross"]


def _dispatch(table: Table, kind: Any, rest: list[Any]) -> Any:
    if kind == "names":
        return _names(table, rest[0])
    if kind == "call":
        target, args, kwargs = decode(table, rest[0]), decode(table, rest[1]), decode(table, rest[2])
        if type(args) is not list or type(kwargs) is not dict:
            raise crossing.CrossingError("a call that is not args and kwargs")
        return _run(table, lambda: target(*args, **kwargs), args, kwargs)
    if kind == "op":
        op, args = OPS.get(rest[0]), decode(table, rest[1])
        if op is None or type(args) is not list:
            raise crossing.CrossingError("an operation the program's side does not know")
        return _run(table, lambda: op(*args), args, {})
    if kind in ("getattr", "setattr", "delattr"):
        target, name = decode(table, rest[0]), rest[1]
        if type(name) is not str:
            raise crossing.CrossingError("an attribute name that is not text")
        args = [target, name, decode(table, rest[2])] if kind == "setattr" else [target, name]
        return _run(table, lambda: getattr(builtins, kind)(*args), [], {})
    if kind == "isinstance":
        obj, cls = decode(table, rest[0]), decode(table, rest[1])
        return _run(table, lambda: isinstance(obj, cls), [], {})
    raise crossing.CrossingError("a request the program's side does not know")


def _names(table: Table, names: Any) -> Any:
    """The program's globals the tests name; the mutable plain ones are watched (their state
    goes back with every answer that changes it: the tests read the program's list as it is)."""
    out = {}
    for name in names:
        if type(name) is str and name in table.ns:
            value = table.ns[name]
            out[name] = encode(table, value)
            if type(value) in MUTABLE:
                table.watched[name] = (value, out[name])
    return ["ok", out, []]


def _run(table: Table, thunk: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
    try:
        result = thunk()
    except BaseException as exc:  # noqa: BLE001 - SystemExit too: the tests' side raises it again
        return ["raise", exception(table, exc), _synced(table, args, kwargs)]
    return ["ok", encode(table, result), _synced(table, args, kwargs)]


def _synced(table: Table, args: list[Any], kwargs: dict[str, Any]) -> list[Any]:
    """The final state of each mutable plain argument (by position or keyword) and of each
    watched global that changed (by ["global", name])."""
    out = []
    for key, value in (*enumerate(args), *kwargs.items()):
        if type(value) in MUTABLE:
            out.append([key, _state(table, value)])
    for name, (value, last) in table.watched.items():
        now = _state(table, value)
        if now != last:
            table.watched[name] = (value, now)
            out.append([["global", name], now])
    return out


def _state(table: Table, value: Any) -> Any:
    try:
        return encode(table, value)
    except (crossing.CrossingError, TypeError, ValueError, RecursionError):
        return None  # fails the call on the tests' side


def start(code: Any, ns: dict[str, Any], arm: Any, describe: Any, seed: int | None = None) -> tuple[Any, Any]:
    """Fork the program's process before the program's first line runs; in it, arm the guard
    (`arm`), run `code` in `ns` and serve. Here: (the tests' end of the socketpair, None), or
    (None, (phase, message)) when the program did not get as far as its last line (`describe`
    renders what it raised; an end without a word is a failure too). `seed`: the program's
    stream (seeding.seeds(payload).program), seeded in the program's process before its first
    line (CPython's at-fork hook has reseeded `random` from the OS there)."""
    import socket

    tests_end, program_end = socket.socketpair()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the program's process; tests/harness/test_split.py drives it
        tests_end.close()
        if seed is not None:
            from rlvr_harness import seeding

            seeding.seed_here(seed)
        _program_main(program_end, code, ns, arm, describe)
    program_end.close()
    try:
        first = crossing.read_message(tests_end)
    except crossing.CrossingError:
        first = None
    if first == ["ready"]:
        return tests_end, None
    tests_end.close()
    if type(first) is list and len(first) == 3 and first[0] == "failed" and first[1] in ("runtime", "memory") \
            and type(first[2]) is str:
        return None, (first[1], first[2][:500])
    return None, ("runtime", "the program's process ended before the tests ran")


def _program_main(sock: Any, code: Any, ns: dict[str, Any], arm: Any, describe: Any) -> None:  # pragma: no cover
    arm()
    # the program's module code runs two frames deeper than run_asserts' exec would run it
    sys.setrecursionlimit(sys.getrecursionlimit() + 2)
    try:
        exec(code, ns)  # noqa: S102 - the program, in its own process
    except MemoryError:
        _said(sock, ["failed", "memory", "MemoryError"])
    except BaseException as exc:  # noqa: BLE001 - SystemExit included: exiting early is not passing
        _said(sock, ["failed", "runtime", describe(exc)])
    else:
        _said(sock, ["ready"])
        serve(sock, ns)
    _flush()
    os._exit(0)


def _said(sock: Any, message: Any) -> None:
    try:
        crossing.send(sock, message)
    except (OSError, crossing.CrossingError):
        pass
