"""The Beam backend: every check in a fresh Beam sandbox (gVisor in Beam's cloud or a
self-hosted beta9), driven through the official `beam-client`.

One check = create a sandbox (network blocked, memory/CPU from the check's limits), ONE upload
(an archive with the runner and the request, see bundle.py), one exec of the runner, a wait
bounded by our own deadline (the client's wait does not kill: we call kill), one read of the
result line, and terminate in `finally`. Creates are bounded by a semaphore so hundreds of
worker threads do not stampede the gateway; transient gRPC failures are retried with backoff;
anything else is a SandboxError (the row becomes sandbox_error with a null reward).

Memory snapshots (`snapshot`, docs/environments.md): per environment and sandbox shape, one
warm-up sandbox starts a seed that imports the environment's preload and waits (warm.py); its
memory is snapshotted once, and each check's sandbox is restored from that snapshot instead of
created from the image. The knock run in it hands the request to the restored seed, or runs it
itself when no live seed is there: then this gateway restores no processes, and the rest of the
run creates plain sandboxes. Any failure on that path costs speed, never a verdict.

beam-client is an optional dependency, imported only when this backend is chosen."""

from __future__ import annotations

import json
import os
import random
import sys
import threading
import time
from typing import Any

from rlvr_grade.sandbox import bundle, warm
from rlvr_grade.sandbox.remote import RemoteBackend, Reply, Request
from rlvr_grade.types import Check, Limits, SandboxError

INSTALL_HINT = "pip install 'rlvr-grade[beam]'"
DEFAULT_IMAGE = "python3.11"  # Beam's managed Python image; pytest is added on top
DEFAULT_PACKAGES = ("pytest==8.3.4",)
WORKDIR = "/workspace"
SEED_ARCHIVE = "rlvr-seed.tgz"
SNAPSHOTS = "memory-snapshots"  # beam-images.json: {gateway: {"image": id, "checkpoints": {variant: id}}}
# Environment of the runner process (the check's own environment is set by the runner).
RUNNER_ENV = {
    "PYTHONHASHSEED": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    "LANG": "C.UTF-8",
}


class BeamConfigError(SandboxError):
    """Beam is not usable at all (client missing, no token): raised by start(), before any row."""

    tip = "the beam backend reads ~/.beam/config.ini, or BEAM_TOKEN with GATEWAY_HOST/GATEWAY_PORT"


def _import_beam() -> Any:
    # gRPC's fork handlers break other forks made while its threads run: 2 in 40 of our own
    # subprocess spawns with a preexec_fn (the local sandbox's zygotes, the fake gateway)
    # died with them on. Must be set before grpc is first imported.
    os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")
    # gRPC's C core logs connection events to stderr, through our progress bar; failures
    # reach the user as SandboxError messages instead.
    os.environ.setdefault("GRPC_VERBOSITY", "NONE")
    try:
        import beam  # noqa: F401
        import beta9.terminal
    except ImportError as exc:
        raise BeamConfigError(f"the beam backend needs beam-client ({exc.name} is not installed); install it with: {INSTALL_HINT}")
    # The client prints progress to stdout with rich; our stdout may be a JSONL stream.
    beta9.terminal._console.quiet = True
    beta9.terminal._error_console.quiet = True
    return beam


def resolve_context(context_name: str = "default") -> Any:
    """The standard Beam configuration: ~/.beam/config.ini (CONFIG_PATH moves it), else
    BETA9_GATEWAY_HOST/PORT (or GATEWAY_HOST/PORT) and BETA9_TOKEN or BEAM_TOKEN.

    The client itself would prompt, or sys.exit(1) with no terminal: check first."""
    _import_beam()
    from beta9.config import get_config_context, get_settings, load_config

    saved = load_config().get(context_name)
    token = (saved.token if saved is not None else None) or os.getenv("BETA9_TOKEN") or os.getenv("BEAM_TOKEN")
    if not token:
        where = get_settings().config_path
        raise BeamConfigError(
            f"no Beam token: none in {where} [{context_name}] and neither BEAM_TOKEN nor BETA9_TOKEN is set; "
            "run `beam configure` or export BEAM_TOKEN=..."
        )
    if saved is not None:
        return saved
    from beta9.config import ConfigContext

    try:
        ctx = get_config_context(context_name)
    except SystemExit:
        raise BeamConfigError("the Beam client could not build a configuration (set BEAM_TOKEN and GATEWAY_HOST/PORT)")
    if not ctx.token:
        ctx = ConfigContext(token=token, gateway_host=ctx.gateway_host, gateway_port=ctx.gateway_port)
    return ctx


def _is_transient(exc: BaseException) -> bool:
    import grpc

    if isinstance(exc, grpc.RpcError) and hasattr(exc, "code"):
        return exc.code() in (
            grpc.StatusCode.UNAVAILABLE,
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            grpc.StatusCode.DEADLINE_EXCEEDED,
            grpc.StatusCode.ABORTED,
        )
    return isinstance(exc, (ConnectionError, TimeoutError))


def _is_unreachable(exc: BaseException) -> bool:
    """The gateway cannot be reached at all (refused, reset, no route), as opposed to an
    UNAVAILABLE it answers with itself ("no capacity right now")."""
    code = getattr(exc, "code", None)
    details = getattr(exc, "details", None)
    if code is None or details is None:
        return isinstance(exc, ConnectionError)
    try:
        return code().name == "UNAVAILABLE" and "connect" in str(details()).lower()
    except Exception:  # noqa: BLE001
        return False


def _describe(exc: BaseException) -> str:
    if hasattr(exc, "code") and hasattr(exc, "details"):
        try:
            return f"{exc.code().name}: {exc.details()}"  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001
            pass
    if isinstance(exc, SystemExit):
        return "the client gave up (sys.exit)"
    return f"{type(exc).__name__}: {exc}"


class BeamBackend(RemoteBackend):
    """A fresh Beam sandbox per check; see the module docstring. The request, its result and
    its errors are the remote runner's (sandbox/remote.py)."""

    name = "beam"
    environments = True  # a check's environment is an image built from its lock (_env_image)

    def __init__(
        self,
        concurrency: int = 0,
        image: str | None = None,
        python_packages: tuple[str, ...] | list[str] | None = None,
        max_creates: int = 16,
        create_attempts: int = 4,
        rpc_timeout: float = 30.0,
        grace_s: float = 30.0,
        cpu: float | None = None,
        memory_headroom_mb: int = 256,
        context: Any = None,
        context_name: str = "default",
        poll_s: float = 0.1,
        image_build_timeout: float = 1800.0,
        snapshot: bool | None = None,
        warm_timeout: float = 600.0,
        restore_timeout: float = 120.0,
        hide: Any = None,  # accepted for API symmetry with the local backend; nothing local to hide
    ):
        super().__init__()
        self.concurrency = concurrency or 64
        self.image = image or DEFAULT_IMAGE
        self.python_packages = tuple(python_packages if python_packages is not None else DEFAULT_PACKAGES)
        self.max_creates = max(1, max_creates)
        self.create_attempts = max(1, create_attempts)
        self.rpc_timeout = rpc_timeout
        self.grace_s = grace_s
        self.cpu = cpu
        self.memory_headroom_mb = memory_headroom_mb
        self.poll_s = poll_s
        self.image_build_timeout = image_build_timeout
        # None: a memory snapshot for each environment with a preload; True: for every
        # environment (the default one too); False: never.
        self.snapshot = snapshot
        self.warm_timeout = warm_timeout
        self.restore_timeout = restore_timeout  # a restore brings back memory: more than a create may take
        self.preload: tuple[str, ...] | None = None  # --preload (None: each environment's own list)
        self._warm: dict[tuple, str | None] = {}  # sandbox key -> checkpoint id (None: no snapshot)
        self._warm_locks: dict[tuple, threading.Lock] = {}
        self._restore_sandboxes: dict[tuple, Any] = {}
        self._processes_restored: bool | None = None  # learned from the first restored check
        self._snapshot_notes: list[str] = []
        self._env_images: dict[str, str] = {}  # environment id -> Beam image id (this gateway)
        self._env_locks: dict[str, threading.Lock] = {}
        self._context = context
        self._context_name = context_name
        self._creates = threading.BoundedSemaphore(self.max_creates)
        self._sandboxes: dict[tuple, Any] = {}
        self._lock = threading.Lock()
        self._live: dict[int, Any] = {}  # id(instance) -> instance (instances are unhashable)
        self.stats = {"created": 0, "terminated": 0, "create_retries": 0, "terminate_failures": 0, "images_built": 0,
                      "snapshots_taken": 0, "snapshot_checks": 0, "snapshot_fallbacks": 0}

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        _import_beam()
        ctx = self._context if self._context is not None else resolve_context(self._context_name)
        if not getattr(ctx, "token", None):
            raise BeamConfigError("no Beam token in the given context; run `beam configure` or export BEAM_TOKEN=...")
        from beta9.abstractions.base import set_channel

        # One channel for every thread: Sandbox(context=...) would open a new one per object.
        set_channel(context=ctx)
        self._ctx = ctx
        # An unreachable gateway is one error now, not every row failing after its retries.
        import grpc
        from beta9.abstractions.base import get_channel

        try:
            grpc.channel_ready_future(get_channel()).result(timeout=min(self.rpc_timeout, 15.0))
        except grpc.FutureTimeoutError:
            raise BeamConfigError(f"cannot reach the Beam gateway at {ctx.gateway_host}:{ctx.gateway_port}")

    def close(self) -> None:
        with self._lock:
            live = list(self._live.values())
        for inst in live:  # runs left by an interrupted grading run
            self._terminate(inst)

    def fingerprint(self) -> dict[str, Any]:
        return {
            "backend": self.name,
            "image": self.image,
            "python_packages": list(self.python_packages),
            "harness": bundle.harness_digest(),
        }

    def isolation(self) -> dict[str, Any]:
        return {
            "boundary": "one fresh Beam sandbox (gVisor) per check",
            "network": "blocked (block_network=True)",
            "inside": "rlimits + dropped uid (+ namespaces where the runtime allows)",
            "image": self.image,
            "memory snapshots": self.snapshot_state(),
        }

    def snapshot_state(self) -> str:
        """What this run did with memory snapshots, in a line (summary and doctor)."""
        if self.snapshot is False:
            return "off (--no-beam-snapshot)"
        s = self.stats
        if self._processes_restored is False:
            state = "this gateway restored no processes: checks ran in plain sandboxes"
        elif s["snapshot_checks"]:
            state = f"{s['snapshot_checks']} check(s) ran in a restored warm seed"
        else:
            state = "on" if self.snapshot else "on for environments with a preload"
        notes = "; ".join(self._snapshot_notes[:3])
        return f"{state} ({s['snapshots_taken']} taken, {s['snapshot_fallbacks']} fallback(s)){'; ' + notes if notes else ''}"

    def environment_options(self, preload: Any = None, progress: Any = None) -> None:
        if preload is not None:
            from rlvr_grade.sandbox.local import preload_choice

            self.preload = preload_choice(preload)

    # -- one check -------------------------------------------------------------------------
    def _image(self) -> Any:
        from beam import Image

        # A fresh Image per Sandbox config: the default one in Sandbox's signature is shared
        # and caches its stub.
        if self.image.startswith("python3"):
            return Image(python_version=self.image, python_packages=list(self.python_packages))
        return Image.from_id(self.image)

    # -- environments: one Beam image per lock hash ------------------------------------------
    def _gateway(self) -> str:
        ctx = self._ctx
        return f"{ctx.gateway_host}:{ctx.gateway_port}"

    def _env_image(self, env_id: str) -> str:
        """The Beam image id for environment `env_id`: built once from its lock (the exact
        pins, on the lock's Python version) and remembered beside the environment, per
        gateway, so later runs reuse it; checked once per run that the gateway still has it."""
        with self._lock:
            known = self._env_images.get(env_id)
            if known is not None:
                return known
            lock = self._env_locks.setdefault(env_id, threading.Lock())
        with lock:  # one build per environment, whatever the number of threads asking
            with self._lock:
                known = self._env_images.get(env_id)
            if known is None:
                known = self._env_image_uncached(env_id)
                with self._lock:
                    self._env_images[env_id] = known
            return known

    def _env_image_uncached(self, env_id: str) -> str:
        from beam import Image
        from beta9.type import PythonVersion

        from rlvr_grade import envs

        try:
            env = envs.load(env_id)
        except envs.EnvError as exc:
            raise SandboxError(f"beam: environment {env_id[:12]}: {exc}")
        note = envs.read_note(env, "beam-images")
        remembered = note.get(self._gateway())
        if remembered:
            exists, _ = self._rpc("image lookup", lambda: Image.from_id(remembered).exists())
            if exists:
                return remembered
        python = "python" + ".".join(env.lock.python.split(".")[:2])
        if python not in {v.value for v in PythonVersion}:
            raise SandboxError(f"beam: environment {env.short_id} needs {python}, which Beam images do not offer")
        image = Image(python_version=python, python_packages=env.lock.pins())
        result = self._rpc("image build", lambda: image.build(quiet=True), timeout=self.image_build_timeout)
        if not result.success or not result.image_id:
            raise SandboxError(f"beam: building the image of environment {env.short_id} failed: {(result.error or 'no image id')[-400:]}")
        with self._lock:
            self.stats["images_built"] += 1
        try:
            envs.write_note(env, "beam-images", {**envs.read_note(env, "beam-images"), self._gateway(): result.image_id})
        except OSError:
            pass  # a read-only environments folder: the image is built again next run, nothing else
        return result.image_id

    def _sandbox_for(self, limits: Limits, network: bool, env_id: str = "") -> Any:
        from beam import Image, Sandbox

        memory = int(limits.memory_mb) + self.memory_headroom_mb
        cpu = self.cpu if self.cpu is not None else 1.0
        key = (memory, cpu, network, env_id)
        image = Image.from_id(self._env_image(env_id)) if env_id else None
        with self._lock:
            sb = self._sandboxes.get(key)
            if sb is None:
                # Reused for every check with these limits: after the first create() the client
                # only sends CreatePod (the stub is cached on the object).
                sb = Sandbox(
                    cpu=cpu,
                    memory=memory,
                    image=image if image is not None else self._image(),
                    keep_warm_seconds=max(60, int(limits.effective_wall_s + self.grace_s) * 2),
                    block_network=not network,
                    env={},
                )
                self._sandboxes[key] = sb
            return sb

    def _rpc(self, what: str, fn: Any, timeout: float | None = None) -> Any:
        """Call the client with its internal retry bounded; map its errors to SandboxError."""
        from beta9.channel import rpc_timeout

        try:
            with rpc_timeout(timeout if timeout is not None else self.rpc_timeout):
                return fn()
        except SandboxError:
            raise
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - SystemExit: the client's terminal.error
            unreachable = _is_unreachable(exc)
            if unreachable:
                err = SandboxError(f"beam gateway {self._address()} unreachable ({what}: {_describe(exc)})")
            else:
                err = SandboxError(f"beam {what}: {_describe(exc)}")
            err.transient = _is_transient(exc)  # type: ignore[attr-defined]
            err.unreachable = unreachable  # type: ignore[attr-defined]
            raise err from exc

    def _address(self) -> str:
        ctx = getattr(self, "_ctx", None) or self._context
        return f"{getattr(ctx, 'gateway_host', '?')}:{getattr(ctx, 'gateway_port', '?')}"

    def _create(self, limits: Limits, network: bool, env_id: str = "") -> Any:
        sb = self._sandbox_for(limits, network, env_id)
        delay = 0.5
        for attempt in range(self.create_attempts):
            with self._creates:
                try:
                    inst = self._rpc("create", sb.create)
                except SandboxError as exc:
                    if not getattr(exc, "transient", False) or attempt == self.create_attempts - 1:
                        raise
                    inst = None
            if inst is not None:
                if not getattr(inst, "ok", False) or not inst.container_id:
                    raise SandboxError(f"beam create: {getattr(inst, 'error_msg', '') or 'no sandbox returned'}")
                with self._lock:
                    self._live[id(inst)] = inst
                    self.stats["created"] += 1
                return inst
            with self._lock:
                self.stats["create_retries"] += 1
            time.sleep(delay * (0.5 + random.random()))  # jitter: threads retry apart
            delay = min(delay * 2, 8.0)
        raise AssertionError("unreachable")

    def _terminate(self, inst: Any, timeout: float = 10.0) -> None:
        try:
            self._rpc("terminate", inst.terminate, timeout=min(self.rpc_timeout, timeout))
            with self._lock:
                self.stats["terminated"] += 1
        except SandboxError:
            with self._lock:
                self.stats["terminate_failures"] += 1  # Beam reaps it when its keep-warm ends
        finally:
            with self._lock:
                self._live.pop(id(inst), None)

    def exchange(self, check: Check, request: Request) -> Reply:
        archive = bundle.build_archive(request.message.to_wire())
        checkpoint = self._checkpoint_for(check.limits, check.network, check.env, warm.kind_of(request.message.payload))
        if checkpoint is not None:
            reply = self._exchange_restored(check, request, archive, checkpoint)
            if reply is not None:
                return reply
        inst = self._create(check.limits, check.network, check.env)
        unreachable = False
        try:
            return self._run_in(inst, request, archive)
        except SandboxError as exc:
            unreachable = getattr(exc, "unreachable", False)
            raise
        finally:
            # With the gateway gone, a terminate cannot get through either: do not wait the
            # usual 10 s for it (Beam stops the sandbox when its keep-warm ends).
            self._terminate(inst, timeout=2.0 if unreachable else 10.0)

    def _run_in(self, inst: Any, request: Request, archive: bytes, boot: str = bundle.BOOTSTRAP) -> Reply:
        """One check in the sandbox `inst`: upload, exec `boot` (the runner, or warm.KNOCK in a
        restored sandbox), wait, read what it wrote."""
        self._rpc("upload", lambda: inst.fs.write_bytes(f"{WORKDIR}/{bundle.ARCHIVE}", archive))
        proc = self._rpc(
            "exec",
            lambda: inst.process.exec(
                "python3", "-s", "-c", boot, bundle.ARCHIVE, cwd=WORKDIR, env=dict(RUNNER_ENV)
            ),
        )
        # The runner enforces the check's own CPU and wall limits and always reports; this
        # deadline only catches a runner that cannot (a stuck sandbox): kill, then error.
        deadline = time.monotonic() + request.deadline_s
        while True:
            code, _status = self._rpc("status", proc.status)
            if code >= 0:
                break
            if time.monotonic() >= deadline:
                try:
                    self._rpc("kill", proc.kill, timeout=10.0)
                except SandboxError:
                    pass  # terminate in `finally` stops it anyway
                return Reply(None, "")
            time.sleep(self.poll_s)
        out = self._rpc("stdout", proc.stdout.read)
        return Reply(code, out, "" if request.answered(out) else self._rpc("stderr", proc.stderr.read))

    # -- memory snapshots: a warm seed per environment, restored per check (warm.py) ---------
    def _preload_for(self, env_id: str) -> tuple[str, ...]:
        if self.preload is not None:
            return self.preload
        if not env_id:
            return ()  # the default environment preloads nothing beyond the harness
        from rlvr_grade import envs
        from rlvr_grade.sandbox.local import _PYTEST_NAMES

        try:
            return tuple(n for n in envs.load(env_id).preload if n not in _PYTEST_NAMES)
        except envs.EnvError:
            return ()

    def _checkpoint_for(self, limits: Limits, network: bool, env_id: str, kind: str) -> str | None:
        """The checkpoint to restore for a check of this shape, environment and kind (warm.py),
        taken on first use; None: a plain sandbox (snapshots off, not wanted here, or not
        working)."""
        if self.snapshot is False or self._processes_restored is False:
            return None
        modules = self._preload_for(env_id)
        if self.snapshot is None and not modules:
            return None
        key = self._key(limits, network, env_id, kind)
        with self._lock:
            if key in self._warm:
                return self._warm[key]
            lock = self._warm_locks.setdefault(key, threading.Lock())
        with lock:  # one warm-up per key, whatever the number of threads asking
            with self._lock:
                if key in self._warm:
                    return self._warm[key]
            checkpoint = self._remembered_checkpoint(key, modules) or self._warm_up(key, limits, network, env_id, modules)
            with self._lock:
                self._warm[key] = checkpoint
            return checkpoint

    def _key(self, limits: Limits, network: bool, env_id: str, kind: str) -> tuple:
        # A restored sandbox has the shape (memory, cpu, network) of the one snapshotted.
        return (int(limits.memory_mb) + self.memory_headroom_mb, self.cpu if self.cpu is not None else 1.0, network, env_id, kind)

    def _variant(self, key: tuple, modules: tuple[str, ...]) -> str:
        memory, cpu, network, _, kind = key
        return json.dumps([bundle.harness_digest(), memory, cpu, network, kind, list(modules)])

    def _remembered_checkpoint(self, key: tuple, modules: tuple[str, ...]) -> str | None:
        """A checkpoint an earlier run took for this environment and shape on this gateway,
        of the image the environment has now (a rebuilt image invalidates it)."""
        env_id = key[3]
        if not env_id:
            return None
        from rlvr_grade import envs

        try:
            image = self._env_image(env_id)
            mine = envs.read_note(envs.load(env_id), "beam-images").get(SNAPSHOTS, {}).get(self._gateway(), {})
        except (envs.EnvError, OSError, AttributeError):
            return None
        if not isinstance(mine, dict) or mine.get("image") != image:
            return None
        found = mine.get("checkpoints", {}).get(self._variant(key, modules))
        return found if isinstance(found, str) and found else None

    def _remember_checkpoint(self, key: tuple, modules: tuple[str, ...], checkpoint: str | None) -> None:
        env_id = key[3]
        if not env_id:
            return
        from rlvr_grade import envs

        try:
            env = envs.load(env_id)
            with self._lock:
                note = envs.read_note(env, "beam-images")
                every = note.get(SNAPSHOTS) if isinstance(note.get(SNAPSHOTS), dict) else {}
                mine = every.get(self._gateway()) if isinstance(every.get(self._gateway()), dict) else {}
                image = self._env_images.get(env_id)
                if mine.get("image") != image:
                    mine = {"image": image, "checkpoints": {}}
                checkpoints = dict(mine.get("checkpoints", {}))
                if checkpoint:
                    checkpoints[self._variant(key, modules)] = checkpoint
                else:
                    checkpoints.pop(self._variant(key, modules), None)
                every[self._gateway()] = {"image": image, "checkpoints": checkpoints}
                envs.write_note(env, "beam-images", {**note, SNAPSHOTS: every})
        except (envs.EnvError, OSError):
            pass  # not remembered: the next run warms up again, nothing else

    def _note(self, message: str) -> None:
        """Say once on stderr (and in the summary) why snapshots are not used somewhere."""
        with self._lock:
            if message in self._snapshot_notes:
                return
            self._snapshot_notes.append(message)
        sys.stderr.write(f"Warning: beam memory snapshots: {message}\n")
        sys.stderr.flush()

    def _warm_up(self, key: tuple, limits: Limits, network: bool, env_id: str, modules: tuple[str, ...]) -> str | None:
        """A sandbox of this key with the seed started and waiting, its memory snapshotted:
        the checkpoint id (remembered beside the environment's image), or None with a note."""
        label = env_id[:12] or "default"
        inst = self._create(limits, network, env_id)
        try:
            archive = bundle.build_archive({"preload": list(modules), "kind": key[4]}, name=warm.CONFIG)
            self._rpc("upload", lambda: inst.fs.write_bytes(f"{WORKDIR}/{SEED_ARCHIVE}", archive))
            proc = self._rpc("exec", lambda: inst.process.exec(
                "python3", "-s", "-c", warm.SEED_BOOT, SEED_ARCHIVE, cwd=WORKDIR, env=dict(RUNNER_ENV)))
            ready = self._wait_ready(proc)
            if ready is None:
                err = self._rpc("stderr", proc.stderr.read).strip()[-300:]
                self._note(f"environment {label}: the seed did not start ({err or 'no output'}); plain sandboxes")
                return None
            if ready.get("refused"):
                self._note(f"environment {label}: {ready['refused']}; plain sandboxes")
                return None
            checkpoint = self._rpc("snapshot", inst.snapshot_memory)
            if not isinstance(checkpoint, str) or not checkpoint:
                raise SandboxError("beam snapshot: no checkpoint id returned")
        except SandboxError as exc:
            if getattr(exc, "unreachable", False):
                raise
            self._note(f"environment {label}: {exc}; plain sandboxes")
            return None
        finally:
            self._terminate(inst)
        with self._lock:
            self.stats["snapshots_taken"] += 1
        self._remember_checkpoint(key, modules, checkpoint)
        return checkpoint

    def _wait_ready(self, proc: Any) -> dict[str, Any] | None:
        """The seed's READY line (warm.READY_MARK), or None when it exits or the warm-up's
        time runs out first."""
        deadline = time.monotonic() + self.warm_timeout
        out = ""
        while time.monotonic() < deadline:
            out += self._rpc("stdout", proc.stdout.read)
            for line in out.splitlines():
                if line.startswith(warm.READY_MARK + " "):
                    try:
                        ready = json.loads(line[len(warm.READY_MARK) + 1:])
                    except ValueError:
                        return None
                    return ready if isinstance(ready, dict) else None
            code, _ = self._rpc("status", proc.status)
            if code >= 0:
                out += self._rpc("stdout", proc.stdout.read)
                if warm.READY_MARK not in out:
                    return None
                continue
            time.sleep(self.poll_s)
        try:
            self._rpc("kill", proc.kill, timeout=10.0)
        except SandboxError:
            pass
        return None

    def _restorer(self, key: tuple) -> Any:
        """A Sandbox object for restores of this key, apart from the one that creates (a
        restore sets its stub_id)."""
        from beam import Sandbox

        memory, cpu, network = key[:3]
        with self._lock:
            sb = self._restore_sandboxes.get(key)
            if sb is None:
                sb = self._restore_sandboxes[key] = Sandbox(cpu=cpu, memory=memory, block_network=not network, env={})
            return sb

    def _exchange_restored(self, check: Check, request: Request, archive: bytes, checkpoint: str) -> Reply | None:
        """The check in a sandbox restored from `checkpoint`, handed to its seed by warm.KNOCK
        (which runs it itself when the seed is not there). None: the restore failed, the
        caller creates a plain sandbox."""
        key = self._key(check.limits, check.network, check.env, warm.kind_of(request.message.payload))
        sb = self._restorer(key)
        try:
            with self._creates:
                inst = self._rpc("restore", lambda: sb.create_from_memory_snapshot(checkpoint),
                                 timeout=max(self.rpc_timeout, self.restore_timeout))
            if not getattr(inst, "ok", False) or not inst.container_id:
                raise SandboxError(f"beam restore: {getattr(inst, 'error_msg', '') or 'no sandbox returned'}")
        except SandboxError as exc:
            if getattr(exc, "unreachable", False):
                raise
            with self._lock:
                self._warm[key] = None
            self._remember_checkpoint(key, self._preload_for(check.env), None)
            self._note(f"restoring checkpoint {checkpoint}: {exc}; plain sandboxes for environment {check.env[:12] or 'default'}")
            return None
        with self._lock:
            self._live[id(inst)] = inst
            self.stats["created"] += 1
        unreachable = False
        try:
            reply = self._run_in(inst, request, archive, boot=warm.KNOCK)
        except SandboxError as exc:
            unreachable = getattr(exc, "unreachable", False)
            raise
        finally:
            self._terminate(inst, timeout=2.0 if unreachable else 10.0)
        first = reply.stdout.split("\n", 1)[0]
        if first.startswith(f"{warm.PATH_MARK} seed "):
            with self._lock:
                self.stats["snapshot_checks"] += 1
                self._processes_restored = True
        elif first.startswith(f"{warm.PATH_MARK} fallback "):
            with self._lock:
                self.stats["snapshot_fallbacks"] += 1
                if self._processes_restored is None:
                    self._processes_restored = False
            if self._processes_restored is False:
                self._note(f"a restored sandbox had no live seed ({first[len(warm.PATH_MARK) + 10:]}): "
                           "this gateway does not restore processes; plain sandboxes for the rest of the run")
        return reply
