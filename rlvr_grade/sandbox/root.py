"""What a check's filesystem holds: an allowlist, never the host minus a denylist.

A `Root` lists host paths a check sees read-only at the same place: whole directories (the
stdlib, a site-packages, a compiler's own directory, headers, a JDK) and single files (the
interpreter, the shared libraries the binaries and extension modules load, a few /etc files).
Besides those a check has only what the sandbox makes for it: a private /tmp and workdir, a
minimal /dev, its own /proc, generated /etc/passwd and /etc/group. Nothing else exists inside:
not /run, /home, /srv, /mnt, /opt, /var, the checkout or a data folder, whatever the host
keeps there.

Where the list comes from (nothing guessed):
- `python_root()`: the interpreter, its prefix's stdlib (the base prefix's own site-packages
  masked unless on sys.path), every sys.path entry that is a site directory, the top-level
  packages imported from any other sys.path entry (of the grader's checkout, only the
  harness, rlvr_harness: never rlvr_grade), the tz database the stdlib names (sysconfig TZPATH), the locale of the checks'
  LANG, and the ELF closure of the interpreter and every extension module.
- `toolchain_root(language)`: what the compiler driver itself reports (gcc -print-prog-name,
  -print-file-name, its include search list; the JDK's home from the java binary), plus the
  ELF closure of every binary and library found.
- the ELF closure (`elf_closure`): DT_NEEDED resolved the way ld.so does (RPATH/RUNPATH with
  $ORIGIN, then the ld.so.conf directories, then the defaults), recursively, and PT_INTERP.
  Plus libgcc_s.so.1, which glibc dlopens to unwind a cancelled or exiting thread.

A Root becomes a `Layout`: every path the check may look up, with each symlink on the way
kept as a symlink (/lib -> usr/lib, /usr/bin/java -> /etc/alternatives/java -> the JDK), the
directories as mount points and the files as files. `materialize` writes the skeleton once per
machine and content (hard links to the host files, copies across filesystems) into a "farm"
directory; each worker mounts it as the lower layer of its own read-only overlay, with one
overlay per shown directory (sandbox/mounts.py). Every slot thus has inodes of its own: a
flock, a POSIX lock or an inotify watch on a shared file never reaches another slot.

Issue 18's environments make "the root of a check = its environment": `Root.union` of an
environment's directories (its interpreter prefix and site-packages) and a toolchain."""

from __future__ import annotations

import errno
import fcntl
import functools
import hashlib
import json
import os
import stat
import struct
import sys
from dataclasses import dataclass, field
from typing import Iterable

from rlvr_grade.links import link_or_copy
from rlvr_harness.files import ENV_AT  # noqa: F401 - root.ENV_AT: where a check sees its venv

# The empty mount points and files every root has; the sandbox mounts or writes them.
MOUNT_POINTS = ("/tmp", "/proc", "/dev")
GENERATED = ("/etc/passwd", "/etc/group")
# A dynamic library glibc loads at run time (dlopen) rather than through DT_NEEDED: pthread_exit
# and pthread_cancel unwind with it; without it every exiting thread aborts the process.
DLOPENED = ("libgcc_s.so.1",)
FARM_ENV = "RLVR_GRADE_ROOTS"
CHECK_LANG = "C.UTF-8"  # the LANG checks run with (sandbox/local.py): its locale files, if any
# Where a check sees the harness package (HARNESS_AT/rlvr_harness) and where the grader's code
# that runs around it names its files (HARNESS_AT/rlvr_grade: in no local check's root; the
# runner inside gVisor is there): one fixed place, never the checkout's or site-packages'.
HARNESS_AT = "/harness"


@dataclass(frozen=True)
class Root:
    """Host paths a check sees, read-only, at the same place. `dirs` are shown whole, `files`
    one by one (each symlink on a path's way kept), `hidden` are directories inside `dirs`
    shown empty (the base interpreter's own site-packages inside its stdlib). `moved`: (host
    directory, where the check sees it) for what would otherwise show where the grader keeps
    it (the harness, from the checkout: at HARNESS_AT whatever folder holds it)."""

    dirs: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    moved: tuple[tuple[str, str], ...] = ()

    def union(self, *others: Root) -> Root:
        roots = (self, *others)
        return Root(
            dirs=tuple(sorted({d for r in roots for d in r.dirs})),
            files=tuple(sorted({f for r in roots for f in r.files})),
            hidden=tuple(sorted({h for r in roots for h in r.hidden})),
            moved=tuple(sorted({tuple(m) for r in roots for m in r.moved})),
        )

    def masking(self, paths: Iterable[str]) -> Root:
        """This root with those of `paths` (grader_paths) that fall inside a directory it shows
        masked: a folder the grader names as its own is never in a check's root, not even
        inside the interpreter's tree."""
        hidden = tuple(h for h in paths if any(inside(h, d) and h != d for d in self.dirs))
        return self.union(Root(hidden=hidden)) if hidden else self

    @property
    def key(self) -> str:
        """Identifies the list (not the content of the files: see Layout.key)."""
        return hashlib.sha256(json.dumps([self.dirs, self.files, self.hidden, self.moved]).encode()).hexdigest()[:16]

    def layout(self) -> Layout:
        return make_layout(self)


@dataclass(frozen=True)
class Layout:
    """A Root resolved on this host: `dirs` and `links` to recreate, `files` as (path in the
    root, host file it is), `mounts` as (path in the root, host directory shown there),
    `hidden` directories masked inside mounts. Paths are absolute, as the check sees them."""

    dirs: tuple[str, ...]
    links: tuple[tuple[str, str], ...]
    files: tuple[tuple[str, str], ...]
    mounts: tuple[tuple[str, str], ...]
    hidden: tuple[str, ...]
    missing: tuple[str, ...] = field(default=(), compare=False)  # listed but absent on this host

    @property
    def key(self) -> str:
        """Changes whenever a file behind the root changes (inode, size, mtime): the farm
        holding hard links of the old files is then not reused."""
        h = hashlib.sha256()
        h.update(json.dumps([self.dirs, self.links, self.files, self.mounts, self.hidden]).encode())
        for _, src in self.files:
            st = os.stat(src)
            h.update(f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}\n".encode())
        return h.hexdigest()[:24]

    def describe(self) -> list[str]:
        """Everything the root holds, one line each, for `doctor`: the directories shown whole,
        those masked inside them, every single file and every symlink."""
        lines = [f"{path}/ (directory{'' if path == src else ', from ' + src})" for path, src in self.mounts]
        lines += [f"{path}/ (empty: masked)" for path in self.hidden]
        lines += [path if path == src else f"{path} (from {src})" for path, src in sorted(self.files)]
        lines += [f"{link} -> {target}" for link, target in sorted(self.links)]
        return lines


# -- resolving paths as the kernel would --------------------------------------------------------
class _Resolver:
    """Walks paths component by component, recording each directory, each symlink (kept as
    a symlink in the root) and where the walk ends."""

    def __init__(self) -> None:
        self.dirs: set[str] = set()
        self.links: dict[str, str] = {}

    def walk(self, path: str) -> str | None:
        """The real path `path` ends at, recording the way; None if it does not exist."""
        todo = [p for p in os.path.normpath(path).split("/") if p]
        cur = "/"
        hops = 0
        while todo:
            name = todo.pop(0)
            nxt = os.path.join(cur, name)
            try:
                st = os.lstat(nxt)
            except OSError:
                return None
            if stat.S_ISLNK(st.st_mode):
                hops += 1
                if hops > 40:
                    return None
                target = os.readlink(nxt)
                self.links[nxt] = target
                base = "/" if target.startswith("/") else cur
                todo = [p for p in os.path.normpath(os.path.join(base, target)).split("/") if p] + todo
                cur = "/"
                continue
            if todo:
                if not stat.S_ISDIR(st.st_mode):
                    return None
                self.dirs.add(nxt)
            cur = nxt
        return cur


def grader_paths(extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The paths the grader names as its own, as real paths: its home, /root, /home, its working
    directory and `extra` (the run's input and output files and their folders, the cache's
    folder: api.py). Built once per backend; each root masks those inside it (Root.masking)."""
    named = [os.path.expanduser("~"), "/root", "/home", os.getcwd(), *extra]
    return tuple(dict.fromkeys(r for r in (os.path.realpath(p) for p in named if p and p != "/") if r != "/"))


def inside(path: str, parent: str) -> bool:
    return path == parent or path.startswith(parent.rstrip("/") + "/")


def make_layout(root: Root) -> Layout:
    res = _Resolver()
    mounts: dict[str, str] = {}
    missing: list[str] = []
    for d in root.dirs:
        real = res.walk(d)
        if real is None or not os.path.isdir(real):
            missing.append(d)
            continue
        mounts[real] = real
    # A directory inside another shown directory is shown by it already.
    for d in sorted(mounts, key=len):
        if any(inside(d, o) and d != o for o in mounts):
            del mounts[d]
    files: dict[str, str] = {}
    for f in root.files:
        real = res.walk(f)
        if real is None:
            missing.append(f)
            continue
        if os.path.isdir(real):
            if not any(inside(real, m) for m in mounts):
                mounts[real] = real
            continue
        if not any(inside(real, m) for m in mounts):
            files[real] = real
    covered = [m for m in mounts]

    def outside(p: str) -> bool:
        return not any(inside(p, m) and p != m for m in covered)

    dirs = {d for d in res.dirs if outside(d)}
    for p in list(files) + list(mounts) + list(MOUNT_POINTS) + list(GENERATED):
        parent = os.path.dirname(p)
        while parent != "/":
            dirs.add(parent)
            parent = os.path.dirname(parent)
    for p in MOUNT_POINTS:
        dirs.add(p)
    links = {p: t for p, t in res.links.items() if outside(p)}
    dirs -= set(links) | set(mounts)
    hidden = tuple(sorted(h for h in root.hidden if any(inside(h, m) and h != m for m in mounts) and os.path.isdir(h)))
    layout = Layout(
        dirs=tuple(sorted(dirs)),
        links=tuple(sorted(links.items())),
        files=tuple(sorted(files.items())),
        mounts=tuple(sorted(mounts.items())),
        hidden=hidden,
        missing=tuple(sorted(missing)),
    )
    return _move(layout, root.moved) if root.moved else layout


def _move(layout: Layout, moved: tuple[tuple[str, str], ...]) -> Layout:
    """`layout` with every path inside a moved host directory shown at its new place (the host
    file or directory it comes from unchanged), and the folders that only led to the old place
    gone: the check's listing of / names nothing of where the grader keeps them."""
    pairs = sorted(((os.path.realpath(h), at) for h, at in moved), key=lambda p: -len(p[0]))

    def to(p: str) -> str:
        for host, at in pairs:
            if inside(p, host):
                return at + p[len(host):]
        return p

    def led_only_to_moved(d: str) -> bool:
        return any(inside(host, d) for host, _ in pairs)

    mounts = {to(p): src for p, src in layout.mounts}
    files = {to(p): src for p, src in layout.files}
    links = {to(p): (to(t) if t.startswith("/") else t) for p, t in layout.links}
    hidden = {to(h) for h in layout.hidden}
    dirs = {to(d) for d in layout.dirs if not led_only_to_moved(d) or any(inside(d, h) for h, _ in pairs)}
    for p in [*files, *mounts, *links, *MOUNT_POINTS, *GENERATED]:
        parent = os.path.dirname(p)
        while parent != "/":
            dirs.add(parent)
            parent = os.path.dirname(parent)
    dirs -= set(links) | set(mounts)
    return Layout(dirs=tuple(sorted(dirs)), links=tuple(sorted(links.items())), files=tuple(sorted(files.items())),
                  mounts=tuple(sorted(mounts.items())), hidden=tuple(sorted(hidden)), missing=layout.missing)


# -- ELF: what a binary loads -------------------------------------------------------------------
PT_LOAD, PT_DYNAMIC, PT_INTERP = 1, 2, 3
DT_NEEDED, DT_STRTAB, DT_RPATH, DT_RUNPATH = 1, 5, 15, 29


@dataclass(frozen=True)
class Elf:
    """The dynamic-linking facts of one ELF file."""

    cls: int  # 1: 32-bit, 2: 64-bit
    machine: int
    interp: str | None
    needed: tuple[str, ...]
    rpath: tuple[str, ...]
    runpath: tuple[str, ...]


def read_elf(path: str) -> Elf | None:
    """Parse the program headers and the dynamic section; None for anything not an ELF."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        head = os.pread(fd, 64, 0)
        if len(head) < 52 or head[:4] != b"\x7fELF" or head[4] not in (1, 2) or head[5] not in (1, 2):
            return None
        cls, end = head[4], "<" if head[5] == 1 else ">"
        machine = struct.unpack_from(end + "H", head, 18)[0]
        if cls == 2:
            phoff, = struct.unpack_from(end + "Q", head, 32)
            phentsize, phnum = struct.unpack_from(end + "HH", head, 54)
        else:
            phoff, = struct.unpack_from(end + "I", head, 28)
            phentsize, phnum = struct.unpack_from(end + "HH", head, 42)
        if phnum == 0 or phnum > 512:
            return Elf(cls, machine, None, (), (), ())
        table = os.pread(fd, phentsize * phnum, phoff)
        loads, dynamic, interp = [], None, None
        for i in range(phnum):
            off = i * phentsize
            if cls == 2:
                p_type, _flags, p_offset, p_vaddr, _paddr, p_filesz = struct.unpack_from(end + "IIQQQQ", table, off)
            else:
                p_type, p_offset, p_vaddr, _paddr, p_filesz = struct.unpack_from(end + "IIIII", table, off)
            if p_type == PT_LOAD:
                loads.append((p_vaddr, p_offset, p_filesz))
            elif p_type == PT_DYNAMIC:
                dynamic = (p_offset, p_filesz)
            elif p_type == PT_INTERP:
                interp = os.pread(fd, min(p_filesz, 4096), p_offset).split(b"\0", 1)[0].decode("utf-8", "surrogateescape")
        if dynamic is None:
            return Elf(cls, machine, interp, (), (), ())
        data = os.pread(fd, min(dynamic[1], 1 << 20), dynamic[0])
        entry = struct.Struct(end + ("qQ" if cls == 2 else "iI"))
        tags: list[tuple[int, int]] = []
        for off in range(0, len(data) - entry.size + 1, entry.size):
            tag, val = entry.unpack_from(data, off)
            if tag == 0:
                break
            tags.append((tag, val))
        strtab = next((v for t, v in tags if t == DT_STRTAB), None)
        if strtab is None:
            return Elf(cls, machine, interp, (), (), ())
        base = next((off + strtab - vaddr for vaddr, off, size in loads if vaddr <= strtab < vaddr + size), None)
        if base is None:
            return Elf(cls, machine, interp, (), (), ())

        def string(at: int) -> str:
            raw = os.pread(fd, 4096, base + at)
            return raw.split(b"\0", 1)[0].decode("utf-8", "surrogateescape")

        needed = tuple(string(v) for t, v in tags if t == DT_NEEDED)
        rpath = tuple(p for t, v in tags if t == DT_RPATH for p in string(v).split(":") if p)
        runpath = tuple(p for t, v in tags if t == DT_RUNPATH for p in string(v).split(":") if p)
        return Elf(cls, machine, interp, needed, rpath, runpath)
    except (OSError, struct.error):
        return None
    finally:
        os.close(fd)


@functools.lru_cache(maxsize=1)
def system_library_dirs() -> tuple[str, ...]:
    """The directories ld.so searches after RPATH/RUNPATH: /etc/ld.so.conf (with its
    includes), then the built-in defaults for this platform."""
    import glob
    import sysconfig

    out: list[str] = []

    def read_conf(path: str, depth: int = 0) -> None:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                lines = fh.read().splitlines()
        except OSError:
            return
        for line in lines:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("include") and depth < 4:
                pattern = line.split(None, 1)[1] if len(line.split(None, 1)) > 1 else ""
                if not pattern.startswith("/"):
                    pattern = os.path.join(os.path.dirname(path), pattern)
                for inc in sorted(glob.glob(pattern)):
                    read_conf(inc, depth + 1)
            elif line.startswith("/"):
                out.append(line)

    read_conf("/etc/ld.so.conf")
    multiarch = sysconfig.get_config_var("MULTIARCH") or ""
    for d in ([f"/lib/{multiarch}", f"/usr/lib/{multiarch}"] if multiarch else []) + ["/lib64", "/usr/lib64", "/lib", "/usr/lib"]:
        out.append(d)
    seen: list[str] = []
    for d in out:
        if d not in seen:
            seen.append(d)
    return tuple(seen)


def _expand(entry: str, origin: str) -> str:
    return entry.replace("${ORIGIN}", origin).replace("$ORIGIN", origin)


def _find_library(name: str, requester: str, elf: Elf) -> str | None:
    if "/" in name:
        return name if os.path.exists(name) else None
    origin = os.path.dirname(requester)
    dirs = [_expand(d, origin) for d in (elf.rpath if not elf.runpath else ())]
    dirs += [_expand(d, origin) for d in elf.runpath]
    return _search(name, tuple(dirs) + system_library_dirs(), elf.cls, elf.machine)


@functools.lru_cache(maxsize=8192)
def _search(name: str, dirs: tuple[str, ...], cls: int, machine: int) -> str | None:
    for d in dirs:
        candidate = os.path.join(d, name)
        lib = _elf_cached(candidate)
        if lib is not None and lib.cls == cls and lib.machine == machine:
            return candidate
    return None


@functools.lru_cache(maxsize=8192)
def _elf_cached(path: str) -> Elf | None:
    return read_elf(path) if os.path.isfile(path) else None


def elf_closure(paths: Iterable[str]) -> tuple[set[str], set[str]]:
    """(every file the given binaries and libraries load, recursively, as ld.so would open
    it; the names nothing resolved). Non-ELF paths are skipped."""
    found: set[str] = set()
    unresolved: set[str] = set()
    todo = [p for p in paths]
    seen: set[str] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        elf = _elf_cached(path)
        if elf is None:
            continue
        if elf.interp:
            found.add(elf.interp)
            todo.append(elf.interp)
        for name in elf.needed + (DLOPENED if elf.needed else ()):
            lib = _find_library(name, path, elf)
            if lib is None:
                if name not in DLOPENED:
                    unresolved.add(name)
                continue
            found.add(lib)
            todo.append(lib)
    return found, unresolved


def _elf_files_under(directory: str) -> list[str]:
    """Every shared object or executable below `directory` that may be loaded (by name)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for name in filenames:
            if name.endswith(".so") or ".so." in name:
                out.append(os.path.join(dirpath, name))
    return out


def _links_leaving(directory: str) -> list[str]:
    """Symlinks inside `directory` whose target lies outside it (Debian's JDK points its conf
    files into /etc/java-17-openjdk, gcc's libstdc++.so into the multiarch directory): the
    targets must exist in the root too."""
    out = []
    real_dir = os.path.realpath(directory)
    for dirpath, dirnames, filenames in os.walk(directory):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            if os.path.islink(p):
                target = os.path.realpath(p)
                if not inside(target, real_dir) and os.path.exists(target):
                    out.append(p)
    return out


# -- the roots ----------------------------------------------------------------------------------
def _base_files() -> list[str]:
    out = ["/etc/ld.so.cache"]
    return [p for p in out if os.path.exists(p)]


def _base_dirs() -> list[str]:
    out = []
    for locale_dir in (f"/usr/lib/locale/{CHECK_LANG}", "/usr/lib/locale/C.utf8"):
        if os.path.isdir(locale_dir):
            out.append(locale_dir)
            break
    return out


@functools.lru_cache(maxsize=4)
def python_root(executable: str | None = None) -> Root:
    """The root of this interpreter (see the module docstring). Computed once per process:
    ~50 ms for a large site-packages, so the seed does it before forking its workers."""
    import sysconfig

    import rlvr_harness

    executable = executable or sys.executable
    files: set[str] = {executable, os.path.realpath(executable), *_base_files()}
    base_exe = getattr(sys, "_base_executable", None)
    if base_exe:
        files.add(base_exe)
    for prefix in {sys.prefix, sys.exec_prefix}:
        cfg = os.path.join(prefix, "pyvenv.cfg")
        if os.path.exists(cfg):
            files.add(cfg)
    stdlib = os.path.realpath(sysconfig.get_paths()["stdlib"])
    dirs: set[str] = {stdlib, *_base_dirs()}
    hidden: set[str] = set()
    site_dirs: set[str] = set()
    for p in sys.path:
        if not p or not os.path.exists(p):
            continue
        real = os.path.realpath(p)
        if os.path.isfile(real):
            files.add(p)  # a zip on sys.path
        elif real == stdlib:
            continue
        elif inside(real, stdlib) or os.path.basename(real) in ("site-packages", "dist-packages"):
            dirs.add(real)
            site_dirs.add(real)  # lib-dynload, site-packages: extension modules load from here
        # Any other entry (the grader's cwd or script folder, a PYTHONPATH folder) is the
        # grader's, not the environment's: none of it is in the root (the harness is, below).
    for site_dir in sorted(site_dirs):
        dirs.update(_installed_elsewhere(site_dir))
    for name in ("site-packages", "dist-packages"):
        own = os.path.join(stdlib, name)
        if os.path.isdir(own) and own not in site_dirs:
            hidden.add(own)
    # The harness runs in the check, shown at HARNESS_AT wherever the checkout or site-packages
    # holding it is; the grader's own package (rlvr_grade), which only sets the check up, is not
    # in its root (a check cannot import it: zygote.forget_grader), even where this interpreter
    # is the grader's own with rlvr_grade installed in editable mode.
    harness = host_path(os.path.dirname(rlvr_harness.__file__))
    dirs.add(harness)
    dirs.discard(host_path(os.path.dirname(os.path.dirname(__file__))))  # rlvr_grade/ (this is sandbox/root.py)
    tzpath = sysconfig.get_config_var("TZPATH") or ""
    dirs.update(d for d in tzpath.split(os.pathsep) if d and os.path.isdir(d))
    elves = [executable, os.path.realpath(executable)]
    # Extension modules: the stdlib's (lib-dynload, on sys.path) and every site directory's.
    for d in site_dirs:
        elves += _elf_files_under(d)
    libs, _ = elf_closure(elves)
    files.update(libs)
    return Root(dirs=tuple(sorted(dirs)), files=tuple(sorted(files)), hidden=tuple(sorted(hidden)),
                moved=((harness, os.path.join(HARNESS_AT, "rlvr_harness")),))


def harness_bytecode() -> str:
    """rlvr_harness/__pycache__ on the host, masked in a local check's root (docs/sandbox.md)."""
    import rlvr_harness

    return os.path.join(host_path(os.path.dirname(rlvr_harness.__file__)), "__pycache__")


def host_path(path: str) -> str:
    """The host folder or file behind `path`: itself, unless it is one of the in-check names a
    seed gives the grader's code (HARNESS_AT/rlvr_grade/..., HARNESS_AT/rlvr_harness/...,
    local.boot_code), which its import finder reads from the host (`host_of`)."""
    if inside(path, HARNESS_AT):
        for finder in sys.meta_path:
            host_of = getattr(finder, "host_of", None)
            if host_of is not None:
                return os.path.realpath(host_of(path))
    return os.path.realpath(path)


def _installed_elsewhere(site_dir: str) -> set[str]:
    """Folders a site directory's packages live in outside it: the path lines of its .pth
    files and the package folders of editable installs (setuptools' __editable__ finders)."""
    import ast
    import re

    out: set[str] = set()
    try:
        names = os.listdir(site_dir)
    except OSError:
        return out
    for name in names:
        path = os.path.join(site_dir, name)
        if name.endswith(".pth"):
            try:
                with open(path, encoding="utf-8", errors="replace") as fh:
                    lines = fh.read().splitlines()
            except OSError:
                continue
            for line in lines:
                line = line.strip()
                if not line or line.startswith(("#", "import ", "import\t")):
                    continue
                d = os.path.realpath(os.path.join(site_dir, line))
                if os.path.isdir(d):
                    out.add(d)
        elif name.startswith("__editable__") and name.endswith("_finder.py"):
            try:
                with open(path, encoding="utf-8", errors="replace") as fh:
                    m = re.search(r"^MAPPING\s*(?::[^=]*)?=\s*(\{.*?\})\s*$", fh.read(), re.M | re.S)
                mapping = ast.literal_eval(m.group(1)) if m else {}
            except (OSError, ValueError, SyntaxError):
                continue
            for target in mapping.values() if isinstance(mapping, dict) else ():
                if isinstance(target, str) and os.path.exists(target):
                    out.add(os.path.realpath(target))
    return out


def _run(argv: list[str], path: str) -> str:
    import subprocess

    try:
        out = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
                             env={"PATH": path, "LANG": "C"}, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return (out.stdout + out.stderr).decode("utf-8", "replace")


def _which(name: str, path: str) -> str | None:
    for d in path.split(os.pathsep):
        p = os.path.join(d, name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


def _gcc_root(driver: str, lang: str, path: str) -> Root:
    exe = _which(driver, path)
    if exe is None:
        return Root()
    files: set[str] = {exe}
    dirs: set[str] = set()
    tools = []
    for prog in ("cc1" if lang == "c" else "cc1plus", "collect2", "lto-wrapper", "as", "ld", "nm", "strip"):
        found = _run([exe, f"-print-prog-name={prog}"], path).strip()
        if not found:
            continue
        if "/" not in found:
            found = _which(found, path) or ""
        if found and os.path.isfile(found):
            tools.append(found)
            files.add(found)
    libgcc = _run([exe, "-print-libgcc-file-name"], path).strip()
    if libgcc and os.path.isfile(libgcc):
        dirs.add(os.path.dirname(os.path.realpath(libgcc)))  # the install dir: crtbegin, libgcc, headers
    for t in tools:
        if "/gcc/" in t:  # cc1, collect2 live in the libexec dir
            dirs.add(os.path.dirname(os.path.realpath(t)))
    out = _run([exe, "-E", "-v", "-x", lang if lang == "c" else "c++", os.devnull], path)
    inside = False
    for line in out.splitlines():
        if line.startswith("#include <...> search starts here"):
            inside = True
            continue
        if line.startswith("End of search list"):
            break
        if inside and line.strip() and os.path.isdir(line.strip()):
            dirs.add(os.path.realpath(line.strip()))
    link_names = ["Scrt1.o", "crt1.o", "crti.o", "crtn.o", "libc.so", "libc_nonshared.a", "libm.so", "libm.a",
                  "libmvec.so", "libgcc_s.so", "libpthread.a", "libdl.a", "librt.a"]
    if lang != "c":
        link_names += ["libstdc++.so"]
    scripts = []
    for name in link_names:
        found = _run([exe, f"-print-file-name={name}"], path).strip()
        if found and "/" in found and os.path.exists(found):
            files.add(found)
            if name.endswith(".so"):
                scripts.append(found)
    for script in scripts:  # libc.so and libm.so are linker scripts naming more files
        try:
            with open(script, "rb") as fh:
                head = fh.read(4096)
        except OSError:
            continue
        if head.startswith(b"\x7fELF"):
            continue
        for word in head.decode("utf-8", "replace").replace("(", " ").replace(")", " ").split():
            if word.startswith("/") and os.path.exists(word):
                files.add(word)
    elves = list(files) + [os.path.realpath(t) for t in tools]
    for d in dirs:
        if "/gcc/" in d:
            for link in _links_leaving(d):
                files.add(os.path.realpath(link))
            elves += [os.path.join(d, n) for n in os.listdir(d) if os.path.isfile(os.path.join(d, n))]
    libs, _ = elf_closure(elves)
    files.update(libs)
    return Root(dirs=tuple(sorted(dirs)), files=tuple(sorted(files)))


def _java_root(path: str) -> Root:
    files: set[str] = set()
    homes: set[str] = set()
    for tool in ("java", "javac"):
        exe = _which(tool, path)
        if exe is None:
            continue
        files.add(exe)
        real = os.path.realpath(exe)
        home = os.path.dirname(os.path.dirname(real))  # <java.home>/bin/java
        if os.path.isdir(os.path.join(home, "lib")):
            homes.add(home)
    dirs = set(homes)
    elves: list[str] = list(files)
    for home in homes:
        for link in _links_leaving(home):
            target = os.path.realpath(link)
            (dirs if os.path.isdir(target) else files).add(target)
        for sub in ("bin", "lib"):
            d = os.path.join(home, sub)
            if os.path.isdir(d):
                elves += [os.path.join(d, n) for n in os.listdir(d)]
        elves += _elf_files_under(home)
    libs, _ = elf_closure(elves)
    files.update(libs)
    return Root(dirs=tuple(sorted(dirs)), files=tuple(sorted(files)))


def _node_root(path: str) -> Root:
    exe = _which("node", path)
    if exe is None:
        return Root()
    libs, _ = elf_closure([exe, os.path.realpath(exe)])
    return Root(files=tuple(sorted({exe, *libs})))


@functools.lru_cache(maxsize=16)
def toolchain_root(language: str, path: str) -> Root:
    """What `language`'s compiler and runtime need, found on the checks' PATH `path`
    (Python's is python_root: the harness is in every root anyway)."""
    if language == "c":
        return _gcc_root("gcc", "c", path)
    if language == "cpp":
        return _gcc_root("g++", "c++", path)
    if language == "java":
        return _java_root(path)
    if language == "javascript":
        return _node_root(path)
    return Root()


def root_for(language: str, path: str, extra_dirs: Iterable[str] = ()) -> Root:
    """The root of a check in `language`: this interpreter's (the harness runs in it) plus the
    language's toolchain, plus `extra_dirs` (tests; later an environment's directories)."""
    root = python_root().union(toolchain_root(language, path)) if language != "python" else python_root()
    extra = tuple(extra_dirs)
    return root.union(Root(dirs=extra)) if extra else root


# -- the farm: a root's skeleton on disk --------------------------------------------------------
def farm_base() -> str:
    """Where materialized roots live: $RLVR_GRADE_ROOTS, else $XDG_CACHE_HOME/rlvr-grade/roots
    (~/.cache/rlvr-grade/roots), else (a grader without a writable home) a private folder in
    the temporary directory. Hard links need it on the same filesystem as the host's /usr;
    elsewhere the files are copied once."""
    env = os.environ.get(FARM_ENV)
    if env:
        return os.path.abspath(os.path.expanduser(env))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(base, "rlvr-grade", "roots")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        return path
    except OSError:
        import tempfile

        return os.path.join(tempfile.gettempdir(), f"rlvr-grade-roots-{os.geteuid()}")


def materialize(layout: Layout, base: str | None = None) -> tuple[str, int]:
    """The farm directory of `layout` (built now if this machine has none for its key) and an
    open descriptor holding a shared lock on it: a farm is only swept while nobody holds one."""
    base = base or farm_base()
    os.makedirs(base, mode=0o700, exist_ok=True)
    st = os.lstat(base)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
        # Someone else's folder (a shared temporary directory): its content could be anything.
        raise OSError(f"{base}: not a private folder of uid {os.geteuid()}; set ${FARM_ENV}")
    key = layout.key
    final = os.path.join(base, key)
    if not os.path.isdir(final):
        import secrets

        tmp = os.path.join(base, f".build-{os.getpid()}-{secrets.token_hex(4)}")
        os.mkdir(tmp, 0o755)
        try:
            _write_farm(layout, tmp)
            try:
                os.rename(tmp, final)
            except OSError as exc:  # another worker built it meanwhile
                if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                    raise
                _remove_tree(tmp)
        except BaseException:
            _remove_tree(tmp)
            raise
        sweep(base, keep=key)
    fd = os.open(final, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    fcntl.flock(fd, fcntl.LOCK_SH)
    try:
        os.utime(final)  # in use: sweep() leaves farms used within the hour
    except OSError:
        pass
    return final, fd


def _write_farm(layout: Layout, top: str) -> None:
    def at(p: str) -> str:
        return os.path.join(top, p.lstrip("/"))

    for d in sorted(set(layout.dirs) | {m for m, _ in layout.mounts} | set(MOUNT_POINTS), key=len):
        os.makedirs(at(d), mode=0o755, exist_ok=True)
        os.chmod(at(d), 0o755)
    for p, target in layout.links:
        os.symlink(target, at(p))
    for p, src in layout.files:
        link_or_copy(src, at(p))
    for p in GENERATED:
        if not os.path.lexists(at(p)):
            with open(at(p), "w"):
                pass  # a mount point: the sandbox binds the generated file here


def _remove_tree(path: str) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def sweep(base: str, keep: str, min_age_s: float = 3600.0) -> list[str]:
    """Remove farms of older content nobody holds (no shared lock) and unused for an hour."""
    import time

    removed = []
    try:
        names = os.listdir(base)
    except OSError:
        return removed
    now = time.time()
    for name in names:
        if name == keep:
            continue
        path = os.path.join(base, name)
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode) or now - st.st_mtime < min_age_s:
            continue
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        _remove_tree(path)
        os.close(fd)
        removed.append(path)
    return removed
