"""A local seed's world: the names its checks see, whatever folders are behind them on the host.
Entered by each seed between fork and exec (enter_world); its base interpreter at
files.PYTHON_AT, not where it is installed (pyenv's ~/.pyenv/versions/3.X.Y, /usr/local, /usr...),
made once per environment (interpreter_world). An environment's venv names its base interpreter
by its host path (pyvenv.cfg's `home`), so before this sys.base_prefix, os.__file__, every
stdlib frame, sysconfig.get_paths() and /proc/self/exe told each check where Python is
installed.

Local only: neither is in what Beam receives (sandbox/bundle.py), which is why they are not in
root.py or mounts.py. The world is kept beside the environment (`world-<made_by>.<token>/`, named by
the note `world-<made_by>.json`: made beside any other, never in place, see interpreter_world) but made
here, by the sandbox: the environments are built before any sandbox and never import it
(tests/project/test_structure.py); from them this takes the stdlib snapshot
(envs.stdlib_snapshot), the environment's lock and a note."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import stat
import struct
import subprocess

from rlvr_grade import envs
from rlvr_grade.links import link_or_copy
from rlvr_grade.sandbox import linux, mounts, root
from rlvr_harness.files import ENV_AT, PYTHON_AT

WORLD = "world"
# Bumped when what a world holds changes: a world made by older code is made again, beside it.
_MADE_BY = 4
# The folders of worlds this process uses (its seeds bind them, its gVisor sandboxes too), each
# with a descriptor holding a shared flock for the process's life: _sweep_worlds removes a world
# only when it takes the exclusive lock, so never one a running grader's seed may have bound.
_HELD: dict[str, int] = {}


def note_name() -> str:
    """The note (envs.read_note) naming this version's world of an environment: one per version
    (made_by), so graders of two versions on one machine never remake each other's world."""
    return f"{WORLD}-{_MADE_BY}"
_BASE_FACTS = ("import json, os, sys, sysconfig; print(json.dumps([os.path.realpath(sys.base_prefix), "
               "os.path.realpath(getattr(sys, '_base_executable', '') or sys.executable), "
               "os.path.realpath(sysconfig.get_paths()['stdlib'])]))")
_DT_SONAME = 14


class Unsupported(Exception):
    """This interpreter cannot be shown at PYTHON_AT: the reason, kept in the world's note."""


def interpreter_world(env) -> tuple[tuple[str, str], ...]:
    """What a check of `env` (an envs.Environment with a venv) is shown of its base interpreter,
    as (name inside, host file or folder) pairs: the interpreter at PYTHON_AT/bin (a copy whose
    RUNPATH, where it named the install, says $ORIGIN/../lib), the libraries it loads through
    that RUNPATH at PYTHON_AT/lib, the stdlib snapshot at PYTHON_AT/<the stdlib's place under
    the prefix>, and the venv's bin and pyvenv.cfg as they must read there (`home =
    PYTHON_AT/bin`, from which CPython finds the stdlib by its landmark, os.py). () when this
    interpreter cannot be shown so (the reason is in the world's note): the check then sees the
    install at its host names."""
    found = _made(env)
    if found is not None:
        return found
    stdlib, snapshot = envs.stdlib_snapshot(env)  # takes the lock itself: not inside ours (flock)
    with envs.locked(env):
        found = _made(env)
        if found is not None:
            return found
        # A new folder beside any other world, never one made again in place: a seed of another
        # grader (another version, or this one before a world went missing) may have bound the
        # old one, and its checks read it until that seed ends.
        folder = f"{note_name()}.{secrets.token_hex(4)}"
        top = os.path.join(env.path, folder)
        try:
            pairs, named = _make_world(env, top, stdlib, snapshot)
            note: dict = {"python_at": PYTHON_AT, "made_by": _MADE_BY, "stdlib": named, "folder": folder,
                          "pairs": [[at, os.path.relpath(src, env.path)] for at, src in pairs]}
            _hold(top)
        except Unsupported as exc:
            shutil.rmtree(top, ignore_errors=True)
            pairs, note = [], {"python_at": PYTHON_AT, "made_by": _MADE_BY, "unsupported": str(exc)}
        except BaseException:
            shutil.rmtree(top, ignore_errors=True)
            raise
        envs.write_note(env, note_name(), note)  # the swap: atomic (os.replace)
        _sweep_worlds(env, keep=folder)
    return tuple(pairs)


def _made(env) -> tuple[tuple[str, str], ...] | None:
    note = envs.read_note(env, note_name())
    if note.get("python_at") != PYTHON_AT or note.get("made_by") != _MADE_BY:
        return None
    try:
        pairs = tuple((at, os.path.join(env.path, rel)) for at, rel in note.get("pairs", ()))
        folder = str(note.get("folder", ""))
    except (TypeError, ValueError):
        return None
    if pairs:
        if not folder.startswith(note_name() + ".") or "/" in folder:
            return None
        try:
            _hold(os.path.join(env.path, folder))  # waits while a sweep removes it: then it is gone
        except OSError:
            return None
    return pairs if all(os.path.exists(src) for _, src in pairs) else None


def _hold(top: str) -> None:
    """Keep the world folder `top` from being swept while this process lives (_HELD)."""
    import fcntl

    if top in _HELD:
        return
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    fcntl.flock(fd, fcntl.LOCK_SH)
    _HELD[top] = fd


def _sweep_worlds(env, keep: str) -> list[str]:
    """Remove the worlds of `env` (this version's or another's that hold to this rule: folders
    `world-<made_by>.<token>`) but `keep` that no process holds (_HELD): one a running seed may
    have bound stays until its grader ends. A world of a version before this rule (the folder
    `world`) is never removed here: its graders hold no lock on it."""
    import fcntl

    removed = []
    for name in sorted(os.listdir(env.path)):
        if name == keep or not name.startswith(WORLD + "-") or "." not in name:
            continue
        path = os.path.join(env.path, name)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | os.O_NOFOLLOW)
        except OSError:
            continue  # not a folder (a note), or a link (a test's to a shared world)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        shutil.rmtree(path, ignore_errors=True)
        os.close(fd)
        removed.append(path)
    return removed


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


# Run by the environment's own interpreter (its bytecode format): the stdlib snapshot as a check
# sees it at files.PYTHON_AT. argv: the snapshot, the folder to make, the name the snapshot is
# shown at, a JSON {host name: world name} of the install's paths. Every file is a hard link of
# the snapshot's but: the bytecode of this interpreter's tag, whose code objects (co_filename)
# named the install, renamed to where the check sees its source (the headers, which check the
# source's mtime and size, kept); other bytecode (optimized levels -O/-OO, other tags) left out;
# a text file naming the install rewritten (the sysconfig data: prefix, LIBDIR, CONFIG_ARGS...),
# a module's bytecode compiled again from the rewritten source. A binary file naming the install
# is printed, for the caller: an ELF file is copied and rewritten (_unname), any other left out.
_NAME_STDLIB = r"""
import json, marshal, os, py_compile, sys, types
snap, dest, named, names = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
tag = "." + sys.implementation.cache_tag + ".pyc"
pairs = sorted(((k.encode(), v.encode()) for k, v in names.items()), key=lambda kv: -len(kv[0]))
def rename(code, name):
    consts = tuple(rename(c, name) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=name, co_consts=consts)
out = {"renamed": 0, "dropped": 0, "rewritten": [], "binary": []}
recompile = []
for dirpath, dirnames, filenames in os.walk(snap):
    dirnames.sort()
    rel = os.path.relpath(dirpath, snap)
    at = os.path.normpath(os.path.join(dest, rel))
    os.makedirs(at, mode=0o755, exist_ok=True)
    for name in [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
        os.symlink(os.readlink(os.path.join(dirpath, name)), os.path.join(at, name))
        dirnames.remove(name)
    cache = os.path.basename(dirpath) == "__pycache__"
    for name in sorted(filenames):
        src, dst = os.path.join(dirpath, name), os.path.join(at, name)
        if os.path.islink(src):
            os.symlink(os.readlink(src), dst)
            continue
        if name.endswith(".pyc"):
            if cache and not name.endswith(tag):
                out["dropped"] += 1
                continue
            source = os.path.join(os.path.dirname(rel), name[:-len(tag)] + ".py") if cache else os.path.join(rel, name[:-1])
            with open(src, "rb") as fh:
                data = fh.read()
            data = data[:16] + marshal.dumps(rename(marshal.loads(data[16:]), os.path.normpath(os.path.join(named, source))))
            with open(dst, "wb") as fh:
                fh.write(data)
            out["renamed"] += 1
            if any(k in data for k, _ in pairs):  # its constants name it (a module linked to a rewritten one)
                recompile.append((os.path.join(dest, source), os.path.normpath(os.path.join(named, source)), dst))
            continue
        with open(src, "rb") as fh:
            data = fh.read()
        if not any(k in data for k, _ in pairs):
            os.link(src, dst)
        elif b"\0" in data:
            out["binary"].append(os.path.normpath(os.path.join(rel, name)))
        else:
            for k, v in pairs:
                data = data.replace(k, v)
            with open(dst, "wb") as fh:
                fh.write(data)
            os.chmod(dst, os.stat(src).st_mode & 0o777)
            out["rewritten"].append(os.path.normpath(os.path.join(rel, name)))
            if name.endswith(".py"):
                cfile = os.path.join(at, "__pycache__", name[:-3] + tag)
                recompile.append((dst, os.path.normpath(os.path.join(named, rel, name)), cfile))
for path, shown, cfile in recompile:
    if os.path.exists(cfile):  # compiled again only where the snapshot had bytecode of it
        os.unlink(cfile)
        if os.path.exists(path):
            py_compile.compile(path, cfile=cfile, dfile=shown, doraise=True)
print(json.dumps(out))
"""


def _host_names(prefix: str, stdlib: str, exe: str, rel: str) -> dict[str, str]:
    """{a path naming the install on the host: the name a check sees it by}: the stdlib folder,
    the binary, and the prefix itself unless a system one (/usr, /usr/local: the root shows the
    system's libraries at their own names, and a string starting /usr names many other things)."""
    names = {stdlib: os.path.join(PYTHON_AT, rel), exe: os.path.join(PYTHON_AT, "bin", os.path.basename(exe))}
    if prefix not in ("/", "/usr", "/usr/local"):
        names[prefix] = PYTHON_AT
    return names


def _unname(path: str, names: dict[str, str]) -> bool:
    """Rewrite, in place, every C string of the ELF file `path` that holds one of `names`' keys
    to hold its value instead, padded with NULs (nothing moves: each value is not longer than its
    key): the RUNPATH of lib-dynload's modules and libpython (PYTHON_AT/lib is where the world
    shows libpython), the prefix compiled into libpython (getpath's PREFIX, used only when no
    landmark is found). False (the file unchanged in what it names) when a name is left: the
    caller then does not show the file."""
    with open(path, "rb") as fh:
        data = bytearray(fh.read())
    keys = sorted(((k.encode(), v.encode()) for k, v in names.items() if k != v), key=lambda kv: -len(kv[0]))
    if any(len(v) > len(k) and k in data for k, v in keys):
        return False
    for key, _ in keys:
        at = 0
        while (i := data.find(key, at)) >= 0:
            start = data.rfind(b"\0", 0, i) + 1
            end = data.find(b"\0", i)
            end = len(data) if end < 0 else end
            old = bytes(data[start:end])
            text = old
            for k, v in keys:
                text = text.replace(k, v)
            # The linker merges a string that is the tail of another into it: libpython's
            # PY_VERSION ("3.11.7") is the last bytes of its compiled prefix ("/x/versions/3.11.7"),
            # so NULs there emptied sys.version. The old string's last path component stays in
            # place after the new one's NUL; where it does not fit, the string is left as it was
            # (the file is then not shown: Unsupported).
            tail = old.rsplit(b"/", 1)[-1]
            if len(text) + 1 + len(tail) > len(old):
                at = end
                continue
            data[start:end] = text + b"\0" * (len(old) - len(text) - len(tail)) + tail
            at = end
    with open(path, "r+b") as fh:
        fh.write(data)
    root._elf_cached.cache_clear()
    return not any(k in data for k, _ in keys)


def _show(src: str, at: str, names: dict[str, str]) -> None:
    """Put the ELF file `src` at `at`: a hard link, or a copy rewritten by _unname where it names
    the install (libpython3.X.so, ~23 MB, once per environment: its RUNPATH and compiled prefix)."""
    with open(src, "rb") as fh:
        data = fh.read()
    named = any(k.encode() in data for k in names)
    if not named:
        if src != at:
            link_or_copy(src, at)
        return
    if src != at:
        shutil.copy2(src, at)
    if not _unname(at, names):
        raise Unsupported(f"{src} names the install where it cannot be rewritten")


def _named_stdlib(python: str, snapshot: str, top: str, rel: str, names: dict[str, str]) -> dict:
    """world/stdlib: the snapshot as a check sees it at PYTHON_AT/`rel` (_NAME_STDLIB), made by
    the environment's own interpreter `python`; its ELF files that name the install copied and
    rewritten (_unname), any other binary file that does left out. What it did, for world.json."""
    dest = os.path.join(top, "stdlib")
    out = subprocess.run([python, "-I", "-S", "-c", _NAME_STDLIB, snapshot, dest, os.path.join(PYTHON_AT, rel), json.dumps(names)],
                         capture_output=True, text=True, timeout=1800, stdin=subprocess.DEVNULL, check=False)
    try:
        done = json.loads(out.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError) as exc:
        raise Unsupported(f"{python}: could not name its stdlib at {PYTHON_AT}: {out.stderr.strip()[-300:]}") from exc
    left = []
    for name in done.pop("binary"):
        src, dst = os.path.join(snapshot, name), os.path.join(dest, name)
        if root.read_elf(src) is not None:
            shutil.copy2(src, dst)
            if _unname(dst, names):
                continue
            os.unlink(dst)
        left.append(name)  # e.g. config-3.X/libpython3.X.a: only for linking an embedding program
    done["left_out"] = left
    done["rewritten"] = len(done["rewritten"])
    return done


def _make_world(env, top: str, stdlib: str, snapshot: str) -> tuple[list[tuple[str, str]], dict]:
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
    home = os.path.join(top, "python")
    os.makedirs(os.path.join(home, "bin"), mode=0o755)
    os.makedirs(os.path.join(home, "lib"), mode=0o755, exist_ok=True)
    os.makedirs(os.path.join(home, rel), mode=0o755, exist_ok=True)  # where the snapshot is mounted
    name = os.path.basename(exe)
    names = _host_names(prefix, stdlib, exe, rel)
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
        # A copy of its own where it names the install (its RUNPATH, its compiled prefix):
        # libpython3.X.so is ~23 MB, once per environment.
        _show(lib, os.path.join(home, "lib", os.path.basename(lib)), names)
    runpath = [p for p in entries if os.path.realpath(root._expand(p, origin)) not in into]
    runpath = ":".join(["$ORIGIN/../lib"] + runpath) if into else ""
    if into and runpath != ":".join(entries):  # a copy of its own, rewritten
        shutil.copy2(exe, os.path.join(home, "bin", name))
        if not retarget_runpath(os.path.join(home, "bin", name), runpath):
            raise Unsupported(f"{exe}: its RUNPATH could not be rewritten to {runpath}")
    _show(os.path.join(home, "bin", name) if into and runpath != ":".join(entries) else exe, os.path.join(home, "bin", name), names)
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
    named = _named_stdlib(env.interpreter, snapshot, top, rel, names)
    for d in (top, home, bin_dir):
        os.chmod(d, 0o755)
    os.chmod(os.path.join(top, "pyvenv.cfg"), 0o644)
    return [(PYTHON_AT, home), (os.path.join(PYTHON_AT, rel), os.path.join(top, "stdlib")),
            (os.path.join(ENV_AT, "bin"), bin_dir), (os.path.join(ENV_AT, "pyvenv.cfg"), os.path.join(top, "pyvenv.cfg"))], named


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
