"""A warm seed inside a remote sandbox, for memory snapshots (the Beam backend's
`snapshot`): the runner's interpreter, started once per environment with the harness and the
environment's preload imported, waiting for ONE request on a unix socket. The backend
snapshots the sandbox's memory while the seed waits, and restores that snapshot for every
check, so a check's `import pandas` is done before it starts.

    python3 -s -c SEED_BOOT seed.tgz         # the warm-up sandbox: unpack, preload, wait
    python3 -s -c KNOCK rlvr-check.tgz       # each restored sandbox: hand the request over

The seed reads nothing but its own configuration before the snapshot: the socket is the only
way a request reaches it, and nothing is sent on it until a check's sandbox was restored. The
knock proves the seed is alive and is ours by a nonce it must echo (a socket file, a pid file
or a ready line restored from the snapshot prove nothing: a restore that keeps the filesystem
but not the processes has them all). Without a live seed the knock runs the request itself,
exactly as the plain runner (inner.main) would, from the package uploaded with the request:
a snapshot that does not work changes how soon a verdict comes, never the verdict. Which of
the two ran is the first line of the knock's stdout (PATH_MARK), for the backend to learn.

The seed runs the request as the runner does (inner.answer: its own probe, fork, limits,
namespaces, dropped uid, seccomp), and its descriptors (the socket) are closed in the check's
child like every other inherited one (zygote.child_descriptors)."""

from __future__ import annotations

import gc
import json
import os
import socket
import sys

from rlvr_harness.wire import CheckPayload, CheckRequest

SEED_DIR = ".rlvr-seed"  # under the sandbox's working directory: the seed's package and socket
SOCKET = "seed.sock"
CONFIG = "seed.json"
READY_MARK = "RLVR-SEED-READY"  # the seed's stdout line once it waits: {"pid", "preloaded", "refused"}
HELLO = "RLVR-HELLO"
SEED_MARK = "RLVR-SEED"
PATH_MARK = "RLVR-WARM"  # the knock's first line: "RLVR-WARM seed <pid>" or "RLVR-WARM fallback <why>"
HANDSHAKE_S = 10.0  # a restored seed answers at once; a seed that does not is not used
MAX_REQUEST = 256 << 20

# Unpacks the seed's archive (its package and seed.json) into SEED_DIR and serves. The archive
# stays: a gateway that restores processes by running them again (the fake) runs this again.
SEED_BOOT = (
    "import os,sys,tarfile\n"
    f"d=os.path.abspath({SEED_DIR!r});os.makedirs(d,mode=0o700,exist_ok=True);os.chmod(d,0o700)\n"
    "t=tarfile.open(sys.argv[1])\n"
    "t.extractall(d,**({'filter':'data'} if hasattr(tarfile,'data_filter') else {}))\n"
    "t.close();sys.path.insert(0,d)\n"
    "from rlvr_grade.sandbox.warm import serve\n"
    "sys.exit(serve(d))\n"
)
# The per-check bootstrap (bundle.BOOTSTRAP's twin): the request and a package of its own, so
# the fallback is the plain runner whatever the restored filesystem holds.
KNOCK = (
    "import os,sys,tarfile\n"
    "src=sys.argv[1];d=os.path.abspath('.rlvr')\n"
    "t=tarfile.open(src)\n"
    "t.extractall(d,**({'filter':'data'} if hasattr(tarfile,'data_filter') else {}))\n"
    "t.close();os.unlink(src);sys.path.insert(0,d)\n"
    "from rlvr_grade.sandbox.warm import knock\n"
    f"sys.exit(knock(os.path.join(d,'request.json'),os.path.abspath({SEED_DIR!r})))\n"
)


# -- the seed (warm-up sandbox, then every restored one) ---------------------------------------
def kind_of(payload: CheckPayload) -> str:
    """The kind of seed a check needs, as the local backend's two kinds of worker: its style's
    (rlvr_harness/wire.py HarnessStyle.worker: "pytest" imports pytest and warms it up before
    the harness takes its snapshots, "lean" the harness only)."""
    return payload.worker


def serve(seed_dir: str) -> int:
    """Warm up as a local seed of its kind does (zygote.warm_up, then the environment's
    preload), listen, say READY on stdout, then serve one request (see the module doc)."""
    from rlvr_grade.sandbox.zygote import THREAD_VARS, preload, warm_up

    with open(os.path.join(seed_dir, CONFIG), encoding="utf-8") as fh:
        config = json.load(fh)
    modules = [str(m) for m in config.get("preload", [])]
    kind = str(config.get("kind", "lean"))
    os.environ.update(THREAD_VARS)  # before anything is imported: pools sized at one thread
    warm_up(kind == "pytest")
    loaded, refusal = preload(modules)
    gc.collect()
    gc.freeze()
    path = os.path.join(seed_dir, SOCKET)
    try:
        os.unlink(path)  # one left by the snapshotted seed, when this is a re-run of it
    except FileNotFoundError:
        pass
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    os.chmod(path, 0o600)  # with SEED_DIR 0700: only root (the knock) connects
    listener.listen(1)
    ready = {"pid": os.getpid(), "preloaded": loaded, "refused": refusal}
    os.write(1, f"{READY_MARK} {json.dumps(ready)}\n".encode())
    if refusal is not None:
        return 0  # a seed with threads cannot fork the check safely: the backend takes no snapshot
    while True:
        conn, _ = listener.accept()  # the snapshot is taken while the seed waits here
        try:
            req = _greet(conn, kind)
        except (OSError, ValueError):
            conn.close()
            continue  # not a knock of ours (or one that gave up): wait for the next
        listener.close()
        try:
            conn.settimeout(None)
            conn.sendall(_answer(req).encode())
        finally:
            conn.close()
        return 0


def _greet(conn: socket.socket, kind: str) -> CheckRequest:
    """The handshake on the seed's side: echo the knock's nonce with our pid (only to a knock
    for our kind of check), then read the request (until the knock shuts its side)."""
    conn.settimeout(HANDSHAKE_S)
    words = _read_line(conn).split()
    if len(words) != 3 or words[0] != HELLO or not words[1].isalnum() or words[2] != kind:
        raise ValueError("not a knock for this seed")
    conn.sendall(f"{SEED_MARK} {words[1]} {os.getpid()}\n".encode())
    conn.settimeout(None)  # the knock sends the request at once; its own deadline bounds this
    chunks, size = [], 0
    while True:
        chunk = conn.recv(1 << 20)
        if not chunk:
            break
        size += len(chunk)
        if size > MAX_REQUEST:
            raise ValueError("request too large")
        chunks.append(chunk)
    req = CheckRequest.from_wire(json.loads(b"".join(chunks)))  # WireError is a ValueError
    if kind_of(req.payload) != kind:
        raise ValueError("not a request for this seed")
    return req


def _answer(req: CheckRequest) -> str:
    from rlvr_grade.sandbox.inner import answer

    return answer(req, warmed=True)


def _read_line(conn: socket.socket, limit: int = 256) -> str:
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(1)
        if not chunk or len(data) >= limit:
            raise ValueError("no line")
        data += chunk
    return data.decode("ascii", "replace").strip()


# -- the knock (each restored sandbox) -------------------------------------------------------
def knock(request_path: str, seed_dir: str) -> int:
    """Hand the request to the seed and print its result line, or run it here when there is
    no live seed of ours; the first line says which (PATH_MARK)."""
    with open(request_path, "rb") as fh:
        raw = fh.read()
    os.unlink(request_path)  # as the plain runner: the check never finds its token on disk
    try:
        kind = kind_of(CheckRequest.from_wire(json.loads(raw)).payload)
    except (ValueError, RecursionError):  # WireError is a ValueError
        kind = "?"  # no seed takes it; the runner below reports what is wrong with it
    conn, pid, why = _hand_over(raw, seed_dir, kind)
    if conn is None:
        os.write(1, f"{PATH_MARK} fallback {why}\n".encode())
        from rlvr_grade.sandbox.inner import answer

        os.write(1, answer(json.loads(raw)).encode())
        return 0
    os.write(1, f"{PATH_MARK} seed {pid}\n".encode())
    # From here the seed holds the request: a seed that dies now leaves no result line (a
    # sandbox error, retried in a fresh sandbox), never a second run of the same check here.
    with conn:
        while True:
            chunk = conn.recv(1 << 16)
            if not chunk:
                break
            os.write(1, chunk)
    return 0


def _hand_over(raw: bytes, seed_dir: str, kind: str) -> tuple[socket.socket | None, int, str]:
    """Connect, check the nonce comes back from a live process, send the request. Returns
    (the connection, the seed's pid, "") or (None, 0, why not)."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.settimeout(HANDSHAKE_S)
        try:
            conn.connect(os.path.join(seed_dir, SOCKET))
        except OSError as exc:  # no socket (ENOENT) or nobody listening (ECONNREFUSED)
            raise _NoSeed(f"no seed listening ({exc.strerror or exc})")
        nonce = os.urandom(16).hex()
        conn.sendall(f"{HELLO} {nonce} {kind}\n".encode())
        try:
            words = _read_line(conn).split()
        except (OSError, ValueError) as exc:
            raise _NoSeed(f"the seed did not answer ({exc})")
        if len(words) != 3 or words[0] != SEED_MARK or words[1] != nonce or not words[2].isdigit():
            raise _NoSeed("the seed's answer did not echo our nonce")
        pid = int(words[2])
        if not os.path.exists(f"/proc/{pid}"):
            raise _NoSeed(f"the seed's pid {pid} is not running")
        try:
            conn.sendall(raw)
        except OSError as exc:
            # The request did not arrive whole: the seed cannot parse it and runs nothing.
            raise _NoSeed(f"the seed went away before taking the request ({exc})")
        try:
            conn.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # it may hold the whole request now: no fallback; no result is a sandbox error
        conn.settimeout(None)
        return conn, pid, ""
    except _NoSeed as exc:
        conn.close()
        return None, 0, str(exc)


class _NoSeed(Exception):
    pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(knock(sys.argv[1], sys.argv[2]))
