"""Languages for stdio programs: where the source goes, how it is compiled and run, and what
extra room its runtime needs. Used outside the sandbox (build a check, `doctor`) and inside it
(rlvr_harness/stdio.py runs the commands). Toolchains are found on PATH; nothing is downloaded.

Per-language adjustments (on top of the user's limits), and why:
  java        +1 s CPU per case and +256 MiB: the JVM starts in ~0.5 s of CPU spread over
              JIT/GC threads, and reserves heap; +192 processes/threads (RLIMIT_NPROC counts
              threads, a JVM starts ~20 and javac more)
  javascript  +0.3 s CPU per case, +128 MiB, +32 threads (V8 platform and GC threads)
  c, cpp      none; compiled with -O2 like judges do
  python      none; runs in the warm worker (forked per case, no interpreter start-up)
Compilation has its own limits (COMPILE_CPU_S / COMPILE_MEMORY_MB) and does not count
against the run budget."""

from __future__ import annotations

import _thread
import re
from dataclasses import dataclass

COMPILE_CPU_S = 30.0
COMPILE_MEMORY_MB = 1024


@dataclass(frozen=True)
class Language:
    """How to build and run a program in one language. `{src}`, `{exe}`, `{main}` and
    `{mem}` (MiB) in the commands are filled in the sandbox."""

    name: str
    source: str  # file name the program is written to ("{main}" for Java's class name)
    compile: tuple[str, ...] | None
    run: tuple[str, ...]
    tools: tuple[str, ...]  # executables that must be on PATH
    extra_cpu_s: float = 0.0
    extra_memory_mb: int = 0
    extra_processes: int = 0
    syntax_check: tuple[str, ...] | None = None  # a "compile" that only checks


LANGUAGES: dict[str, Language] = {
    "python": Language("python", "solution.py", None, (), ()),
    "c": Language(
        "c", "solution.c",
        ("gcc", "-std=gnu17", "-O2", "-pipe", "-o", "{exe}", "{src}", "-lm"),
        ("{exe}",), ("gcc",),
    ),
    "cpp": Language(
        "cpp", "solution.cpp",
        ("g++", "-std=gnu++17", "-O2", "-pipe", "-o", "{exe}", "{src}"),
        ("{exe}",), ("g++",),
    ),
    "java": Language(
        "java", "{main}.java",
        ("javac", "-J-Xmx512m", "-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1", "-encoding", "UTF-8", "-d", ".", "{src}"),
        ("java", "-Xss64m", "-Xmx{mem}m", "-XX:+UseSerialGC", "-XX:ActiveProcessorCount=1", "-cp", ".", "{main}"),
        ("javac", "java"),
        extra_cpu_s=1.0, extra_memory_mb=256, extra_processes=192,
    ),
    "javascript": Language(
        "javascript", "solution.js", None,
        ("node", "--max-old-space-size={mem}", "{src}"), ("node",),
        extra_cpu_s=0.3, extra_memory_mb=128, extra_processes=32,
        syntax_check=("node", "--check", "{src}"),
    ),
}
ALIASES = {
    "py": "python", "python3": "python", "c++": "cpp", "cc": "cpp", "cxx": "cpp", "g++": "cpp",
    "js": "javascript", "node": "javascript", "nodejs": "javascript", "java17": "java",
}


def normalize(name: str) -> str:
    """A language name or common alias -> its canonical name; ValueError if unknown."""
    key = str(name).strip().lower()
    key = ALIASES.get(key, key)
    if key not in LANGUAGES:
        raise ValueError(f"unknown language {name!r}; choose from {', '.join(LANGUAGES)}")
    return key


def available() -> dict[str, str | None]:
    """{language: path of its first tool, or None when its toolchain is missing here}."""
    import shutil
    import sys

    out: dict[str, str | None] = {}
    for name, lang in LANGUAGES.items():
        if not lang.tools:
            out[name] = sys.executable
            continue
        paths = [shutil.which(t) for t in lang.tools]
        out[name] = paths[0] if all(paths) else None
    return out


_JAVA_PUBLIC = re.compile(r"^\s*public\s+(?:final\s+|abstract\s+)*class\s+([A-Za-z_$][\w$]*)", re.M)
_JAVA_CLASS = re.compile(r"^\s*(?:final\s+)?class\s+([A-Za-z_$][\w$]*)", re.M)
_JAVA_MAIN = re.compile(r"static\s+(?:final\s+)?void\s+main\s*\(")


def java_main_class(source: str) -> str:
    """The class to run: the public top-level class, else the first class that has main."""
    m = _JAVA_PUBLIC.search(source)
    if m:
        return m.group(1)
    classes = list(_JAVA_CLASS.finditer(source))
    for i, c in enumerate(classes):
        end = classes[i + 1].start() if i + 1 < len(classes) else len(source)
        if _JAVA_MAIN.search(source, c.end(), end):
            return c.group(1)
    return classes[0].group(1) if classes else "Main"


# What each tool prints its version with: javac/java before 9 know only -version (on stderr).
_VERSION_FLAG = {"javac": "-version", "java": "-version"}
_VERSIONS: dict[tuple[str, str], str | None] = {}
# _thread, not threading: the lean worker imports this module (stdio checks), and threading
# would register an at-fork hook that every check child runs (~25 copy-on-write faults).
_VERSIONS_LOCK = _thread.allocate_lock()


def toolchain_versions(language: str, path: str) -> dict[str, str | None]:
    """{tool: what `tool --version` printed, None when the tool is not on `path`} for the
    tools of `language`, found on `path` (the PATH checks run with). A cached reward depends
    on them: a compiler upgrade can change a verdict.

    Each tool runs once per process and path, the tools of a language at once. Measured on a
    2-core machine: gcc/g++ 2-5 ms, node 8-40 ms, java ~75 ms, javac ~400 ms (a JVM start),
    so they are asked only for a language some row actually uses, never for Python."""
    import shutil  # here: shutil imports bz2 and lzma, ~20 mappings more for each check's fork
    import subprocess

    lang = LANGUAGES.get(language)
    tools = lang.tools if lang is not None else ()
    with _VERSIONS_LOCK:
        todo = [t for t in tools if (t, path) not in _VERSIONS]
        procs = []
        for tool in todo:
            exe = shutil.which(tool, path=path)
            if exe is None:
                _VERSIONS[(tool, path)] = None
                continue
            try:
                procs.append((tool, subprocess.Popen(
                    [exe, _VERSION_FLAG.get(tool, "--version")], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT, env={"PATH": path, "LANG": "C.UTF-8"})))  # the checks' environment
            except OSError as exc:
                _VERSIONS[(tool, path)] = f"error: {exc.strerror}"
        for tool, proc in procs:
            try:
                out, _ = proc.communicate(timeout=60)
                text = out.decode("utf-8", "replace").strip()[:2000]
                _VERSIONS[(tool, path)] = text if proc.returncode == 0 else f"exit {proc.returncode}: {text}"
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
                _VERSIONS[(tool, path)] = "error: timed out"
        return {t: _VERSIONS[(t, path)] for t in tools}


def describe() -> list[str]:
    """One line per language for `rlvr-grade doctor`: name, tool path or what is missing."""
    lines = []
    for name, path in available().items():
        lang = LANGUAGES[name]
        if path:
            lines.append(f"{name:11} {path}")
        else:
            lines.append(f"{name:11} unavailable (needs {', '.join(lang.tools)} on PATH)")
    return lines
