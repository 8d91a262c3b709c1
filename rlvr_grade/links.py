"""Hard links, or copies where no link can be made: the checks' roots (sandbox/root.py) and the
environments' stdlib snapshots (envs/store.py) are made of them. Below both: the environments
are built before any sandbox, which reads them, and never the other way round."""

from __future__ import annotations

import errno
import os

# A descriptor of the host's / in a local seed's world (local._Seed, world.enter_world), where
# each host folder is a mount of its own: a hard link between two of them is EXDEV, but made
# through the host's / both ends are on its one mount.
HOST_ROOT_FD: list[int] = []
# (a name in that world, the host path behind it: local.World.shown): a farm links a world's own
# file (libpython in /python/lib) by its host name, not a copy.
HOST_NAMES: list[tuple[str, str]] = []


def link_or_copy(src: str, dst: str) -> None:
    """Hard-link `src` to `dst`: across two mounts through the host's / where a seed holds it
    (HOST_ROOT_FD); else, or where links are refused (a file the grader does not own, too
    many links), a copy."""
    try:
        os.link(src, dst)
        return
    except OSError as exc:
        if exc.errno not in (errno.EXDEV, errno.EPERM, errno.EACCES, errno.EMLINK):
            raise
        if exc.errno == errno.EXDEV and HOST_ROOT_FD and _link_on_the_host(src, dst):
            return
    import shutil

    shutil.copy2(src, dst)
    os.chmod(dst, os.stat(src).st_mode & 0o755)


def _link_on_the_host(src: str, dst: str) -> bool:
    """Link `src` to `dst` by their names on the host (HOST_ROOT_FD): kept only if the link is
    the very file `src` names here (a world's own folders, /env, are not the host's)."""
    try:
        os.link(_host_name(src)[1:], _host_name(dst)[1:], src_dir_fd=HOST_ROOT_FD[0], dst_dir_fd=HOST_ROOT_FD[0])
    except OSError:
        return False
    a, b = os.stat(src), os.stat(dst)
    if (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino):
        return True
    os.unlink(dst)
    return False


def _host_name(path: str) -> str:
    for at, src in sorted(HOST_NAMES, key=lambda p: -len(p[0])):
        if path == at or path.startswith(at + "/"):
            return src + path[len(at):]
    return path
