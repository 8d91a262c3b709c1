"""Where environments live."""

from __future__ import annotations

import os


def envs_root() -> str:
    """`$RLVR_GRADE_ENVS`, else `$XDG_CACHE_HOME/rlvr-grade/envs` (beside the result cache;
    XDG_CACHE_HOME defaults to ~/.cache)."""
    env = os.environ.get("RLVR_GRADE_ENVS")
    if env:
        return os.path.abspath(os.path.expanduser(env))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(os.path.abspath(base), "rlvr-grade", "envs")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        return path
    except OSError:
        pass
    # No writable home (a service account, HOME=/nonexistent): a private folder in the
    # temporary directory, refused unless it is ours alone (an environment's interpreter runs
    # as the grader, so a folder someone else could write is never used).
    import stat
    import tempfile

    from rlvr_grade.envs.errors import EnvError

    path = os.path.join(tempfile.gettempdir(), f"rlvr-grade-envs-{os.geteuid()}")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.lstat(path)
    except OSError as exc:
        raise EnvError(f"no folder for environments: {path}: {exc.strerror}", tip="set RLVR_GRADE_ENVS to a folder of yours") from None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
        raise EnvError(f"{path}: not a private folder of uid {os.geteuid()}", tip="set RLVR_GRADE_ENVS to a folder of yours")
    return path
