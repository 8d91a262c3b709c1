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
    return os.path.join(os.path.abspath(base), "rlvr-grade", "envs")
