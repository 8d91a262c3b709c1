"""Built environments on disk: one folder per lock hash under `envs_root()`, built once,
atomically, and never changed after (only removed).

    <root>/<id>/venv/          the environment: bin/python (-> the interpreter), site-packages
    <root>/<id>/env.json       its record: lock, spec, interpreter, import names, files hash
    <root>/<id>/stdlib/        the base interpreter's stdlib as it was when the environment was
                               built (hard links; its own site-packages left out): what a
                               local check is shown at the stdlib's place (stdlib_snapshot)
    <root>/<id>/stdlib.json    where that stdlib lives on the host, and its file count
    <root>/<id>/bytecode.json  the file name its compiled modules carry (files.ENV_AT/...), not
                               the folder it was built in (named_bytecode)
    <root>/<id>/*.json         notes other parts keep about it (a Beam image id per gateway)
    <root>/specs/<key>.json    which environment a spec was last built into (no resolving,
                               so no network, when a run names a spec already built)
    <root>/names/<name>.json   names given with `env build --name`
    <root>/.locks/<id>.lock    held while <id> is built or removed
    <root>/.build-<pid>-*      a build in progress; a dead pid's is removed by the next build

A build resolves (uv pip compile), hashes the lock, and only if no folder has that hash yet
installs into a temporary folder that is renamed into place: a killed build leaves no
half-environment, and concurrent builds of one spec install it once."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rlvr_grade.envs import installer
from rlvr_grade.envs.errors import EnvError, EnvNotFound
from rlvr_grade.envs.lock import Lock, default_closure, default_lock, installed_lock
from rlvr_grade.envs.names import canonical_name, import_names, preload_candidates
from rlvr_grade.envs.paths import envs_root
from rlvr_grade.envs.spec import EnvSpec

Progress = Callable[[str], None]
ENV_FILE = "env.json"
VENV = "venv"
DEFAULT = "default"
_ID_RE = re.compile(r"^[0-9a-f]{64}$")
_PREFIX_RE = re.compile(r"^[0-9a-f]{4,64}$")
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_BUILD_RE = re.compile(r"^\.(?:build|trash)-(\d+)-")


@dataclass(frozen=True)
class Environment:
    """A built environment. `id` is its lock's hash (the cache key part); `interpreter` the
    venv's python, `site_packages` its packages; `provides` maps each distribution to the
    import names it installs and `preload` is what the seed imports by default (phase B)."""

    id: str
    path: str
    lock: Lock
    spec: EnvSpec | None  # None: the default environment (not resolved from a spec)
    interpreter: str
    base_interpreter: str
    site_packages: str
    provides: tuple[tuple[str, tuple[str, ...]], ...]
    requested: tuple[str, ...]
    preload: tuple[str, ...]
    files: int
    size_bytes: int
    files_hash: str
    created: float
    default: bool = False
    names: tuple[str, ...] = ()

    @property
    def short_id(self) -> str:
        return self.id[:12]

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "path": self.path,
            "default": self.default,
            "names": list(self.names),
            "spec": self.spec.to_dict() if self.spec else None,
            "lock": self.lock.to_dict(),
            "interpreter": self.interpreter,
            "base_interpreter": self.base_interpreter,
            "site_packages": self.site_packages,
            "requested": list(self.requested),
            "provides": {d: list(n) for d, n in self.provides},
            "preload": list(self.preload),
            "files": {"count": self.files, "bytes": self.size_bytes, "hash": self.files_hash},
            "created": self.created,
        }


# -- reading ----------------------------------------------------------------------------------


def _load(root: str, env_id: str) -> Environment | None:
    path = os.path.join(root, env_id)
    try:
        with open(os.path.join(path, ENV_FILE), encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise EnvError(f"environment {env_id[:12]} has an unreadable record ({exc}); remove it with: rlvr-grade env rm {env_id[:12]}")
    lock = Lock.from_dict(data["lock"])
    if lock.hash() != env_id:  # a folder renamed by hand, or an edited record
        raise EnvError(f"environment {env_id[:12]}: its record's lock hashes to {lock.hash()[:12]}; remove it and build again")
    return Environment(
        id=env_id,
        path=path,
        lock=lock,
        spec=EnvSpec.from_dict(data["spec"]) if data.get("spec") else None,
        interpreter=os.path.join(path, data["interpreter"]),
        base_interpreter=data["base_interpreter"],
        site_packages=os.path.join(path, data["site_packages"]),
        provides=tuple((d, tuple(n)) for d, n in sorted(data["provides"].items())),
        requested=tuple(data.get("requested", ())),
        preload=tuple(data.get("preload", ())),
        files=data["files"]["count"],
        size_bytes=data["files"]["bytes"],
        files_hash=data["files"]["hash"],
        created=data["created"],
        default=bool(data.get("default")),
        names=tuple(sorted(n for n, i in _pointers(root, "names") if i == env_id)),
    )


def load(env_id: str, root: str | None = None) -> Environment:
    """The environment with this full id; EnvNotFound if it is not built."""
    root = root or envs_root()
    env = _load(root, env_id) if _ID_RE.match(env_id) else None
    if env is None:
        raise EnvNotFound(f"no environment {env_id[:12]} in {root}", tip="list them with: rlvr-grade env list")
    return env


def list_envs(root: str | None = None) -> list[Environment]:
    """Every built environment, oldest first."""
    root = root or envs_root()
    try:
        ids = [n for n in os.listdir(root) if _ID_RE.match(n)]
    except FileNotFoundError:
        return []
    envs = [e for e in (_load(root, i) for i in ids) if e is not None]
    return sorted(envs, key=lambda e: e.created)


def _pointers(root: str, kind: str) -> Iterator[tuple[str, str]]:
    folder = os.path.join(root, kind)
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return
    for name in names:
        if name.endswith(".json"):
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as fh:
                    yield name[:-5], json.load(fh)["id"]
            except (OSError, ValueError, KeyError):
                continue


def _pointer(root: str, kind: str, key: str) -> str | None:
    try:
        with open(os.path.join(root, kind, key + ".json"), encoding="utf-8") as fh:
            return json.load(fh)["id"]
    except (OSError, ValueError, KeyError):
        return None


def _write_json(path: str, data: dict) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1, sort_keys=True)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def read_note(env: Environment, name: str) -> dict:
    """A JSON note kept beside an environment (e.g. the Beam image built from it); {} if none."""
    try:
        with open(os.path.join(env.path, name + ".json"), encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return {}


def write_note(env: Environment, name: str, data: dict) -> None:
    """Replace a note atomically (not the environment itself, which never changes)."""
    if name in ("env",) or not _NAME_RE.match(name):
        raise ValueError(f"bad note name {name!r}")
    _write_json(os.path.join(env.path, name + ".json"), data)


# -- resolving a reference --------------------------------------------------------------------


def resolve(
    ref: str,
    build: bool = True,
    progress: Progress | None = None,
    root: str | None = None,
    files: bool = True,
) -> Environment:
    """The environment `ref` names: "default"; a requirements file (built first when `build`
    and not built yet; only with `files`: a row's value is data and never opens a file); a
    name given at build time; a full or short (>= 4 hex digits) id. Raises EnvNotFound when it
    names nothing, SpecError when a file does not resolve."""
    root = root or envs_root()
    text = ref.strip()
    if text == DEFAULT:
        return default_environment(build=build, progress=progress, root=root)
    if files and os.path.isfile(text):
        spec = EnvSpec.parse(text)
        if build:
            return ensure(spec, progress=progress, root=root)
        found = lookup(spec, root=root)
        if found is None:
            raise EnvNotFound(f"the requirements file {text} is not built yet", tip=f"build it first: rlvr-grade env build {text}")
        return found
    if _NAME_RE.match(text):
        env_id = _pointer(root, "names", text)
        if env_id is not None:
            env = _load(root, env_id)
            if env is not None:
                return env
    if _PREFIX_RE.match(text):
        matches = [e for e in list_envs(root) if e.id.startswith(text)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise EnvError(f"{text!r} is the start of {len(matches)} environment ids; give more of it")
    raise EnvNotFound(
        f"{text!r} names no environment (not a requirements file, a name or an id)",
        tip="rlvr-grade env list shows the built ones; rlvr-grade env build FILE builds one",
    )


def _own_minor() -> str:
    return f"{sys.version_info[0]}.{sys.version_info[1]}"


def lookup(spec: EnvSpec, root: str | None = None) -> Environment | None:
    """The environment `spec` was last built into, without resolving; None if none."""
    root = root or envs_root()
    env_id = _pointer(root, "specs", spec.key(spec.python or _own_minor()))
    return _load(root, env_id) if env_id else None


def ensure(spec: EnvSpec, progress: Progress | None = None, root: str | None = None) -> Environment:
    """The environment built from `spec`: the one it was built into before, else built now."""
    return lookup(spec, root=root) or build(spec, progress=progress, root=root)


# -- building ---------------------------------------------------------------------------------


@contextlib.contextmanager
def _locked(root: str, env_id: str) -> Iterator[None]:
    folder = os.path.join(root, ".locks")
    os.makedirs(folder, exist_ok=True)
    fd = os.open(os.path.join(folder, env_id + ".lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def locked(env: Environment) -> Iterator[None]:
    """Hold `env`'s lock, the one its build holds: for what is added beside an environment once,
    at its first use (its stdlib snapshot, the world a check is shown of its interpreter)."""
    with _locked(os.path.dirname(env.path), env.id):
        yield


def _sweep(root: str) -> None:
    """Remove what builds and removals killed midway left (their pid no longer runs)."""
    from rlvr_grade.leftovers import remove_abandoned

    try:
        names = os.listdir(root)
    except FileNotFoundError:
        return
    for name in names:
        m = _BUILD_RE.match(name)
        if m is not None:
            remove_abandoned(os.path.join(root, name), int(m.group(1)), folder=True)


@contextlib.contextmanager
def _workdir(root: str, kind: str) -> Iterator[str]:
    """A temporary folder in `root` named for this pid and locked while it lives (so
    `_sweep` never takes a live one), removed unless renamed away."""
    os.makedirs(root, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=root, prefix=f".{kind}-{os.getpid()}-")
    fd = os.open(tmp, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield tmp
    finally:
        os.close(fd)
        shutil.rmtree(tmp, ignore_errors=True)


def build(
    spec: EnvSpec,
    progress: Progress | None = None,
    root: str | None = None,
    name: str | None = None,
) -> Environment:
    """Resolve `spec` and install it, unless an environment with the same lock exists. The
    spec then points at it (`lookup`), and so does `name` if given. Raises SpecError when the
    spec does not resolve, EnvError when installing fails; nothing is left behind either way."""
    root = root or envs_root()
    say = progress or (lambda _m: None)
    if name is not None:
        _check_name(name)
    interp = installer.find_interpreter(spec.python)
    say(f"resolving {spec.describe()} for Python {interp.version}")
    t0 = time.monotonic()
    pins = installer.compile_pins(spec.effective_requirements(), spec.index, interp)
    lock = Lock.of(pins, interp.version, interp.implementation, interp.platform)
    env_id = lock.hash()
    os.makedirs(root, exist_ok=True)
    with _locked(root, env_id):
        env = _load(root, env_id)
        if env is None:
            say(f"installing {len(pins)} distributions into {env_id[:12]}")
            _sweep(root)
            with _workdir(root, "build") as tmp:
                venv = os.path.join(tmp, VENV)
                installer.create_venv(venv, interp)
                installer.install_exact(venv, pins, spec.index)
                _finish(tmp, lock, spec, interp.executable, requested=spec.names())
                os.replace(tmp, os.path.join(root, env_id))
            env = load(env_id, root)
            say(f"built {env_id[:12]} ({len(pins)} distributions, {env.size_bytes / 1e6:.0f} MB) in {time.monotonic() - t0:.1f} s")
        else:
            say(f"{env_id[:12]} is already built with this lock")
        _write_json(os.path.join(root, "specs", spec.key(interp.minor) + ".json"), {"id": env_id, "spec": spec.to_dict()})
        if name is not None:
            _write_json(os.path.join(root, "names", name + ".json"), {"id": env_id})
    return load(env_id, root)


def _check_name(name: str) -> None:
    if not _NAME_RE.match(name) or _PREFIX_RE.match(name) or name == DEFAULT:
        raise EnvError(f"{name!r} cannot name an environment: use letters, digits, '.', '_', '-', not only hex digits, not 'default'")


def _site_packages(venv: str) -> str:
    matches = [os.path.join(venv, "lib", d, "site-packages") for d in os.listdir(os.path.join(venv, "lib"))]
    matches = [m for m in matches if os.path.isdir(m)]
    if len(matches) != 1:
        raise EnvError(f"{venv}: expected one site-packages folder, found {len(matches)}")
    return matches[0]


def files_digest(folder: str) -> tuple[int, int, str]:
    """(files, bytes, sha256 over every file's path and content) of `folder`, bytecode
    caches left out (they hold build times): two builds of one lock give the same hash."""
    h = hashlib.sha256()
    count = size = 0
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for fname in sorted(filenames):
            path = os.path.join(dirpath, fname)
            rel = os.path.relpath(path, folder)
            h.update(rel.encode("utf-8", "surrogateescape") + b"\0")
            if os.path.islink(path):
                h.update(b"-> " + os.readlink(path).encode("utf-8", "surrogateescape") + b"\0")
                continue
            fh_hash = hashlib.sha256()
            with open(path, "rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    fh_hash.update(block)
                    size += len(block)
            h.update(fh_hash.digest())
            count += 1
    return count, size, h.hexdigest()


def _finish(tmp: str, lock: Lock, spec: EnvSpec | None, base_interpreter: str, requested: tuple[str, ...], default: bool = False) -> None:
    """Check what was installed against the lock and write the record."""
    from importlib import metadata

    venv = os.path.join(tmp, VENV)
    site = _site_packages(venv)
    got = installed_lock(site, lock.python, lock.implementation, lock.platform)
    if got != lock:
        want, have = dict(lock.distributions), dict(got.distributions)
        diff = sorted(f"{n} {have.get(n, '-')} (lock {want.get(n, '-')})" for n in set(want) | set(have) if want.get(n) != have.get(n))
        raise EnvError(f"the installed environment differs from its lock: {', '.join(diff)}")
    provides = {
        canonical_name(d.metadata["Name"]): list(import_names(d)) for d in metadata.distributions(path=[site])
    }
    count, size, digest = files_digest(site)
    _snapshot_stdlib(tmp, os.path.join(venv, "bin", "python"))
    _name_bytecode(tmp, os.path.join(venv, "bin", "python"))
    _write_json(
        os.path.join(tmp, ENV_FILE),
        {
            "lock": lock.to_dict(),
            "spec": spec.to_dict() if spec else None,
            "default": default,
            "interpreter": os.path.join(VENV, "bin", "python"),
            "base_interpreter": base_interpreter,
            "site_packages": os.path.relpath(site, tmp),
            "requested": list(requested),
            "provides": provides,
            "preload": list(preload_candidates({k: tuple(v) for k, v in provides.items()}, requested)),
            "files": {"count": count, "bytes": size, "hash": digest},
            "created": time.time(),
            "installer": installer.version(),
        },
    )


# -- the stdlib a check is shown -------------------------------------------------------------

STDLIB = "stdlib"
# The base interpreter's own site directories inside its stdlib folder: an environment's
# packages are its own site-packages, never the base interpreter's.
_NOT_STDLIB = frozenset(("site-packages", "dist-packages"))


def _stdlib_of(python: str) -> str:
    import subprocess

    out = subprocess.run([python, "-I", "-S", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
                         capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False)
    path = out.stdout.strip()
    if out.returncode != 0 or not os.path.isabs(path) or not os.path.isdir(path):
        raise EnvError(f"{python}: could not find its stdlib folder ({out.stderr.strip()[-200:] or path!r})")
    return os.path.realpath(path)


def _snapshot_stdlib(folder: str, python: str) -> tuple[str, str]:
    """Write `folder`/stdlib (hard links, copies across filesystems, of every file of
    `python`'s stdlib folder but its own site-packages, and of each bytecode file only beside
    its source) and `folder`/stdlib.json. The files the interpreter ships are those there when
    the environment is built: a file put into the stdlib folder later is in no check's root."""
    from rlvr_grade.links import link_or_copy

    stdlib = _stdlib_of(python)
    dst_top = os.path.join(folder, STDLIB)
    tmp = tempfile.mkdtemp(dir=folder, prefix=".stdlib-")
    count = 0
    try:
        for dirpath, dirnames, filenames in os.walk(stdlib):
            rel = os.path.relpath(dirpath, stdlib)
            if rel == ".":
                dirnames[:] = [d for d in dirnames if d not in _NOT_STDLIB]
            dirnames.sort()
            dst = os.path.join(tmp, rel) if rel != "." else tmp
            os.makedirs(dst, mode=0o755, exist_ok=True)
            os.chmod(dst, 0o755)
            for name in [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
                os.symlink(os.readlink(os.path.join(dirpath, name)), os.path.join(dst, name))
                dirnames.remove(name)
            sources = set(filenames) if os.path.basename(dirpath) != "__pycache__" else set(
                os.listdir(os.path.dirname(dirpath)))
            for name in sorted(filenames):
                src = os.path.join(dirpath, name)
                if os.path.basename(dirpath) == "__pycache__" and name.split(".", 1)[0] + ".py" not in sources:
                    continue  # bytecode of no source the interpreter ships
                if os.path.islink(src):
                    os.symlink(os.readlink(src), os.path.join(dst, name))
                elif os.path.isfile(src):
                    link_or_copy(src, os.path.join(dst, name))
                    count += 1
        os.chmod(tmp, 0o755)
        os.rename(tmp, dst_top)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    _write_json(os.path.join(folder, STDLIB + ".json"), {"stdlib": stdlib, "files": count})
    return stdlib, dst_top


def stdlib_snapshot(env: Environment) -> tuple[str, str]:
    """(the host folder of `env`'s base interpreter's stdlib, its snapshot in the environment:
    what a local check is shown at that folder's place). An environment built before snapshots
    existed gets one now, once: the files in the stdlib folder at its first use."""
    try:
        with open(os.path.join(env.path, STDLIB + ".json"), encoding="utf-8") as fh:
            stdlib = json.load(fh)["stdlib"]
        if os.path.isdir(os.path.join(env.path, STDLIB)):
            return stdlib, os.path.join(env.path, STDLIB)
    except (OSError, ValueError, KeyError):
        pass
    with _locked(os.path.dirname(env.path), env.id):
        if os.path.isfile(os.path.join(env.path, STDLIB + ".json")) and os.path.isdir(os.path.join(env.path, STDLIB)):
            return stdlib_snapshot(env)
        left = os.path.join(env.path, STDLIB)  # a half-made one (or a link to one)
        if os.path.islink(left):
            os.unlink(left)
        else:
            shutil.rmtree(left, ignore_errors=True)
        return _snapshot_stdlib(env.path, env.interpreter)


# -- the file names its bytecode carries --------------------------------------------------------

BYTECODE = "bytecode"
# Run by the environment's own interpreter (its bytecode format): compile every module of the
# site-packages under the name a check sees it by, then keep only cached bytecode (__pycache__)
# that carries such a name. argv: site-packages, the name it is shown at.
_NAME_BYTECODE = """
import compileall, marshal, os, sys
site, named = sys.argv[1], sys.argv[2]
compileall.compile_dir(site, ddir=named, force=True, quiet=2, workers=1)
kept = dropped = 0
for dirpath, _dirs, files in os.walk(site):
    if os.path.basename(dirpath) != "__pycache__":
        continue  # a sourceless module's .pyc beside where its source would be is the module
    for name in files:
        if not name.endswith(".pyc"):
            continue
        path = os.path.join(dirpath, name)
        try:
            with open(path, "rb") as fh:
                ok = marshal.loads(fh.read()[16:]).co_filename.startswith(named + "/")
        except Exception:
            ok = False
        if ok:
            kept += 1
        else:
            os.unlink(path)
            dropped += 1
print(kept, dropped)
"""


def _name_bytecode(folder: str, python: str) -> None:
    """Compile `folder`'s site-packages with the names a check sees (files.ENV_AT/lib/...) and
    drop the venv's `command` line (the stdlib's venv writes the folder it was made in there):
    the bytecode an installer compiles carries the folder it was built in (the environments'
    folder under the grader's home, the build's pid) in every code object's file name, which
    any check could read from the file. Writes `folder`/bytecode.json."""
    import subprocess

    from rlvr_harness.files import ENV_AT

    venv = os.path.join(folder, VENV)
    site = _site_packages(venv)
    named = os.path.join(ENV_AT, os.path.relpath(site, venv))
    out = subprocess.run([python, "-I", "-S", "-c", _NAME_BYTECODE, site, named], capture_output=True, text=True,
                         timeout=1800, stdin=subprocess.DEVNULL, check=False)
    if out.returncode != 0:
        raise EnvError(f"{python}: could not compile the environment's modules: {out.stderr.strip()[-300:]}")
    cfg = os.path.join(venv, "pyvenv.cfg")
    with open(cfg, encoding="utf-8") as fh:
        lines = fh.readlines()
    kept = [line for line in lines if not line.lower().startswith("command")]
    if kept != lines:
        with open(cfg + ".tmp", "w", encoding="utf-8") as fh:
            fh.writelines(kept)
        os.replace(cfg + ".tmp", cfg)
    compiled, dropped = (int(n) for n in out.stdout.split())
    _write_json(os.path.join(folder, BYTECODE + ".json"), {"named": named, "compiled": compiled, "dropped": dropped})


def named_bytecode(env: Environment) -> None:
    """Make sure `env`'s bytecode carries the names a check sees (_name_bytecode): an
    environment built before this was done gets it now, once."""
    if os.path.isfile(os.path.join(env.path, BYTECODE + ".json")):
        return
    with _locked(os.path.dirname(env.path), env.id):
        if not os.path.isfile(os.path.join(env.path, BYTECODE + ".json")):
            _name_bytecode(env.path, env.interpreter)


# -- the default environment -------------------------------------------------------------------


def default_environment(build: bool = True, progress: Progress | None = None, root: str | None = None) -> Environment:
    """The default environment (no `--env`): the grader interpreter's stdlib plus the
    grader's own pytest and what pytest requires, copied from the grader's installation
    into a folder like any other environment (no network). Its id is `default_lock()`'s hash,
    which every cache key holds."""
    root = root or envs_root()
    lock = default_lock()
    env_id = lock.hash()
    env = _load(root, env_id)
    if env is not None:
        return env
    if not build:
        raise EnvNotFound("the default environment is not built yet", tip="rlvr-grade env build --default")
    say = progress or (lambda _m: None)
    os.makedirs(root, exist_ok=True)
    with _locked(root, env_id):
        env = _load(root, env_id)
        if env is None:
            say(f"building the default environment {env_id[:12]} (Python {lock.python} + pytest) from the grader's own packages")
            _sweep(root)
            base = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
            interp = installer.Interpreter(base, lock.python, lock.implementation, lock.platform)
            with _workdir(root, "build") as tmp:
                venv = os.path.join(tmp, VENV)
                installer.create_venv(venv, interp)
                site = _site_packages(venv)
                for dist in default_closure():
                    for f in dist.files or ():
                        if f.parts and f.parts[0] != ".." and "__pycache__" not in f.parts:
                            dst = os.path.join(site, str(f))
                            os.makedirs(os.path.dirname(dst), exist_ok=True)
                            shutil.copy2(str(dist.locate_file(f)), dst)
                _finish(tmp, lock, None, base, requested=("pytest",), default=True)
                os.replace(tmp, os.path.join(root, env_id))
    return load(env_id, root)


# -- removing ---------------------------------------------------------------------------------


def remove(ref: str, root: str | None = None) -> Environment:
    """Remove the environment `ref` names (see `resolve`; never builds) and the pointers to
    it. Renamed away first, so a half-removed environment is never found."""
    root = root or envs_root()
    env = resolve(ref, build=False, root=root)
    with _locked(root, env.id):
        with _workdir(root, "trash") as trash:
            os.replace(env.path, os.path.join(trash, "env"))
        for kind in ("specs", "names"):
            for key, env_id in list(_pointers(root, kind)):
                if env_id == env.id:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(os.path.join(root, kind, key + ".json"))
    return env
