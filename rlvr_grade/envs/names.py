"""Which import names an environment's distributions provide, read from their own metadata
(top_level.txt, else the top-level entries of RECORD). Phase B's seed preloads the names of
the distributions a spec asks for, so a check's `import pandas` is already done."""

from __future__ import annotations

import re


def canonical_name(name: str) -> str:
    """PEP 503 normalisation: `Foo_Bar.baz` and `foo-bar-baz` are one project."""
    return re.sub(r"[-_.]+", "-", name).lower()


_MODULE_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\.py|\.[A-Za-z0-9_-]+\.(?:so|pyd)|\.so|\.pyd)?$")


def import_names(dist) -> tuple[str, ...]:  # dist: importlib.metadata.Distribution
    """The top-level importable names `dist` installs (packages and modules)."""
    text = dist.read_text("top_level.txt")
    if text:
        names = {line.strip().replace("/", ".").split(".")[0] for line in text.splitlines() if line.strip()}
        return tuple(sorted(n for n in names if n.isidentifier()))
    names = set()
    for f in dist.files or ():
        parts = f.parts
        if not parts or parts[0] in ("..", "__pycache__") or parts[0].endswith((".dist-info", ".data", ".egg-info")):
            continue
        top = parts[0]
        if len(parts) > 1:  # a package folder (regular or namespace)
            if top.isidentifier():
                names.add(top)
            continue
        m = _MODULE_RE.match(top)
        if m and not top.endswith(".pth"):
            names.add(m.group(1))
    return tuple(sorted(names))


def preload_candidates(provides: dict[str, tuple[str, ...]], requested: tuple[str, ...]) -> tuple[str, ...]:
    """What the seed imports by default: the public names of the distributions the spec
    names (not their dependencies: pandas brings numpy along by itself)."""
    out = set()
    for name in requested:
        out.update(n for n in provides.get(name, ()) if not n.startswith("_"))
    return tuple(sorted(out))
