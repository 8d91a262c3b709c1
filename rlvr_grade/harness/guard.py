"""An in-process guard: while candidate code runs, refuse it what reaches the grader's own
state, and nothing else.

The candidate runs in the same process as the harness and the tests. What decides a verdict
lives in harness and test frames (the result channel's writer and its nonce, the failure log,
the tests' expected values in their locals and code constants), so the guard is an allowlist
seen from the grader's side: candidate code may use every library and every object of its
own, and may not touch

- frames: `sys._getframe` (so `inspect.currentframe/stack`, `traceback.walk_stack`),
  `sys._current_frames`, `tb_frame` / `gi_frame` / `cr_frame` / `ag_frame` / `f_code`,
  `sys.settrace` / `sys.setprofile`, signal handlers' frame argument (None instead);
- the heap as a whole: `gc.get_objects`, `gc.get_referrers`, `gc.get_referents`;
- the grader's code: reading or replacing `__code__`, `__defaults__`, `__kwdefaults__` of a
  function of the harness, the tests, pytest or pluggy, `gi_code`/`cr_code` of theirs (a
  library's or the candidate's own functions are the candidate's business: networkx sets
  `__code__` at import, `types.coroutine` replaces a flag);
- raw memory: importing ctypes, _ctypes, cffi or _cffi_backend, and every ctypes event;
  `/proc/<pid>/...` files outside a short allowlist of status files (memory, maps, fds,
  environ, other processes), decided on the *resolved* path (`..`, symlinks,
  `/proc/self/root`, `/dev/fd` all resolve first);
- the test files (the pytest module is served to pytest from memory; its file on disk is a
  placeholder, and the guard refuses opening it anyway);
- forged trust: code compiled, built (`CodeType`, `code.replace`) or unmarshalled under a
  trusted file name (it would pass as trusted below), `sys.addaudithook`.

Who is "candidate code": a call chain that has a frame of code not loaded from a trusted
location (the standard library, site-packages, this package, the test file) between the
audited call and the harness frame that armed the guard, or that never reaches that frame
(another thread, whose first frame the candidate chose: a thread or an executor running a
trusted function with the candidate's arguments is the candidate's call). Frame events keep
one nuance: a trusted function that only turns frames into text on the candidate's behalf
(logging's findCaller, traceback.format_exc, namedtuple's module lookup) is allowed.

What Python cannot see is the kernel's (sandbox/, see docs/fidelity.md): a subprocess, an
`openat` relative to a directory fd, process_vm_readv, ptrace, prctl(PR_SET_DUMPABLE), and
memory bugs of C extensions (numpy's stride tricks read any address of the process): the
argument for the result channel in docs/fidelity.md says which layer holds what.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from typing import Any, Callable

_FRAME_ATTRS = frozenset(("tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_code"))
_CODE_ATTRS = frozenset(("__code__", "__defaults__", "__kwdefaults__", "gi_code", "cr_code", "ag_code"))
_DENY_EVENTS = frozenset((
    "sys._getframe", "sys._current_frames", "sys.settrace", "sys.setprofile", "sys.addaudithook",
    "gc.get_objects", "gc.get_referrers", "gc.get_referents", "sys._getframemodulename",
))
# Modules that read and write raw memory by address: refused to candidate code outright.
NATIVE_MEMORY_MODULES = frozenset(("ctypes", "_ctypes", "cffi", "_cffi_backend", "_testcapi", "_testinternalcapi"))
# Functions that hand frame objects (or their callers' source lines: the test's asserts) to
# whoever calls them. Text-returning neighbours (traceback.format_exc, logging's findCaller,
# namedtuple reading its caller's module name) stay allowed.
_STACK_FNS = frozenset((
    "print_stack", "format_stack", "extract_stack", "walk_stack", "walk_tb", "currentframe", "formatStack",
))
_TEXT_LIBS = (os.sep + "traceback.py", os.sep + os.path.join("logging", "__init__.py"))
_FRAME_LIBS = tuple(os.sep + n for n in ("inspect.py", "bdb.py", "pdb.py", "cgitb.py"))
_FRAME_PKGS = (os.sep + "_pytest" + os.sep, os.sep + "pluggy" + os.sep, os.sep + "py" + os.sep)
# Code of these packages is the grader's (with the harness and the test files): candidate code
# may not read or replace its __code__ / defaults.
_GRADER_PKGS = (os.sep + "_pytest" + os.sep, os.sep + "pluggy" + os.sep, os.sep + "pytest" + os.sep)
# What a process may read of its own /proc/<pid>/: status, never memory, maps, fds or environ.
PROC_SELF_ALLOWED = frozenset((
    "stat", "statm", "status", "cmdline", "comm", "limits", "cgroup", "io", "oom_score", "oom_score_adj",
    "sched", "schedstat", "mountinfo", "mounts", "personality", "wchan", "timerslack_ns", "loginuid",
    "sessionid", "uid_map", "gid_map", "setgroups", "cpuset",
))


class GuardRefused(RuntimeError):
    """What the candidate sees when it reaches for the grader's internals."""


def _trusted_prefixes(extra: list[str]) -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    roots = {paths.get("stdlib"), paths.get("platstdlib"), paths.get("purelib"), paths.get("platlib")}
    for p in sys.path:
        if p and ("site-packages" in p or "dist-packages" in p):
            roots.add(p)
    roots.add(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # rlvr_grade itself
    roots.update(extra)
    out = set()
    for r in roots:
        if r:
            out.add(os.path.join(r, ""))
            out.add(os.path.join(os.path.realpath(r), ""))
    return tuple(sorted(out))


# Computed once when the zygote imports the harness (~0.5 ms saved per check).
_DEFAULT_PREFIXES = _trusted_prefixes([])


def library_prefixes() -> tuple[str, ...]:
    """Where the standard library and installed packages live (with a trailing separator)."""
    harness = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "")
    return tuple(p for p in _DEFAULT_PREFIXES if p != harness and p != os.path.join(os.path.realpath(harness), ""))


def _plain_path_types() -> tuple[type, ...]:
    """Path types whose __fspath__ is the standard library's: the hook asks them for the path
    (a candidate's own path type could answer open() and the hook differently)."""
    import pathlib

    return (pathlib.PosixPath, pathlib.PurePosixPath, pathlib.Path, pathlib.PurePath, os.DirEntry)


_PATH_TYPES = _plain_path_types()


class Guard:
    """`install()` once per check child (before any candidate code), then `arm()` from the
    harness frame that runs the candidate: frames below it are the grader's.

    `protected` are paths (resolved) candidate code may not open: a path ending in the
    separator protects everything under it.

    The hook is a closure made by `install()` (see `_make_hook`): when an event fires it looks
    nothing up in this class, this module or `builtins`, which the candidate can reach without
    a frame (`object.__subclasses__()`, any function's `__globals__`, `import builtins`)."""

    def __init__(self, trusted_files: list[str] | None = None, trusted_dirs: list[str] | None = None):
        self.trusted_files = frozenset(trusted_files or ())
        self.prefixes = _DEFAULT_PREFIXES if not trusted_dirs else _trusted_prefixes(list(trusted_dirs))
        self.protected: tuple[str, ...] = ()
        self.refusals: list[str] = []
        self._controls: tuple[Callable[..., Any], ...] | None = None

    def _make(self) -> tuple[Callable[..., Any], ...]:
        if self._controls is None:
            self._controls = _make_hook(self.trusted_files, self.prefixes, tuple(self.protected), self.refusals)
        return self._controls

    @property
    def hook(self) -> Callable[[str, tuple[Any, ...]], None]:
        return self._make()[0]

    @property
    def armed(self) -> bool:
        return self._make()[3]()

    def arm(self) -> None:
        """Refuse from now on; the caller's frame and those below it are the grader's."""
        self._make()[1](sys._getframe(1))

    def disarm(self) -> None:
        self._make()[2]()

    def install(self) -> None:
        """Call after setting `protected`: the hook is built from the settings as they are now."""
        sys.addaudithook(self._make()[0])
        _neuter_signal_frames()


def _make_hook(trusted_files: frozenset[str], prefixes: tuple[str, ...], protected: tuple[str, ...],
               refusals: list[str]) -> tuple[Callable[..., Any], ...]:
    """(hook, arm, disarm, is_armed). Every name the hook uses when an event fires is a local of
    this function, bound now, before candidate code runs: the tables, the builtins and unbound
    str/bytes methods (so a str subclass's overrides do not answer for its content), the state
    (armed, base frame, re-entry flag) in cells. A candidate that rebinds `Guard._refuse`, empties
    `_DENY_EVENTS` in this module or patches `builtins.isinstance` changes nothing the hook sees;
    the hook itself is held only by the interpreter's list of audit hooks, which Python code
    cannot read."""
    getframe = sys._getframe
    _open, _type, _isinstance, _str, _bytes, _int, _len = open, type, isinstance, str, bytes, int, len
    to_str = str.__str__  # an exact str with a subclass's characters
    to_bytes = bytes.__bytes__
    startswith, endswith, isdigit, encode, decode = str.startswith, str.endswith, str.isdigit, str.encode, bytes.decode
    split, find = str.split, bytes.find
    fspath, fs_encoding = os.fspath, sys.getfilesystemencoding()
    realpath, getcwd, join, getpid = os.path.realpath, os.getcwd, os.path.join, os.getpid
    getattr_, _memoryview, _any = getattr, memoryview, any
    weakref_py = os.sep + "weakref.py"
    deny_events, frame_attrs, code_attrs, stack_fns = _DENY_EVENTS, _FRAME_ATTRS, _CODE_ATTRS, _STACK_FNS
    text_libs, frame_libs, frame_pkgs, grader_pkgs = _TEXT_LIBS, _FRAME_LIBS, _FRAME_PKGS, _GRADER_PKGS
    native = NATIVE_MEMORY_MODULES
    proc_allowed = PROC_SELF_ALLOWED
    logging_init = _TEXT_LIBS[1]
    inspect_py = os.sep + "inspect.py"
    types_py = os.sep + "types.py"
    harness_root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "")
    prefix_bytes = tuple(encode(p) for p in prefixes)
    path_types = _PATH_TYPES
    refused_error = GuardRefused
    note = refusals.append
    cache: dict[str, bool] = {}
    cached = cache.get
    armed = False
    busy = False
    base: Any = None

    def exact(s: Any) -> Any:
        """`s` as an exact str (None when it is no str at all)."""
        if _type(s) is _str:
            return s
        if _isinstance(s, _str):
            return to_str(s)
        if _isinstance(s, _bytes):
            return decode(to_bytes(s), "utf-8", "surrogateescape")
        return None

    def is_trusted(filename: Any) -> bool:
        filename = exact(filename)
        if filename is None:
            return False
        hit = cached(filename)
        if hit is None:
            hit = (
                filename in trusted_files
                or startswith(filename, "<frozen ")
                or (startswith(filename, "/") and startswith(filename, prefixes))
            )
            cache[filename] = hit
        return hit

    def is_graders(filename: Any) -> bool:
        """Code of the harness, the tests, pytest or pluggy."""
        filename = exact(filename) or ""
        if filename in trusted_files or startswith(filename, harness_root):
            return True
        for part in grader_pkgs:
            if part in filename:
                return True
        return False

    def frame_handing(code: Any) -> bool:
        fn, name = exact(code.co_filename) or "", exact(code.co_name)
        if name == "<module>":
            return False  # a module being imported on the candidate's behalf, not an API call
        if endswith(fn, frame_libs):
            return True
        for part in frame_pkgs:
            if part in fn:
                return True
        return name in stack_fns and endswith(fn, text_libs)

    def refuse(depth: int, frame_event: bool) -> bool:
        """Walk from the audited call up to the harness's frame. Refuse when a candidate frame
        is on the way, or the walk never meets the harness's frame (another thread: its first
        frame is the candidate's choice) — except, for frame events, when every trusted frame
        between the access and the candidate returns something other than frames."""
        frame = getframe(depth)
        between = []
        while frame is not base:
            code = frame.f_code if frame is not None else None
            if frame is None or not is_trusted(code.co_filename) or trampoline(code):
                if not frame_event or not between:
                    return True
                last = between[-1]  # what the candidate called
                if exact(last.co_name) == "<lambda>" and endswith(exact(last.co_filename) or "", logging_init):
                    # logging.currentframe is `lambda: sys._getframe(1)` in 3.11: called by
                    # findCaller it feeds a text API; called by the candidate it hands over the
                    # candidate's own frame, whose f_back/f_locals (not audited) lead to ours.
                    return True
                for c in between:
                    if frame_handing(c):
                        return True
                return False
            between.append(code)
            frame = frame.f_back
        return False

    def trampoline(code: Any) -> bool:
        """weakref.finalize calling back: the callable and its arguments are whoever registered
        it (C callables such as `list.extend(map(sys._getframe, [0]))` leave no frame of theirs)."""
        return exact(code.co_name) in ("__call__", "_exitfunc") and endswith(exact(code.co_filename) or "", weakref_py)

    def innermost(depth: int) -> str:
        """File name of the innermost Python frame above the audited call."""
        frame = getframe(depth)
        return (exact(frame.f_code.co_filename) or "") if frame is not None else ""

    def forged_compile(filename: Any, source: Any) -> bool:
        """compile() named after a trusted file would pass as trusted frames."""
        filename = exact(filename)
        if filename is None or not is_trusted(filename):
            return False
        if startswith(filename, "/") and _isinstance(source, (_bytes, _str)):
            # the import system compiling a real file of the read-only tree is genuine
            data = encode(to_str(source)) if _isinstance(source, _str) else to_bytes(source)
            try:
                with _open(filename, "rb") as fh:
                    disk = fh.read()
            except OSError:
                return True
            return data != disk  # two exact bytes objects
        return True

    def resolved(path: Any) -> Any:
        """The absolute, resolved path an open() of `path` reaches, or None for an fd; a path
        object of the candidate's own (its __fspath__ could answer twice) is refused."""
        if _type(path) in path_types:
            path = fspath(path)  # pathlib's own __fspath__: the characters open() will use
        elif _isinstance(path, _int):
            return None  # an fd the process already holds
        if _isinstance(path, _bytes):
            path = decode(to_bytes(path), fs_encoding, "surrogateescape")
        elif _isinstance(path, _str):
            path = to_str(path)
        else:
            return False
        if not startswith(path, "/"):
            path = join(getcwd(), path)
        return realpath(path)

    def protected_path(path: Any) -> bool:
        path = resolved(path)
        if path is None:
            return False
        if path is False:
            return True
        for p in protected:
            if path == p or (endswith(p, "/") and startswith(path, p)):
                return True
        if not startswith(path, "/proc/") and path != "/proc":
            return False
        parts = split(path, "/")  # "", "proc", <pid>, entry, ...
        if _len(parts) < 3 or parts[2] in ("", "kcore", "kmem", "mem"):
            return True  # /proc itself: a directory fd to open <pid>/mem relative to it
        if not isdigit(parts[2]) and parts[2] not in ("self", "thread-self"):
            return False  # /proc/cpuinfo, /proc/meminfo, /proc/sys/...: not a process's
        # /proc/<pid>/<entry>: only our own status files; never another process, never a task
        # directory, memory, maps, fds or the directory itself (an fd to reach them relatively)
        if _len(parts) != 4 or parts[3] not in proc_allowed:
            return True
        return parts[2] != _str(getpid())

    def tests_code(target: Any) -> bool:
        code = getattr_(target, "__code__", None)
        return code is not None and exact(getattr_(code, "co_filename", None)) in trusted_files

    def graders_code(target: Any, attr: str) -> bool:
        """Whether `target.<attr>` is a function's or a generator's of the grader."""
        if attr == "__code__" or attr == "__defaults__" or attr == "__kwdefaults__":
            code = getattr_(target, "__code__", None)
        else:
            code = getattr_(target, attr, None)
        return code is not None and is_graders(getattr_(code, "co_filename", None))

    def hook(event: str, args: tuple[Any, ...]) -> None:
        nonlocal busy
        if not armed or busy:
            return
        frame_event = False
        if event in deny_events:
            frame_event = event == "sys._getframe"
        elif event == "object.__getattr__" or event == "object.__setattr__":
            if _len(args) < 2:
                return
            attr = args[1]
            if attr in frame_attrs:
                frame_event = event == "object.__getattr__"
            elif attr in code_attrs:
                busy = True
                try:
                    mine = graders_code(args[0], exact(attr))
                    if mine and event == "object.__getattr__":
                        reader = getframe(1)
                        reader_file = exact(reader.f_code.co_filename) if reader is not None else ""
                        if startswith(reader_file or "", harness_root):
                            mine = False  # the harness reading its own (strict.call, genuine())
                        elif endswith(reader_file or "", inspect_py) and exact(reader.f_code.co_name) in (
                                "_signature_from_function", "_signature_is_functionlike"):
                            # inspect.signature of a callback the tests handed over: its argument
                            # names and defaults; never of the harness's, pytest's or pluggy's own
                            # (the recorder keeps its state in a default)
                            mine = not tests_code(args[0])
                finally:
                    busy = False
                if not mine:
                    return
            elif attr == "f_trace":
                pass
            else:
                return
        elif startswith(event, "ctypes."):
            pass  # every address-level operation: refused to candidate code
        elif event == "import":
            name = exact(args[0]) if args else None
            if name is None or split(name, ".")[0] not in native:
                return
        elif event == "compile":
            busy = True
            try:
                forged = forged_compile(args[1] if _len(args) > 1 else None, args[0])
            finally:
                busy = False
            if not forged:
                return
        elif event == "code.__new__":
            # CodeType() / code.replace() under a trusted file name; the stdlib's own
            # types.coroutine (asyncio's import) only sets a flag of an existing function
            if not is_trusted(args[1] if _len(args) > 1 else None) or endswith(innermost(2), types_py):
                return
        elif event == "marshal.loads":
            if startswith(innermost(2), "<frozen importlib"):
                return  # the import system loading a .pyc
            try:
                data = _bytes(_memoryview(args[0]))
            except Exception:  # noqa: BLE001 - not bytes-like: marshal.loads refuses it itself
                return
            if not _any(find(data, p) >= 0 for p in prefix_bytes):
                return
        elif event == "open":
            busy = True
            try:
                refused_path = protected_path(args[0])
            finally:
                busy = False
            if not refused_path:
                return
        else:
            return
        busy = True
        try:
            refused = refuse(2, frame_event)
        finally:
            busy = False
        if refused:
            note(event)
            raise refused_error(f"refused by the grader: {event}")

    def arm(frame: Any) -> None:
        nonlocal armed, base
        base = frame
        armed = True

    def disarm() -> None:
        nonlocal armed
        armed = False

    def is_armed() -> bool:
        return armed

    return hook, arm, disarm, is_armed


def _neuter_signal_frames() -> None:
    """Signal handlers receive the interrupted frame: hand them None instead."""
    import _signal

    real = _signal.signal
    is_callable = callable  # bound now: a patched builtins.callable must not let a handler through bare

    def guarded(signalnum, handler):  # noqa: ANN001 - same signature as signal.signal
        if is_callable(handler):
            inner = handler

            def handler(sig, _frame, _inner=inner):  # noqa: ANN001
                return _inner(sig, None)

        return real(signalnum, handler)

    guarded.__doc__ = real.__doc__
    # signal.signal calls _signal.signal at call time, so this covers both entry points.
    _signal.signal = guarded
