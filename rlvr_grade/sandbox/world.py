"""A local seed's world: the names its checks see, whatever folders are behind them on the host.
Entered by each seed between fork and exec (enter_world); its base interpreter at
files.PYTHON_AT, not where it is installed (/root/.pyenv/versions/3.11.7, /usr/local, /usr...),
made once per environment (interpreter_world). An environment's venv names its base interpreter
by its host path (pyvenv.cfg's `home`), so before this sys.base_prefix, os.__file__, every
stdlib frame, sysconfig.get_paths() and /proc/self/exe told each check where Python is
installed.

Local only: neither is in what Beam receives (sandbox/bundle.py), which is why they are not in
root.py or mounts.py. The world is kept beside the environment (`world/`, `world.json`) but made
here, by the sandbox: the environments are built before any sandbox and never import it
(tests/project/test_structure.py); from them this takes the stdlib snapshot
(envs.stdlib_snapshot), the environment's lock and a note."""

from __future__ import annotations

import json
import os
import shutil
import stat
import struct
import subprocess

from rlvr_grade import envs
from rlvr_grade.links import link_or_copy
from rlvr_grade.sandbox import linux, mounts, root
from rlvr_harness.files import ENV_AT, PYTHON_AT

WORLD = "world"
_BASE_FACTS = ("import json, os, sys, sysconfig; print(json.dumps([os.path.realpath(sys.base_prefix), "
               "os.path.realpath(getattr(sys, '_base_executable', '') or sys.executable), "
               "os.path.realpath(sysconfig.get_paths()['stdlib'])]))")
_DT_SONAME = 14


class Unsupported(Exception):
    """This interpreter cannot be shown at PYTHON_AT: the reason, kept in world.json."""


def interpreter_world(env) -> tuple[tuple[str, str], ...]:
    """What a check of `env` (an envs.Environment with a venv) is shown of its base interpreter,
    as (name inside, host file or folder) pairs: the interpreter at PYTHON_AT/bin (a copy whose
    RUNPATH, where it named the install, says $ORIGIN/../lib), the libraries it loads through
    that RUNPATH at PYTHON_AT/lib, the stdlib snapshot at PYTHON_AT/<the stdlib's place under
    the prefix>, and the venv's bin and pyvenv.cfg as they must read there (`home =
    PYTHON_AT/bin`, from which CPython finds the stdlib by its landmark, os.py). () when this
    interpreter cannot be shown so (the reason is in world.json): the check then sees the
    install at its host names."""
    found = _made(env)
    if found is not None:
        return found
    stdlib, snapshot = envs.stdlib_snapshot(env)  # takes the lock itself: not inside ours (flock)
    with envs.locked(env):
        found = _made(env)
        if found is not None:
            return found
        shutil.rmtree(os.path.join(env.path, WORLD), ignore_errors=True)
        try:
            pairs = _make_world(env, stdlib, snapshot)
            note: dict = {"python_at": PYTHON_AT, "pairs": [[at, os.path.relpath(src, env.path)] for at, src in pairs]}
        except Unsupported as exc:
            shutil.rmtree(os.path.join(env.path, WORLD), ignore_errors=True)
            pairs, note = [], {"python_at": PYTHON_AT, "unsupported": str(exc)}
        envs.write_note(env, WORLD, note)
    return tuple(pairs)


def _made(env) -> tuple[tuple[str, str], ...] | None:
    note = envs.read_note(env, WORLD)
    if note.get("python_at") != PYTHON_AT:
        return None
    try:
        pairs = tuple((at, os.path.join(env.path, rel)) for at, rel in note.get("pairs", ()))
    except (TypeError, ValueError):
        return None
    return pairs if all(os.path.exists(src) for _, src in pairs) else None


def retarget_runpath(path: str, new: str) -> bool:
    """Rewrite, in place, the RUNPATH (or RPATH) string of the ELF file `path` to `new`, padded
    with NULs in the string's own bytes (nothing moves: `new` must not be longer). Refused
    (False, the file unchanged) when the file has no such string, `new` does not fit, or another
    dynamic entry (DT_NEEDED, DT_SONAME, the other path) names a string inside it (ld's suffix
    sharing)."""
    with open(path, "r+b") as fh:
        data = bytearray(fh.read())
        try:
            cls, end = data[4], "<" if data[5] == 1 else ">"
            if data[:4] != b"\x7fELF" or cls not in (1, 2):
                return False
            phoff, = struct.unpack_from(end + ("Q" if cls == 2 else "I"), data, 32 if cls == 2 else 28)
            phentsize, phnum = struct.unpack_from(end + "HH", data, 54 if cls == 2 else 42)
            loads, dynamic = [], None
            for i in range(phnum):
                off = phoff + i * phentsize
                if cls == 2:
                    p_type, _fl, p_offset, p_vaddr, _pa, p_filesz = struct.unpack_from(end + "IIQQQQ", data, off)
                else:
                    p_type, p_offset, p_vaddr, _pa, p_filesz = struct.unpack_from(end + "IIIII", data, off)
                if p_type == root.PT_LOAD:
                    loads.append((p_vaddr, p_offset, p_filesz))
                elif p_type == root.PT_DYNAMIC:
                    dynamic = (p_offset, p_filesz)
            if dynamic is None:
                return False
            entry = struct.Struct(end + ("qQ" if cls == 2 else "iI"))
            tags = []
            for off in range(dynamic[0], dynamic[0] + dynamic[1] - entry.size + 1, entry.size):
                tag, val = entry.unpack_from(data, off)
                if tag == 0:
                    break
                tags.append((tag, val))
            strtab = next((v for t, v in tags if t == root.DT_STRTAB), None)
            base = next((off + strtab - vaddr for vaddr, off, size in loads if strtab is not None and vaddr <= strtab < vaddr + size), None)
            paths = [v for t, v in tags if t in (root.DT_RUNPATH, root.DT_RPATH)]
            if base is None or len(set(paths)) != 1:
                return False
            at = base + paths[0]
            old_len = data.index(b"\0", at) - at
            raw = new.encode()
            others = [v for t, v in tags if t in (root.DT_NEEDED, _DT_SONAME) or (t in (root.DT_RUNPATH, root.DT_RPATH) and v != paths[0])]
            if len(raw) > old_len or any(paths[0] < v <= paths[0] + old_len for v in others):
                return False
        except (struct.error, ValueError, IndexError):
            return False
        data[at:at + old_len] = raw + b"\0" * (old_len - len(raw))
        fh.seek(0)
        fh.write(data)
    root._elf_cached.cache_clear()
    return True


def _make_world(env, stdlib: str, snapshot: str) -> list[tuple[str, str]]:
    venv = os.path.dirname(os.path.dirname(env.interpreter))
    out = subprocess.run([env.interpreter, "-I", "-S", "-c", _BASE_FACTS], capture_output=True, text=True, timeout=60,
                         stdin=subprocess.DEVNULL, check=False)
    try:
        prefix, exe, found = json.loads(out.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError) as exc:
        raise Unsupported(f"{env.interpreter}: could not tell its base interpreter ({out.stderr.strip()[-200:]})") from exc
    rel = os.path.relpath(stdlib, prefix)
    if found != stdlib or rel.startswith("..") or prefix == "/" or not os.path.isfile(os.path.join(venv, "pyvenv.cfg")):
        raise Unsupported(f"the stdlib {stdlib} is not under the base prefix {prefix}")
    elf = root.read_elf(exe)
    if elf is None:
        raise Unsupported(f"{exe} is not an ELF file")
    top = os.path.join(env.path, WORLD)
    home = os.path.join(top, "python")
    os.makedirs(os.path.join(home, "bin"), mode=0o755)
    os.makedirs(os.path.join(home, "lib"), mode=0o755, exist_ok=True)
    os.makedirs(os.path.join(home, rel), mode=0o755, exist_ok=True)  # where the snapshot is mounted
    name = os.path.basename(exe)
    # What ld.so finds through a RUNPATH (or RPATH) naming the install (libpython of a shared
    # build: pyenv's says /root/.pyenv/versions/X/lib, a relocatable one $ORIGIN/../lib) goes to
    # lib/ and that entry becomes $ORIGIN/../lib: found there on every machine. What it finds
    # by the system's search (ld.so.cache: /usr/local/lib/libpython3.X.so of a Docker image,
    # /usr/lib's libraries under prefix /usr) stays where it is, in the root at its host name.
    origin = os.path.dirname(exe)
    entries = elf.runpath or elf.rpath
    into = {os.path.realpath(root._expand(p, origin)) for p in entries if root.inside(os.path.realpath(root._expand(p, origin)), prefix)}
    ours = [lib for lib in (root._find_library(n, exe, elf) for n in elf.needed) if lib and os.path.realpath(os.path.dirname(lib)) in into]
    for lib in ours:
        if os.path.dirname(os.path.realpath(lib)) not in {os.path.join(prefix, "lib"), os.path.join(prefix, "lib64")}:
            raise Unsupported(f"{exe} loads {lib}, outside its prefix's lib folder")
        link_or_copy(lib, os.path.join(home, "lib", os.path.basename(lib)))
    runpath = [p for p in entries if os.path.realpath(root._expand(p, origin)) not in into]
    runpath = ":".join(["$ORIGIN/../lib"] + runpath) if into else ""
    if into and runpath != ":".join(entries):  # a copy of its own, rewritten
        shutil.copy2(exe, os.path.join(home, "bin", name))
        if not retarget_runpath(os.path.join(home, "bin", name), runpath):
            raise Unsupported(f"{exe}: its RUNPATH could not be rewritten to {runpath}")
    else:
        link_or_copy(exe, os.path.join(home, "bin", name))
    # The venv's bin and pyvenv.cfg as they read inside: the interpreter's links lead to
    # PYTHON_AT/bin, and `home` names it (CPython finds the base prefix from there, by landmark).
    bin_dir = os.path.join(top, "env-bin")
    os.makedirs(bin_dir, mode=0o755)
    for entry in sorted(os.listdir(os.path.join(venv, "bin"))):
        src = os.path.join(venv, "bin", entry)
        if os.path.islink(src):
            target = os.readlink(src)
            if os.path.isabs(target) and os.path.realpath(src) == exe:
                target = os.path.join(PYTHON_AT, "bin", name)
            os.symlink(target, os.path.join(bin_dir, entry))
        elif os.path.isfile(src):
            link_or_copy(src, os.path.join(bin_dir, entry))
    with open(os.path.join(venv, "pyvenv.cfg"), encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    cfg = [f"home = {PYTHON_AT}/bin" if ln.partition("=")[0].strip().lower() == "home" else ln
           for ln in lines if ln.partition("=")[0].strip().lower() not in ("executable", "command", "base-executable")]
    with open(os.path.join(top, "pyvenv.cfg"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(cfg) + "\n")
    for d in (top, home, bin_dir):
        os.chmod(d, 0o755)
    os.chmod(os.path.join(top, "pyvenv.cfg"), 0o644)
    return [(PYTHON_AT, home), (os.path.join(PYTHON_AT, rel), snapshot),
            (os.path.join(ENV_AT, "bin"), bin_dir), (os.path.join(ENV_AT, "pyvenv.cfg"), os.path.join(top, "pyvenv.cfg"))]


def enter_world(shown: list[tuple[str, str]], own: tuple[str, ...]) -> None:
    """Give the calling process (a seed, between fork and exec: root, single-threaded) a mount
    namespace of its own that is the host's with `shown` added: (path, host directory) pairs
    bound there (the environment's venv at root.ENV_AT, the grader's packages at
    root.HARNESS_AT, the base interpreter at files.PYTHON_AT: interpreter_world; a source may
    be a single file, bound over one). Its root is a small read-only tmpfs holding the host's
    top-level entries (each bound, recursively, or the same symlink), so names the host has no
    folder for exist without writing to the host's /.
    `own` are the top-level folders that are the world's, not the host's (a host's own /env is
    not in it). Slave propagation: the host's later mounts reach it, none of its own the host."""
    linux.unshare(linux.CLONE_NEWNS)
    linux.mount(None, "/", None, linux.MS_REC | linux.MS_SLAVE)
    tops: dict[str, tuple[str, str | int]] = {}
    for name in os.listdir("/"):
        path = "/" + name
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            tops[name] = ("link", os.readlink(path))
        elif stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode):
            tops[name] = ("dir" if stat.S_ISDIR(st.st_mode) else "file", os.open(path, os.O_PATH | os.O_CLOEXEC | os.O_NOFOLLOW))
    held = {src: os.open(src, os.O_PATH | os.O_CLOEXEC) for _, src in shown}
    linux.mount("tmpfs", mounts.STAGE, "tmpfs", linux.MS_NOSUID | linux.MS_NODEV, "size=64k,mode=755")
    taken = {p.strip("/") for p in own}
    stage_top = mounts.STAGE.strip("/").split("/")[0]
    # The stage's own folder first: its recursive bind copies the stage mounted on it too, which
    # is then taken off again (the host's /tmp, not the stage, is the world's /tmp).
    for name, (kind, what) in sorted(tops.items(), key=lambda t: t[0] != stage_top):
        at = os.path.join(mounts.STAGE, name)
        if name in taken:
            continue
        if kind == "link":
            os.symlink(what, at)
            continue
        if kind == "dir":
            os.mkdir(at, 0o755)
        else:
            with open(at, "w"):
                pass
        linux.mount(f"/proc/self/fd/{what}", at, None, linux.MS_BIND | linux.MS_REC)
        if name == stage_top and kind == "dir":
            while os.stat(at).st_dev == os.stat(mounts.STAGE).st_dev:
                linux.umount(at, mounts.MNT_DETACH)
    for path in own:
        os.mkdir(os.path.join(mounts.STAGE, path.strip("/")), 0o755)
    for path, src in sorted(shown, key=lambda p: len(p[0])):
        at = os.path.join(mounts.STAGE, path.lstrip("/"))
        if stat.S_ISDIR(os.fstat(held[src]).st_mode):
            os.makedirs(at, mode=0o755, exist_ok=True)
        elif not os.path.exists(at):  # a file: the venv's pyvenv.cfg as it reads inside
            os.makedirs(os.path.dirname(at), mode=0o755, exist_ok=True)
            with open(at, "w"):
                pass
        linux.mount(f"/proc/self/fd/{held[src]}", at, None, linux.MS_BIND | linux.MS_REC)
    for _kind, what in tops.values():
        if isinstance(what, int):
            os.close(what)
    for fd in held.values():
        os.close(fd)
    linux.mount(None, mounts.STAGE, None, linux.MS_REMOUNT | linux.MS_RDONLY | linux.MS_NOSUID | linux.MS_NODEV)
    os.chdir(mounts.STAGE)
    linux.pivot_root(".", ".")
    linux.umount(".", mounts.MNT_DETACH)
    os.chdir("/")
