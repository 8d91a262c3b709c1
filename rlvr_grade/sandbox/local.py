"""The local backend: one warm zygote process per slot, forking an isolated child per check."""

from __future__ import annotations

import itertools
import os
import queue
import signal
import subprocess
import threading
from dataclasses import dataclass, replace
from typing import Any

import rlvr_harness
from rlvr_grade.sandbox import PACKAGE_DIR, protocol
from rlvr_grade.sandbox.base import Backend, default_slots, execution_from_wire
from rlvr_grade.sandbox.zygote import THREAD_VARS
from rlvr_grade.types import Check, Execution, SandboxError
from rlvr_harness.wire import CheckPayload, Packed, WireError, WorkerInit

HARNESS_DIR = os.path.dirname(os.path.abspath(rlvr_harness.__file__))
# The PATH every check runs with (not the grader's): compilers and runtimes are found on it.
CHECK_PATH = "/usr/local/bin:/usr/bin:/bin"


def _zygote_env() -> dict[str, str]:
    # No PYTHONPATH: the seed finds rlvr_grade through boot_code, so nothing else of the
    # folder holding it (the grader's own site-packages, for an installed grader) is on its path.
    return {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        # One hash seed for every check on every slot and machine: set and dict-of-str
        # iteration order must not make the same rollout pass on one slot and fail on another.
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        **THREAD_VARS,
    }


# Imports rlvr_grade and rlvr_harness in a seed under the names a check would see them by
# (root.HARNESS_AT/<package>/...: their __file__, __path__ and the file names in their code),
# reading the files from the host folders in HOST. Exec'd from `-c`, so its own code is
# "<string>"; root.host_path asks `host_of` for the host folder behind such a name.
_SEED_FINDER = r"""
import os, sys, importlib.machinery as mc, importlib.util as iu
AT, HOST, EXT = %(at)r, %(host)r, tuple(mc.EXTENSION_SUFFIXES)
def host_of(path):
    top, _, rest = path[len(AT) + 1:].partition("/")
    return os.path.join(HOST[top], rest) if rest else HOST[top]
def mapped(path):
    return host_of(path) if path.startswith(AT + "/") and path[len(AT) + 1:].partition("/")[0] in HOST else path
class Source(mc.SourceFileLoader):
    def get_data(self, path):
        return mc.SourceFileLoader.get_data(self, mapped(path))
    def path_stats(self, path):
        return mc.SourceFileLoader.path_stats(self, mapped(path))
class Extension(mc.ExtensionFileLoader):
    def create_module(self, spec):
        spec.origin = mapped(self.path)
        try:
            module = mc.ExtensionFileLoader.create_module(self, spec)
        finally:
            spec.origin = self.path
        module.__file__ = self.path
        return module
class Finder:
    host_of = staticmethod(host_of)
    @staticmethod
    def find_spec(name, path=None, target=None):
        top, parts = name.partition(".")[0], name.split(".")[1:]
        if top not in HOST:
            return None
        at, host = os.path.join(AT, top, *parts), os.path.join(HOST[top], *parts)
        if os.path.isfile(os.path.join(host, "__init__.py")):
            f = os.path.join(at, "__init__.py")
            return iu.spec_from_file_location(name, f, loader=Source(name, f), submodule_search_locations=[at])
        if os.path.isfile(host + ".py"):
            return iu.spec_from_file_location(name, at + ".py", loader=Source(name, at + ".py"))
        for suffix in EXT:
            if os.path.isfile(host + suffix):
                return iu.spec_from_file_location(name, at + suffix, loader=Extension(name, at + suffix))
        return None
sys.meta_path.insert(0, Finder)
"""


def boot_code(call: str, inside: bool = False) -> str:
    """`python -s -c` code that imports rlvr_grade and the harness (rlvr_harness), then runs
    `call`. Neither is found through sys.path or PYTHONPATH: an environment's interpreter sees
    its own site-packages and these two packages, never the folder the grader is installed in
    (its other packages are the grader's). A seed (`inside` False) finds them through
    _SEED_FINDER, under the names a check sees (root.HARNESS_AT); a runner started inside the
    check's root (gVisor, `inside`) loads them from there by location. The path keeps `-c`'s ""
    (the working directory: "/" for a seed, the workdir in a check, where a `spawn` child of the
    candidate finds its `solution` module again)."""
    from rlvr_grade.sandbox.root import HARNESS_AT

    if inside:
        load = "".join(
            f"s = u.spec_from_file_location({name!r}, {HARNESS_AT + '/' + name + '/__init__.py'!r}, "
            f"submodule_search_locations=[{HARNESS_AT + '/' + name!r}]); "
            f"m = u.module_from_spec(s); sys.modules[{name!r}] = m; s.loader.exec_module(m); "
            for name in ("rlvr_grade", "rlvr_harness")
        )
        return "import sys, importlib.util as u; " + load + call
    finder = _SEED_FINDER % {"at": HARNESS_AT, "host": {"rlvr_grade": PACKAGE_DIR, "rlvr_harness": HARNESS_DIR}}
    return finder + call


class PreloadRefused(SandboxError):
    """A seed whose preloaded modules left threads running: it cannot fork workers safely."""


@dataclass(frozen=True)
class World:
    """What a seed runs in: an environment's interpreter (`env_id` "" is the default
    environment), the modules it imports before forking (`preload`) and the environment's own
    libraries, asked what raw-memory modules they need whatever `preload` is (`needs`). `venv`
    is the environment's venv folder and `stdlib` (the base interpreter's stdlib folder, the
    environment's snapshot of it: envs.stdlib_snapshot) and `interpreter` (the base interpreter
    at files.PYTHON_AT: sandbox/world.py): what a seed with fixed names shows (`shown`)."""

    env_id: str
    python: str
    preload: tuple[str, ...]
    label: str
    needs: tuple[str, ...] = ()
    venv: str = ""
    stdlib: tuple[str, str] | None = None
    interpreter: tuple[tuple[str, str], ...] = ()  # sandbox/world.py: the base install at files.PYTHON_AT

    @property
    def fixed_names(self) -> bool:
        """Whether this world's seeds start with fixed names (`shown`): the environment is a
        venv with a stdlib snapshot, and the seed may have a mount namespace of its own (the
        grader is root, or may create a user namespace that owns one)."""
        return bool(self.venv and self.stdlib) and (os.geteuid() == 0 or _user_namespaces())

    def shown(self) -> list[tuple[str, str]]:
        """(the name a seed and its checks see, the host folder or file behind it): the venv at
        root.ENV_AT, the grader's two packages at root.HARNESS_AT (only the harness is in a
        check's root), the base interpreter at files.PYTHON_AT with the stdlib snapshot in it
        (`interpreter`; where that cannot be, the snapshot at the stdlib folder's own name)."""
        from rlvr_grade.sandbox.root import ENV_AT, HARNESS_AT

        assert self.stdlib is not None
        return [(ENV_AT, self.venv), (f"{HARNESS_AT}/rlvr_grade", os.path.realpath(PACKAGE_DIR)),
                (f"{HARNESS_AT}/rlvr_harness", os.path.realpath(HARNESS_DIR)),
                *(self.interpreter or (self.stdlib,))]

    def to_host(self, path: str) -> str:
        """The host path behind `path` as this world names it (`shown`; anything else is the
        host's own path)."""
        from rlvr_grade.sandbox.root import inside

        for at, src in sorted(self.shown(), key=lambda p: -len(p[0])):
            if inside(path, at):
                return src + path[len(at):]
        return path


# Imported by the pytest-warm seed anyway (warm_up), never by the lean one (a lean worker with
# pytest loaded costs ~2.5x the CPU per fork): not preloaded by default.
_PYTEST_NAMES = frozenset(("pytest", "_pytest", "py", "pluggy", "iniconfig", "packaging", "pygments"))


def world_of(env_id: str, preload: tuple[str, ...] | None = None, progress=None, known: dict | None = None) -> World:
    """The world of environment `env_id` ("" the default one, built now if it is not yet:
    offline, from the grader's own pytest; else `known[env_id]`, an envs.Environment the
    grader resolved, else the one of that id in the environments folder). `preload` None: what
    the environment names (envs' record), else exactly these modules (() for none)."""
    from rlvr_grade import envs
    from rlvr_grade.sandbox.world import interpreter_world

    env = (known or {}).get(env_id)
    if env is None:
        env = envs.default_environment(build=True, progress=progress) if not env_id else envs.load(env_id)
    own = tuple(n for n in env.preload if n not in _PYTEST_NAMES)
    chosen = own if preload is None else tuple(preload)
    label = "default" if env.default else (env.names[0] if env.names else env.short_id)
    venv = os.path.dirname(os.path.dirname(env.interpreter))
    venv = venv if os.path.isfile(os.path.join(venv, "pyvenv.cfg")) else ""
    if venv:
        envs.named_bytecode(env)
    return World(env_id=env_id, python=env.interpreter, preload=chosen, label=label, needs=own, venv=venv,
                 stdlib=envs.stdlib_snapshot(env) if venv else None, interpreter=interpreter_world(env) if venv else ())


_ROOTS: dict[tuple[str, str, str], Any] = {}


def world_root(world: World, language: str = "python", check_path: str = CHECK_PATH):
    """The root (sandbox/root.Root) of a check in `language` run in `world`, as that world's
    own interpreter lists it on the host (root.root_for there: its stdlib, its site-packages,
    the harness), host names: for a world without fixed names (world_layout)."""
    return _host_root(world, language, check_path)


_LAYOUTS: dict[tuple, Any] = {}


def world_layout(world: World, language: str = "python", check_path: str = CHECK_PATH, extra: tuple[str, ...] = (),
                 hide: tuple[str, ...] = ()):
    """The root.Layout of a check in `language` run in `world` (with `extra` directories, and
    `hide` masked: Root.masking), as a local worker of it mounts it, its sources host paths: for
    the gVisor backend and doctor, which do not run in that world. A world with fixed names is
    listed and laid out inside it, by its own interpreter (as the seed lists its root), each
    source then named by its host path (World.to_host); any other from the host (world_root)."""
    from rlvr_grade.sandbox import root

    if not world.fixed_names:
        return world_root(world, language, check_path).union(root.Root(dirs=extra)).masking(hide).layout()
    key = (world, language, check_path, extra, hide)
    found = _LAYOUTS.get(key)
    if found is None:
        import functools
        import json

        from rlvr_grade.sandbox.root import ENV_AT, HARNESS_AT
        from rlvr_harness.files import PYTHON_AT

        code = boot_code(
            "import json; from rlvr_grade.sandbox import root; l = root.root_for(%r, %r, %r).masking(%r).layout(); "
            "print(json.dumps([l.dirs, l.links, l.files, l.mounts, l.hidden, l.missing]))"
            % (language, check_path, list(extra), list(hide)), inside=True)
        out = subprocess.run([os.path.join(ENV_AT, "bin", os.path.basename(world.python)), "-s", "-c", code],
                             capture_output=True, text=True, env=_zygote_env(), cwd="/", timeout=120, stdin=subprocess.DEVNULL,
                             preexec_fn=functools.partial(_enter_world, world.shown(), (ENV_AT, HARNESS_AT, PYTHON_AT)))
        if out.returncode != 0:
            raise SandboxError(f"environment {world.label}: its interpreter could not list its root: {out.stderr.strip()[-300:]}")
        dirs, links, files, mounts, hidden, missing = json.loads(out.stdout.strip().splitlines()[-1])
        found = _LAYOUTS[key] = root.Layout(
            dirs=tuple(dirs), links=tuple(map(tuple, links)), files=tuple((p, world.to_host(s)) for p, s in files),
            mounts=tuple((p, world.to_host(s)) for p, s in mounts), hidden=tuple(hidden), missing=tuple(missing))
    return found


def _host_root(world: World, language: str, check_path: str):
    import json

    from rlvr_grade.sandbox import root

    key = (world.python, language, check_path)
    found = _ROOTS.get(key)
    if found is None:
        code = boot_code(
            "import json; from rlvr_grade.sandbox import root; r = root.root_for(%r, %r); "
            "print(json.dumps([r.dirs, r.files, r.hidden, r.moved]))" % (language, check_path)
        )
        out = subprocess.run([world.python, "-s", "-c", code], capture_output=True, text=True, env=_zygote_env(),
                             cwd="/", timeout=120, stdin=subprocess.DEVNULL)
        if out.returncode != 0:
            raise SandboxError(f"environment {world.label}: its interpreter could not list its root: {out.stderr.strip()[-300:]}")
        dirs, files, hidden, moved = json.loads(out.stdout.strip().splitlines()[-1])
        found = _ROOTS[key] = root.Root(dirs=tuple(dirs), files=tuple(files), hidden=tuple(hidden),
                                        moved=tuple(map(tuple, moved)))
    return found


class _Launcher:
    """One long-lived thread that starts the seed processes of a backend (which fork its
    workers). A seed asks for PR_SET_PDEATHSIG, which fires when the *thread* that forked it
    ends, not the process: a seed started from a short-lived thread (a start-up pool, a grading
    pool's thread that lazily starts a worker) would be killed with that thread, and its
    workers with it."""

    def __init__(self) -> None:
        self._jobs: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name="rlvr-worker-launcher", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            fn, box, done = job
            try:
                box.append((True, fn()))
            except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
                box.append((False, exc))
            done.set()

    def call(self, fn):
        box: list = []
        done = threading.Event()
        self._jobs.put((fn, box, done))
        done.wait()
        ok, value = box[0]
        if not ok:
            raise value
        return value

    def stop(self) -> None:
        self._jobs.put(None)


class _Forked:
    """A worker the seed forked, driven through a pidfd like a Popen (pid, poll, kill, wait):
    the seed is its parent and reaps it, so its exit status is not ours to read (poll and wait
    give -1 once it is gone)."""

    def __init__(self, pid: int, pidfd: int):
        self.pid = pid
        self._pidfd = pidfd
        self.returncode: int | None = None

    def poll(self) -> int | None:
        return self.wait(0) if self.returncode is None else self.returncode

    def wait(self, timeout: float | None = None) -> int | None:
        if self.returncode is None:
            import select

            p = select.poll()
            p.register(self._pidfd, select.POLLIN)
            if not p.poll(None if timeout is None else int(timeout * 1000)):
                if timeout == 0:
                    return None
                raise subprocess.TimeoutExpired(f"worker {self.pid}", timeout)
            self.returncode = -1
            os.close(self._pidfd)
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            try:
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
            except ProcessLookupError:
                pass


SEED_TIMEOUT_S = 120.0  # a seed's warm-up (pytest's, on a loaded machine) plus one fork


class _Seed:
    """A backend's warm interpreter for one kind of worker (zygote.seed_main), forking each
    slot's worker of that kind on request: one interpreter start and warm-up per backend and
    kind instead of one per slot. Started by the launcher thread on the first request, and
    again if it died."""

    def __init__(self, launcher: _Launcher | None, warm: str, world: World):
        self.launcher = launcher
        self.warm = warm
        self.world = world
        self.proc: subprocess.Popen | None = None
        self.sock = None
        self._lock = threading.Lock()

    def _start(self) -> None:
        import socket

        self.close()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        call = ("from rlvr_grade.sandbox.zygote import seed_main; seed_main(%d, %r, %r, %r, %r)"
                % (theirs.fileno(), self.warm, self.world.preload, self.world.label, self.world.needs))
        python, code, preexec = self.world.python, boot_code(call), _die_with_parent
        host_root = None
        if self.world.fixed_names:
            # The seed starts in its own world (world.enter_world): its interpreter is
            # ENV_AT/bin/python, so sys.prefix, sys.path, every module's file and the files it
            # maps are named as in a check's root, never after the cache folder or checkout.
            import functools

            from rlvr_grade.sandbox import world  # noqa: F401 - imported here, not in the forked child
            from rlvr_grade.sandbox.root import ENV_AT, HARNESS_AT
            from rlvr_harness.files import PYTHON_AT

            python = os.path.join(ENV_AT, "bin", os.path.basename(self.world.python))
            # The host's / goes with it (links.HOST_ROOT_FD): the farms' hard links are made there.
            host_root = os.open("/", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
            code = boot_code(f"from rlvr_grade import links; links.HOST_ROOT_FD.append({host_root}); "
                             f"links.HOST_NAMES.extend({self.world.shown()!r}); {call}", inside=True)
            preexec = functools.partial(_enter_world, self.world.shown(), (ENV_AT, HARNESS_AT, PYTHON_AT))

        def popen() -> subprocess.Popen:
            return subprocess.Popen(
                [python, "-s", "-c", code],
                pass_fds=(theirs.fileno(),) + ((host_root,) if host_root is not None else ()),
                env=_zygote_env(),
                cwd="/",
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                preexec_fn=preexec,
            )

        try:
            self.proc = self.launcher.call(popen) if self.launcher is not None else popen()
        except (OSError, subprocess.SubprocessError) as exc:
            # The interpreter cannot be executed, or entering the seed's world failed (a mount in
            # preexec_fn): the backend cannot start, which is exit 3, not an unexpected error.
            ours.close()
            raise SandboxError(f"local sandbox: the seed could not start ({python}): {exc}") from exc
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
            if host_root is not None:
                os.close(host_root)
        # A seed that never answers (stuck in its warm-up) fails the spawn instead of hanging it.
        ours.settimeout(SEED_TIMEOUT_S)
        self.sock = ours

    def fork_worker(self, to_child_r: int, from_child_w: int) -> _Forked:
        """A new worker holding these two pipe ends (our copies stay open)."""
        import socket

        with self._lock:
            if self.proc is None or self.proc.poll() is not None:
                self._start()
            try:
                socket.send_fds(self.sock, [b"fork"], [to_child_r, from_child_w])
                msg, fds, _, _ = socket.recv_fds(self.sock, 256, 1)
            except OSError as exc:
                self.close()
                raise SandboxError(f"local sandbox: the seed worker failed: {exc}") from exc
            if not msg or not fds:
                for fd in fds:
                    os.close(fd)
                detail = msg.decode(errors="replace") if msg else "it exited during start-up"
                if detail.startswith("preload: "):  # the seed stays: it answers every request so
                    raise PreloadRefused(f"environment {self.world.label}: {detail[len('preload: '):]}")
                self.close()
                raise SandboxError(f"local sandbox: the seed worker could not fork a worker: {detail}")
            return _Forked(int(msg), fds[0])

    def close(self) -> None:
        if self.sock is not None:
            # The seed reads EOF, kills and reaps its workers, and exits. Waited for, so their CPU
            # time reaches our children rusage; killed if it hangs (its workers die with it).
            self.sock.close()
            self.sock = None
        if self.proc is not None:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            try:
                self.proc.kill()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                pass
            self.proc = None


# A lean seed of the default environment started by the `rlvr-grade` command before its own
# imports (start_seed_early), with the launcher thread it was started from; the process's first
# LocalBackend adopts both.
_EARLY: list[tuple[_Launcher, _Seed]] = []


def start_seed_early() -> None:
    """Start a lean seed now, so it imports and warms up (~0.15 s of CPU) on another core while
    the command imports its own modules (~0.15 s), instead of after them. If no LocalBackend
    adopts it, it dies with this process (PDEATHSIG through its launcher thread). Only when
    the default environment is built already (a first run builds it in the backend)."""
    try:
        world = world_of_default_if_built()
    except Exception:  # noqa: BLE001 - an early start is an optimisation, never an error
        return
    if world is None:
        return
    launcher = _Launcher()
    seed = _Seed(launcher, "lean", world)
    try:
        with seed._lock:
            seed._start()
    except (OSError, subprocess.SubprocessError):
        launcher.stop()
        return
    _EARLY.append((launcher, seed))


def world_of_default_if_built() -> World | None:
    from rlvr_grade import envs

    try:
        envs.default_environment(build=False)
    except envs.EnvNotFound:
        return None
    return world_of("")


class _Worker:
    """One worker of a slot: a process forked from the seed of its kind and environment, that
    forks one child per check."""

    def __init__(self, index: int, init: WorkerInit, seed: _Seed):
        self.index = index
        self.init = init
        self.seed = seed
        self.proc: _Forked | None = None
        self.features: dict[str, str] = {}

    def spawn(self) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        try:
            self.proc = self.seed.fork_worker(to_child_r, from_child_w)
        except BaseException:
            for fd in (to_child_r, to_child_w, from_child_r, from_child_w):
                os.close(fd)
            raise
        os.close(to_child_r)
        os.close(from_child_w)
        self.wfd, self.rfd = to_child_w, from_child_r
        os.set_inheritable(self.wfd, False)
        os.set_inheritable(self.rfd, False)
        protocol.send(self.wfd, self.init.to_wire())
        ready = protocol.recv(self.rfd)
        if not ready or not ready.get("ready"):
            err = (ready or {}).get("error", "worker exited during start-up")
            self.kill()
            raise SandboxError(f"local sandbox slot {self.index} failed to start: {err}")
        self.features = ready.get("features", {})

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        try:
            protocol.send_bytes(self.wfd, encode_request(message))
            resp = protocol.recv(self.rfd)
        except OSError as exc:
            resp = None
            err = str(exc)
        else:
            err = "worker died"
        if resp is None:
            self.kill()
            raise SandboxError(f"local sandbox slot {self.index}: {err}")
        if "sandbox_error" in resp:
            raise SandboxError(f"local sandbox slot {self.index}: {resp['sandbox_error']}")
        return resp

    def kill(self) -> None:
        if self.proc is not None:
            try:
                self.proc.kill()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                pass
            for fd in (getattr(self, "wfd", -1), getattr(self, "rfd", -1)):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self.proc = None


try:
    import orjson
except ImportError:  # pragma: no cover - a grader installed without its dependencies
    orjson = None


def encode_request(message: dict[str, Any]) -> bytes:
    """A request's frame body as protocol.encode writes it, read back by the worker's json.loads
    to the same values, by orjson (~1 us for a HumanEval check's ~2 KB against ~12 us: the
    stdlib escapes every non-ASCII character and walks the strings in Python's encoder). Where
    orjson would write something else, the standard library does: orjson refuses lone
    surrogates, ints past 64 bits, non-str keys and (passed through) dataclasses, and writes a
    non-finite float as null, so any null in its output sends the message the stdlib's way.
    Without orjson (the sandbox package run by a bare interpreter: doctor's unprivileged probe),
    the stdlib's."""
    if orjson is None:
        return protocol.encode(message)
    try:
        data = orjson.dumps(message, option=orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME)
    except TypeError:  # orjson.JSONEncodeError is one
        return protocol.encode(message)
    return protocol.encode(message) if b"null" in data else data


class _Slot:
    """One slot: at most one check at a time, run by the slot's worker of the check's kind
    ("lean": asserts/stdio/call/validate checks, the harness only; "pytest": pytest-warm) and
    environment. Each worker starts on the slot's first check that needs it, so a run without
    pytest checks never pays for a pytest worker, nor a run in one environment for another's."""

    def __init__(self, index: int, init: WorkerInit, seed_for):
        self.index = index
        self.init = init
        self.seed_for = seed_for  # (kind, env id) -> the backend's _Seed
        self.workers: dict[tuple[str, str], _Worker] = {}

    def worker(self, kind: str, env_id: str) -> _Worker:
        """The slot's worker of this kind and environment, started (or restarted after a
        death) on demand."""
        w = self.workers.get((kind, env_id))
        if w is None:
            init = replace(self.init, warm=kind)
            if init.cgroup:
                # Its own cgroup: each worker remembers the limits it last wrote to its cgroup.
                init = replace(init, cgroup=init.cgroup + (f"-{env_id[:8]}" if env_id else "") + ("-py" if kind == "pytest" else ""))
            w = self.workers[(kind, env_id)] = _Worker(self.index, init, self.seed_for(kind, env_id))
        if w.proc is None:
            w.spawn()
        return w

    main_env = ""  # the backend's (use_environment): what `proc` and `twin` name

    @property
    def proc(self) -> _Forked | None:
        """The process of the slot's lean worker in the main environment (None: not started)."""
        w = self.workers.get(("lean", self.main_env))
        return w.proc if w is not None else None

    @property
    def twin(self) -> _Worker | None:
        """The slot's pytest-warm worker in the main environment, once started."""
        return self.workers.get(("pytest", self.main_env))

    @property
    def features(self) -> dict[str, str]:
        for w in self.workers.values():
            if w.features:
                return w.features
        return {}

    def kill(self) -> None:
        for w in self.workers.values():
            w.kill()


def _user_process_count(slots: int) -> int:
    """Tasks (threads count) of our host uid now, plus what this backend will add (a zygote
    pair per slot, a pool thread per slot): RLIMIT_NPROC in a user namespace counts them all."""
    uid, n = os.getuid(), 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            st = os.stat(f"/proc/{pid}")
            if st.st_uid == uid:
                n += len(os.listdir(f"/proc/{pid}/task"))
        except OSError:
            pass
    return n + 3 * slots + 8


def _die_with_parent() -> None:  # pragma: no cover - runs between fork and exec
    from rlvr_grade.sandbox import linux

    linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)


def _enter_world(shown: list[tuple[str, str]], own: tuple[str, ...]) -> None:  # pragma: no cover - between fork and exec
    from rlvr_grade.sandbox import linux, world

    _die_with_parent()
    if os.geteuid() != 0:
        # An unprivileged grader: a user namespace of the seed's own, its uid mapped to itself,
        # owns the world's mount namespace; each worker nests its own below it, as before.
        linux.enter_user_namespace(os.geteuid(), os.getegid())
    world.enter_world(shown, own)


_USERNS: list[bool] = []


def _user_namespaces() -> bool:
    if not _USERNS:
        from rlvr_grade.sandbox import linux

        _USERNS.append(linux.user_namespaces_allowed()[0])
    return _USERNS[0]


_instances = itertools.count()
_uid_salt = itertools.count()


def preload_choice(preload: tuple[str, ...] | str | None) -> tuple[str, ...] | None:
    """--preload's value: None (the environment's own list), "none" (nothing), or modules."""
    if preload is None:
        return None
    names = preload.split(",") if isinstance(preload, str) else list(preload)
    names = [n.strip() for n in names if n.strip()]
    if names == ["none"]:
        return ()
    import re

    for n in names:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*", n):
            raise ValueError(f"--preload: {n!r} is not a module name")
    return tuple(names)


class CannotIsolate(SandboxError):
    """Neither root nor user namespaces: the local sandbox refuses to run untrusted code (its
    tip says how to get isolation, or the flag that runs without it)."""

    tip = ("run as root or enable user namespaces; or, knowing checks may then use the network and write "
           "your files, pass --allow-network-and-writable-fs-UNSAFE")


class NoSeccomp(CannotIsolate):
    """No seccomp filter can be built on this machine (an architecture without a syscall table):
    the local sandbox refuses to run checks without one unless asked (--no-seccomp-UNSAFE)."""

    tip = ("grade on x86_64 or aarch64, or use --backend gvisor; or, knowing checks may then reach the kernel's "
           "pools (keyrings, SysV IPC, AIO, inotify, inet sockets), pass --no-seccomp-UNSAFE")


NO_SECCOMP_ASKED = "off: asked for (--no-seccomp-UNSAFE, LocalBackend(seccomp=False))"


def _prepare_here(tests: str) -> Any:
    """A test text prepared in the grader (prepared.pack): runner.prepare_asserts without its
    deeper retry, which would change the recursion limit of every thread here."""
    from rlvr_harness import runner

    return runner.prepare_asserts(tests, deepen=False)


class LocalBackend(Backend):
    """Namespaces + cgroups + rlimits + a dropped uid, around a warm pre-forked interpreter."""

    name = "local"
    start_on_pool = True  # its workers die with the thread that spawned them (PR_SET_PDEATHSIG)
    environments = True  # a check runs in its environment's seed, whose root is that environment

    def __init__(self, concurrency: int = 0, hide: list[str] | None = None, allow_unisolated: bool = False,
                 seccomp: bool = True, mode: str = "auto", check_path: str = CHECK_PATH,
                 tmp_keep: list[str] | None = None, c_setup: bool = True, preload: tuple[str, ...] | str | None = None,
                 env_progress=None):
        """`mode`: "root" (namespaces, cgroups, a per-slot uid), "userns" (an unprivileged
        grader: the same namespaces owned by a user namespace, no cgroups), "none" (no
        isolation at all: only with `allow_unisolated`), or "auto" (the strongest available).
        `allow_unisolated` is the explicit opt-in to run untrusted code with the network on
        and the filesystem writable when no isolation is possible. `check_path` is the PATH
        checks run with, where compilers and runtimes are looked up. `tmp_keep` (for tests):
        paths under /tmp that checks see read-only in their fresh /tmp, like a venv there.
        `seccomp` False runs checks without the seccomp filter: only when asked (the isolation
        report names it); with True, a machine where no filter can be built refuses to start
        (NoSeccomp). `c_setup` False (for tests) keeps each check's sandbox set-up on its Python path even
        where sandbox/_child.c is built. `preload`: the modules each environment's seed imports
        before forking (None: what the environment names; "none" or (): nothing)."""
        self.concurrency = concurrency or default_slots()
        from rlvr_grade.sandbox.root import grader_paths

        self.hide = list(grader_paths(hide or ()))
        self.allow_unisolated = allow_unisolated
        # False is the explicit opt-out (--no-seccomp-UNSAFE; the tests' layer without it): the
        # isolation report and doctor name it. Otherwise a machine without a filter refuses (start).
        self.seccomp = seccomp
        self.check_path = check_path
        self.tmp_keep = list(tmp_keep or ())
        self.c_setup = c_setup
        self._slots: list[_Slot] = []
        self._free: queue.Queue[_Slot] = queue.Queue()
        self._lock = threading.Lock()
        self._launcher: _Launcher | None = None
        self._seeds: dict[str, _Seed] = {}  # "kind" (default environment) or "kind:env id", started on first use
        self._worlds: dict[str, World] = {}
        self._known: dict[str, Any] = {}  # env id -> the envs.Environment the grader resolved (add_environment)
        self.preload = preload_choice(preload)
        self.env_progress = env_progress
        self.main_env = ""  # the environment most checks run in: its workers start first
        if mode not in ("auto", "root", "userns", "none"):
            raise ValueError(f"unknown local sandbox mode {mode!r}")
        self.mode = mode
        self.mode_reason = ""
        self.isolate = mode != "none"  # final after start() resolves "auto"
        # Two backends in one process (two Graders) must not share uids or cgroups: closing
        # one would remove the other's cgroups, and RLIMIT_NPROC counts per uid.
        self._tag = ""  # named in start()
        self._uid_base = 200000 + ((os.getpid() * 8 + next(_uid_salt)) % 160000) * 256

    def _resolve_mode(self) -> None:
        from rlvr_grade.sandbox import linux

        if self.mode == "auto":
            if os.geteuid() == 0:
                self.mode, self.mode_reason = "root", "running as root"
            else:
                ok, why = linux.user_namespaces_allowed()
                self.mode = "userns" if ok else "none"
                self.mode_reason = f"not root; {why}"
        elif self.mode == "root" and os.geteuid() != 0:
            raise SandboxError("the local sandbox's root mode needs root (euid 0)")
        self.isolate = self.mode != "none"

    def start(self) -> None:
        from rlvr_grade.sandbox.cgroups import cgroup_version

        self._resolve_mode()
        if not self.isolate and not self.allow_unisolated:
            raise CannotIsolate(
                "cannot isolate checks here (" + (self.mode_reason or "mode none") + "): the network cannot be cut "
                "and the filesystem cannot be made read-only; refusing to run untrusted code"
            )
        if self.isolate and self.seccomp:
            from rlvr_grade.sandbox import seccomp

            try:
                seccomp.arch_of()
            except seccomp.SeccompUnavailable as exc:
                raise NoSeccomp(f"cannot build the seccomp filter here ({exc}); refusing to run untrusted code "
                                "without it") from exc
        use_cgroup = self.mode == "root" and cgroup_version() is not None
        if use_cgroup:
            from rlvr_grade.sandbox.cgroups import SLOT_NAME, sweep_dead

            sweep_dead(SLOT_NAME)
        # The pid in the cgroup names is the one that runs the workers (a backend built before
        # a fork and started after it names them after the child), so the sweep above in a
        # later run can tell when they are orphans.
        self._tag = f"{os.getpid()}-{next(_instances)}"
        # Two workers per slot at most (lean + pytest-warm), each a process pair in userns mode.
        nproc_base = _user_process_count(2 * self.concurrency) if self.mode == "userns" else 0
        slots = []
        if self._launcher is None and _EARLY:
            launcher, seed = _EARLY.pop()
            if self.main_env == "" and seed.world == self._world(""):
                self._launcher, self._seeds["lean"] = launcher, seed
            else:
                seed.close()
                launcher.stop()
        if self._launcher is None:
            self._launcher = _Launcher()
        for i in range(self.concurrency):
            init = WorkerInit(
                warm="lean",
                slot=i,
                uid=self._uid_base + i,
                isolate=self.isolate,
                mode=self.mode,
                nproc_base=nproc_base,
                cgroup=f"{self._tag}-slot{i}" if use_cgroup else None,
                hide=tuple(self.hide),
                tmp_keep=tuple(self.tmp_keep),
                c_setup=self.c_setup,
                seccomp=self.isolate and self.seccomp,
                # Plugin autoload off in checks too: entry-point plugins (anyio, typeguard here)
                # would load into every pytest check otherwise, slower and not chosen by anyone.
                env={"PATH": self.check_path, "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
                     "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", **THREAD_VARS},
            )
            slots.append(_Slot(i, init, self._seed))
            slots[-1].main_env = self.main_env
        # In parallel: the seed forks one worker at a time, but each worker's own set-up (uid,
        # cgroup, namespaces, mount template) then runs while the next is forked.
        from concurrent.futures import ThreadPoolExecutor

        # The slots beyond one per core start on their first check (run() spawns a slot that
        # has no worker), while the first ones already grade: started here, they would hold
        # back the first check for ~0.1 s of interpreter start each on a 2-core machine.
        eager = slots[: max(1, min(len(slots), os.cpu_count() or 1))]
        with ThreadPoolExecutor(max_workers=min(8, len(eager))) as pool:
            errors = [f.exception() for f in [pool.submit(slot.worker, "lean", self.main_env) for slot in eager]]
        self._slots.extend(slots)  # close() then kills the ones that did start
        failed = [e for e in errors if e is not None]
        if failed:
            self.close()
            if isinstance(failed[0], PreloadRefused):
                # The run's own environment cannot be preloaded: its configuration, exit 2.
                from rlvr_grade.envs import EnvError

                raise EnvError(str(failed[0]), tip="choose the modules with --preload MOD,..., or --preload none") from failed[0]
            raise failed[0]
        for slot in slots:
            self._free.put(slot)

    def _world(self, env_id: str) -> World:
        world = self._worlds.get(env_id)
        if world is None:
            world = self._worlds[env_id] = world_of(env_id, self.preload, self.env_progress, self._known)
        return world

    def environment_options(self, preload: Any = None, progress: Any = None) -> None:
        if preload is not None:
            self.preload = preload_choice(preload)
        if progress is not None:
            self.env_progress = progress

    def add_environment(self, env) -> None:
        if not env.default:
            self._known[env.id] = env

    def _seed(self, kind: str, env_id: str) -> _Seed:
        key = f"{kind}:{env_id}" if env_id else kind
        with self._lock:
            seed = self._seeds.get(key)
            if seed is None:
                seed = self._seeds[key] = _Seed(self._launcher, kind, self._world(env_id))
            return seed

    def use_environment(self, env_id: str) -> None:
        self.main_env = env_id

    def run(self, check: Check) -> Execution:
        slot = self._free.get()
        try:
            payload = self._payload(check)
            worker = slot.worker(payload.worker, check.env)
            resp = worker.request(check.request(payload).to_wire())
        finally:
            self._free.put(slot)
        sent_back = resp.pop("prepared", None)
        if sent_back is not None:
            from rlvr_harness import prepared

            try:
                prepared.store(check.tests, Packed.from_wire(sent_back))
            except WireError:
                pass  # not kept: the next check of these tests prepares them again
        return execution_from_wire(resp, check.limits)

    @staticmethod
    def _payload(check: Check) -> CheckPayload:
        payload = check.payload()
        if payload.preparable:
            # Same interpreter as the workers: ship the tests split, rewritten and compiled, or
            # have this check's child send them back for the next checks of the same tests.
            from rlvr_harness import prepared

            packed = prepared.pack(check.tests, _prepare_here)
            code = None if payload.setup else prepared.pack_program(check.program)
            payload = replace(payload, prepared=packed, send_prepared=packed is None, program_code=code)
        return payload

    def close(self) -> None:
        for slot in self._slots:
            slot.kill()
        from rlvr_grade.sandbox.cgroups import SlotCgroup

        for worker in [w for s in self._slots for w in s.workers.values()]:
            name = worker.init.cgroup
            if name:
                try:
                    cg = SlotCgroup(name)
                    cg.kill_all()
                    cg.remove()
                except OSError:
                    pass
        self._slots.clear()
        for seed in self._seeds.values():
            seed.close()
        self._seeds.clear()
        if self._launcher is not None:
            self._launcher.stop()
            self._launcher = None

    def fingerprint(self) -> dict[str, Any]:
        import platform

        # pytest's own version module, not `import pytest` (~0.3 s) nor importlib.metadata
        # (~30 ms): the fingerprint is taken on every run, including reruns served entirely
        # from the cache. `_pytest` itself imports nothing else.
        try:
            from _pytest._version import version as pytest_version
        except ImportError:
            pytest_version = None
        if self.mode == "auto":
            self._resolve_mode()
        return {
            "backend": self.name,
            "python": platform.python_version(),
            "pytest": pytest_version,
            "isolated": self.isolate,
            # The isolation mode can change a reward (cgroup vs RLIMIT_AS memory caps; what
            # seccomp refuses), so it is part of what a cached reward depends on.
            "sandbox_mode": self.mode,
            "seccomp": bool(self.seccomp and self.isolate),
        }

    def toolchain(self, language: str) -> dict[str, Any] | None:
        # The toolchain the checks will find on their own PATH, not on the grader's.
        if language == "python":
            return None  # the workers' interpreter: fingerprint()'s "python"
        from rlvr_harness import languages

        return languages.toolchain_versions(language, self.check_path)

    def isolation(self) -> dict[str, Any]:
        """What this run's checks get: `level` is "full" (root: every layer), "userns" (no
        root: namespaces, seccomp and rlimits but no cgroups, and checks keep the grader's
        host uid) or "none" (nothing: the network is on and the filesystem writable)."""
        feats: dict[str, Any] = {"isolated": self.isolate, "mode": self.mode}
        if self.mode_reason:
            feats["mode_reason"] = self.mode_reason
        if self._slots:
            feats.update(self._slots[0].features)
        if self.isolate and not self.seccomp:
            feats["seccomp"] = NO_SECCOMP_ASKED
        if not self.isolate:
            feats["level"] = "none"
        elif self.mode == "userns":
            feats["level"] = "userns"
        else:
            full = bool(self._slots) and "cgroup" in self._slots[0].features and not str(
                self._slots[0].features.get("seccomp", "off")).startswith("off") and not self._slots[0].features.get(
                "shared_inodes")
            feats["level"] = "full" if full else "partial"
        return feats
