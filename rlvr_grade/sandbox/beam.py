"""The Beam backend: every check in a fresh Beam sandbox (gVisor in Beam's cloud or a
self-hosted beta9), driven through the official `beam-client`.

One check = create a sandbox (network blocked, memory/CPU from the check's limits), ONE upload
(an archive with the runner and the request, see bundle.py), one exec of the runner, a wait
bounded by our own deadline (the client's wait does not kill: we call kill), one read of the
result line, and terminate in `finally`. Creates are bounded by a semaphore so hundreds of
worker threads do not stampede the gateway; transient gRPC failures are retried with backoff;
anything else is a SandboxError (the row becomes sandbox_error with a null reward).

beam-client is an optional dependency, imported only when this backend is chosen."""

from __future__ import annotations

import os
import random
import threading
import time
from typing import Any

from rlvr_grade.sandbox import bundle
from rlvr_grade.sandbox.remote import RemoteBackend, Reply, Request
from rlvr_grade.types import Check, Limits, SandboxError

INSTALL_HINT = "pip install 'rlvr-grade[beam]'"
DEFAULT_IMAGE = "python3.11"  # Beam's managed Python image; pytest is added on top
DEFAULT_PACKAGES = ("pytest==8.3.4",)
WORKDIR = "/workspace"
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
        self._env_images: dict[str, str] = {}  # environment id -> Beam image id (this gateway)
        self._env_locks: dict[str, threading.Lock] = {}
        self._context = context
        self._context_name = context_name
        self._creates = threading.BoundedSemaphore(self.max_creates)
        self._sandboxes: dict[tuple, Any] = {}
        self._lock = threading.Lock()
        self._live: dict[int, Any] = {}  # id(instance) -> instance (instances are unhashable)
        self.stats = {"created": 0, "terminated": 0, "create_retries": 0, "terminate_failures": 0, "images_built": 0}

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
        }

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
        archive = bundle.build_archive(request.body)
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

    def _run_in(self, inst: Any, request: Request, archive: bytes) -> Reply:
        """One check in the sandbox `inst`: upload, exec, wait, read what the runner wrote."""
        self._rpc("upload", lambda: inst.fs.write_bytes(f"{WORKDIR}/{bundle.ARCHIVE}", archive))
        proc = self._rpc(
            "exec",
            lambda: inst.process.exec(
                "python3", "-s", "-c", bundle.BOOTSTRAP, bundle.ARCHIVE, cwd=WORKDIR, env=dict(RUNNER_ENV)
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
