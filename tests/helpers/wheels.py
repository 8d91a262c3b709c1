"""Wheels made in the tests, so environments build offline (`--no-index --find-links DIR`):
tiny packages written from scratch, and the test interpreter's own installed pure-Python
distributions (pytest and what it requires) packed back into wheels."""

from __future__ import annotations

import base64
import hashlib
import os
import zipfile
from importlib import metadata


def _record_line(arcname: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def _write_wheel(folder: str, name: str, version: str, files: dict[str, bytes], metadata_text: str) -> str:
    dist = name.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    files = dict(files)
    files[f"{info}/METADATA"] = metadata_text.encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: rlvr-grade-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = [_record_line(a, d) for a, d in sorted(files.items())] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    path = os.path.join(folder, f"{dist}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for arcname, data in sorted(files.items()):
            zf.writestr(zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0)), data)
    return path


def make_wheel(folder: str, name: str, version: str, files: dict[str, str], requires: tuple[str, ...] = ()) -> str:
    """A pure-Python wheel of `files` (path in site-packages -> source text)."""
    meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n" + "".join(f"Requires-Dist: {r}\n" for r in requires)
    return _write_wheel(folder, name, version, {k: v.encode() for k, v in files.items()}, meta)


def wheel_from_installed(folder: str, name: str) -> str:
    """Pack an installed pure-Python distribution back into a wheel (its files from RECORD)."""
    dist = metadata.distribution(name)
    files: dict[str, bytes] = {}
    for f in dist.files or ():
        if not f.parts or f.parts[0] == ".." or "__pycache__" in f.parts or f.name in ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json", "WHEEL", "METADATA"):
            continue
        if f.parts[0].endswith(".dist-info"):
            if f.parts[0] != f"{dist.metadata['Name'].replace('-', '_')}-{dist.version}.dist-info":
                continue
        with open(dist.locate_file(f), "rb") as fh:
            files[str(f).replace(os.sep, "/")] = fh.read()
    # Normalise the dist-info folder name to the one _write_wheel writes.
    canon = dist.metadata["Name"].replace("-", "_")
    files = {
        (k.replace(k.split("/")[0], f"{canon}-{dist.version}.dist-info", 1) if k.split("/")[0].endswith(".dist-info") else k): v
        for k, v in files.items()
    }
    return _write_wheel(folder, dist.metadata["Name"], dist.version, files, dist.read_text("METADATA") or "")


def pytest_wheelhouse(folder: str) -> list[str]:
    """Wheels of the test interpreter's pytest and every distribution it requires here."""
    from rlvr_grade.envs.lock import default_closure

    return [wheel_from_installed(folder, d.metadata["Name"]) for d in default_closure()]
