"""`rlvr-grade doctor`: which protections a check really gets on this machine, and why a
missing one is missing. Nothing is inferred from the configuration alone: a probe check runs
in the real local sandbox and reports what it can see and do from the inside (namespace
inodes, /proc/self/status, its rlimits, a connect to a server the doctor starts on the host's
loopback, writes to the root, reads of a planted secret); host facts (euid, kernel, cgroup
controllers, user namespaces, the architecture's syscall table) only explain the *why*."""

from __future__ import annotations

import json
import os
import platform
import shutil
import socket
import tempfile
import threading
import uuid
from dataclasses import asdict, dataclass, field
from typing import Any

from rlvr_grade.types import SandboxError


@dataclass(frozen=True)
class Protection:
    """One layer: whether the probe found it active, and what it saw (or why it is off)."""

    name: str
    active: bool
    detail: str


@dataclass(frozen=True)
class Report:
    """What `doctor` found: every protection, the host facts behind them, the backend's own
    isolation summary, whether `score` would refuse to run here without the UNSAFE flag, and
    what a Python check's root holds (sandbox/root.py)."""

    protections: tuple[Protection, ...]
    host: dict[str, Any] = field(default_factory=dict)
    isolation: dict[str, Any] = field(default_factory=dict)
    score_refuses: bool = False
    root: tuple[str, ...] = ()
    planted: tuple[str, ...] = ()  # files planted outside the root for the probe, each found absent

    @property
    def all_active(self) -> bool:
        return all(p.active for p in self.protections)

    @property
    def warnings(self) -> tuple[str, ...]:
        """What works here but not as built: a stale sandbox/_child.c build (checks are set up
        in Python until it is rebuilt)."""
        return tuple(str(self.isolation[k]) for k in ("setup_warning", "native_memory_warning") if self.isolation.get(k))

    def to_dict(self) -> dict[str, Any]:
        return {
            "all_active": self.all_active,
            "score_refuses_without_unsafe_flag": self.score_refuses,
            "protections": [asdict(p) for p in self.protections],
            "host": self.host,
            "isolation": self.isolation,
            "root": list(self.root),
            "planted_and_absent": list(self.planted),
            "warnings": list(self.warnings),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)


PROBE = r'''
import errno, json, os, resource, socket
r = {"ns": {}, "rlimits": {}}
for ns in ("net", "mnt", "pid", "ipc", "uts", "user"):
    try:
        r["ns"][ns] = os.stat(f"/proc/self/ns/{ns}").st_ino
    except OSError:
        r["ns"][ns] = None
r["pid"] = os.getpid()
r["uid"] = os.getuid()
status = {}
for line in open("/proc/self/status"):
    k, _, v = line.partition(":")
    status[k] = v.strip()
r["no_new_privs"] = status.get("NoNewPrivs")
r["seccomp"] = status.get("Seccomp")
r["cap_eff"] = status.get("CapEff")
try:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    r["inet_socket"] = "created"
    s.settimeout(2)
    try:
        s.connect(("127.0.0.1", PORT))
        r["loopback"] = "connected"
    except OSError as e:
        r["loopback"] = f"refused: {e.strerror}"
    s.close()
except OSError as e:
    r["inet_socket"] = f"refused: {e.strerror}"
    r["loopback"] = "no socket"
try:  # /proc/net is per network namespace (/sys/class/net would show the host's sysfs)
    with open("/proc/net/dev") as fh:
        r["ifaces"] = sorted(ln.split(":")[0].strip() for ln in fh.read().splitlines()[2:])
except OSError:
    r["ifaces"] = []
try:
    with open("/proc/net/route") as fh:
        r["routes"] = max(0, len(fh.read().splitlines()) - 1)
except OSError:
    r["routes"] = None
r["writes"] = {}
for path in ("/rlvr-doctor-probe", "/etc/rlvr-doctor-probe", "/usr/rlvr-doctor-probe", "/tmp/rlvr-doctor-probe"):
    try:
        with open(path, "w") as fh:
            fh.write("x")
        r["writes"][path] = "written"
        os.unlink(path)
    except OSError as e:
        r["writes"][path] = errno.errorcode.get(e.errno, str(e.errno))
for name in ("CPU", "FSIZE", "NPROC", "NOFILE", "CORE", "AS"):
    r["rlimits"][name] = resource.getrlimit(getattr(resource, "RLIMIT_" + name))
r["cgroup"] = open("/proc/self/cgroup").read().splitlines()
__import__("time").sleep(0.1)  # long enough for the doctor to see this process in its slot's cgroups
r["secrets"] = {}
for path in SECRETS:
    try:
        with open(path) as fh:
            r["secrets"][path] = "READABLE" if "TOKEN" in fh.read() else "other content"
    except OSError as e:
        r["secrets"][path] = errno.errorcode.get(e.errno, str(e.errno))
r["planted"] = {p: os.path.lexists(p) for p in PLANTED}
r["top"] = sorted(os.listdir("/"))
r["proc_other"] = sorted(e for e in os.listdir("/proc") if not e.isdigit())
r["dev"] = sorted(os.listdir("/dev"))
r["sys"] = os.path.exists("/sys")
try:
    open("/proc/self/mem", "rb").close()
    r["self_mem"] = "READABLE"
except OSError as e:
    r["self_mem"] = errno.errorcode.get(e.errno, str(e.errno))
try:
    open(f"/proc/{GRADER_PID}/environ", "rb").read()
    r["grader_environ"] = "READABLE"
except OSError as e:
    r["grader_environ"] = errno.errorcode.get(e.errno, str(e.errno))
print("RLVR-DOCTOR " + json.dumps(r))
'''


def _host_facts() -> dict[str, Any]:
    from rlvr_grade.sandbox import linux
    from rlvr_grade.sandbox.cgroups import ROOT, cgroup_version

    facts: dict[str, Any] = {
        "euid": os.geteuid(),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "cgroup_version": cgroup_version(),
    }
    if facts["cgroup_version"] == 1:
        facts["cgroup_controllers"] = sorted(c for c in ("memory", "pids", "cpuacct") if os.path.isdir(os.path.join(ROOT, c)))
    elif facts["cgroup_version"] == 2:
        try:
            with open(os.path.join(ROOT, "cgroup.controllers")) as fh:
                facts["cgroup_controllers"] = fh.read().split()
        except OSError:
            facts["cgroup_controllers"] = []
    ok, why = linux.user_namespaces_allowed()
    facts["user_namespaces"] = why
    try:
        from rlvr_grade.sandbox import seccomp

        seccomp.arch_of()
        facts["seccomp_arch"] = f"syscall table for {platform.machine()}"
    except OSError as exc:
        facts["seccomp_arch"] = str(exc)
    if shutil.which("runsc") is not None and os.geteuid() == 0:
        from rlvr_grade.sandbox.gvisor import limits_here

        facts["gvisor_limits"] = limits_here()
    try:
        major, minor = (int(x) for x in platform.release().split(".")[:2])
        facts["mount_setattr"] = (major, minor) >= (5, 12)
    except ValueError:
        facts["mount_setattr"] = None
    return facts


class _Listener:
    """A real TCP server on the host's loopback: the probe must not reach it."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self._stop = True
        self._thread.join()
        self.sock.close()


class _CgroupWatch:
    """Which of the slot's cgroup directories held a process while the probe ran, seen from the
    host: inside, a check's /proc/self/cgroup shows "/" (its own cgroup namespace, rooted at the
    slot's cgroups). `lines` reads like /proc/<pid>/cgroup for the cgroups found occupied."""

    def __init__(self, backend: Any) -> None:
        from rlvr_grade.sandbox.cgroups import ROOT, SlotCgroup

        self.dirs = [d for slot in backend._slots if slot.init.cgroup for d in SlotCgroup(slot.init.cgroup).dirs]
        self.root = ROOT
        self.occupied: set[str] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.wait(0.005):
            for d in self.dirs:
                try:
                    with open(os.path.join(d, "cgroup.procs")) as fh:
                        if fh.read().strip():
                            self.occupied.add(d)
                except OSError:
                    pass

    def close(self) -> list[str]:
        self._stop.set()
        self._thread.join()
        lines = []
        for d in sorted(self.occupied):
            rel = os.path.relpath(d, self.root)
            first, _, rest = rel.partition("/")
            # v1: <root>/<controller>/rlvr-grade/<slot>; v2: <root>/rlvr-grade/<slot> (controllers "")
            ctrl, path = (first, "/" + rest) if first != "rlvr-grade" else ("", "/" + rel)
            lines.append(f"0:{ctrl}:{path}")
        return lines


def _host_ns() -> dict[str, int | None]:
    out = {}
    for ns in ("net", "mnt", "pid", "ipc", "uts", "user"):
        try:
            out[ns] = os.stat(f"/proc/self/ns/{ns}").st_ino
        except OSError:
            out[ns] = None
    return out


def facts_seccomp() -> str:
    """Why no seccomp filter can be built on this machine ("" where one can)."""
    from rlvr_grade.sandbox import seccomp

    try:
        seccomp.arch_of()
    except seccomp.SeccompUnavailable as exc:
        return str(exc)
    return ""


def diagnose(mode: str = "auto", env: str | None = None) -> Report:
    """Start the local sandbox the way `score` would, run one probe check in it, and report
    every protection as found, and the root of a check in environment `env` (a name, id or
    requirements file already built; None: the default environment). Raises SandboxError
    when no sandbox process can start at all."""
    from rlvr_grade import envs
    from rlvr_grade.sandbox.local import LocalBackend
    from rlvr_grade.types import Check, Limits
    from rlvr_harness.splitting import assert_ids
    from rlvr_harness.wire import SuiteOptions

    found = envs.resolve(env, build=False) if env else None
    env_id = "" if found is None or found.default else found.id

    facts = _host_facts()
    token = "TOKEN-" + uuid.uuid4().hex
    # A data folder of the grader's (datasets, answers) that nothing lists: not hidden by name,
    # absent because the root is an allowlist.
    planted = tempfile.mkdtemp(prefix="rlvr-doctor-data-", dir="/var/tmp" if os.path.isdir("/var/tmp") else None)
    os.chmod(planted, 0o755)
    secret = os.path.join(planted, "grader-secret.txt")
    with open(secret, "w") as fh:
        fh.write(token)
    planted_elsewhere = _plant(token)
    listener = _Listener()
    cwd = os.getcwd()
    # The probe program names what it looks for; the token itself stays out of it ("TOKEN"
    # prefix is enough to recognise the planted file).
    program = (PROBE.replace("PORT", str(listener.port)).replace("SECRETS", repr([secret]))
               .replace("PLANTED", repr([secret, *planted_elsewhere]))
               .replace("GRADER_PID", str(os.getpid())))
    with_filter = not facts_seccomp()  # the probe runs without it, and the report says why (score refuses)
    backend = LocalBackend(concurrency=1, allow_unisolated=True, mode=mode, preload=(), seccomp=with_filter)
    backend.use_environment(env_id)
    watch = None
    try:
        backend.start()
        watch = _CgroupWatch(backend)
        tests = "assert True\n"
        ex = backend.run(Check(style="asserts", program=program, tests=tests, expected_tests=tuple(assert_ids(tests)),
                               limits=Limits(cpu_s=5.0, wall_s=20.0, memory_mb=256),
                               options=SuiteOptions(guard=False), env=env_id))
        isolation = backend.isolation()
        if not with_filter:
            isolation["seccomp"] = f"off: {facts_seccomp()}; score refuses to run here without --no-seccomp-UNSAFE"
    finally:
        occupied = watch.close() if watch is not None else []
        backend.close()
        listener.close()
        shutil.rmtree(planted, ignore_errors=True)
        for path in planted_elsewhere:
            try:
                os.unlink(path)
            except OSError:
                pass
    line = next((ln for ln in ex.stdout.splitlines() if ln.startswith("RLVR-DOCTOR ")), None)
    if line is None:
        raise SandboxError(f"the doctor's probe check did not report (stderr: {ex.stderr.strip()[-300:]!r})")
    seen = json.loads(line[len("RLVR-DOCTOR "):])
    seen["cgroup_inside"], seen["cgroup"] = seen["cgroup"], occupied
    root_lines, expected_top = _root_contents(env_id)
    protections = _judge(seen, facts, isolation, _host_ns(), listener.accepted, cwd, expected_top)
    by_name = {p.name: p for p in protections}
    refuses = not (by_name["network"].active and by_name["read-only root"].active)
    absent = tuple(p for p, there in seen["planted"].items() if not there)
    return Report(protections=tuple(protections), host=facts, isolation=isolation, score_refuses=refuses,
                  root=tuple(root_lines), planted=absent)


# Where a training box keeps things a check must never see: the doctor plants a file in each
# that exists and is writable, and the probe must find none of them.
PLANT_IN = ("/srv", "/opt", "/mnt", "/media", "/home", "/run", "/var", "/var/tmp", "/var/lib")


def _plant(token: str) -> list[str]:
    """Files named for this run in the usual data places and the grader's working directory
    (removed again by the caller)."""
    where = [d for d in PLANT_IN if os.path.isdir(d)] + [os.getcwd()]
    out = []
    for d in dict.fromkeys(where):
        path = os.path.join(d, f".rlvr-doctor-{token}")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except OSError:
            continue  # not writable here: nothing planted, nothing to prove
        os.write(fd, token.encode())
        os.close(fd)
        out.append(path)
    return out


def _root_contents(env_id: str = "") -> tuple[list[str], set[str]]:
    """(what a Python check's root holds in environment `env_id`, one line each, as that
    environment's interpreter lists it; the names its / may list)."""
    from rlvr_grade.sandbox.local import CHECK_PATH, world_layout, world_of

    try:
        layout = world_layout(world_of(env_id, preload=()), "python", CHECK_PATH)
    except (OSError, SandboxError) as exc:
        return [f"(could not list: {exc})"], set()
    top = {p.strip("/").split("/")[0] for p in [*layout.dirs, *(m for m, _ in layout.mounts), *(f for f, _ in layout.files),
                                                *(lk for lk, _ in layout.links)]}
    return layout.describe(), top | {"tmp", "proc", "dev", "etc"}


def _judge(seen: dict, facts: dict, isolation: dict, host_ns: dict, accepted: int, cwd: str,
           expected_top: set[str]) -> list[Protection]:
    root = facts["euid"] == 0
    none_reason = isolation.get("mode_reason") or "isolation is off"
    userns = isolation.get("mode") == "userns"
    out: list[Protection] = []

    def add(name: str, active: bool, good: str, bad: str) -> None:
        out.append(Protection(name, bool(active), good if active else bad))

    def ns_differs(ns: str) -> bool:
        return seen["ns"].get(ns) is not None and seen["ns"].get(ns) != host_ns.get(ns)

    net_cut = ns_differs("net") and accepted == 0 and seen["loopback"] != "connected"
    add("network", net_cut,
        f"own network namespace (interfaces: {', '.join(seen['ifaces']) or 'none'}; routes: {seen['routes']}); "
        f"host loopback server not reached ({seen['loopback']})",
        f"host loopback server reached or shared network namespace: {none_reason}")
    ro = all(v in ("EROFS", "EACCES", "ENOENT") for k, v in seen["writes"].items() if not k.startswith("/tmp/"))
    add("mount namespace", ns_differs("mnt"), "own mount namespace", f"shares the host's mount namespace: {none_reason}")
    add("read-only root", ro and ns_differs("mnt"),
        "writes outside /tmp refused (" + ", ".join(f"{k}: {v}" for k, v in seen["writes"].items()) + ")",
        ("kernel " + facts["kernel"] + " is too old for mount_setattr (needs 5.12)") if facts.get("mount_setattr") is False
        else f"a write outside /tmp succeeded ({seen['writes']}): {none_reason}")
    add("private /tmp", seen["writes"].get("/tmp/rlvr-doctor-probe") == "written" and ns_differs("mnt"),
        "fresh size-capped tmpfs per check", f"/tmp is the host's: {none_reason}")
    add("pid namespace", ns_differs("pid") and seen["pid"] == 1,
        "check runs as pid 1 of its own pid namespace; killing it kills all it started",
        f"shares the host's pid namespace: {none_reason}")
    add("ipc namespace", ns_differs("ipc"), "own ipc namespace", f"shared: {none_reason}")
    add("uts namespace", ns_differs("uts"), "own uts namespace", f"shared: {none_reason}")
    caps = int(seen.get("cap_eff") or "0", 16)
    if isolation.get("mode") == "none":
        add("uid drop", False, "", f"checks run as the grader's own uid {seen['uid']}: {none_reason}")
    elif userns:
        add("uid drop", caps == 0,
            f"uid {seen['uid']} with no capabilities, in a nested user namespace that owns nothing (on the host "
            "it is still the grader's own uid: files that user may read outside the masked folders stay readable)",
            f"capabilities left: {seen.get('cap_eff')}")
    else:
        add("uid drop", seen["uid"] != 0 and caps == 0, f"unprivileged uid {seen['uid']}, no capabilities",
            "checks run as root (uid 0)" if seen["uid"] == 0 else f"capabilities left: {seen.get('cap_eff')}")
    add("no_new_privs", seen["no_new_privs"] == "1", "set (setuid binaries cannot raise privileges)",
        f"not set: {none_reason}")
    seccomp_feat = str(isolation.get("seccomp", "off: " + none_reason))
    add("seccomp", seen["seccomp"] == "2" and seen["inet_socket"].startswith("refused"),
        f"filter mode ({seccomp_feat}; inet socket: {seen['inet_socket']})",
        seccomp_feat.removeprefix("off: ") if seccomp_feat.startswith("off") else f"filter not loaded (Seccomp: {seen['seccomp']})")
    groups = "\n".join(seen["cgroup"])

    def cg_reason(controller: str) -> str:
        if not root:
            return "not root: cgroups need root (or a delegated cgroup)"
        if facts.get("cgroup_version") is None:
            return "no cgroup v1 memory+pids hierarchy and no cgroup v2 mount under /sys/fs/cgroup"
        have = facts.get("cgroup_controllers", [])
        if facts.get("cgroup_version") == 1 and controller not in have or facts.get("cgroup_version") == 2 and controller in ("memory", "pids") and controller not in have:
            return f"cgroup controller {controller!r} not available (have: {', '.join(have)})"
        return f"check not in an rlvr-grade {controller} cgroup ({groups!r})"

    def in_cg(controller: str) -> bool:
        for ln in seen["cgroup"]:
            _, ctrls, path = ln.split(":", 2)
            if "rlvr-grade" in path and (controller in ctrls.split(",") or ctrls == ""):
                return True
        return False

    add("memory cgroup", in_cg("memory"), "per-slot memory cgroup: an out-of-memory check is killed alone",
        cg_reason("memory") + "; memory is capped by RLIMIT_AS instead")
    add("pids cgroup", in_cg("pids"), "per-slot pids cgroup: a fork bomb is capped whatever the uid",
        cg_reason("pids") + "; processes are capped by RLIMIT_NPROC instead (counted per host uid)")
    add("cpu accounting", in_cg("cpuacct") or (facts.get("cgroup_version") == 2 and in_cg("memory")),
        "CPU limit counts every process of the check (cgroup accounting), not just one",
        cg_reason("cpuacct") + "; CPU is limited per process by RLIMIT_CPU (whole seconds)")
    version = facts.get("cgroup_version")
    add("cgroup version", version is not None and root and in_cg("memory"),
        f"cgroup v{version} ({', '.join(facts.get('cgroup_controllers', []))})",
        (f"cgroup v{version} mounted, unused: " if version else "") + cg_reason("memory"))
    rl = seen["rlimits"]
    capped = ("CPU", "FSIZE", "NPROC", "NOFILE", "CORE")
    finite = [k for k in capped if rl[k][1] != -1]
    add("rlimits", len(finite) == len(capped), "; ".join(f"{k}={rl[k][0]}" for k in (*capped, "AS")),
        f"unlimited: {', '.join(k for k in capped if k not in finite)}")
    leaks = [p for p, v in seen["secrets"].items() if v == "READABLE"]
    present = [p for p, v in seen["planted"].items() if v]
    extra_top = sorted(set(seen["top"]) - expected_top) if expected_top else []
    proc_extra = [e for e in seen["proc_other"] if e not in ("self", "thread-self")]
    allowlisted = (not leaks and not present and not extra_top and not seen["sys"] and not proc_extra
                   and seen["grader_environ"] != "READABLE" and seen["self_mem"] != "READABLE")
    add("allowlisted root", allowlisted,
        f"/ holds only {', '.join(seen['top'])}; {len(seen['planted'])} planted files (the grader's secret, data places, its cwd) "
        f"all absent; no /sys; /proc shows {', '.join(seen['proc_other']) or 'pids only'}; "
        f"/dev: {', '.join(seen['dev'])}; own /proc/self/mem: {seen['self_mem']}; grader's /proc/<pid>/environ: "
        f"{seen['grader_environ']}",
        f"visible: planted {present}, secrets {leaks}, unlisted top-level {extra_top}, /sys {seen['sys']}, "
        f"/proc {proc_extra}, own memory {seen['self_mem']}, grader environ {seen['grader_environ']}: {none_reason}")
    shared = isolation.get("shared_inodes") or []
    add("own inodes per slot", bool(isolation.get("isolated")) and not shared,
        "the root's files and /dev's nodes are each slot's own (overlays, mknod): a lock or lease on one crosses no check",
        f"the host's inodes, shared by every check: {', '.join(shared)} (a lock on one crosses concurrent checks)"
        if shared else none_reason)
    return out
