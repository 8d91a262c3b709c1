"""The mount tree of a check: built once per worker from a root.Layout (the worker's mount
template), copied by every check, which then only mounts its own /tmp, /dev/shm and /proc.

    /                 a read-only overlay of the root's farm (root.materialize): the skeleton,
                      its symlinks and single files (interpreter, shared libraries, ld.so.cache)
    <each directory>  a read-only overlay of the host directory (the stdlib, site-packages,
                      a compiler's directory, headers, a JDK); `hidden` ones masked empty
    /etc/passwd,group generated for the check's uid (getpwuid works; nothing of the host's)
    /dev              a small tmpfs of this worker: null, zero, full, random, urandom, the
                      fd/stdin/stdout/stderr links, and shm (each check's own tmpfs). No ptys,
                      no /dev/pts: no pool of the host's to drain
    /proc             each check's own, `subset=pid`: its own processes and nothing of the
                      host (no /proc/sys, /proc/locks, /proc/meminfo, /proc/stat, kcore...)
    /tmp              each check's own size-capped tmpfs (workdir and tests inside)
    no /sys, /run, /home, /srv, /mnt, /opt, /var: nothing the root does not list exists.

Overlays, not bind mounts, so that every worker has inodes of its own: locks (flock works on a
read-only open), leases and notifications hang off the inode, and on the host's inode they
would let two concurrent checks signal each other. A slot's checks never overlap, and a lock
dies with its holder, so consecutive checks of a slot inherit nothing either. Where overlayfs
is missing the directories are bind mounts (doctor says so)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from rlvr_grade.sandbox import linux
from rlvr_grade.sandbox.root import Layout

MNT_DETACH = 2
REPLACED = ("/tmp", "/dev/shm", "/proc")  # each check mounts its own fresh ones here
STAGE = "/tmp"  # in the template builder's own mount namespace only
# char devices (major, minor): what programs open by name; nothing else of the host's /dev.
DEVICES = {"null": (1, 3), "zero": (1, 5), "full": (1, 7), "random": (1, 8), "urandom": (1, 9)}
DEV_LINKS = {"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"}
PROC_SUBSET = "subset=pid"
CHECK_USER = "rlvr"


@dataclass(frozen=True)
class Built:
    """What the builder found: how directories are shown and which /proc options hold."""

    overlay: bool
    proc_options: str
    devices: str  # "own nodes" (mknod) or "bound from the host" (user namespace mode)
    bound: tuple[str, ...] = ()  # shown directories overlayfs refused, bound: the host's inodes


def _escape(path: str) -> str:
    # overlayfs option syntax: ',' separates options, ':' lower layers, '\' escapes both.
    return path.replace("\\", "\\\\").replace(",", "\\,").replace(":", "\\:")


def _overlay(lower: str, empty: str, target: str) -> None:
    # A read-only overlay (no upper layer) needs two lower layers on the kernels here.
    linux.mount("overlay", target, "overlay", 0, f"lowerdir={_escape(lower)}:{_escape(empty)}")


def passwd(uid: int) -> tuple[str, str]:
    """(/etc/passwd, /etc/group) of a check: root, nobody, and the check's own user."""
    users = (f"root:x:0:0:root:/root:/usr/sbin/nologin\n"
             f"{CHECK_USER}:x:{uid}:{uid}:check:/tmp/w:/usr/sbin/nologin\n"
             "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n")
    groups = f"root:x:0:\n{CHECK_USER}:x:{uid}:\nnogroup:x:65534:\n"
    return users, groups


def build(layout: Layout, farm: str, uid: int, userns: bool) -> Built:
    """Turn the calling process's (private, just unshared) mount namespace into the check's
    root: everything above, then pivot_root into it and drop the host tree. Runs in the
    template builder, as root of the mount namespace."""
    # Everything the root shows, held before the stage covers /tmp (a farm or a venv may live
    # there): the mounts below name them through /proc/self/fd.
    held = {src: os.open(src, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC) for src in {farm, *(s for _, s in layout.mounts)}}

    def src_path(src: str) -> str:
        return f"/proc/self/fd/{held[src]}"

    linux.mount("tmpfs", STAGE, "tmpfs", linux.MS_NOSUID | linux.MS_NODEV, "size=1m,mode=700")
    new, empty = os.path.join(STAGE, "root"), os.path.join(STAGE, "empty")
    os.mkdir(new, 0o755)
    os.mkdir(empty, 0o755)
    overlay = True
    try:
        _overlay(src_path(farm), empty, new)
    except OSError:
        overlay = False
        linux.mount(src_path(farm), new, None, linux.MS_BIND)

    def at(path: str) -> str:
        return os.path.join(new, path.lstrip("/"))

    bound = [] if overlay else [farm]
    for path, src in layout.mounts:
        if overlay:
            try:
                _overlay(src_path(src), empty, at(path))
                continue
            except OSError:
                pass  # e.g. a lower layer overlayfs refuses (stacked too deep): bind it, and say so
        linux.mount(src_path(src), at(path), None, linux.MS_BIND | linux.MS_REC)
        bound.append(path)
    for path in layout.hidden:
        linux.mount(empty, at(path), None, linux.MS_BIND)
    users, groups = passwd(uid)
    for name, text in (("passwd", users), ("group", groups)):
        staged = os.path.join(STAGE, name)
        with open(staged, "w") as fh:
            fh.write(text)
        os.chmod(staged, 0o644)
        linux.mount(staged, at(f"/etc/{name}"), None, linux.MS_BIND)
    devices = _make_dev(at("/dev"), userns)
    if userns:
        # A user namespace may mount a new /proc only where a full one is already visible in its
        # mount namespace (the kernel's mount_too_revealing): each check's own covers this one.
        linux.mount("proc", at("/proc"), "proc", linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC)
    proc_options = PROC_SUBSET if _proc_subset_works(os.path.join(STAGE, "probe")) else ""
    for fd in held.values():
        os.close(fd)
    os.chdir(new)
    linux.pivot_root(".", ".")
    linux.umount(".", MNT_DETACH)  # the host's tree, stacked on top by pivot_root: gone
    os.chdir("/")
    linux.mount_setattr_recursive("/", linux.MOUNT_ATTR_RDONLY | linux.MOUNT_ATTR_NOSUID | linux.MOUNT_ATTR_NODEV)
    # Device nodes must open: /dev alone keeps them (read-only still: nothing can be added).
    linux.mount_setattr_recursive("/dev", linux.MOUNT_ATTR_RDONLY | linux.MOUNT_ATTR_NOSUID, clear=linux.MOUNT_ATTR_NODEV)
    return Built(overlay=overlay, proc_options=proc_options, devices=devices, bound=tuple(bound))


def _make_dev(dev: str, userns: bool) -> str:
    linux.mount("tmpfs", dev, "tmpfs", linux.MS_NOSUID, "size=64k,mode=755")
    how = "own nodes"
    for name, (major, minor) in DEVICES.items():
        path = os.path.join(dev, name)
        try:
            if userns:
                raise PermissionError  # no mknod of devices in a user namespace
            os.mknod(path, 0o666 | 0o020000, os.makedev(major, minor))
            os.chmod(path, 0o666)
        except PermissionError:
            # Bound from the host: the same inode as the host's node (user namespace mode).
            how = "bound from the host"
            if not os.path.exists(path):
                with open(path, "w"):
                    pass
            linux.mount(f"/dev/{name}", path, None, linux.MS_BIND)
    for name, target in DEV_LINKS.items():
        os.symlink(target, os.path.join(dev, name))
    os.mkdir(os.path.join(dev, "shm"), 0o755)
    return how


def _proc_subset_works(probe: str) -> bool:
    """subset=pid (Linux 5.8) hides every /proc file that is not a process's own."""
    os.mkdir(probe)
    try:
        linux.mount("proc", probe, "proc", linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC, PROC_SUBSET)
    except OSError:
        return False
    linux.umount(probe, MNT_DETACH)
    return True


def tmp_resident(layout: Layout) -> list[str]:
    """The template's directories right below /tmp that hold part of the root (a venv in a
    CI checkout under /tmp): a check's fresh /tmp covers them, so each check binds them back
    from the template's /tmp, read-only. They hold the root's skeleton there, not the host's
    folder."""
    paths = list(layout.dirs) + [p for p, _ in layout.mounts] + [p for p, _ in layout.files] + [p for p, _ in layout.links]
    tops = {"/tmp/" + p[len("/tmp/"):].split("/", 1)[0] for p in paths if p.startswith("/tmp/")}
    return sorted(t for t in tops if t in layout.dirs or any(t == m for m, _ in layout.mounts))
