"""The filesystem a check sees: the host read-only, the grader's own files masked, and the
interpreter still reachable by the dropped uid.

A directory is *masked* (an empty tmpfs laid over it) when it must be hidden (the grader's
home, working directory, input/output/cache folders) or when the dropped uid could not walk
through it anyway (pyenv under a mode-700 /root). The paths the interpreter needs below a
masked directory are bind-mounted back into the mask."""

from __future__ import annotations

import os
import stat
import sys

from rlvr_grade.sandbox import linux

MS_MOVE = 8192
MNT_DETACH = 2
REPLACED = ("/tmp", "/dev/shm", "/proc")


def needed_paths(hide: list[str] | None = None) -> list[str]:
    """What the interpreter in a check must still reach: its prefixes, its sys.path, and the
    rlvr_grade package. A sys.path entry that *is* a hidden directory (the grader's cwd holding
    the repo, an editable install's source root) is narrowed to the top-level modules actually
    imported from it, so the rest of that directory (data, inputs, caches) stays masked."""
    hidden = {os.path.realpath(h) for h in (hide or [])}
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    for p in sys.path:
        if p and os.path.isdir(p):
            paths.add(p)
    import rlvr_grade

    paths.add(os.path.dirname(os.path.abspath(rlvr_grade.__file__)))
    real = {os.path.realpath(p) for p in paths}
    narrowed = set()
    for p in real:
        if p not in hidden:
            narrowed.add(p)
            continue
        for mod in list(sys.modules.values()):
            f = getattr(mod, "__file__", None)
            if not f:
                continue
            f = os.path.realpath(f)
            if f.startswith(p + "/"):
                narrowed.add(os.path.join(p, f[len(p) + 1:].split("/", 1)[0]))
    return sorted(narrowed)


def _ancestors(path: str) -> list[str]:
    parts = path.strip("/").split("/")
    return ["/" + "/".join(parts[:i]) for i in range(1, len(parts))]


def plan(hide: list[str], needed: list[str] | None = None) -> dict[str, list]:
    """Return {"masks": [(dir, [child names to re-expose]), ...] shallow first, "files": [...]}."""
    needed = needed if needed is not None else needed_paths(hide)
    hide_dirs = set()
    hide_files = []
    for h in hide:
        h = os.path.realpath(h)
        if any(h == r or h.startswith(r + "/") for r in REPLACED):
            continue  # these get a fresh empty tmpfs in every check anyway
        if os.path.isdir(h):
            hide_dirs.add(h)
        elif os.path.exists(h):
            hide_files.append(h)
    masks: dict[str, set[str]] = {}
    for h in hide_dirs:
        masks.setdefault(h, set())
    for n in needed:
        for a in _ancestors(n) + [n]:
            if a == n:
                break
            if any(a == r or a.startswith(r + "/") for r in REPLACED):
                break  # a check gets a fresh /tmp: tmp_resident_paths() binds these back instead
            try:
                mode = os.stat(a).st_mode
            except OSError:
                break
            if a in hide_dirs or not (mode & stat.S_IXOTH):
                masks.setdefault(a, set())
    # A needed path below a mask is re-exposed through the next component on its way down.
    for a in list(masks):
        if any(n == a or n.startswith(a + "/") for n in needed) and a in hide_dirs and any(n == a for n in needed):
            del masks[a]  # hiding the interpreter itself would break every check
    for a, keep in masks.items():
        for n in needed:
            if n.startswith(a + "/"):
                keep.add(n[len(a) + 1:].split("/", 1)[0])
    ordered = sorted(masks.items(), key=lambda kv: kv[0].count("/"))
    # Skip masks nested inside a mask that does not re-expose them (already hidden).
    result = []
    for a, keep in ordered:
        covered = False
        for b, bkeep in result:
            if a.startswith(b + "/") and a[len(b) + 1:].split("/", 1)[0] not in bkeep:
                covered = True
        if not covered:
            result.append((a, sorted(keep)))
    return {"masks": result, "files": sorted(hide_files)}


def apply(fs_plan: dict[str, list], stage: str = "/tmp", unmount_stage: bool = False) -> None:
    """Run in the check's own mount namespace, as root, before the root goes read-only.
    Leaves a small empty tmpfs on `stage` unless `unmount_stage` (the caller mounts over it)."""
    if not fs_plan["masks"] and not fs_plan["files"]:
        return
    linux.mount("tmpfs", stage, "tmpfs", linux.MS_NOSUID | linux.MS_NODEV, "size=1m,mode=700")
    n = 0
    for a, keep in fs_plan["masks"]:
        staged = []
        for child in keep:
            src = os.path.join(a, child)
            if not os.path.lexists(src):
                continue
            tmp = os.path.join(stage, str(n))
            n += 1
            is_dir = os.path.isdir(src)
            if is_dir:
                os.mkdir(tmp)
            else:
                open(tmp, "w").close()
            linux.mount(src, tmp, None, linux.MS_BIND | linux.MS_REC)
            staged.append((tmp, child, is_dir))
        linux.mount("tmpfs", a, "tmpfs", linux.MS_NOSUID | linux.MS_NODEV, "size=64k,mode=755")
        for tmp, child, is_dir in staged:
            dst = os.path.join(a, child)
            if is_dir:
                os.mkdir(dst)
            else:
                open(dst, "w").close()
            linux.mount(tmp, dst, None, MS_MOVE)
    for f in fs_plan["files"]:
        try:
            linux.mount("/dev/null", f, None, linux.MS_BIND)
        except OSError:
            pass
    # The staging tmpfs is left where it is: the check's own /tmp is mounted over it next, so
    # it is unreachable, and unmounting it would wait for an RCU grace period (several ms
    # per check on a loaded machine).
    if unmount_stage:
        linux.umount(stage, MNT_DETACH)


def tmp_resident_paths(extra: list[str] | tuple[str, ...] = ()) -> list[str]:
    """What the interpreter needs that lives under a directory every check gets a fresh tmpfs
    on (/tmp, /dev/shm): a venv or checkout under /tmp (CI clones, throwaway venvs). Those are
    bound back, read-only, into the check's fresh /tmp. Only the interpreter's prefixes, the
    site-packages on sys.path and the rlvr_grade package itself: not the folder around them.
    `extra`: more paths to keep the same way (tests plant one to check the binding)."""
    import rlvr_grade

    found = {os.path.realpath(p) for p in extra} | {
        os.path.realpath(sys.prefix),
        os.path.realpath(sys.base_prefix),
        os.path.realpath(sys.exec_prefix),
        os.path.dirname(os.path.realpath(sys.executable)),
        os.path.dirname(os.path.realpath(rlvr_grade.__file__)),
    }
    for p in sys.path:
        if p and ("site-packages" in p or "dist-packages" in p or p.endswith(".zip")) and os.path.exists(p):
            found.add(os.path.realpath(p))
    under = sorted(p for p in found if any(p.startswith(r + "/") for r in REPLACED[:2]))
    roots: list[str] = []
    for p in under:
        if not any(p == r or p.startswith(r + "/") for r in roots):
            roots.append(p)
    return roots
