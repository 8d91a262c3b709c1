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
from typing import Any

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


class Guard:
    """`install()` once per check child (before any candidate code), then `arm()` from the
    harness frame that runs the candidate: frames below it are the grader's."""

    def __init__(self, trusted_files: list[str] | None = None, trusted_dirs: list[str] | None = None):
        self.trusted_files = frozenset(trusted_files or ())
        self.prefixes = _DEFAULT_PREFIXES if not trusted_dirs else _trusted_prefixes(list(trusted_dirs))
        self.protected_dirs: tuple[str, ...] = ()
        self.armed = False
        self.base: Any = None
        self.refusals: list[str] = []
        self._getframe = sys._getframe
        self._open = open
        self._startswith = str.startswith
        self._busy = False
        self._cache: dict[str, bool] = {}
        self._raw_memory = _raw_memory_functions()

    def _is_trusted_file(self, filename: str) -> bool:
        hit = self._cache.get(filename)
        if hit is None:
            hit = (
                filename in self.trusted_files
                or filename.startswith("<frozen ")
                or (filename.startswith("/") and any(self._startswith(filename, p) for p in self.prefixes))
            )
            self._cache[filename] = hit
        return hit

    def _frame_handing(self, code: Any) -> bool:
        fn = code.co_filename
        if code.co_name == "<module>":
            return False  # a module being imported on the candidate's behalf, not an API call
        if fn.endswith(_FRAME_LIBS) or any(part in fn for part in _FRAME_PKGS):
            return True
        return code.co_name in _STACK_FNS and fn.endswith(_TEXT_LIBS)

    def _refuse(self, depth: int, frame_event: bool) -> bool:
        """Walk from the audited call up to the harness's frame. Refuse when a candidate frame
        is on the way, except, for frame events, when every trusted frame between the access and
        the candidate returns something other than frames."""
        frame = self._getframe(depth)
        between = []
        while frame is not None and frame is not self.base:
            code = frame.f_code
            if not self._is_trusted_file(code.co_filename):
                if not frame_event or not between:
                    return True
                return any(self._frame_handing(c) for c in between)
            between.append(code)
            frame = frame.f_back
        return False

    def _forged_compile(self, filename: Any, source: Any) -> bool:
        """compile()/code objects named after a trusted file would pass as trusted frames."""
        if isinstance(filename, bytes):
            filename = filename.decode("utf-8", "replace")
        if not isinstance(filename, str) or not self._is_trusted_file(filename):
            return False
        if filename.startswith("/") and isinstance(source, (bytes, str)):
            # the import system compiling a real file of the read-only tree is genuine
            try:
                with self._open(filename, "rb") as fh:
                    disk = fh.read()
            except OSError:
                return True
            return (source.encode() if isinstance(source, str) else source) != disk
        return True

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        if not self.armed or self._busy:
            return
        frame_event = False
        if event in _DENY_EVENTS:
            frame_event = event == "sys._getframe"
        elif event == "object.__getattr__":
            if args[1] not in _FRAME_ATTRS:
                return
            frame_event = True
        elif event == "object.__setattr__":
            if len(args) < 2 or args[1] not in ("__code__", "f_trace"):
                return
        elif event.startswith("ctypes."):
            # ctypes stays usable for calling libc (the kernel layers are tested that way);
            # what reads or writes the interpreter's memory, or reaches the C API, is refused.
            if event in ("ctypes.string_at", "ctypes.wstring_at", "ctypes.cdata"):
                pass
            elif event == "ctypes.dlsym":
                name = args[1] if len(args) > 1 else ""
                if not (isinstance(name, str) and name.startswith(("Py", "_Py"))):
                    return
            elif event == "ctypes.call_function":
                if not self._raw_memory or args[0] not in self._raw_memory:
                    return
            else:
                return
        elif event == "compile" or event == "code.__new__":
            self._busy = True
            try:
                forged = self._forged_compile(args[1] if len(args) > 1 else None, args[0] if event == "compile" else None)
            finally:
                self._busy = False
            if not forged:
                return
        elif event == "open":
            path = args[0]
            if not isinstance(path, str):
                return
            if self.protected_dirs and path.startswith(self.protected_dirs):
                pass  # the test files: expected values are in there
            elif not path.startswith("/proc/"):
                return
            elif not (
                path.startswith(("/proc/self/fd", "/proc/self/mem", "/proc/self/maps", "/proc/self/environ",
                                 "/proc/thread-self"))
                or path[6:7].isdigit()
                or "/task/" in path
            ):
                return
        else:
            return
        self._busy = True
        try:
            refuse = self._refuse(2, frame_event)
        finally:
            self._busy = False
        if refuse:
            self.refusals.append(event)
            raise GuardRefused(f"refused by the grader: {event}")

    def arm(self) -> None:
        """Refuse from now on; the caller's frame and those below it are the grader's."""
        self.base = self._getframe(1)
        self.armed = True

    def install(self) -> None:
        sys.addaudithook(self.hook)
        _neuter_signal_frames()


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

    def guarded(signalnum, handler):  # noqa: ANN001 - same signature as signal.signal
        if callable(handler):
            inner = handler

            def handler(sig, _frame, _inner=inner):  # noqa: ANN001
                return _inner(sig, None)

        return real(signalnum, handler)

    guarded.__doc__ = real.__doc__
    # signal.signal calls _signal.signal at call time, so this covers both entry points.
    _signal.signal = guarded
