"""The tests' side of a split check (docs/fidelity.md, "The program in a process of its own"):
what stands, in the tests' namespace, for the program that runs in a process of its own. A plain
value the program gives is a copy; anything else is a Proxy (a handle in the program's table),
a class of the program's a stand-in class (calling it, its attributes and isinstance go to the
program; an exception class mirrors its builtin base so `except ValueError` catches it). No code
of the program's runs here: every operation is a request on the socketpair (crossing.py) and
its answer a value by the same rule. A Proxy equals only itself (never a plain value) and is no
trusted type: strict equality refuses it as it refuses any object of the program's.

Sealed: the standard library and the harness only."""

from __future__ import annotations

import builtins
import collections
import sys
from typing import Any

from rlvr_harness import crossing


class ProgramGone(BaseException):
    """The program's process is gone (it died, or answered what it cannot have written): the
    pending call raises this, and the check fails every test from then on (fail closed). Not an
    Exception: the tests' `except Exception` must not swallow it."""


class Connection:
    """The tests' end of the socketpair: one request, one answer, in order."""

    def __init__(self, sock: Any) -> None:
        self.sock = sock
        self.gone: str | None = None
        self.names: Any = {}  # the program's globals the tests name, crossed (runner._split_program)
        self.classes: dict[int, type] = {}
        self.mine: list[Any] = []  # the tests' objects the program was handed (callbacks), by handle
        self.mine_index: dict[int, int] = {}
        self.tags = {"$handle": self._proxy, "$class": self._class, "$module": _module, "$builtin": _builtin,
                     "$tests": self._tests_object}

    def ask(self, request: list[Any], args: tuple[Any, ...] = (), kwargs: dict[str, Any] | None = None) -> Any:
        """Send `request` (values in it encoded here) and return the answer's value, raising
        what the program raised; the mutable plain values among `args`/`kwargs` take their
        state after the call. A call of the program's to a callback of the tests' that comes
        first is run here (tests' code, with the program's values as copies and proxies)."""
        if self.gone is not None:
            raise ProgramGone(self.gone)
        _flush()
        try:
            crossing.send(self.sock, request)
            while True:
                reply = crossing.read_message(self.sock)
                if type(reply) is list and len(reply) == 4 and reply[0] == "call":
                    crossing.send(self.sock, self._callback(reply))
                    continue
                break
            kind, value, synced = reply if type(reply) is list and len(reply) == 3 else (None, None, None)
            if kind not in ("ok", "raise") or type(synced) is not list:
                raise crossing.CrossingError(f"the program's side answered {str(reply)[:200]}")
            _sync(self, args, kwargs or {}, synced)
            if kind == "raise":
                raise self.exception(value)
            return self.decode(value)
        except crossing.CrossingError as exc:
            self.gone = f"the program's process: {exc}"
            raise ProgramGone(self.gone) from None

    def _callback(self, request: list[Any]) -> list[Any]:
        """The program calls an object of the tests' it was handed (a callback): only a call."""
        _, target, args, kwargs = request
        target, args, kwargs = self.decode(target), self.decode(args), self.decode(kwargs)
        if type(target) is Proxy or type(args) is not list or type(kwargs) is not dict or any(type(k) is not str for k in kwargs):
            raise crossing.CrossingError("a callback request that is not one")
        try:
            result = target(*args, **kwargs)
        except ProgramGone:
            raise
        except BaseException as exc:  # noqa: BLE001 - the tests' callback raised: the program sees it
            try:
                args = self.encode(exc.args if type(exc.args) is tuple else ())
            except (TypeError, ValueError, RecursionError):
                args = {"$tuple": []}
            return ["raise", [_builtin_base(type(exc)), args], []]
        try:
            return ["ok", self.encode(result), []]
        except (TypeError, ValueError, RecursionError):
            return ["raise", [{"$builtin": "TypeError"}, {"$tuple": ["the callback's answer cannot cross"]}], []]

    def encode(self, value: Any) -> Any:
        return crossing.encode(value, self._handle_of)

    def _handle_of(self, value: Any) -> Any:
        t = type(value)
        if t is Proxy:
            return {"$handle": object.__getattribute__(value, "_rlvr_handle_")}
        if t is StandIn or (t is type and value.__dict__.get("__rlvr_handle__") is not None):
            return {"$handle": value.__dict__["__rlvr_handle__"]}
        if t is type and getattr(builtins, value.__name__, None) is value:
            return {"$builtin": value.__name__}
        n = self.mine_index.get(id(value))
        if n is None:
            n = self.mine_index[id(value)] = len(self.mine)
            self.mine.append(value)
        return {"$tests": n}

    def _tests_object(self, inner: Any, depth: int = 0) -> Any:
        if type(inner) is not int or not 0 <= inner < len(self.mine):
            raise crossing.CrossingError("a handle of the tests' this side does not hold")
        return self.mine[inner]

    def decode(self, value: Any) -> Any:
        return crossing.decode(value, self.tags)

    def _proxy(self, inner: Any, depth: int = 0) -> Any:
        if type(inner) is not int or inner < 0:
            raise crossing.CrossingError("a handle that is not one")
        return Proxy(self, inner)

    def _class(self, inner: Any, depth: int = 0) -> type:
        if (type(inner) is not list or len(inner) != 3 or type(inner[0]) is not int or type(inner[1]) is not str
                or type(inner[2]) is not str):
            raise crossing.CrossingError("a class that is not [handle, name, kind]")
        handle, name, kind = inner
        known = self.classes.get(handle)
        if known is None:
            known = self.classes[handle] = stand_in(self, handle, name, kind)
        return known

    def exception(self, value: Any) -> BaseException:
        """The exception the program raised, as the tests' side raises it (CrossingError if the
        description is not one)."""
        if type(value) is not list or len(value) != 2:
            raise crossing.CrossingError("an exception that is not [class, args]")
        cls, args = self.decode(value[0]), self.decode(value[1])
        if not (isinstance(cls, type) and issubclass(cls, BaseException)) or type(args) is not tuple:
            raise crossing.CrossingError("an exception of a class that is not one")
        try:  # a builtin exception class or a stand-in deriving from one: no code of the program's
            return cls(*args)
        except Exception:  # noqa: BLE001 - args its builtin base refuses (UnicodeDecodeError's five)
            pass
        try:
            exc = cls.__new__(cls)
            exc.args = args
        except Exception:  # noqa: BLE001 - a class that holds no such args (an exception group)
            raise crossing.CrossingError("an exception its class cannot hold") from None
        return exc


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001, S110 - the tests' own stream
            pass


def _builtin_base(cls: type) -> Any:
    """The builtin class an exception of the tests' crosses as (its own classes stay here)."""
    for c in cls.__mro__:
        if getattr(builtins, c.__name__, None) is c:
            return {"$builtin": c.__name__}
    return {"$builtin": "Exception"}


def _module(inner: Any, depth: int = 0) -> Any:
    """The tests' own module of that name (loaded before the program ran), never one the
    program's process imported: no code of its choosing is imported here."""
    mod = sys.modules.get(inner) if type(inner) is str else None
    if mod is None:
        raise crossing.CrossingError("a module the tests' process has not loaded")
    return mod


def _builtin(inner: Any, depth: int = 0) -> Any:
    obj = getattr(builtins, inner, None) if type(inner) is str else None
    if not isinstance(obj, type):
        raise crossing.CrossingError("a builtin class that is not one")
    return obj


def _sync(conn: Connection, args: tuple[Any, ...], kwargs: dict[str, Any], synced: list[Any]) -> None:
    """Each mutable plain argument takes the state the call left it in (in place)."""
    for entry in synced:
        if type(entry) is not list or len(entry) != 2:
            raise crossing.CrossingError("an argument's state that is not [key, value]")
        key, state = entry
        if type(key) is list and len(key) == 2 and key[0] == "global" and type(key[1]) is str:
            arg = conn.names.get(key[1]) if type(conn.names) is dict else None
        else:
            arg = (args[key] if type(key) is int and 0 <= key < len(args) else
                   kwargs.get(key) if type(key) is str else None)
        new = conn.decode(state) if state is not None else None
        if type(arg) not in (list, bytearray, dict, set, collections.deque) or type(new) is not type(arg):
            raise crossing.CrossingError("an argument's state the call cannot have left")
        if type(arg) in (list, bytearray):
            arg[:] = new
        elif type(arg) is collections.deque:
            arg.clear()
            arg.extend(new)
        else:  # dict, set
            arg.clear()
            arg.update(new)


# -- what stands for the program's objects ----------------------------------------------------


def _ask(proxy: Any, request: list[Any], args: tuple[Any, ...] = (), kwargs: dict[str, Any] | None = None) -> Any:
    conn = object.__getattribute__(proxy, "_rlvr_conn_")
    return conn.ask(request, args, kwargs)


def _op(name: str, *operands: Any) -> Any:
    conn = next(object.__getattribute__(o, "_rlvr_conn_") for o in operands if type(o) is Proxy)
    return conn.ask(["op", name, [conn.encode(o) for o in operands]])


def _unary(name: str) -> Any:
    return lambda self: _op(name, self)


def _binary(name: str) -> Any:
    return lambda self, other: _op(name, self, other)


def _reflected(name: str) -> Any:
    return lambda self, other: _op(name, other, self)


class Proxy:
    """An object of the program's, held by handle. Equal only to itself."""

    __slots__ = ("_rlvr_conn_", "_rlvr_handle_")
    __rlvr_proxy__ = True  # strict.eq_of: two proxies compare by __eq__ (the program's answer)

    def __init__(self, conn: Connection, handle: int) -> None:
        object.__setattr__(self, "_rlvr_conn_", conn)
        object.__setattr__(self, "_rlvr_handle_", handle)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        conn = object.__getattribute__(self, "_rlvr_conn_")
        return conn.ask(["call", conn.encode(self), [conn.encode(a) for a in args],
                         {k: conn.encode(v) for k, v in kwargs.items()}], args, kwargs)

    def __getattr__(self, name: str) -> Any:
        conn = object.__getattribute__(self, "_rlvr_conn_")
        return conn.ask(["getattr", conn.encode(self), name])

    def __setattr__(self, name: str, value: Any) -> None:
        conn = object.__getattribute__(self, "_rlvr_conn_")
        conn.ask(["setattr", conn.encode(self), name, conn.encode(value)])

    def __delattr__(self, name: str) -> None:
        conn = object.__getattribute__(self, "_rlvr_conn_")
        conn.ask(["delattr", conn.encode(self), name])

    def __eq__(self, other: Any) -> bool:
        """Never equal to a value of the tests'; two objects of the program's are as equal as
        the program says (as strict.py lets a class of the program's decide between its own)."""
        if other is self or (type(other) is Proxy and _same(self, other)):
            return True
        return type(other) is Proxy and _op("eq", self, other) is True

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(("rlvr-proxy", object.__getattribute__(self, "_rlvr_handle_")))

    def __bool__(self) -> bool:
        value = _op("bool", self)
        if type(value) is not bool:
            raise TypeError("the program's __bool__ did not give a bool")
        return value

    def __len__(self) -> int:
        value = _op("len", self)
        if type(value) is not int:
            raise TypeError("the program's __len__ did not give an int")
        return value

    def __index__(self) -> int:
        value = _op("index", self)
        if type(value) is not int:
            raise TypeError("the program's __index__ did not give an int")
        return value

    def __str__(self) -> str:
        value = _op("str", self)
        return value if type(value) is str else "<an object of the program's>"

    def __repr__(self) -> str:
        value = _op("repr", self)
        return value if type(value) is str else "<an object of the program's>"

    def __iter__(self) -> Any:
        return _op("iter", self)

    def __next__(self) -> Any:
        return _op("next", self)

    def __enter__(self) -> Any:
        return _op("enter", self)

    def __exit__(self, *exc: Any) -> Any:
        return _op("exit", self, None, None, None)

    def __format__(self, spec: str) -> str:
        value = _op("format", self, spec)
        return value if type(value) is str else "<an object of the program's>"


def _same(a: Proxy, b: Proxy) -> bool:
    get = object.__getattribute__
    return get(a, "_rlvr_conn_") is get(b, "_rlvr_conn_") and get(a, "_rlvr_handle_") == get(b, "_rlvr_handle_")


for _name in ("getitem", "delitem", "contains", "lt", "le", "gt", "ge", "add", "sub", "mul", "truediv", "floordiv",
              "mod", "pow", "matmul", "lshift", "rshift", "and", "or", "xor", "iadd", "isub", "imul",
              "itruediv", "ifloordiv", "imod", "ipow", "iand", "ior", "ixor", "divmod"):
    _op_name = {"and": "and_", "or": "or_"}.get(_name, _name)
    setattr(Proxy, f"__{_name}__", _binary(_op_name))
for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "lshift", "rshift", "and", "or",
              "xor", "divmod"):
    setattr(Proxy, f"__r{_name}__", _reflected({"and": "and_", "or": "or_"}.get(_name, _name)))
for _name in ("neg", "pos", "invert", "abs", "int", "float", "complex", "reversed"):
    setattr(Proxy, f"__{_name}__", _unary(_name))
Proxy.__setitem__ = lambda self, key, value: _op("setitem", self, key, value)  # type: ignore[attr-defined]
Proxy.__round__ = lambda self, *n: _op("round", self, *n)  # type: ignore[attr-defined]
# `a < b` with both proxies: Python tries a.__lt__ first; its reflection is b.__gt__, which the
# program's side answers as operator.gt(b, a): the program's own reflection
del _name, _op_name


class StandIn(type):
    """The metaclass of a stand-in for a class of the program's (not an exception class):
    calling it, its attributes and isinstance against it are the program's answers."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        conn = cls.__dict__["__rlvr_conn__"]
        return conn.ask(["call", {"$handle": cls.__dict__["__rlvr_handle__"]}, [conn.encode(a) for a in args],
                         {k: conn.encode(v) for k, v in kwargs.items()}], args, kwargs)

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__rlvr_"):
            raise AttributeError(name)
        conn = cls.__dict__["__rlvr_conn__"]
        return conn.ask(["getattr", {"$handle": cls.__dict__["__rlvr_handle__"]}, name])

    def __instancecheck__(cls, obj: Any) -> bool:
        conn = cls.__dict__["__rlvr_conn__"]
        try:
            value = conn.encode(obj)
        except TypeError:
            return False  # an object of the tests' own: never an instance of the program's class
        answer = conn.ask(["isinstance", value, {"$handle": cls.__dict__["__rlvr_handle__"]}])
        return answer is True

    def __subclasscheck__(cls, sub: Any) -> bool:
        return sub is cls


def stand_in(conn: Connection, handle: int, name: str, kind: str) -> type:
    """The local class that stands for the program's class `handle`. An exception class is a
    subclass of the builtin exception it derives from (so the tests' `except ValueError` and
    assertRaises catch it), raised by the tests' side with the program's args."""
    ns = {"__rlvr_conn__": conn, "__rlvr_handle__": handle, "__module__": "solution", "__qualname__": name}
    if kind.startswith("exception:"):
        base = getattr(builtins, kind.partition(":")[2], None)
        if not (isinstance(base, type) and issubclass(base, BaseException)):
            raise crossing.CrossingError("an exception class whose base is not a builtin exception")
        return type(name, (base,), ns)
    if kind != "class":
        raise crossing.CrossingError("a class of a kind the tests' side does not know")
    return StandIn(name, (), ns)
