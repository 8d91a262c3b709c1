"""The warm worker of one slot: imports the harness and pytest once, then forks one isolated
child per check. Started by sandbox/local.py as `python -s -c ...`; speaks protocol.py frames
on two private fds. Everything here runs as root in the slot's own network namespace."""

from __future__ import annotations

import dataclasses
import fcntl
import functools
import gc
import json
import os
import signal
import socket
import struct
import sys
import time
from dataclasses import dataclass
from typing import Any

from rlvr_grade.sandbox import isolation, linux, protocol
from rlvr_harness import limits as limits_policy
from rlvr_harness import process
from rlvr_harness.wire import (
    CheckLimits,
    CheckPayload,
    CheckReport,
    CheckRequest,
    Packed,
    ValidateOptions,
    WireError,
    WorkerInit,
)

READ_CHUNK = 65536
# The setup pipe carries "ok" and, before it, the tests this check prepared for the grader to
# keep (rlvr_harness/prepared.py: at most MAX_BLOB of base64, 16 MiB).
SETUP_CAP = (16 << 20) + 65536
CHANNEL_CAP = 16 << 20  # the result channel: what the harness writes never comes near it
SENT_BACK = b"prepared "
PIPE_BYTES = 1 << 20  # each output pipe's buffer: what a check can write before the worker drains
DRAIN_S = 0.05  # how often a lazily drained check's pipes are emptied while it runs
# A drain that finds this much switches the check to eager draining: about half of a pipe
# that could not be grown (64 KiB), so a writer never waits long on one either way.
EAGER_BYTES = 32 << 10
# The result channel's buffer in the check's direction (a unix socket counts each record's
# overhead too): the harness rarely waits on a lazily drained worker.
CHANNEL_BYTES = 1 << 20
CRED_SPACE = socket.CMSG_SPACE(struct.calcsize("iII"))  # room for SCM_CREDENTIALS, nothing more
SO_SNDBUFFORCE = 32  # <asm-generic/socket.h>; Python's socket module does not name it

# Thread pools of numeric libraries (OpenMP, OpenBLAS, MKL, BLIS, numexpr, Accelerate) sized
# to one thread, in the seed before it preloads anything and in every check: a seed with
# threads cannot fork safely (a forked child has only the forking thread; a lock another
# thread held stays locked), and a check's pools would compete for one slot's CPU anyway.
THREAD_VARS = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "BLIS_NUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
    "NUMEXPR_MAX_THREADS": "1",
    "VECLIB_MAXIMUM_THREADS": "1",
}

_NCPU = os.cpu_count() or 1  # os.cpu_count() reads sysfs on every call
_SETUP_FD: list[int | None] = [None]  # in a check child: the setup-status pipe, until setup ends
_SEED_FEATURES: dict[str, str] = {}  # the environment a seed runs and what it preloaded (seed_main)


class Zygote:
    def __init__(self, cfg: WorkerInit):
        self.cfg = cfg
        self.cgroup = None
        self.pidns_fd: int | None = None
        self.features: dict[str, str] = {}
        self.filter = None
        self.slot_namespaces = 0  # held by the worker for all its checks (isolation.slot_namespaces)
        # Where each check finds its result channel: one descriptor per worker, unknown to
        # the checks beforehand, and the one the seccomp filter keeps in place (channel_guard).
        self.chan = channel_descriptor()
        if cfg.isolate:
            self._isolate_slot()
        # The uid's keyrings: seccomp refuses add_key, keyctl and request_key; without it a user
        # namespace of the check's own holds them (~0.1-0.25 ms a check, measured: only then).
        own_keys = cfg.isolate and cfg.mode == "root" and self.filter is None
        no_userns = isolation.user_namespace_for_checks(cfg.uid) if own_keys else ""
        if cfg.isolate and cfg.mode != "none":
            self.features["keyrings"] = (
                "own per check (a nested user namespace)" if cfg.mode == "userns"
                else "unreachable (seccomp refuses add_key, keyctl, request_key)" if self.filter is not None
                else f"the slot uid's, kept between its checks ({no_userns})" if no_userns
                else "own per check (a user namespace of its own)")
        self.plan = isolation.IsolationPlan(
            mode=cfg.mode, uid=cfg.uid, nproc_base=cfg.nproc_base, has_cgroup=self.cgroup is not None,
            own_keyrings=own_keys and not no_userns,
        )
        self._keys_baseline = isolation.keys_held(cfg.uid)  # keyrings of the host's namespace, from before
        # One mount template per root (per language: a C check's root adds gcc to Python's),
        # built on the first check that needs it; the farm descriptors hold shared locks on
        # the farms in use, so no sweep removes them under a mounted overlay.
        self.templates: dict[str, isolation.Template] = {}
        self._farm_fds: list[int] = []
        from rlvr_grade.sandbox import root

        self._farm_base = root.farm_base()  # now: the checks' environment (HOME) is set below
        self._template: isolation.Template | None = None  # the running check's
        self._c_enter = None
        if cfg.isolate:
            self.template_for("python")
            if cfg.mode == "root" and cfg.c_setup:
                self._c_enter = _c_setup()
                if self._c_enter is not None:
                    self._c_fixed()
            self.features["setup"] = "per check in C (sandbox/_child.c)" if self._c_enter else "per check in Python"
            if cfg.mode == "root" and cfg.c_setup and c_setup_problem():
                self.features["setup_warning"] = c_setup_problem()
            t = self.templates["python"]
            shared = [*t.bound, *(["/dev's nodes"] if t.devices != "own nodes" else [])]
            inodes = "own overlay inodes per slot" if not t.bound else (
                f"bind mounts of {', '.join(t.bound)}: inodes shared with the host and every slot")
            self.features["filesystem"] = (
                f"allowlisted root ({len(t.layout.mounts)} directories, {len(t.layout.files)} files; {inodes}), "
                f"read-only; private tmpfs /tmp; /proc {t.proc_options or 'full'}; /dev: {t.devices}")
            if shared:  # not full isolation: a lock on one of their files crosses concurrent checks
                self.features["shared_inodes"] = shared
            # Every isolated check gets the same environment and default signal dispositions:
            # set them here, once, and each child inherits them. Done per child they cost
            # ~1 ms of copy-on-write faults (os.environ's Python-level bookkeeping, 3 handlers).
            # The worker itself needs neither: it never execs, and dies with the grader.
            enter_workdir(cfg.env, isolation.WORKDIR, "/tmp", chdir=False)

    def _isolate_slot(self) -> None:
        if self.cfg.mode == "userns":
            self.features["user_namespace"] = "unprivileged grader: namespaces owned by a user namespace"
        # One empty network namespace per slot: checks in a slot never overlap, and setting it
        # up once costs nothing per check (a fresh netns per check costs ~0.7 ms + teardown).
        linux.unshare(linux.CLONE_NEWNET)
        self.features["network"] = "own empty network namespace per slot"
        self.pidns_fd = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
        self.features["uid"] = ("host uid of the grader, mapped in a user namespace" if self.cfg.mode == "userns"
                                else "unprivileged per-slot uid")
        if self.cfg.cgroup:
            from rlvr_grade.sandbox.cgroups import SlotCgroup

            self.cgroup = SlotCgroup(self.cfg.cgroup)
            self.cgroup.join_pressure()
            cpu = "+cpu accounting" if self.cgroup.cpu_file else ""
            self.features["cgroup"] = f"v{self.cgroup.version} memory+pids{cpu} per slot"
        if self.cfg.seccomp:
            from rlvr_grade.sandbox import seccomp

            # Fail closed: a worker asked for the filter never runs a check without it (an
            # architecture without a table raises SeccompUnavailable; LocalBackend.start refuses
            # before that, naming --no-seccomp-UNSAFE).
            self.filter = seccomp.compile_filter(self.chan)  # once: loading it per check is ~0.3 ms
            self.features["seccomp"] = (f"allowlist of {len(self.filter.allowed)} syscalls (arguments checked for "
                                        "clone, prctl, ioctl, fcntl, socket, mknod, mmap, open, preadv2, fadvise64); everything else refused; "
                                        "the result channel cannot be replaced or closed")
        # ipc and uts once for the slot where seccomp keeps every check off them (~0.1 ms of system
        # time a check, and a kernel worker's teardown, saved); else each check unshares its own.
        self.slot_namespaces = isolation.slot_namespaces(self.filter is not None)
        isolation.enter_slot_namespaces(self.slot_namespaces)
        self.features["processes"] = ("own pid namespace per check; ipc and uts namespaces per slot (seccomp refuses "
                                      "SysV IPC, message queues and sethostname)" if self.slot_namespaces
                                      else "own pid, ipc and uts namespaces per check")

    def template_for(self, language: str) -> isolation.Template:
        """The mount template of `language`'s root (root.root_for), built on first use."""
        t = self.templates.get(language)
        if t is None:
            from rlvr_grade.sandbox import root

            want = root.root_for(language, self.cfg.env.get("PATH", ""), self.cfg.tmp_keep)
            want = want.masking((*self.cfg.hide, root.harness_bytecode()))
            layout = want.layout()
            farm, lock = root.materialize(layout, self._farm_base)
            self._farm_fds.append(lock)
            t = self.templates[language] = isolation.make_template(self.plan, layout, farm)
        return t

    def _c_spec(self, payload: CheckPayload, limits: CheckLimits) -> ChildSpec | None:
        """Everything _child.enter needs that varies per check, made before the fork (None:
        this check takes the Python path)."""
        files = []
        for path, text in check_files(payload, isolation.WORKDIR, isolation.TESTDIR):
            path_b = path.encode()
            if b"\0" in path_b:
                return None  # os.open refuses it with the error the Python path reports
            files.append((path_b, text.encode("utf-8", "surrogatepass")))
        t = self._template
        return ChildSpec(
            chan=self.chan, template=t.fd, cgroup_files=self._c_cgroup_files,
            tmp_opts=isolation.tmp_options(limits.disk_mb),
            keep=tuple((p.encode(), p[len("/tmp/"):].encode()) for p in t.tmp_keep),
            proc_opts=t.proc_options.encode(), dirs=self._c_dirs, files=tuple(files), uid=self.plan.uid,
            rlimits=tuple(isolation.rlimits(self.plan, limits)), own_userns=int(self.plan.own_keyrings),
            seccomp=self.filter.program if self.filter is not None else None,
            workdir=isolation.WORKDIR, hostname=isolation.HOSTNAME,
            namespaces=isolation.check_namespaces(self.slot_namespaces),
        )

    def _c_fixed(self) -> None:
        """What _child.enter takes that is the same for every check of this worker: the file
        per cgroup directory that moves a thread in (see isolation.join_cgroup), and the
        check's directories with their modes."""
        files = []
        for d in self.cgroup.dirs if self.cgroup is not None else ():
            tasks = os.path.join(d, "tasks")
            files.append((tasks if os.path.exists(tasks) else os.path.join(d, "cgroup.procs")).encode())
        self._c_cgroup_files = tuple(files)
        self._c_dirs = tuple((p.encode(), mode) for p, mode in isolation.CHECK_DIRS)

    # -- one check -----------------------------------------------------------------------
    def execute(self, wire: dict[str, Any] | CheckRequest) -> dict[str, Any]:
        # Read whole, typed, before anything is set up: a malformed request (a field that is not
        # its type, options included) is the set-up's failure naming the field, never a verdict.
        try:
            req = wire if isinstance(wire, CheckRequest) else CheckRequest.from_wire(wire)
        except WireError as exc:
            return {"sandbox_error": f"check setup failed: {exc}"}
        payload, limits = req.payload, req.limits
        if self.plan.own_keyrings and not isolation.keys_released(self.plan.uid, self._keys_baseline):
            return {"sandbox_error": "check setup failed: the slot uid's keys from its previous check are still held"}
        # Built (on a language's first check) here, in the worker, never in a check's child.
        self._template = self.template_for(root_language(payload)) if self.cfg.isolate else None
        spec = self._c_spec(payload, limits) if self._c_enter is not None else None
        nonce = os.urandom(16).hex()  # not `secrets`: it loads OpenSSL (~1 MB per fork)
        chan, res_w = result_channel()
        res_r = chan.fileno()
        # The child says "ok" here once its sandbox is set up, then closes it before any
        # candidate code runs: a failed setup is the infrastructure's failure (sandbox_error),
        # and the candidate cannot fake one (it never holds this descriptor).
        setup_r, setup_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        for fd in (out_w, err_w):
            _grow_pipe(fd)
        oom_before = 0
        cpu_before = waited_before = None
        if self.cgroup is not None:
            self.cgroup.configure(limits.memory_mb << 20, limits.processes)
            oom_before = self.cgroup.oom_kills()
            cpu_before = self.cgroup.cpu_ns()
            waited_before = self.cgroup.cpu_waited_us()
            peak_mark = self.cgroup.peak_mark()
        patch_loaded_extensions()
        sys.stdout.flush()
        sys.stderr.flush()
        if not self.cfg.isolate:
            import tempfile

            self._scratch = tempfile.mkdtemp(prefix="rlvr-")
        if self.pidns_fd is not None:
            linux.unshare(linux.CLONE_NEWPID)
        renote_modules()
        t0 = time.monotonic()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child
            code = 70
            try:
                os.close(res_r), os.close(out_r), os.close(err_r), os.close(setup_r)
                if spec is not None:
                    self._c_enter(res_w, out_w, err_w, setup_w, *spec.args())
                    _SETUP_FD[0] = self.chan + 1
                    run_candidate(payload, nonce, self.chan, isolation.WORKDIR, isolation.TESTDIR)
                else:
                    self._child(payload, limits, nonce, res_w, out_w, err_w, setup_w)
                code = 0
            except BaseException:  # noqa: BLE001 - report what broke the setup, then die
                try:
                    import traceback

                    tb = traceback.format_exc().encode()[-2000:]
                    if _SETUP_FD[0] is not None:
                        os.write(_SETUP_FD[0], b"error: " + tb)
                    os.write(2, tb)
                except BaseException:
                    pass
            finally:
                os._exit(code)
        if self.pidns_fd is not None:
            linux.setns(self.pidns_fd, linux.CLONE_NEWPID)
        os.close(res_w), os.close(out_w), os.close(err_w), os.close(setup_w)
        try:
            result = self._collect(pid, t0, limits, nonce, chan, out_r, err_r, cpu_before, setup_r, waited_before)
        finally:
            chan.close()
        if self.cgroup is not None:
            if isinstance(result, CheckReport):
                result = dataclasses.replace(result, oom=self.cgroup.oom_kills() > oom_before, peak_memory_mb=max(
                    result.peak_memory_mb, self.cgroup.peak_since(peak_mark) / 2**20))
            self.cgroup.kill_all()  # a process that escaped the pid namespace's death
        if not self.cfg.isolate:
            import shutil

            try:
                os.killpg(pid, signal.SIGKILL)  # no pid namespace: at least its session's group
            except OSError:
                pass
            shutil.rmtree(self._scratch, ignore_errors=True)
        return result.to_wire() if isinstance(result, CheckReport) else result

    def _cpu_used(self, cpu_before: int | None) -> float | None:
        """CPU seconds the running check has spent so far, its subprocesses included."""
        if cpu_before is None or self.cgroup is None:
            return None
        now = self.cgroup.cpu_ns()
        return None if now is None else (now - cpu_before) / 1e9

    def _waited(self, pid: int, waited_before: int | None) -> float | None:
        """Seconds the running check has waited runnable for a CPU since it started (its wall
        deadline moves by that, see process.collect): the slot cgroup's CPU pressure, which counts
        every process the check ever had; without PSI, the run delay of the threads of the
        processes in the slot's cgroup now (or of the check's own process, without a cgroup)."""
        if self.cgroup is None:
            return process.threads_waited([pid])
        if waited_before is not None:
            now = self.cgroup.cpu_waited_us()
            if now is not None:
                return (now - waited_before) / 1e6
        return process.threads_waited(self.cgroup.processes())

    def _collect(self, pid: int, t0: float, limits: CheckLimits, nonce: str, chan: socket.socket, out_r: int, err_r: int,
                 cpu_before: int | None = None, setup_r: int | None = None,
                 waited_before: int | None = None) -> CheckReport | dict[str, str]:
        """The check's run (rlvr_harness/process.py `collect`): its output, result channel and setup
        pipe drained lazily, stopped at its output cap, its wall deadline and, with a cgroup, its
        exact CPU limit from the cgroup's accounting (RLIMIT_CPU is per process and whole
        seconds, and misses CPU burnt by subprocesses); then its report (or, when its set-up
        failed, {"sandbox_error": why})."""
        cpu_limit = limits.cpu_s
        cap = limits.output_bytes
        # Only bytes the check's main process (the harness) wrote on the channel are its own
        # (channel_read names the writer); every byte counts toward the cap, whoever wrote it.
        channel = process.Stream(chan.fileno(), CHANNEL_CAP, read=lambda _fd: _own(channel_read(chan), pid), close=False)
        out, err = process.Stream(out_r, cap), process.Stream(err_r, cap)
        streams = [channel, out, err]
        setup = process.Stream(setup_r, SETUP_CAP, stops=False) if setup_r is not None else None
        if setup is not None:
            streams.append(setup)
        watch = (lambda: self._cpu_used(cpu_before)) if cpu_before is not None else None
        # Lazy draining: the worker sleeps on the pidfd alone and empties the pipes (1 MiB each,
        # see execute) when the check ends or every DRAIN_S, instead of waking for every record
        # and line the check writes; a check that writes fast (a flood) turns eager. After its
        # exit, the pid namespace is gone and the pipes close at once: a second is plenty.
        ended = process.collect(pid, streams, t0=t0, wall_s=limits.wall_s, kill=lambda: _kill(pid),
                                cpu_limit=cpu_limit, cpu_used=watch, ncpu=_NCPU,
                                waited=lambda: self._waited(pid, waited_before), linger_s=1.0, lazy_s=DRAIN_S,
                                eager_bytes=EAGER_BYTES)
        sent_back = None
        if setup is not None:
            said = bytes(setup.data)
            if said.startswith(SENT_BACK):  # written by the harness before candidate code ran
                line, _, said = said.partition(b"\n")
                tag, _, blob = line[len(SENT_BACK):].decode("ascii", "replace").partition(" ")
                sent_back = Packed(tag, blob)
            if not said.startswith(b"ok"):
                why = said[-8192:].decode("utf-8", "replace").strip().splitlines()
                return {"sandbox_error": "check setup failed: " + (why[-1] if why else f"child ended during setup (status {ended.status})")}
        records, done, phase = parse_channel(bytes(channel.data), nonce)
        cpu = ended.cpu_s
        killed_for_cpu = ended.killed_for_cpu
        if not ended.cpu_watched:
            # No cgroup (unprivileged): RLIMIT_CPU is the only CPU stop (limits.check_rlimits).
            killed_for_cpu = killed_for_cpu or limits_policy.cpu_rlimit_stopped(ended.signal, cpu, cpu_limit,
                                                                                ended.killed_for_wall)
        if killed_for_cpu:
            cpu = max(cpu, cpu_limit)
        return CheckReport(
            exit_code=ended.exit_code,
            signal=ended.signal,
            stdout=bytes(out.data).decode("utf-8", "replace"),
            stderr=bytes(err.data).decode("utf-8", "replace"),
            cpu_s=cpu,
            wall_s=ended.wall_s,
            peak_memory_mb=ended.max_rss_kb / 1024,
            killed_for_wall=ended.killed_for_wall,
            killed_for_cpu=killed_for_cpu,
            output_truncated=ended.killed_for_output,
            killed_for_output=ended.killed_for_output,
            records=tuple(records),
            done=done,
            phase=phase,
            prepared=sent_back,
            channel_tampered=CHANNEL_TAMPERED.format(channel.foreign) if channel.foreign else "",
        )

    # -- inside the child ------------------------------------------------------------------
    def _child(self, payload: CheckPayload, limits: CheckLimits, nonce, res_w, out_w, err_w, setup_w) -> None:  # pragma: no cover
        cfg = self.cfg
        template = self._template
        chan = child_descriptors(res_w, out_w, err_w, setup_w, self.chan, keep=template.fd if template is not None else None)
        if template is not None:
            if self.cgroup is not None:
                isolation.join_cgroup(self.cgroup.dirs)  # before the root, which has no /sys
            workdir, testdir = isolation.enter_filesystem(template, limits.disk_mb, chan + 2,
                                                          isolation.check_namespaces(self.slot_namespaces))
        else:
            base = self._scratch  # made by the parent, which removes it after the check
            workdir, testdir = os.path.join(base, "w"), os.path.join(base, "t")
            os.makedirs(workdir, exist_ok=True)
            os.makedirs(testdir, exist_ok=True)
        write_files(payload, workdir, testdir)
        isolation.drop_privileges(self.plan, limits, workdir)
        # If the zygote dies (the grader was killed), the check's pid-namespace init dies, and
        # with it everything the check started. Set after the uid drop, which clears it.
        linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)
        enter_workdir(None if cfg.isolate else cfg.env, workdir, "/tmp")
        if self.filter is not None:
            self.filter.load()  # last: everything above needed mount/unshare
        run_candidate(payload, nonce, chan, workdir, testdir)


def patch_loaded_extensions() -> None:
    """Patch, here in the worker, the tables of the extension modules loaded since the seed
    patched its own (rlvr_harness/arrays.py: this worker's _child set-up, a language's first
    template): a check's guard then finds nothing new to walk. Otherwise every check's child
    walked every loaded object's relocations again (~250 copy-on-write and file faults, ~1.5 ms
    with pandas and numpy loaded), whatever it was that had been loaded. A no-op when nothing
    was loaded since the last call."""
    from rlvr_harness import arrays
    from rlvr_harness.guard import library_prefixes

    arrays.arm(library_prefixes())


def _kill(pid: int) -> None:
    """SIGKILL the check's main process: the init of its pid namespace, whose end takes every
    process of the check with it (a zombie's: nothing happens)."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _own(read: tuple[bytes, int | None], pid: int) -> tuple[bytes, bool]:
    data, writer = read
    return data, writer == pid


def root_language(payload: CheckPayload) -> str:
    """The language whose toolchain a check's root holds: the program's, or for an output
    validator's check (scoring/validator.validator_check: Python harness, compiled validator) the
    validator's."""
    from rlvr_harness.languages import normalize

    name = payload.options.language if isinstance(payload.options, ValidateOptions) else payload.language
    try:
        return normalize(str(name))
    except ValueError:
        return "python"  # the harness reports the unknown language itself


def _grow_pipe(fd: int) -> None:
    """Room for PIPE_BYTES in the pipe, so a lazily drained check rarely waits on it (the
    kernel caps it at /proc/sys/fs/pipe-max-size; pages are only used as they fill)."""
    try:
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except OSError:
        pass  # an unprivileged grader over the per-user pipe quota keeps the default 64 KiB


@dataclass(frozen=True)
class ChildSpec:
    """What sandbox/_child.c's enter() takes after the four descriptors, per check, in its
    order (the C function's comment says what each is)."""

    chan: int
    template: int
    cgroup_files: tuple[bytes, ...]
    tmp_opts: str
    keep: tuple[tuple[bytes, bytes], ...]
    proc_opts: bytes
    dirs: tuple[tuple[bytes, int], ...]
    files: tuple[tuple[bytes, bytes], ...]
    uid: int
    rlimits: tuple[tuple[int, int], ...]  # rlvr_harness/limits.py check_rlimits: the C side sets these, nothing else
    own_userns: int  # isolation.own_user_namespace after the uid drop (1) or not (0)
    seccomp: bytes | None
    workdir: str
    hostname: str
    namespaces: int  # the clone flags unshared per check (isolation.check_namespaces)

    def args(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in dataclasses.fields(self))


# What sandbox/_child.c's enter() takes and does, as this code calls it: its CHILD_PROTOCOL.
# C_SOURCE_SHA256 is the file the protocol was last bumped for: tests/sandbox/test_child_protocol.py
# fails when _child.c changes and these two (and CHILD_PROTOCOL in the file) do not.
C_PROTOCOL = 7
C_SOURCE_SHA256 = "fced3cf55b45501d1e77d30359a750b9c237c64e16bb7ae3ca1349396cb53653"


def _c_setup():
    """sandbox/_child.c's enter(), or None where the Python path does the same steps: the
    extension was not built (no compiler at install time), or was built from another version
    of _child.c (c_setup_problem says which)."""
    return _load_c_setup()[0]


def c_setup_problem() -> str:
    """Why checks are not set up in C although the extension is there ("" when they are, or
    when it was never built): shown as a warning by `doctor` and in the backend's isolation."""
    return _load_c_setup()[1]


@functools.lru_cache(maxsize=1)
def _load_c_setup() -> tuple[Any, str]:
    try:
        from rlvr_grade.sandbox import _child
    except ImportError:
        return None, ""
    built = getattr(_child, "PROTOCOL", None)
    if built != C_PROTOCOL:
        # A stale build (`git pull` without `make install`): its enter() would take other
        # arguments or do other steps, and every check's set-up would fail.
        return None, (f"sandbox/_child.c's build ({_child.__file__}) speaks protocol {built}, this code {C_PROTOCOL}: "
                      "checks are set up in Python until it is rebuilt (`make install`, or reinstall rlvr-grade)")
    return _child.enter, ""


def enter_workdir(env: dict[str, str] | None, workdir: str, tmpdir: str, chdir: bool = True) -> None:  # pragma: no cover
    """The check child's cwd, a clean environment, default signal dispositions. `env` None:
    the environment and dispositions were set in the worker before the fork (Zygote)."""
    if chdir:
        os.chdir(workdir)
    if env is None:
        return
    os.environ.clear()
    os.environ.update(env)
    os.environ.update({"HOME": workdir, "TMPDIR": tmpdir, "PWD": workdir})
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_candidate(payload: CheckPayload, nonce: str, chan: int, workdir: str, testdir: str) -> None:  # pragma: no cover
    """Close the setup pipe with "ok" (from here on a failure is the candidate's), then run
    the harness and flush what the candidate printed. Asked to (the grader holds no prepared
    form of these tests yet), prepare the asserts-style tests first and send them back on the
    setup pipe: no candidate code has run yet, so the grader can trust them for later checks."""
    forget_grader()
    if payload.send_prepared and payload.preparable:
        from rlvr_harness import prepared, runner

        blob = prepared.make_here(payload.tests, runner.prepare_asserts)
        if blob is not None:
            _write_all(_SETUP_FD[0], SENT_BACK + prepared.TAG.encode() + b" " + blob + b"\n")
    os.write(_SETUP_FD[0], b"ok")
    os.close(_SETUP_FD[0])
    _SETUP_FD[0] = None
    run_harness(payload, nonce, chan, workdir, testdir)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        pass


# (every name in sys.modules, the grader's among them) when the worker was ready (note_modules):
# a check's child finds the grader's modules from it instead of walking sys.modules, which
# increfed its ~350-600 names, each on a page the child then copied (~190 faults a check).
# Also sys.modules' version tag then (None without harness/_dictver), sys.meta_path's finders
# and those of them a check keeps: where neither moved since, the child pops the noted names
# and assigns the kept finders without looking further (new_modules and a hasattr on every
# finder cost a check's child ~0.2 ms and ~30 copied pages).
_MODULES_NOTED: list[tuple[frozenset[str], tuple[str, ...], Any, tuple[Any, ...], list[Any]]] = []


def _graders(names: Any) -> list[str]:
    return [n for n in names if type(n) is str and (n == "rlvr_grade" or n.startswith("rlvr_grade."))]


def _modules_tag() -> Any:
    from rlvr_harness.runner import _DICTVER

    return _DICTVER.tags((sys.modules,)) if _DICTVER is not None else None


def note_modules() -> None:
    """In the worker, before its first check: the names forget_grader starts from."""
    names = frozenset(sys.modules)
    finders = tuple(sys.meta_path)
    # The seed's finder of the two packages (local.boot_code) names their host folders.
    keep = [f for f in finders if not hasattr(f, "host_of")]
    _MODULES_NOTED[:] = [(names, tuple(_graders(names)), _modules_tag(), finders, keep)]


def renote_modules() -> None:
    """In the worker, before each fork: note again where sys.modules or sys.meta_path moved
    since the last note (a module the worker imported between checks), so that its checks'
    children keep the short way (forget_grader)."""
    if not _MODULES_NOTED:
        return
    _names, _noted, tag, finders, _keep = _MODULES_NOTED[0]
    if tag is None or tag != _modules_tag() or _finders_moved(finders):
        note_modules()


def _finders_moved(finders: tuple[Any, ...]) -> bool:
    """Whether sys.meta_path holds other finders than `finders` (identity, in C: no finder is
    increfed, no page of theirs copied), True without harness/_dictver."""
    from rlvr_harness.runner import _DICTVER

    meta_path = sys.meta_path
    return _DICTVER is None or type(meta_path) is not list or _DICTVER.held(((meta_path, finders),), ()) != ([], [])


def forget_grader() -> None:  # pragma: no cover - runs in the check's child
    """Take the grader's own package out of sys.modules: the worker and its set-up code run
    from it, but a check may not import it (issue 18). Its folder is not in the check's root and
    not on sys.path, so `import rlvr_grade` is a ModuleNotFoundError; the harness's snapshot of
    sys.modules leaves it out (rlvr_harness.runner.snapshot_common), so no restore puts it back.
    What runs on in this process holds its modules through its own globals. The grader's names
    are the worker's (note_modules) and those imported since (runner.new_modules); where
    sys.modules' tag is the noted one, nothing was imported since."""
    from rlvr_harness.runner import new_modules

    mods = sys.modules
    if _MODULES_NOTED:
        known, noted, tag, finders, keep = _MODULES_NOTED[0]
        names = noted if tag is not None and tag == _modules_tag() else [*noted, *_graders(new_modules(known))]
    else:
        names, finders, keep = _graders(list(mods)), None, None
    for name in names:
        mods.pop(name, None)
    if finders is not None and not _finders_moved(finders):
        sys.meta_path[:] = keep
    else:  # the seed's finder of the two packages (local.boot_code) names their host folders
        sys.meta_path[:] = [f for f in sys.meta_path if not hasattr(f, "host_of")]


def child_descriptors(res_w: int, out_w: int, err_w: int, setup_w: int, chan: int,
                      keep: int | None = None) -> int:  # pragma: no cover
    """In a fresh check child: a new session, stdin from /dev/null, stdout/stderr to the
    collector's pipes, the result channel at descriptor `chan` (close-on-exec; the seccomp
    filter keeps it there) with the setup pipe beside it, every other inherited descriptor
    closed (`keep`, if given, moves to channel + 2: the worker's mount template, closed once
    entered). The setup pipe says "ok" just before candidate code runs: a failure before that
    is the infrastructure's (sandbox_error), and the candidate cannot fake one after it.
    Returns `chan`."""
    os.setsid()
    devnull = os.open("/dev/null", os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(out_w, 1)
    os.dup2(err_w, 2)
    os.dup2(res_w, chan, inheritable=False)
    os.dup2(setup_w, chan + 1, inheritable=False)
    _SETUP_FD[0] = chan + 1
    last = chan + 1
    if keep is not None:
        os.dup2(keep, chan + 2, inheritable=False)
        last = chan + 2
    os.closerange(3, chan)
    os.closerange(last + 1, 4096)
    return chan


CHANNEL_TAMPERED = "the result channel was written by another process than the tests' own ({} bytes): tampering"


def channel_descriptor() -> int:
    """A descriptor number for the result channel, drawn at random from 200..999."""
    return int.from_bytes(os.urandom(4), "little") % 800 + 200


def result_channel() -> tuple[socket.socket, int]:
    """The harness's result channel: (the worker's end, the check's end as a descriptor).

    A unix stream socket pair, not a pipe: the worker's end has SO_PASSCRED, so the kernel
    names the process that wrote every byte (a read never joins two writers' bytes), and a
    record from any process but the check's main one, the harness's, is refused whatever it
    says (a forked child that forges records, or drives the harness into writing them). Nor can
    it be opened again through /proc/<pid>/fd, as a pipe's other end can."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    try:  # root (or a user namespace's root) may pass net.core.wmem_max
        theirs.setsockopt(socket.SOL_SOCKET, SO_SNDBUFFORCE, CHANNEL_BYTES)
    except OSError:
        theirs.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, CHANNEL_BYTES)
    return ours, theirs.detach()


def channel_read(chan: socket.socket) -> tuple[bytes, int | None]:
    """(bytes, the pid that wrote them) from the channel; b"" at its end. Raises
    BlockingIOError when nothing is there. The pid is None when the kernel named none, or when
    the writer also sent descriptors or other control data (the harness never does)."""
    data, anc, flags, _ = chan.recvmsg(READ_CHUNK, CRED_SPACE)
    writer = None
    for level, kind, body in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS and len(body) >= 12:
            writer = struct.unpack("iII", body[:12])[0]
    if flags & socket.MSG_CTRUNC:  # descriptors passed along: the kernel closed them
        writer = None
    return data, writer


def check_files(payload: CheckPayload, workdir: str, testdir: str) -> list[tuple[str, str]]:
    """(path, text) of every file a check starts with, each written read-only."""
    from rlvr_harness.files import TEST_MODULE, TEST_PLACEHOLDER, WORKDIR_SOLUTION

    program = payload.program
    if payload.setup:
        program = payload.setup + "\n" + program
    files = [(os.path.join(workdir, WORKDIR_SOLUTION), program)]
    if payload.worker == "pytest":
        # pytest collects the module by path; its source comes from the payload, in memory
        # (runner._strict_rewrite_hook): nothing on disk for a candidate's process to read
        files.append((os.path.join(testdir, TEST_MODULE), TEST_PLACEHOLDER))
    return files


def write_files(payload: CheckPayload, workdir: str, testdir: str) -> None:
    for path, text in check_files(payload, workdir, testdir):
        _write_ro(path, text)


def _write_ro(path: str, text: str) -> None:
    # os-level: an io.TextIOWrapper per file costs the child ~70 copy-on-write faults.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o444)
    try:
        _write_all(fd, text.encode("utf-8", "surrogatepass"))
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def run_harness(payload: CheckPayload, nonce: str, chan: int, workdir: str, testdir: str) -> None:  # pragma: no cover
    from rlvr_harness import process, runner
    from rlvr_harness.channel import make_reporter

    # The encoder and os.write are bound now, before candidate code can patch json or os.
    report = make_reporter(nonce.encode() + b" ", chan)
    process.CHANNEL[0] = chan  # a case's process is spawned without it, where the sandbox allows
    runner.run(payload, report, workdir, testdir)


def parse_channel(data: bytes, nonce: str) -> tuple[list[dict[str, Any]], bool, list[str] | None]:
    """Only lines carrying this check's nonce count; anything else on the channel is ignored."""
    from rlvr_harness.wire import plain_json_problem

    prefix = nonce.encode() + b" "
    records: list[dict[str, Any]] = []
    done = False
    phase = None
    seen: set[str] = set()
    for line in data.split(b"\n"):
        if not line.startswith(prefix):
            continue
        try:
            event = json.loads(line[len(prefix):])
        except (ValueError, RecursionError):  # RecursionError: nested deeper than json can read
            continue
        if type(event) is not dict:  # the harness only ever writes objects
            continue
        ev = event.get("ev")
        if ev == "test":
            tid = _field(event, "id")
            outcome, output = event.get("outcome"), event.get("output")
            problem = plain_json_problem(output) if output is not None else None
            if problem is not None:
                # Deeper or bigger than any value the harness encodes: it must not reach the
                # grader (whose own json.loads would choke on it); the test fails.
                outcome, output = "error", None
            if tid in seen:
                # A second report for the same test can only be a forgery or a re-run: keep the worse.
                for r in records:
                    if r["id"] == tid and outcome != "passed":
                        r.update(outcome=outcome, message=_field(event, "msg"))
                continue
            seen.add(tid)
            records.append({"id": tid, "outcome": outcome, "message": _field(event, "msg"), "output": output})
        elif ev == "done":
            done = True
        elif ev == "phase" and phase is None:
            phase = [_field(event, "phase"), _field(event, "msg")]
    return records, done, phase


def _field(event: dict[str, Any], key: str) -> str:
    """A text field of a channel event; the harness writes str (or a number), anything else is
    a forgery and is named, not rendered (str() of a deep value can exhaust the recursion)."""
    v = event.get(key, "")
    if type(v) is str:
        return v
    if v is None or type(v) in (int, float, bool):
        return str(v)
    return f"<malformed {key}>"


def warm_up(pytest_warm: bool = True) -> None:
    """Import what checks need and, for a pytest worker, run one pytest session, so each child
    starts hot. A lean worker (asserts/stdio/call/validate checks) skips pytest: a worker with
    pytest loaded is ~32 MB against ~12 MB, and fork + exit of a check child costs ~2.5x the
    CPU from it (page tables to copy, copy-on-write faults, teardown)."""
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    if not pytest_warm:
        preload_harness()
        return
    try:
        import tempfile

        import pytest

        from rlvr_harness import runner

        runner.resolve_hookimpls()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "test_rlvr_warmup.py")
            with open(path, "w") as fh:
                fh.write("def test_ok():\n    assert 1 + 1 == 2\n")
            saved = os.dup(1)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            try:
                pytest.main(runner.pytest_args(path, d), plugins=[])
            finally:
                sys.stdout.flush()
                os.dup2(saved, 1)
                os.close(saved)
                os.close(null)
        sys.modules.pop("test_rlvr_warmup", None)
        sys.path[:] = [p for p in sys.path if not p.startswith(d)]
    except ImportError:  # no pytest here: that style cannot run anyway
        preload_harness()
        return
    preload_harness()
    runner.prepare_fingerprint()  # last: what the checks' fingerprint starts from


def preload_harness() -> None:
    """Import every module of the harness now: a check's child may run after the directory
    holding this package is masked, and a lazy import there would fail."""
    import importlib
    import pkgutil

    import rlvr_harness as harness
    from rlvr_grade.sandbox.root import host_path

    # A seed names the harness's folder as a check sees it (root.HARNESS_AT): listed on the host.
    for mod in pkgutil.iter_modules([host_path(p) for p in harness.__path__]):
        try:
            importlib.import_module(f"rlvr_harness.{mod.name}")
        except ImportError:  # e.g. no pytest in this interpreter: that style cannot run anyway
            pass
    from rlvr_harness import runner

    runner.snapshot_common()


def become_userns_init() -> None:
    """For an unprivileged grader: enter a user namespace (our uid mapped to 0) and continue as
    pid 1 of a new pid namespace that this user namespace owns. Per check, the zygote then
    unshares a pid namespace and must setns() back into its own, which needs CAP_SYS_ADMIN
    over the user namespace owning it: true of this one, never of the host's. The original
    process only waits, so the backend's SIGKILL still reaches us (PDEATHSIG)."""
    linux.enter_user_namespace(0, 0)
    linux.unshare(linux.CLONE_NEWPID)
    pid = os.fork()
    if pid:
        _, status = os.waitpid(pid, 0)
        os._exit(max(0, os.waitstatus_to_exitcode(status)) & 0xFF)
    linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)


def main(in_fd: int, out_fd: int) -> None:
    """A slot's worker, forked by the seed of its kind, already warm (seed_main)."""
    # Our frames travel on private fds; fd 0/1 point elsewhere so nothing stray corrupts them.
    devnull = os.open("/dev/null", os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    init = protocol.recv(in_fd)
    if init is None:
        return
    try:
        cfg = WorkerInit.from_wire(init)
        linux.set_name(f"rlvr-slot{cfg.slot}" + ("-py" if cfg.warm == "pytest" else ""))
        if cfg.mode == "userns":
            become_userns_init()
        zygote = Zygote(cfg)
    except BaseException as exc:  # noqa: BLE001
        protocol.send(out_fd, {"ready": False, "error": f"{type(exc).__name__}: {exc}"})
        return
    note_modules()
    gc.collect()
    gc.freeze()  # children then share the parent's heap pages instead of copying on GC
    protocol.send(out_fd, {"ready": True, "features": {**zygote.features, **_SEED_FEATURES}})
    while serve_one(zygote, in_fd, out_fd):
        pass


def serve_one(zygote: Zygote, in_fd: int, out_fd: int) -> bool:
    """One request and its report, dead with this frame before the next fork (issue 16, rtk)."""
    req = protocol.recv(in_fd)
    if req is None:
        return False
    try:
        resp = zygote.execute(req)
    except BaseException as exc:  # noqa: BLE001 - the grader turns this into sandbox_error
        resp = {"sandbox_error": f"{type(exc).__name__}: {exc}"}
    protocol.send(out_fd, resp)
    return True


def thread_count() -> int:
    """Threads of this process (the kernel's list: a library's native threads count too)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


def native_memory_warning() -> str:
    """What of raw memory every check forked from this process inherits ("" when nothing):
    _ctypes loaded here (the ctypes fallback of sandbox/linux.py, a preloaded module that
    loaded it regardless) is reachable from any check's code (red team A2); numpy loaded
    where rlvr_harness/_arrays cannot check its array interface (issue 15) too."""
    from rlvr_harness.arrays import why_unchecked
    from rlvr_harness.guard import NATIVE_MEMORY_MODULES

    held = sorted(n for n in NATIVE_MEMORY_MODULES if sys.modules.get(n) is not None)
    notes = []
    if held:
        why = linux.NATIVE_FALLBACK or "an environment's preloaded module loaded it"
        notes.append(f"{', '.join(held)} loaded in the process checks are forked from ({why}): raw memory is reachable from checks")
    unchecked = why_unchecked() if sys.modules.get("numpy") is not None else None
    if unchecked:
        notes.append(f"numpy's array interface is not checked ({unchecked}): raw memory is reachable from checks through it")
    return "; ".join(notes)


def _native_needed(blocked: list[str], modules: tuple[str, ...] | list[str]) -> str | None:
    """The first of `blocked` that importing `modules` (in order) cannot do without, or None:
    tried in a throwaway child (linux.probe) with `blocked` unavailable, so nothing of the trial stays here."""
    import importlib

    def trial() -> int:  # pragma: no cover - in the probe's child: the index + 1 of the one needed, or 0
        for n in blocked:
            sys.modules[n] = None  # type: ignore[assignment]
        for name in modules:
            try:
                importlib.import_module(name)
            except ImportError as exc:
                seen: BaseException | None = exc
                while seen is not None:  # one of the blocked, anywhere in the chain
                    hit = str(seen.name).split(".")[0] if isinstance(seen, ImportError) else ""
                    if hit in blocked:
                        return blocked.index(hit) + 1
                    seen = seen.__cause__ or seen.__context__
            except BaseException:  # noqa: BLE001 - not a question of native modules
                continue
        return 0

    code = linux.probe(trial)
    return blocked[code - 1] if 0 < code <= len(blocked) else None


def native_needs(blocked: list[str], modules: tuple[str, ...] | list[str]) -> list[str]:
    """Which of the raw-memory modules `blocked` the libraries `modules` cannot import without
    (pandas: ctypes; scipy's _ccallback: ctypes), one trial per module found."""
    needed: list[str] = []
    rest = list(blocked)
    while rest and modules:
        hit = _native_needed(rest, modules)
        if hit is None:
            break
        needed.append(hit)
        rest.remove(hit)
    return needed


def preload(modules: tuple[str, ...] | list[str], needs: tuple[str, ...] | list[str] = ()) -> tuple[list[str], str | None]:
    """Import `modules` (an environment's), in order, so every check forked after finds them
    imported. `needs`: the environment's own libraries (its default preload list), asked what
    raw-memory modules they need whatever `modules` is (--preload none included). Returns (the
    ones imported, the refusal): a module after whose import this process has more than one
    thread makes the seed refuse to fork (a forked child keeps only the forking thread, and
    locks the others held stay locked in it), named in the refusal. A module that fails to
    import is skipped: a check importing it fails the same way itself."""
    import importlib

    from rlvr_harness.guard import NATIVE_MEMORY_MODULES

    done: list[str] = []
    # Raw-memory modules are blocked while the environment imports (numpy's `try: import
    # ctypes` goes on without): every check is forked from this process, and a loaded _ctypes
    # is reachable from any check's code through object.__subclasses__() (red team A2). In a
    # check they are refused to everyone, so a library that cannot import without them
    # (pandas, scipy under gensim) works only if this process loads them first: a trial in a
    # child names each one the environment's libraries need, and only those are imported here,
    # whether or not the libraries themselves are preloaded (what an environment's libraries
    # need must not depend on --preload). native_memory_warning then says raw memory is
    # reachable from its checks (docs/fidelity.md, A2).
    blocked = sorted(n for n in NATIVE_MEMORY_MODULES if n not in sys.modules)
    trial = list(dict.fromkeys([*modules, *needs]))
    for n in native_needs(blocked, trial) if blocked else ():
        try:
            importlib.import_module(n)
        except BaseException:  # noqa: BLE001 - then the library fails in the check, as it would
            continue
    blocked = [n for n in blocked if n not in sys.modules]
    for n in blocked:
        sys.modules[n] = None  # type: ignore[assignment]  # import raises ImportError
    try:
        for name in modules:
            try:
                importlib.import_module(name)
            except BaseException:  # noqa: BLE001 - SystemExit at import included; the check sees it
                continue
            done.append(name)
            threads = thread_count()
            if threads > 1:
                return done, (f"preloading {name!r} left {threads - 1} thread(s) running besides the seed's own; a process "
                              "with threads cannot fork workers safely (thread pools are pinned to 1 thread by "
                              "OMP_NUM_THREADS and the like; this one is not)")
        if "numpy" in sys.modules and "numpy.random" not in sys.modules:
            # numpy 2 imports numpy.random at its first use: in a check, that made its legacy
            # global generator from the OS's entropy, after the check was seeded
            # (rlvr_harness/seeding.py); loaded here, each check seeds it.
            try:
                importlib.import_module("numpy.random")
            except BaseException:  # noqa: BLE001 - a check using it fails the same way itself
                pass
    finally:
        for n in blocked:
            if sys.modules.get(n, 0) is None:
                del sys.modules[n]
    return done, None


SHOWN_COMMAND = b"python3"


def scrub_command_line() -> None:
    """Overwrite this process's command line (the kernel's copy, which /proc/<pid>/cmdline of
    every worker and check forked from it shows) with SHOWN_COMMAND: the seed was started as
    the environment's interpreter with local.boot_code, which names the folders of the
    grader's checkout or site-packages. sys.orig_argv goes the same way. The area keeps its
    length (the rest is NULs); a process may write its own memory through /proc/self/mem."""
    try:
        with open("/proc/self/stat", "rb") as fh:
            stat = fh.read()
        fields = stat[stat.rindex(b")") + 2:].split()
        start, end = int(fields[45]), int(fields[46])  # arg_start, arg_end: fields 48, 49 of proc(5)
        if start and end - start > len(SHOWN_COMMAND):
            fd = os.open("/proc/self/mem", os.O_RDWR | os.O_CLOEXEC)
            try:
                os.pwrite(fd, SHOWN_COMMAND + b"\0" * (end - start - len(SHOWN_COMMAND)), start)
            finally:
                os.close(fd)
    except (OSError, ValueError, IndexError):
        pass  # the command line stays as started; nothing else depends on it
    sys.orig_argv[:] = [SHOWN_COMMAND.decode()]
    sys.argv[:] = ["-c"]


def seed_main(ctl_fd: int, warm: str = "lean", modules: tuple[str, ...] = (), label: str = "default",
              needs: tuple[str, ...] = ()) -> None:
    """A backend's seed for one kind of worker (`warm`: "lean" or "pytest"): one interpreter
    that starts and warms up once, then forks every slot's worker of that kind on request, so
    a worker costs a fork and its own set-up (~40 ms of CPU) instead of an interpreter start,
    imports and warm-up (~160 ms lean, ~500 ms with pytest; four slots at the default).

    A request on `ctl_fd` (a SOCK_SEQPACKET socket) carries the worker's two protocol pipes as
    SCM_RIGHTS; the answer carries a pidfd of the worker, opened before the worker can exit
    (it waits for its init), so the grader never signals a recycled pid. The seed holds no
    slot's state: uid, cgroup and namespaces are each worker's, made after the fork (main)."""
    import socket

    scrub_command_line()
    devnull = os.open("/dev/null", os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    sock = socket.socket(fileno=ctl_fd)
    linux.set_name(f"rlvr-seed-{warm}")  # "rlvr-seed-pytes": comm holds 15 bytes
    warm_up(warm == "pytest")
    loaded, refusal = preload(modules, needs)
    from rlvr_harness import runner

    runner.snapshot_libraries(loaded)  # what a check's restorer compares the libraries' state with (issue 15)
    _SEED_FEATURES["environment"] = f"{label} ({sys.executable}, Python {sys.version.split()[0]})"
    _SEED_FEATURES["preloaded"] = ", ".join(loaded) or "nothing"
    native = native_memory_warning()
    if native:
        _SEED_FEATURES["native_memory_warning"] = native
    try:
        from rlvr_grade.sandbox import root

        root.python_root()  # once here, inherited by every worker this seed forks
    except OSError:
        pass  # a worker that needs it raises the error itself
    try:
        from rlvr_grade.sandbox import seccomp

        seccomp.compile_filter()  # the policy's program once here: a worker only puts its channel's guard in front
    except OSError:
        pass  # a worker raises it itself
    gc.collect()
    gc.freeze()  # the workers' own collections then never walk (and copy) the seed's heap
    # The seed reaps its workers (the grader watches them through pidfds), so their CPU time
    # adds up into the grader's children rusage like that of workers it started itself.
    workers: set[int] = set()

    def reap(*_: Any) -> None:
        while workers:
            try:
                pid, _status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                workers.clear()
                return
            if pid == 0:
                return
            workers.discard(pid)

    signal.signal(signal.SIGCHLD, reap)
    me = os.getpid()
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 16, 2)
        except OSError:
            msg, fds = b"", []
        if not msg:  # the backend closed its end: end the workers it did not, and reap them all
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            for pid in workers:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            for pid in list(workers):
                try:
                    os.waitpid(pid, 0)
                except ChildProcessError:
                    pass
            return
        if len(fds) != 2 or refusal is not None:
            for fd in fds:
                os.close(fd)
            sock.send(b"preload: " + refusal.encode() if refusal is not None else b"error: expected two descriptors")
            continue
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the forked worker
            code = 0
            try:
                sock.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)  # dies with the seed
                if os.getppid() != me:
                    os._exit(1)  # the seed died before PDEATHSIG was armed
                main(fds[0], fds[1])
            except BaseException:  # noqa: BLE001 - the grader sees the pipe close
                code = 70
            finally:
                os._exit(code)
        workers.add(pid)
        try:
            pidfd = os.pidfd_open(pid)
        except OSError as exc:
            pidfd = None
            sock.send(f"error: pidfd_open: {exc}".encode())
        for fd in fds:
            os.close(fd)
        if pidfd is not None:
            socket.send_fds(sock, [str(pid).encode()], [pidfd])
            os.close(pidfd)
