"""An in-process guard: while candidate code is on the stack, refuse the ways it could reach the
grader's frames, memory or result channel.

The candidate runs in the same process as the harness, so a result channel at a random fd with
a per-check nonce is only as safe as the nonce. The nonce (and the test code's constants, e.g.
HumanEval's expected values in `check`'s co_consts) live in harness and test frames, so the
guard refuses, from any call chain that has a candidate frame on it:

- frame access: `sys._getframe` (so `inspect.currentframe/stack`, `traceback.walk_stack`),
  `sys._current_frames`, `tb_frame` / `gi_frame` / `cr_frame` / `ag_frame` / `f_code` reads,
  `sys.settrace` / `sys.setprofile` (their callbacks receive frames);
- heap walking: `gc.get_objects`, `gc.get_referrers`, `gc.get_referents`;
- raw memory: every `ctypes.*` event, opening `/proc/<pid>/mem|fd|...` (the channel fd, or the
  grader's memory), `sys.addaudithook` (a second hook could not remove ours, but refusing it
  keeps the contract simple), rebinding a function's `__code__`.

Honest code keeps working: `logging` (findCaller walks frames only to produce strings) and
`traceback`'s formatting/printing functions are allowed, since they return text, not frames;
code that is not the candidate's (pytest printing a failure, the harness) is never refused.
`signal.signal` handlers get `None` for the frame argument for the same reason.

A candidate frame is one whose code was not loaded from a trusted location: the standard
library, site-packages (pytest, numpy ...), this package, or the test file itself. Limitation,
documented in docs/fidelity.md: code the candidate compiles with a forged filename under a
trusted prefix passes as trusted; the static scan (checks/flags.py) flags `compile(`/`exec(`
with such filenames and frame tricks by name.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from typing import Any, Callable

_FRAME_ATTRS = frozenset(("tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_code", "gi_code", "cr_code", "ag_code"))
_DENY_EVENTS = frozenset((
    "sys._getframe", "sys._current_frames", "sys.settrace", "sys.setprofile", "sys.addaudithook",
    "gc.get_objects", "gc.get_referrers", "gc.get_referents", "sys._getframemodulename",
))
# Functions that hand frame objects (or their callers' source lines: the test's asserts) to
# whoever calls them. Text-returning neighbours (traceback.format_exc, logging's findCaller,
# namedtuple reading its caller's module name) stay allowed.
_STACK_FNS = frozenset((
    "print_stack", "format_stack", "extract_stack", "walk_stack", "walk_tb", "currentframe", "formatStack",
))
_TEXT_LIBS = (os.sep + "traceback.py", os.sep + os.path.join("logging", "__init__.py"))
_FRAME_LIBS = tuple(os.sep + n for n in ("inspect.py", "bdb.py", "pdb.py", "cgitb.py"))
_FRAME_PKGS = (os.sep + "_pytest" + os.sep, os.sep + "pluggy" + os.sep, os.sep + "py" + os.sep)


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


def _plain_path_types() -> tuple[type, ...]:
    """Path types whose __fspath__ is the standard library's: the hook asks them for the path
    (a candidate's own path type could answer open() and the hook differently)."""
    import pathlib

    return (pathlib.PosixPath, pathlib.PurePosixPath, pathlib.Path, pathlib.PurePath, os.DirEntry)


_PATH_TYPES = _plain_path_types()


class Guard:
    """`install()` once per check child (before any candidate code), then `arm()` from the
    harness frame that runs the candidate: frames below it are the grader's.

    The hook is a closure made by `install()` (see `_make_hook`): when an event fires it looks
    nothing up in this class, this module or `builtins`, which the candidate can reach without
    a frame (`object.__subclasses__()`, any function's `__globals__`, `import builtins`)."""

    def __init__(self, trusted_files: list[str] | None = None, trusted_dirs: list[str] | None = None):
        self.trusted_files = frozenset(trusted_files or ())
        self.prefixes = _DEFAULT_PREFIXES if not trusted_dirs else _trusted_prefixes(list(trusted_dirs))
        self.protected_dirs: tuple[str, ...] = ()
        self.refusals: list[str] = []
        self._raw_memory = _raw_memory_functions()
        self._controls: tuple[Callable[..., Any], ...] | None = None

    def _make(self) -> tuple[Callable[..., Any], ...]:
        if self._controls is None:
            self._controls = _make_hook(self.trusted_files, self.prefixes, tuple(self.protected_dirs),
                                        self._raw_memory, self.refusals)
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
        """Call after setting `protected_dirs`: the hook is built from the settings as they are now."""
        sys.addaudithook(self._make()[0])
        _neuter_signal_frames()


def _make_hook(trusted_files: frozenset[str], prefixes: tuple[str, ...], protected_dirs: tuple[str, ...],
               raw_memory: frozenset[int], refusals: list[str]) -> tuple[Callable[..., Any], ...]:
    """(hook, arm, disarm, is_armed). Every name the hook uses when an event fires is a local of
    this function, bound now, before candidate code runs: the tables, the builtins and unbound
    str/bytes methods (so a str subclass's overrides do not answer for its content), the state
    (armed, base frame, re-entry flag) in cells. A candidate that rebinds `Guard._refuse`, empties
    `_DENY_EVENTS` in this module or patches `builtins.isinstance` changes nothing the hook sees;
    a closure's cells are reachable only through frames or gc, which the hook refuses."""
    getframe = sys._getframe
    _open, _type, _isinstance, _str, _bytes, _int = open, type, isinstance, str, bytes, int
    to_str = str.__str__  # an exact str with a subclass's characters
    to_bytes = bytes.__bytes__
    startswith, endswith, isdigit, encode, decode = str.startswith, str.endswith, str.isdigit, str.encode, bytes.decode
    fspath, fs_encoding = os.fspath, sys.getfilesystemencoding()
    deny_events, frame_attrs, stack_fns = _DENY_EVENTS, _FRAME_ATTRS, _STACK_FNS
    text_libs, frame_libs, frame_pkgs = _TEXT_LIBS, _FRAME_LIBS, _FRAME_PKGS
    logging_init = _TEXT_LIBS[1]
    proc_files = ("/proc/self/fd", "/proc/self/mem", "/proc/self/maps", "/proc/self/environ", "/proc/thread-self")
    path_types = _PATH_TYPES
    code_setattrs = ("__code__", "f_trace")
    ctypes_reads = ("ctypes.string_at", "ctypes.wstring_at", "ctypes.cdata")
    py_symbols = ("Py", "_Py")
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
        is on the way, except, for frame events, when every trusted frame between the access and
        the candidate returns something other than frames."""
        frame = getframe(depth)
        between = []
        while frame is not None and frame is not base:
            code = frame.f_code
            if not is_trusted(code.co_filename):
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

    def forged_compile(filename: Any, source: Any) -> bool:
        """compile()/code objects named after a trusted file would pass as trusted frames."""
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

    def protected_path(path: Any) -> bool:
        if _type(path) in path_types:
            path = fspath(path)  # pathlib's own __fspath__: the characters open() will use
        elif _isinstance(path, _int):
            return False  # an fd the process already holds
        if _isinstance(path, _bytes):
            path = decode(to_bytes(path), fs_encoding, "surrogateescape")
        elif _isinstance(path, _str):
            path = to_str(path)
        else:
            return True  # a path object of the candidate's own: its __fspath__ could answer twice
        if protected_dirs and startswith(path, protected_dirs):
            return True  # the test files: expected values are in there
        if not startswith(path, "/proc/"):
            return False
        return startswith(path, proc_files) or isdigit(path[6:7]) or "/task/" in path

    def hook(event: str, args: tuple[Any, ...]) -> None:
        nonlocal busy
        if not armed or busy:
            return
        frame_event = False
        if event in deny_events:
            frame_event = event == "sys._getframe"
        elif event == "object.__getattr__":
            if args[1] not in frame_attrs:
                return
            frame_event = True
        elif event == "object.__setattr__":
            if len(args) < 2 or args[1] not in code_setattrs:
                return
        elif startswith(event, "ctypes."):
            # ctypes stays usable for calling libc (the kernel layers are tested that way);
            # what reads or writes the interpreter's memory, or reaches the C API, is refused.
            if event in ctypes_reads:
                pass
            elif event == "ctypes.dlsym":
                name = exact(args[1]) if len(args) > 1 else None
                if name is None or not startswith(name, py_symbols):
                    return
            elif event == "ctypes.call_function":
                if not raw_memory or args[0] not in raw_memory:
                    return
            else:
                return
        elif event == "compile" or event == "code.__new__":
            busy = True
            try:
                forged = forged_compile(args[1] if len(args) > 1 else None, args[0] if event == "compile" else None)
            finally:
                busy = False
            if not forged:
                return
        elif event == "open":
            busy = True
            try:
                protected = protected_path(args[0])
            finally:
                busy = False
            if not protected:
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


def _raw_memory_functions() -> frozenset[int]:
    """Addresses of ctypes' memmove/memset (callable on any address: raw memory access)."""
    try:
        import ctypes

        return frozenset(ctypes.cast(f, ctypes.c_void_p).value for f in (ctypes.memmove, ctypes.memset))
    except Exception:  # noqa: BLE001 - no ctypes, nothing to guard
        return frozenset()


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
