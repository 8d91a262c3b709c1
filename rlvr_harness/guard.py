"""An in-process guard: while candidate code runs, refuse it what reaches the grader's own
state, and nothing else.

The candidate runs in the same process as the harness and the tests. What decides a verdict
lives in harness and test frames (the failure log, the tests' expected values in their locals
and code constants), so the guard is an allowlist seen from the grader's side: candidate code
may use every library and every object of its own, and may not touch

- frames: `sys._getframe` (so `inspect.currentframe/stack`, `traceback.walk_stack`),
  `sys._current_frames`, `tb_frame` / `gi_frame` / `cr_frame` / `ag_frame` / `f_code`,
  `sys.settrace` / `sys.setprofile`, signal handlers' frame argument (None instead);
- the heap as a whole: `gc.get_objects`, `gc.get_referrers`, `gc.get_referents`;
- the grader's code: reading or replacing `__code__`, `__defaults__`, `__kwdefaults__` of a
  function of the harness, the tests, pytest or pluggy, `gi_code`/`cr_code` of theirs (a
  library's or the candidate's own functions are the candidate's business);
- raw memory and native code: importing ctypes, _ctypes, cffi, _cffi_backend or the _test*
  modules (refused to library code too, as an ImportError), any interpreter extension module
  not on STDLIB_EXTENSIONS (subinterpreters), any extension from outside the library tree, and
  every ctypes event;
  `/proc/<pid>/...` files outside a short allowlist of status files, decided on the *resolved*
  path (`..`, symlinks, `/proc/self/root`, `/dev/fd` all resolve first);
- the test files (the pytest module is served to pytest from memory; its file on disk is a
  placeholder, and the guard refuses opening it anyway); `sys.addaudithook`.

Three rules decide who asks (docs/fidelity.md, "The in-process guard"):

1. **Trust by provenance.** A frame is the grader's or a library's only if its code object is
   one the registry holds (harness/provenance.py): by identity, never by file name. No
   `compile`, `CodeType`, `code.replace`, `marshal` or `.pyc` of the candidate's can make a
   trusted code object, so none of those needs refusing.
2. **The requester names what it takes.** A frame, heap or code access is honoured only if the
   innermost Python frame is trusted code that names it (`_getframe`, `tb_frame`, `__code__` ...
   among its names or string constants). A candidate callable that fires inside trusted code —
   a `__del__` that is a `functools.partial`, a weakref callback, a key function, a descriptor —
   is not code that names the access, whatever frames surround it.
3. **No candidate frame in between.** Walking from the access to the harness frame that armed
   the guard meets no frame of code nobody vouches for (another thread never meets it: its first
   frame is the candidate's choice). A trusted function that turns frames into text on the
   candidate's behalf (logging's findCaller, traceback.format_exc) is allowed, but never over a
   frame of the harness, and never rendering locals (`capture_locals`).

What Python cannot see is the kernel's (sandbox/, see docs/fidelity.md): a subprocess, an
`openat` relative to a directory fd, process_vm_readv, ptrace, prctl(PR_SET_DUMPABLE), the
result channel's descriptor, and memory access by C extensions.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from typing import Any, Callable

from rlvr_harness import provenance

_FRAME_ATTRS = frozenset(("tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_code"))
_CODE_ATTRS = frozenset(("__code__", "__defaults__", "__kwdefaults__", "gi_code", "cr_code", "ag_code"))
# event -> the name the requesting code must mention
_DENY_EVENTS = {
    "sys._getframe": "_getframe", "sys._current_frames": "_current_frames", "sys.settrace": "settrace",
    "sys.setprofile": "setprofile", "sys.addaudithook": None, "gc.get_objects": "get_objects",
    "gc.get_referrers": "get_referrers", "gc.get_referents": "get_referents",
    "sys._getframemodulename": "_getframemodulename",
}
# Modules that read and write raw memory by address: refused in a check outright, to library
# code too (preloaded environments import with them blocked: sandbox/zygote.py preload).
NATIVE_MEMORY_MODULES = frozenset(("ctypes", "_ctypes", "cffi", "_cffi_backend", "_testcapi", "_testinternalcapi"))
# The interpreter's own extension modules (its lib-dynload directory) candidate code may load:
# an allowlist. Not on it: raw memory (_ctypes, the _test* modules, which read and write any
# address or object field), subinterpreters (_xxsubinterpreters: code run there has no audit
# hook of this interpreter, and imports ctypes in the same address space), the examples and
# fuzzers (xxlimited, _xxtestfuzz). A module a newer interpreter adds is refused until listed.
STDLIB_EXTENSIONS = frozenset((
    "_asyncio", "_bisect", "_blake2", "_bz2", "_codecs_cn", "_codecs_hk", "_codecs_iso2022", "_codecs_jp",
    "_codecs_kr", "_codecs_tw", "_contextvars", "_crypt", "_csv", "_curses", "_curses_panel", "_datetime", "_dbm",
    "_decimal", "_elementtree", "_gdbm", "_hashlib", "_heapq", "_json", "_lsprof", "_lzma", "_md5",
    "_multibytecodec", "_multiprocessing", "_opcode", "_pickle", "_posixshmem", "_posixsubprocess", "_queue",
    "_random", "_sha1", "_sha2", "_sha256", "_sha3", "_sha512", "_socket", "_sqlite3", "_ssl", "_statistics",
    "_struct", "_tkinter", "_typing", "_uuid", "_zoneinfo", "array", "audioop", "binascii", "cmath", "fcntl", "grp",
    "math", "mmap", "nis", "ossaudiodev", "pyexpat", "readline", "resource", "select", "spwd", "syslog", "termios",
    "unicodedata", "zlib",
))
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
    roots.update(extra)
    out = set()
    for r in roots:
        if r:
            out.add(os.path.join(r, ""))
            out.add(os.path.join(os.path.realpath(r), ""))
    return tuple(sorted(out))


# Where the standard library and installed packages live (computed once when the worker
# imports the harness).
_LIBRARY_PREFIXES = _trusted_prefixes([])


def library_prefixes() -> tuple[str, ...]:
    """Where the standard library and installed packages live (with a trailing separator)."""
    return _LIBRARY_PREFIXES


def _plain_path_types() -> tuple[type, ...]:
    """Path types whose __fspath__ is the standard library's: the hook asks them for the path
    (a candidate's own path type could answer open() and the hook differently)."""
    import pathlib

    return (pathlib.PosixPath, pathlib.PurePosixPath, pathlib.Path, pathlib.PurePath, os.DirEntry)


_PATH_TYPES = _plain_path_types()


class Guard:
    """`install()` once per process (the worker does it before forking any check), then
    `arm()` from the harness frame that runs the candidate: frames below it are the grader's.

    `protected` are paths (resolved) candidate code may not open: a path ending in the
    separator protects everything under it. `trust(code)` registers code the harness compiled
    (the tests) before the candidate runs.

    The hook is a closure made by `_make_hook`: when an event fires it looks nothing up in this
    class, this module or `builtins`, which the candidate can reach without a frame
    (`object.__subclasses__()`, any function's `__globals__`, `import builtins`). A Guard is held
    only in harness locals and the worker's prebuilt state, which each check pops before the
    candidate runs."""

    def __init__(self, registry: provenance.Registry | None = None, protected: tuple[str, ...] = ()):
        self.registry = registry
        self.protected = tuple(protected)
        self.refusals: list[str] = []
        self._controls: tuple[Callable[..., Any], ...] | None = None

    def _make(self) -> tuple[Callable[..., Any], ...]:
        if self._controls is None:
            if self.registry is None:
                self.registry = provenance.make_registry()
                self.registry.scan()
            self._controls = _make_hook(self.registry, self.refusals)
            self._controls[4](self.protected)
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

    def protect(self, paths: tuple[str, ...]) -> None:
        self.protected = tuple(paths)
        self._make()[4](self.protected)

    def trust(self, code: Any, category: int = provenance.TESTS) -> None:
        """Code the harness compiled itself (the tests), before the candidate runs."""
        self._make()
        assert self.registry is not None
        self.registry.add(code, category)

    def install(self) -> None:
        """Add the hook to this process (once: a second call does nothing), after arming the
        array interface's check (rlvr_harness/arrays.py) and patching the extension modules
        loaded so far; those imported later are patched as they load (the hook)."""
        from rlvr_harness import arrays

        arrays.arm(library_prefixes())
        controls = self._make()
        if not controls[5]():
            sys.addaudithook(controls[0])
            _neuter_signal_frames()
            _clearing_no_trace_is_nothing()
            _seal_array_items()


def _arrays_prepare() -> Callable[[str], Any] | None:
    """rlvr_harness/_arrays.prepare once its check is armed, else None (not built, or a
    platform whose tables it cannot patch: arrays.arm says why)."""
    from rlvr_harness import arrays

    if arrays.arm(library_prefixes()) is not None:
        return None
    from rlvr_harness import _arrays

    return _arrays.prepare if _arrays.supported() and _arrays.armed() else None


def _make_hook(registry: provenance.Registry, refusals: list[str]) -> tuple[Callable[..., Any], ...]:
    """(hook, arm, disarm, is_armed, set_protected, installed). Every name the hook uses when an
    event fires is a local of this function, bound now, before candidate code runs: the tables,
    the builtins and unbound str/bytes methods (so a str subclass's overrides do not answer for
    its content), the state (armed, base frame, re-entry flag) in cells. The hook itself is held
    only by the interpreter's list of audit hooks, which Python code cannot read."""
    getframe = sys._getframe
    _type, _isinstance, _str, _bytes, _int, _len = type, isinstance, str, bytes, int, len
    to_str = str.__str__  # an exact str with a subclass's characters
    to_bytes = bytes.__bytes__
    startswith, endswith, isdigit, decode = str.startswith, str.endswith, str.isdigit, bytes.decode
    split = str.split
    fspath, fs_encoding = os.fspath, sys.getfilesystemencoding()
    realpath, getcwd, join, getpid = os.path.realpath, os.getcwd, os.path.join, os.getpid
    getattr_ = getattr
    _id, _set, _dict, dict_items = id, set, dict, dict.items
    walked = (tuple, list, set, frozenset, dict)
    load_errors = (ValueError, EOFError, TypeError)
    code_type = type((lambda: 0).__code__)
    function_type = type(_make_hook)
    fn_code = function_type.__dict__["__code__"].__get__

    def _gen() -> Any:
        yield

    async def _coro() -> None:
        pass

    async def _agen() -> Any:
        yield

    gen_code = {type(g): type(g).__dict__[a].__get__ for g, a in ((_gen(), "gi_code"), (_agen(), "ag_code"))}
    _c = _coro()
    gen_code[type(_c)] = type(_c).__dict__["cr_code"].__get__
    _c.close()
    frame_type = type(getframe())
    deny_events, frame_attrs, code_attrs = dict(_DENY_EVENTS), _FRAME_ATTRS, _CODE_ATTRS
    native = NATIVE_MEMORY_MODULES
    stdlib_extensions = STDLIB_EXTENSIONS
    import _json
    import importlib.machinery

    ext_suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    prepare = _arrays_prepare()
    dynload = os.path.join(os.path.realpath(os.path.dirname(_json.__file__)), "")
    basename = os.path.basename
    proc_allowed = PROC_SELF_ALLOWED
    prefixes = _LIBRARY_PREFIXES
    path_types = _PATH_TYPES
    refused_error = GuardRefused
    import_error = ImportError
    note = refusals.append
    flags_of, category, add, names, verified = (registry.flags, registry.category, registry.add, registry.names,
                                                registry.verified)
    LIBRARY, HARNESS, TESTS = provenance.LIBRARY, provenance.HARNESS, provenance.TESTS
    FRAME_API, TEXT_STACK, TRAMPOLINE = provenance.FRAME_API, provenance.TEXT_STACK, provenance.TRAMPOLINE
    LOGGING_LAMBDA, SIGNATURE, GRADER, CAPTURE = (provenance.LOGGING_LAMBDA, provenance.SIGNATURE, provenance.GRADER,
                                                  provenance.CAPTURE)
    LATE = provenance.LATE
    category_of_file = provenance.category_of_file
    import marshal

    loads = marshal.loads
    loads_sealed = _seal_marshal_loads(loads)
    _compile = compile
    os_open, os_read, os_close, os_fstat = os.open, os.read, os.close, os.fstat
    O_RDONLY = os.O_RDONLY

    def read_file(path: str) -> bytes:
        fd = os_open(path, O_RDONLY)
        try:
            size = os_fstat(fd).st_size
            chunks = []
            while size > 0:
                chunk = os_read(fd, size)
                if not chunk:
                    break
                chunks.append(chunk)
                size -= _len(chunk)
            return b"".join(chunks)
        finally:
            os_close(fd)

    armed = False
    started = False  # the candidate has started in this process: module code is verified from then on
    busy = False
    base: Any = None
    protected: tuple[str, ...] = ()
    installed = False

    def exact(s: Any) -> Any:
        """`s` as an exact str (None when it is no str at all)."""
        if _type(s) is _str:
            return s
        if _isinstance(s, _str):
            return to_str(s)
        if _isinstance(s, _bytes):
            return decode(to_bytes(s), "utf-8", "surrogateescape")
        return None

    def candidate_between(depth: int) -> bool:
        """Whether a frame of code nobody vouches for sits between the innermost frame (depth
        below the caller) and the harness's base frame, or the walk never meets the base."""
        frame = getframe(depth)
        while frame is not base:
            if frame is None or not category(frame.f_code) or flags_of(frame.f_code) & TRAMPOLINE:
                return True
            frame = frame.f_back
        return False

    def refuse(depth: int, frame_event: bool, handed: Any) -> bool:
        """Walk from the audited call up to the harness's frame. Refuse when a candidate frame
        is on the way, or the walk never meets the harness's frame — except, for frame events,
        when every trusted frame between the access and the candidate returns something other
        than frames, and the frame handed over is not the harness's."""
        frame = getframe(depth)
        between = []
        while frame is not base:
            code = frame.f_code if frame is not None else None
            f = flags_of(code) if code is not None else 0
            if frame is None or not (f & 0xF) or f & TRAMPOLINE:
                if not frame_event or not between:
                    return True
                if handed is not None and category(handed.f_code) == HARNESS:
                    return True  # text of the harness's own frames is nobody's business
                if between[-1][1] & LOGGING_LAMBDA:
                    # logging.currentframe is `lambda: sys._getframe(1)`: called by findCaller it
                    # feeds a text API; called by the candidate it hands over the candidate's own
                    # frame, whose f_back/f_locals (not audited) lead to ours
                    return True
                for _code, cf, fr in between:
                    if cf & (FRAME_API | TEXT_STACK):
                        return True
                    if cf & CAPTURE and fr.f_locals.get("capture_locals"):
                        return True  # renders locals: a frame API in text form
                return False
            between.append((code, f, frame))
            frame = frame.f_back
        return False

    def requester_names(depth: int, name: Any) -> bool:
        """The innermost Python frame is trusted code that mentions `name`."""
        frame = getframe(depth)
        if frame is None:
            return False
        code = frame.f_code
        if not category(code):
            return True  # candidate code asking: the walk refuses it
        return name in names(code)

    def library_requester(depth: int, wanted: tuple[str, ...]) -> Any:
        """The innermost frame if trusted code (no trampoline) naming one of `wanted`."""
        frame = getframe(depth)
        if frame is None:
            return None
        code = frame.f_code
        f = flags_of(code)
        if not (f & 0xF) or f & TRAMPOLINE:
            return None
        got = names(code)
        for w in wanted:
            if w in got:
                return frame
        return None

    def unverified_code(event: str, args: tuple[Any, ...]) -> Any:
        """Why a code object about to be made is refused, or None. Bytecode runs unchecked (a
        LOAD_CONST past co_consts reads any address): only the compiler's output runs
        (docs/fidelity.md, "No raw memory")."""
        if event == "code.__new__":
            return None if library_requester(3, ("replace", "CodeType")) is not None else "a code object made at run time"
        if event == "marshal.load":
            # from a file: no bytes to check (runpy of a .pyc; pytest's cache falls back to source)
            return "code unmarshalled from a file"
        frame = library_requester(3, ("loads",))
        if frame is None or frame.f_code.co_name != "_compile_bytecode":
            # data (`marshal.loads(marshal.dumps(grid))`, a fast deep copy) is anyone's: refused
            # only when the bytes hold a code object. What is parsed is exactly these bytes
            # where marshal.loads is sealed (it copies a mutable buffer first), else nothing is told
            return None if loads_sealed and _len(args) and not holds_code(args[0]) else "unmarshalled code"
        local = frame.f_locals
        cached = exact(local.get("bytecode_path"))
        if cached is not None and startswith(realpath(cached), prefixes):
            return None
        source = exact(local.get("source_path"))
        if source is not None and _len(args) and _isinstance(args[0], _bytes):
            try:
                if _compile(read_file(source), source, "exec", dont_inherit=True) == loads(to_bytes(args[0])):
                    return None
            except (OSError, SyntaxError, ValueError, EOFError, TypeError):
                pass
        return f"bytecode not compiled from its source: {cached}"

    def holds_code(data: Any) -> bool:
        """Whether marshal data holds a code object (loaded here, inside the hook, and walked:
        marshal builds only exact builtin types). Bytes that do not load hold nothing: the
        call itself raises."""
        if _type(data) is not _bytes:
            return True
        try:
            value = loads(data)
        except load_errors:
            return False
        todo, seen = [value], _set()
        while todo:
            x = todo.pop()
            t = _type(x)
            if t is code_type:
                return True
            if t in walked:
                if _id(x) in seen:
                    continue
                seen.add(_id(x))
                todo.extend(dict_items(x) if t is _dict else x)
        return False

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

    def graders_code(target: Any, attr: str, writing: bool = False) -> Any:
        """The grader's code object behind `target.<attr>` (a function's or a generator's of the
        harness, the tests, pytest or pluggy loaded before the candidate; when `writing`, also a
        library's that existed before the candidate started: the tests call those, and a
        candidate that replaces `np.testing.assert_allclose.__code__` or its `__defaults__`
        decides what they answer), else None. Read through the C types' own descriptors: nothing of the candidate's runs
        inside the hook."""
        t = _type(target)
        if t is function_type:
            code = fn_code(target)
        elif t in gen_code:
            code = gen_code[t](target)
        else:
            return None
        if _type(code) is not code_type:
            return None
        f = flags_of(code)
        if writing and (f & 0xF) == LIBRARY and not f & LATE:
            return code
        # pytest and pluggy are the grader's only where they were loaded before the candidate
        # (the pytest worker; tests that import pytest): imported late by the program itself in
        # an asserts check, they are a library like any other, whose import reads its own code
        return code if (f & 0xF) in (HARNESS, TESTS) or (f & GRADER and not f & LATE) else None

    def consider_exec(code: Any) -> None:
        """Module code the import system (or anyone) is about to run while the candidate is
        active: the library's own if it equals the file its name points to; code a library
        generates while no candidate frame is on the stack is the library's too."""
        if _type(code) is not code_type or category(code):
            return
        filename = exact(code.co_filename) or ""
        if startswith(filename, "/"):
            # a file's code (the import system's): the library's only if it is the file's
            if startswith(realpath(filename), prefixes) and verified(code, read_file, loads, _compile):
                add(code, LIBRARY, LATE)
            return
        # "<string>" and the like: made from text at run time; a library's own template
        # (dataclasses, namedtuple) when a library frame runs it and no candidate frame is below
        caller = getframe(2)  # consider_exec <- hook <- exec's caller
        if caller is not None and category(caller.f_code) == LIBRARY and not candidate_between(3):
            add(code, LIBRARY, LATE)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        nonlocal busy
        if busy:
            return
        if event == "exec":
            if not started:
                # before any candidate code in this process: whatever runs is the grader's or a
                # library's (the test modules' imports, pytest's plugins)
                if _len(args) and _type(args[0]) is code_type and not category(args[0]):
                    add(args[0], category_of_file(exact(args[0].co_filename) or ""))
                return
            if armed:
                busy = True
                try:
                    consider_exec(args[0] if _len(args) else None)
                finally:
                    busy = False
            return
        if not armed:
            return
        frame_event = False
        handed = None
        named = None
        if event in deny_events:
            frame_event = event == "sys._getframe"
            named = deny_events[event]
            if frame_event and _len(args) and _type(args[0]) is frame_type:
                handed = args[0]
            if named is None:  # sys.addaudithook: nobody's business while a check runs
                note(event)
                raise refused_error(f"refused by the grader: {event}")
        elif event == "object.__getattr__" or event == "object.__setattr__":
            if _len(args) < 2:
                return
            attr = exact(args[1])
            if attr in frame_attrs:
                frame_event = event == "object.__getattr__"
                named = attr
                if attr == "tb_frame" and frame_event:
                    busy = True
                    try:
                        handed = getattr_(args[0], "tb_frame", None)
                    finally:
                        busy = False
                    if _type(handed) is not frame_type:
                        handed = None
            elif attr in code_attrs:
                busy = True
                try:
                    mine = graders_code(args[0], attr, event == "object.__setattr__")
                    if mine is not None and event == "object.__getattr__":
                        reader = getframe(1)
                        rf = flags_of(reader.f_code) if reader is not None else 0
                        if (rf & 0xF) == HARNESS and requester_names(2, attr):
                            mine = None  # the harness reading its own (strict.call, genuine())
                        elif rf & SIGNATURE and category(mine) == TESTS:
                            # inspect.signature of a callback the tests handed over: its argument
                            # names and defaults; never of the harness's, pytest's or pluggy's own
                            # (the recorder keeps its state in a default)
                            mine = None
                finally:
                    busy = False
                if mine is None:
                    return
                named = attr
            elif attr == "f_trace":
                named = "f_trace"
            else:
                return
        elif startswith(event, "ctypes."):
            pass  # every address-level operation: refused to candidate code
        elif event == "import":
            name = exact(args[0]) if args else None
            filename = exact(args[1]) if _len(args) > 1 else None
            if name is None:
                return
            refused_import = None
            if split(name, ".")[0] in native:
                refused_import = f"import {name}"
            elif filename is not None and endswith(filename, ext_suffixes):
                # An extension module's file: from the library tree only (a .so the candidate
                # wrote, or a memfd, is native code of its own), and from the interpreter's own
                # directory only when allowlisted.
                busy = True
                try:
                    real = realpath(filename)
                finally:
                    busy = False
                if not startswith(real, prefixes):
                    refused_import = f"loading native code from {filename}"
                elif startswith(real, dynload) and split(basename(real), ".")[0] not in stdlib_extensions:
                    refused_import = f"import {split(basename(real), '.')[0]}"
                elif startswith(split(basename(real), ".")[0], "_test") or endswith(split(basename(real), ".")[0], "_tests"):
                    # A library's own test extensions (numpy._core._multiarray_tests: its
                    # corrupt_or_fix_bufferinfo, npy_abuse_writebackifcopy) poke at raw memory
                    # as the interpreter's _testcapi does; the libraries never import them.
                    refused_import = f"import {split(basename(real), '.')[0]}"
            if refused_import is None:
                if prepare is not None and filename is not None and endswith(filename, ext_suffixes):
                    # Patched before its first line runs: its reads of the array interface
                    # go through rlvr_harness/arrays.py (issue 15, raw memory).
                    busy = True
                    try:
                        prepare(real)
                    except OSError:
                        pass  # the import itself says why the file does not load
                    finally:
                        busy = False
                return
            # Refused to everyone, a library included: once loaded, a raw-memory module's types
            # are reachable by anyone (object.__subclasses__()), so numpy or multiprocessing
            # loading ctypes on the candidate's behalf would hand it over. An ImportError, so a
            # library that can do without (numpy's `try: import ctypes`) goes on.
            note(f"import {refused_import}")
            raise import_error(f"refused by the grader: {refused_import}")
        elif event in ("code.__new__", "marshal.loads", "marshal.load"):
            busy = True
            try:
                why = unverified_code(event, args)
            finally:
                busy = False
            if why is None:
                return
            note(f"{event}: {why}")
            raise refused_error(f"refused by the grader: {why}")
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
            refused = (named is not None and not requester_names(2, named)) or refuse(2, frame_event, handed)
        finally:
            busy = False
        if refused:
            what = event if named is None else f"{event} {named}"
            note(what)
            raise refused_error(f"refused by the grader: {what}")

    def arm(frame: Any) -> None:
        nonlocal armed, base, started
        base = frame
        armed = True
        started = True

    def disarm() -> None:
        nonlocal armed
        armed = False

    def is_armed() -> bool:
        return armed

    def set_protected(paths: tuple[str, ...]) -> None:
        nonlocal protected
        protected = tuple(to_str(p) for p in paths)

    def mark_installed() -> bool:
        nonlocal installed
        was, installed = installed, True
        return was

    return hook, arm, disarm, is_armed, set_protected, mark_installed


def _seal_marshal_loads(loads: Callable[[Any], Any]) -> bool:
    """marshal.loads parses a copy of a mutable buffer (rlvr_harness/_dictver.c), so the bytes the
    hook checks are the bytes parsed; False where the module is not built (marshal data is then
    refused as before)."""
    try:
        from rlvr_harness import _dictver
    except ImportError:
        return False
    seal = getattr(_dictver, "seal_marshal_loads", None)
    try:
        return seal is not None and seal(loads) is True
    except (TypeError, OSError):
        return False


def _seal_array_items() -> None:
    """array.array's and mmap.mmap's item setters convert first, then check the index: an
    __index__ that shrinks the array or resizes the map under the write was a write anywhere
    (rlvr_harness/_dictver.c)."""
    try:
        from rlvr_harness import _dictver
    except ImportError:
        return
    seal = getattr(_dictver, "seal_array_items", None)
    if seal is not None:
        import array

        seal(tuple(array.array(t) for t in array.typecodes))
    seal = getattr(_dictver, "seal_mmap_items", None)
    if seal is not None:  # mmap.mmap's item setter likewise (a resize or close under the write)
        import mmap

        seal(mmap.mmap)


def _neuter_signal_frames() -> None:
    """Signal handlers receive the interrupted frame: hand them None instead. The real
    `_signal.signal` is held in a keyword-only default (reading it is a `__kwdefaults__` access
    the guard refuses), not a closure cell: `__closure__` is readable by anyone. The handler
    installed is a partial of a harness function that holds no state (`.func`, `.args` show
    nothing but the candidate's own handler)."""
    import _signal
    import functools

    real = _signal.signal

    def guarded(signalnum, handler, *, _real=real, _callable=callable, _partial=functools.partial,  # noqa: ANN001
                _pass=_without_frame):
        if _callable(handler):
            return _real(signalnum, _partial(_pass, handler))
        return _real(signalnum, handler)

    guarded.__doc__ = real.__doc__
    # signal.signal calls _signal.signal at call time, so this covers both entry points.
    _signal.signal = guarded


def _clearing_no_trace_is_nothing() -> None:
    """`sys.settrace(None)` / `sys.setprofile(None)` while no trace or profile function is set
    change nothing, and are nothing: doctest's runner ends with `sys.settrace(save_trace)`, None
    where nobody traces (`doctest.testmod()` at a program's end scored 0: the audit event has no
    argument, so the guard could not tell None from a tracer). Any other call reaches the real
    function and its audit event as before: a trace or profile function is handed every frame
    of the thread, the tests' and the harness's once the program returns. The real functions
    are held in keyword-only defaults (reading them is a `__kwdefaults__` access the guard
    refuses); a fresh copy of `sys` (`_imp.create_builtin`) holds the real ones, still audited."""

    def settrace(function, /, *, _real=sys.settrace, _now=sys.gettrace):  # noqa: ANN001, ANN202
        if function is None and _now() is None:
            return None
        return _real(function)

    def setprofile(function, /, *, _real=sys.setprofile, _now=sys.getprofile):  # noqa: ANN001, ANN202
        if function is None and _now() is None:
            return None
        return _real(function)

    settrace.__doc__, setprofile.__doc__ = sys.settrace.__doc__, sys.setprofile.__doc__
    sys.settrace, sys.setprofile = settrace, setprofile


def _without_frame(handler: Callable[..., Any], sig: int, _frame: Any) -> Any:
    return handler(sig, None)
