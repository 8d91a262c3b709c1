"""A fake Beam gateway for offline tests: a real gRPC server on 127.0.0.1 speaking the
protocol of beam-client, with the request/response classes beam-client itself ships (no
vendored code), so the real, unmodified client runs against it.

Each "sandbox" is a fresh directory standing in for the container's /workspace; commands run
as local processes (their own session, killable as a group), in an empty network namespace
when the stub asked for block_network, with `python3` meaning the interpreter the fake was
given (the "image"). It serves exactly the RPCs one sandbox lifecycle makes (see
notes/beam.md) and records what it saw, so tests can check how the backend drove it.

Images: a request for Beam's managed Python with no packages beyond `preinstalled` (what the
fake's own interpreter stands for) exists at once and runs that interpreter as an image would
have it: its installed packages without this checkout (managed_image), so the runner imports
the harness and its C extensions from the archive it unpacked, never from here. Any other image
must be built (BuildImage, streamed like Beam's): the fake builds it as a real local
environment — a venv of its interpreter with the requested packages installed by uv (from
`wheelhouse` only, when given: offline tests) — and sandboxes of that image run its python.

Memory snapshots (SandboxSnapshotMemory, then CreatePod with a checkpoint_id): a local fake
cannot checkpoint a process (that takes CRIU), so `snapshot_mode` says what it emulates:
- "processes" (Beam's claim, "including all running processes"): the snapshot records the
  sandbox's files and the command of every process still running; a restore copies the files
  into a new sandbox, runs those commands again and answers once each is blocked in the system
  call it was blocked in at the snapshot (a process caught running is given 5 s to block
  first), or after `restore_wait_s`. This emulates the outcome
  (the processes are there, waiting where they waited), not the speed: they start over.
- "filesystem" (what the client's docstring for the restore says): files only; a socket file
  comes back as a socket nobody listens on, no process runs.
- "error": SandboxSnapshotMemory fails, as on a gateway without the feature.
`restore_error` makes every CreatePod with a checkpoint_id fail.

Its latency is not Beam's: a Beam cold start is 1-3 s, here a create costs a mkdir.

    python -m tests.fake_beam --port 50100 [--python /path/to/python3]
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any, Callable

# Before grpc loads: its fork handlers crash forks made while its threads run (see beam.py).
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")
os.environ.setdefault("GRPC_VERBOSITY", "NONE")

import hashlib  # noqa: E402

import grpc  # noqa: E402

MODULES = ("beta9.clients.pod", "beta9.clients.gateway", "beta9.clients.image")
_METHOD = re.compile(r'"(/[\w.]+/\w+)",\s*(\w+),\s*(\w+),')



def message_classes() -> dict[str, tuple[type, type]]:
    """Map every unary RPC path beam-client knows to its (request, response) classes, read
    from the client's own stub modules."""
    table: dict[str, tuple[type, type]] = {}
    for name in MODULES:
        mod = importlib.import_module(name)
        for path, req, resp in _METHOD.findall(inspect.getsource(mod)):
            table[path] = (getattr(mod, req), getattr(mod, resp))
    return table


@dataclass
class Proc:
    popen: subprocess.Popen
    command: tuple = ()  # (command, cwd, env) as the client sent them: what a restore runs again
    out: bytearray = field(default_factory=bytearray)
    err: bytearray = field(default_factory=bytearray)
    out_pos: int = 0
    err_pos: int = 0
    killed: bool = False
    threads: list = field(default_factory=list)


@dataclass
class Container:
    id: str
    stub: dict[str, Any]
    root: str
    procs: dict[int, Proc] = field(default_factory=dict)
    uploads: int = 0
    execs: list = field(default_factory=list)
    stopped: bool = False
    checkpoint: str = ""  # the checkpoint this sandbox was restored from


@dataclass
class Checkpoint:
    id: str
    stub: dict[str, Any]
    files: str  # a copy of the sandbox's directory
    processes: list  # (command, cwd, env, the system call it waited in) of each running process
    container: str  # the sandbox it was taken of


class FakeGateway:
    """The fake gateway; `start()` binds a free port on 127.0.0.1 (see `.port`)."""

    def __init__(
        self,
        python: str | None = None,
        port: int = 0,
        workers: int = 256,
        token: str = "fake-token",
        wheelhouse: str | None = None,
        preinstalled: tuple[str, ...] = ("pytest==8.3.4",),
    ):
        self.given_python = python or sys.executable
        self._managed: str | None = None
        self._managed_lock = threading.Lock()
        self.wheelhouse = wheelhouse
        self.preinstalled = frozenset(preinstalled)
        self.images: dict[str, str] = {}  # built image id -> the python3 its sandboxes run
        self.image_builds: list[list[str]] = []  # the python_packages of every build, in order
        self.image_lock = threading.Lock()
        self.token = token
        self.requested_port = port
        self.workers = workers
        self.root = tempfile.mkdtemp(prefix="fake-beam-")
        self.stubs: dict[str, dict[str, Any]] = {}
        self.containers: dict[str, Container] = {}
        self.calls: dict[str, int] = {}
        self.lock = threading.Lock()
        self.server: grpc.Server | None = None
        self.port = 0
        # Test hooks. fail_creates: the next N CreatePod calls fail with UNAVAILABLE (a
        # transient error). die_after_creates: the gateway goes away for good when CreatePod
        # number N+1 arrives (a crash mid-run). create_delay: seconds each CreatePod takes
        # (a cold start), so concurrent creates overlap and can be counted.
        self.fail_creates = 0
        self.die_after_creates: int | None = None
        self.create_delay = 0.0
        # Memory snapshots: see the module doc.
        self.snapshot_mode = "processes"
        self.restore_error = False
        self.restore_wait_s = 120.0
        self.checkpoints: dict[str, Checkpoint] = {}
        self.creates_in_flight = 0
        self.max_creates_in_flight = 0
        self.dead = False

    @property
    def python(self) -> str:
        """The managed image's `python3` (made on first use: see managed_image)."""
        with self._managed_lock:
            if self._managed is None:
                self._managed = managed_image(self.given_python, os.path.join(self.root, "managed-image"))
            return self._managed

    @python.setter
    def python(self, path: str) -> None:
        """The managed image's `python3` is `path` from now on (a test's broken image)."""
        with self._managed_lock:
            self._managed = path

    # -- server ----------------------------------------------------------------------------
    def start(self) -> "FakeGateway":
        table = message_classes()
        handlers = {
            "/image.ImageService/VerifyImageBuild": self.verify_image_build,
            "/gateway.GatewayService/HeadObject": self.head_object,
            "/gateway.GatewayService/GetOrCreateStub": self.get_or_create_stub,
            "/gateway.GatewayService/StopContainer": self.stop_container,
            "/pod.PodService/CreatePod": self.create_pod,
            "/pod.PodService/SandboxExec": self.sandbox_exec,
            "/pod.PodService/SandboxStatus": self.sandbox_status,
            "/pod.PodService/SandboxStdout": self.sandbox_stdout,
            "/pod.PodService/SandboxStderr": self.sandbox_stderr,
            "/pod.PodService/SandboxKill": self.sandbox_kill,
            "/pod.PodService/SandboxUploadFile": self.sandbox_upload_file,
            "/pod.PodService/SandboxDeleteFile": self.sandbox_delete_file,
            "/pod.PodService/SandboxUpdateTTL": self.ok,
            "/pod.PodService/SandboxSnapshotMemory": self.sandbox_snapshot_memory,
        }
        methods = {}
        from beta9.clients.image import BuildImageRequest as req_cls  # noqa: N813 - the one streaming RPC
        from beta9.clients.image import BuildImageResponse as resp_cls  # noqa: N813

        methods["/image.ImageService/BuildImage"] = grpc.unary_stream_rpc_method_handler(
            self._wrap("/image.ImageService/BuildImage", self.build_image, resp_cls),
            request_deserializer=req_cls.FromString,
            response_serializer=bytes,
        )
        for path, fn in handlers.items():
            req_cls, resp_cls = table[path]
            methods[path] = grpc.unary_unary_rpc_method_handler(
                self._wrap(path, fn, resp_cls),
                request_deserializer=req_cls.FromString,
                response_serializer=bytes,
            )

        class Handler(grpc.GenericRpcHandler):
            def service(self_inner, details):  # noqa: N805
                return methods.get(details.method)

        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=self.workers))
        self.server.add_generic_rpc_handlers((Handler(),))
        self.port = self.server.add_insecure_port(f"127.0.0.1:{self.requested_port}")
        self.server.start()
        return self

    def stop(self) -> None:
        """Die like a gateway that goes away: stop serving, kill every process."""
        if self.server is not None:
            self.server.stop(0)
        for c in list(self.containers.values()):
            self._stop(c)
        shutil.rmtree(self.root, ignore_errors=True)

    def context(self) -> Any:
        """The beam-client ConfigContext pointing at this gateway."""
        from beta9.config import ConfigContext

        return ConfigContext(token=self.token, gateway_host="127.0.0.1", gateway_port=self.port)

    def _wrap(self, path: str, fn: Callable, resp_cls: type) -> Callable:
        def handle(request: Any, ctx: grpc.ServicerContext) -> Any:
            meta = dict(ctx.invocation_metadata())
            if meta.get("authorization") != f"Bearer {self.token}":
                ctx.abort(grpc.StatusCode.UNAUTHENTICATED, "bad token")
            with self.lock:
                self.calls[path] = self.calls.get(path, 0) + 1
            return fn(request, resp_cls, ctx)

        return handle

    # -- image / stub / container ----------------------------------------------------------
    def ok(self, req, resp_cls, ctx):
        return resp_cls(ok=True)

    def _image_key(self, req) -> str | None:
        """The id an image request builds to; None for the managed image (no packages beyond
        what the fake's interpreter has), which always exists."""
        packages = sorted(p for p in req.python_packages if p)
        if not req.commands and set(packages) <= self.preinstalled:
            return None
        spec = json.dumps({"python": req.python_version, "packages": packages, "commands": list(req.commands)}, sort_keys=True)
        return "img-" + hashlib.sha256(spec.encode()).hexdigest()[:16]

    def verify_image_build(self, req, resp_cls, ctx):
        if req.image_id:  # Image.from_id: exists if built here (or is a managed image's id)
            exists = req.image_id in self.images or req.image_id.startswith("img-python")
            return resp_cls(image_id=req.image_id, valid=exists, exists=exists)
        key = self._image_key(req)
        if key is None:
            return resp_cls(image_id=f"img-{req.python_version}", valid=True, exists=True)
        return resp_cls(image_id=key, valid=True, exists=key in self.images)

    def build_image(self, req, resp_cls, ctx):
        """Build the image as a real environment: a venv of the fake's interpreter with the
        packages installed by uv. Streams messages, then one `done` response."""
        key = self._image_key(req) or f"img-{req.python_version}"
        yield resp_cls(msg=f"building {key}\n")
        with self.image_lock:
            if key in self.images:
                yield resp_cls(done=True, success=True, image_id=key, python_version=req.python_version)
                return
            ok, log, python = self._build_env(key, req)
            if ok:
                self.images[key] = python
                self.image_builds.append(list(req.python_packages))
        yield resp_cls(msg=log[-4000:])
        yield resp_cls(done=True, success=ok, image_id=key if ok else "", python_version=req.python_version)

    def _build_env(self, key: str, req) -> tuple[bool, str, str]:
        from uv import find_uv_bin

        want = req.python_version.removeprefix("python")
        have = subprocess.run([self.python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True).stdout.strip()
        if want not in ("3", have):
            return False, f"this gateway only has python{have}, not {req.python_version}", ""
        root = os.path.join(self.root, "images", key)
        uv = find_uv_bin()
        env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never", "NO_COLOR": "1"}
        env.pop("VIRTUAL_ENV", None)
        steps = [[uv, "venv", root, "--python", self.python, "--no-project", "--quiet"]]
        if req.python_packages:
            source = ["--no-index", "--find-links", self.wheelhouse] if self.wheelhouse else []
            steps.append([uv, "pip", "install", "--python", os.path.join(root, "bin", "python"), "--quiet", *source, *req.python_packages])
        log = ""
        for cmd in steps:
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
            log += proc.stdout + proc.stderr
            if proc.returncode != 0:
                shutil.rmtree(root, ignore_errors=True)
                return False, log or f"{cmd[1]} failed", ""
        return True, log, os.path.join(root, "bin", "python")

    def head_object(self, req, resp_cls, ctx):
        return resp_cls(ok=True, exists=True, object_id=f"obj-{req.hash[:12]}")

    def get_or_create_stub(self, req, resp_cls, ctx):
        stub_id = f"stub-{uuid.uuid4().hex[:12]}"
        with self.lock:
            self.stubs[stub_id] = {
                "memory": req.memory,
                "cpu": req.cpu,
                "block_network": req.block_network,
                "image_id": req.image_id,
                "stub_type": req.stub_type,
                "entrypoint": list(req.entrypoint),
            }
        return resp_cls(ok=True, stub_id=stub_id)

    def create_pod(self, req, resp_cls, ctx):
        with self.lock:
            if self.die_after_creates is not None and self.calls.get("/pod.PodService/CreatePod", 0) > self.die_after_creates:
                if not self.dead:
                    self.dead = True
                    threading.Thread(target=self.stop, daemon=True).start()
                ctx.abort(grpc.StatusCode.UNAVAILABLE, "fake: gateway is going away")
            if self.fail_creates > 0:
                self.fail_creates -= 1
                ctx.abort(grpc.StatusCode.UNAVAILABLE, "fake: no capacity right now")
            stub = self.stubs.get(req.stub_id)
        if req.checkpoint_id:
            return self._restore(req.checkpoint_id, resp_cls)
        if stub is None:
            return resp_cls(ok=False, error_msg=f"unknown stub {req.stub_id}")
        if self.create_delay:
            with self.lock:
                self.creates_in_flight += 1
                self.max_creates_in_flight = max(self.max_creates_in_flight, self.creates_in_flight)
            time.sleep(self.create_delay)
            with self.lock:
                self.creates_in_flight -= 1
        cid = f"sandbox-{uuid.uuid4().hex[:12]}"
        root = os.path.join(self.root, cid)
        os.makedirs(root)
        with self.lock:
            self.containers[cid] = Container(id=cid, stub=stub, root=root)
        return resp_cls(ok=True, container_id=cid, stub_id=req.stub_id)

    def stop_container(self, req, resp_cls, ctx):
        c = self.containers.get(req.container_id)
        if c is None:
            return resp_cls(ok=False, error_msg="no such container")
        self._stop(c)
        return resp_cls(ok=True)

    def _stop(self, c: Container) -> None:
        for p in c.procs.values():
            self._kill(p)
        c.stopped = True
        shutil.rmtree(c.root, ignore_errors=True)

    def _container(self, req, resp_cls) -> tuple[Container | None, Any]:
        c = self.containers.get(req.container_id)
        if c is None or c.stopped:
            return None, resp_cls(ok=False, error_msg=f"container {req.container_id} not running")
        return c, None

    def _path(self, c: Container, path: str) -> str:
        """The container's filesystem is its directory: /workspace and / both map there."""
        if path.startswith("/workspace"):
            path = path[len("/workspace"):]
        return os.path.join(c.root, path.lstrip("/"))

    # -- files -----------------------------------------------------------------------------
    def sandbox_upload_file(self, req, resp_cls, ctx):
        c, err = self._container(req, resp_cls)
        if err:
            return err
        path = self._path(c, req.container_path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "r+b" if req.offset and os.path.exists(path) else "wb") as fh:
            fh.seek(req.offset)
            fh.write(req.data)
        os.chmod(path, req.mode or 0o644)
        with self.lock:
            c.uploads += 1
        return resp_cls(ok=True)

    def sandbox_delete_file(self, req, resp_cls, ctx):
        c, err = self._container(req, resp_cls)
        if err:
            return err
        try:
            os.unlink(self._path(c, req.container_path))
        except OSError as exc:
            return resp_cls(ok=False, error_msg=str(exc))
        return resp_cls(ok=True)

    # -- processes -------------------------------------------------------------------------
    def sandbox_exec(self, req, resp_cls, ctx):
        c, err = self._container(req, resp_cls)
        if err:
            return err
        proc, error = self._spawn(c, req.command, req.cwd, dict(req.env))
        if proc is None:
            return resp_cls(ok=False, error_msg=error)
        return resp_cls(ok=True, pid=proc.popen.pid)

    def _spawn(self, c: Container, command: str, cwd: str, req_env: dict[str, str]) -> tuple[Proc | None, str]:
        argv = shlex.split(command)
        if not argv:
            return None, "empty command"
        c.execs.append(list(argv))
        if argv[0] in ("python3", "python"):
            argv[0] = self.images.get(c.stub.get("image_id", ""), self.python)
        argv = [self._path(c, a) if a.startswith("/workspace") else a for a in argv]
        workdir = self._path(c, cwd or "/workspace")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": c.root, **req_env}
        if c.stub.get("block_network"):
            # unshare(1), not a preexec_fn: forking Python code in a process full of gRPC
            # threads crashes the child.
            argv = ["unshare", "--net", "--", *argv]
        try:
            popen = subprocess.Popen(
                argv, cwd=workdir, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True,
            )
        except OSError as exc:
            return None, str(exc)
        proc = Proc(popen=popen, command=(command, cwd, req_env))
        for stream, buf in ((popen.stdout, proc.out), (popen.stderr, proc.err)):
            t = threading.Thread(target=_pump, args=(stream, buf, self.lock), daemon=True)
            t.start()
            proc.threads.append(t)
        with self.lock:
            c.procs[popen.pid] = proc
        return proc, ""

    # -- memory snapshots (see the module doc) ---------------------------------------------
    def sandbox_snapshot_memory(self, req, resp_cls, ctx):
        c, err = self._container(req, resp_cls)
        if err:
            return err
        if self.snapshot_mode == "error":
            return resp_cls(ok=False, error_msg="fake: memory snapshots are not available on this gateway")
        ckpt_id = f"ckpt-{uuid.uuid4().hex[:12]}"
        files = os.path.join(self.root, "checkpoints", ckpt_id)
        _copy_tree(c.root, files)
        processes = []
        if self.snapshot_mode == "processes":
            for p in list(c.procs.values()):
                if p.popen.poll() is None:
                    # Where it waits: a process caught running (between two calls) gets 5 s to
                    # block, so a restore knows what "back where it was" means.
                    deadline = time.monotonic() + 5.0
                    while (syscall := _blocked_in(p.popen.pid)) is None and time.monotonic() < deadline:
                        time.sleep(0.01)
                    processes.append((*p.command, syscall))
        with self.lock:
            self.checkpoints[ckpt_id] = Checkpoint(ckpt_id, c.stub, files, processes, c.id)
        return resp_cls(ok=True, checkpoint_id=ckpt_id, runtime="fake")

    def _restore(self, ckpt_id: str, resp_cls):
        ckpt = self.checkpoints.get(ckpt_id)
        if ckpt is None or self.restore_error:
            return resp_cls(ok=False, error_msg=f"fake: cannot restore checkpoint {ckpt_id}")
        cid = f"sandbox-{uuid.uuid4().hex[:12]}"
        root = os.path.join(self.root, cid)
        _copy_tree(ckpt.files, root)
        c = Container(id=cid, stub=ckpt.stub, root=root, checkpoint=ckpt_id)
        with self.lock:
            self.containers[cid] = c
        started = []
        for command, cwd, env, syscall in ckpt.processes:
            proc, _ = self._spawn(c, command, cwd, env)
            if proc is not None:
                started.append((proc, syscall))
        deadline = time.monotonic() + self.restore_wait_s
        for proc, syscall in started:  # back where it was: blocked in the same system call
            while time.monotonic() < deadline and proc.popen.poll() is None:
                if syscall is not None and _blocked_in(proc.popen.pid) == syscall:
                    break
                time.sleep(0.01)
        stub_id = next((k for k, v in self.stubs.items() if v is ckpt.stub), "")
        return resp_cls(ok=True, container_id=cid, stub_id=stub_id)

    def _proc(self, req, resp_cls):
        c, err = self._container(req, resp_cls)
        if err:
            return None, err
        p = c.procs.get(req.pid)
        if p is None:
            return None, resp_cls(ok=False, error_msg=f"no process {req.pid}")
        return p, None

    def sandbox_status(self, req, resp_cls, ctx):
        p, err = self._proc(req, resp_cls)
        if err:
            return err
        code = p.popen.poll()
        if code is None:
            return resp_cls(ok=True, status="running", exit_code=-1)
        for t in p.threads:  # all output is in before "exited" is reported
            t.join(5)
        if p.killed or code < 0:
            code = 128 - code if code < 0 else 137
        return resp_cls(ok=True, status="exited", exit_code=code)

    def sandbox_stdout(self, req, resp_cls, ctx):
        p, err = self._proc(req, resp_cls)
        if err:
            return err
        with self.lock:
            data, p.out_pos = bytes(p.out[p.out_pos:]), len(p.out)
        return resp_cls(ok=True, stdout=data.decode("utf-8", "replace"))

    def sandbox_stderr(self, req, resp_cls, ctx):
        p, err = self._proc(req, resp_cls)
        if err:
            return err
        with self.lock:
            data, p.err_pos = bytes(p.err[p.err_pos:]), len(p.err)
        return resp_cls(ok=True, stderr=data.decode("utf-8", "replace"))

    def sandbox_kill(self, req, resp_cls, ctx):
        p, err = self._proc(req, resp_cls)
        if err:
            return err
        self._kill(p)
        return resp_cls(ok=True)

    def _kill(self, p: Proc) -> None:
        if p.popen.poll() is None:
            p.killed = True
            try:
                os.killpg(p.popen.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.popen.wait()


def managed_image(python: str, where: str) -> str:
    """A venv of `python` at `where` that sees `python`'s installed packages (pytest...) but not
    this checkout: the editable install of rlvr-grade is an import hook that a .pth file of
    `python`'s site-packages installs, and those folders are added here as plain path entries,
    whose .pth files are not run. Beam's image has no rlvr-grade either: a runner there has
    only what the archive brought (the harness's C extensions included). Returns its python."""
    subprocess.run([python, "-m", "venv", "--without-pip", where], check=True, capture_output=True)
    ask = "import json, site, sys; print(json.dumps([site.getsitepackages(), '%d.%d' % sys.version_info[:2]]))"
    sites, version = json.loads(subprocess.run([python, "-c", ask], check=True, capture_output=True, text=True).stdout)
    with open(os.path.join(where, "lib", f"python{version}", "site-packages", "image-packages.pth"), "w") as fh:
        fh.write("".join(f"{d}\n" for d in sites))
    return os.path.join(where, "bin", "python")


def _pump(stream: Any, buf: bytearray, lock: threading.Lock) -> None:
    while True:
        chunk = stream.read1(65536)
        if not chunk:
            break
        with lock:
            buf += chunk
    stream.close()


def _blocked_in(pid: int) -> str | None:
    """The system call `pid` is blocked in (its number), None while it runs."""
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            first = fh.read().split(maxsplit=1)[0]
        with open(f"/proc/{pid}/stat") as fh:
            state = fh.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None
    return first if first.isdigit() and state == "S" else None


def _copy_tree(src: str, dst: str) -> None:
    """Copy a sandbox's files; a socket comes back as a socket file nobody listens on (what a
    restored filesystem holds), other special files are left out."""
    import socket
    import stat

    def copy(s: str, d: str) -> None:
        mode = os.lstat(s).st_mode
        if stat.S_ISSOCK(mode):
            with socket.socket(socket.AF_UNIX) as sock:
                sock.bind(d)
            return
        if stat.S_ISREG(mode):
            shutil.copy2(s, d)

    shutil.copytree(src, dst, symlinks=True, copy_function=copy)
