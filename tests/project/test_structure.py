"""The house's shape, checked: the import graph of rlvr_grade has no cycles, each test style is
one module owning its detection/build, harness entry and verdict, and a row is judged once."""

from __future__ import annotations

import ast
import functools
import importlib
from dataclasses import replace
from pathlib import Path

import pytest

import rlvr_grade
from rlvr_grade.checks import CheckOptions, build_check
from rlvr_grade.checks.styles import STYLES, style_of
from rlvr_grade.types import Execution, Rollout
from rlvr_grade.types import TestRecord as Record

PKG = Path(rlvr_grade.__file__).parent
HARNESS = PKG.parent / "rlvr_harness"  # what runs inside a check, under its own name


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.lru_cache(maxsize=None)
def _parsed(path: Path) -> ast.Module:
    """Each file parsed once per session: the graphs below are drawn seven times (~0.6 s of CPU
    each when every one parsed the ~110 files again)."""
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def module_imports(path: Path, top_level_only: bool = True, type_checking: bool = False) -> set[str]:
    """Modules `path` imports (absolute names; `from a import b` counts a.b too, in case it is
    a module). top_level_only: only what runs at import time (not inside functions), which is
    what can make a cycle; else every import, lazy ones included. Imports under
    `if TYPE_CHECKING:` never run and are left out, unless `type_checking`."""
    tree = _parsed(path)
    me = _module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
            return
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
            return
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING" \
                and not type_checking:
            return
        if top_level_only and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph(top_level_only: bool = True, type_checking: bool = False) -> dict[str, set[str]]:
    """module -> the rlvr_grade modules importing it runs at import time (a submodule's import
    runs its packages' __init__ first: those are edges too). top_level_only False: the imports
    inside functions too (a lazy import that closes a circle hides it, it does not remove it)."""
    files = {_module_name(p): p for p in [*PKG.rglob("*.py"), *HARNESS.rglob("*.py")]}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        edges: set[str] = set()
        for target in module_imports(path, top_level_only, type_checking):
            if target not in files:
                continue
            parts = target.split(".")
            edges.update(".".join(parts[:i]) for i in range(2, len(parts) + 1))
        edges.discard(name)
        # the module's own packages are being imported already when it runs: not an edge
        edges -= {".".join(name.split(".")[:i]) for i in range(1, len(name.split(".")))}
        graph[name] = {e for e in edges if e in files}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = dfs(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = dfs(node)
            if found:
                return found
    return None


def test_the_import_graph_has_no_cycle():
    graph = import_graph()
    assert "rlvr_grade.scoring.outcome" in graph["rlvr_grade.checks.styles"]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_scoring_never_reaches_up_to_the_styles():
    # scoring/outcome.py looked the row's style up (checks/styles.style_of) to judge it: the one
    # arrow back up a floor, scoring below the styles that build on its records, cases and
    # comparisons. The styles' registry decides a row's verdict (checks/styles.py `verdict`).
    graph = import_graph(top_level_only=False, type_checking=True)
    up = {m: sorted(t for t in graph[m] if t.startswith("rlvr_grade.checks")) for m in graph if m.startswith("rlvr_grade.scoring")}
    assert {m: t for m, t in up.items() if t} == {}


def test_no_cycle_hides_behind_a_lazy_import():
    # boundary <-> types and harness/prepared <-> runner were circles closed by imports inside
    # functions: each module needed the other, so neither could be read (or shipped) alone.
    graph = import_graph(top_level_only=False)
    # a lazy import is an edge (the worker imports the root's builder when it first needs it)
    zygote = "rlvr_grade.sandbox.zygote"
    assert "rlvr_grade.sandbox.root" in graph[zygote] and "rlvr_grade.sandbox.root" not in import_graph()[zygote]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_no_cycle_hides_behind_a_type_checking_import():
    # types.py named checks/stdio.Validator for type checkers only: the types every module
    # shares then stood above a style module (checks/stdio -> scoring/cases -> types -> checks/stdio).
    # A package's face (__init__.py: rlvr_grade, scoring) names what it hands on lazily under
    # TYPE_CHECKING: those are not edges.
    graph, run = import_graph(top_level_only=False, type_checking=True), import_graph(top_level_only=False)
    graph.update({name: run[name] for name in graph if (PKG.parent / name.replace(".", "/") / "__init__.py").exists()})
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_no_module_imports_the_package_face():
    # rlvr_grade/__init__.py is the users' face (lazy names: grade, Grader...). Modules that
    # imported it only to find the package's folder (sandbox/local.py, gvisor.py, bundle.py,
    # root.py, inner.py) made the sandbox depend on the top of the package: sandbox.PACKAGE_DIR
    # says where it is. Its version is read from rlvr_grade/version.py (the CLI, the cache key).
    files = {_module_name(p): p for p in PKG.rglob("*.py")}
    upward = {}
    for name, path in files.items():
        if name == "rlvr_grade":
            continue
        for node in ast.walk(_parsed(path)):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name == "rlvr_grade"]
            elif isinstance(node, ast.ImportFrom) and node.module == "rlvr_grade" and not node.level:
                names = [a.name for a in node.names if f"rlvr_grade.{a.name}" not in files]
            else:
                continue
            upward.setdefault(name, []).extend(names)
    assert {k: v for k, v in upward.items() if v} == {}


def test_the_statuses_are_spelled_once():
    # types.py listed them twice (the Status Literal and the STATUSES tuple): one could grow alone.
    from rlvr_grade.types import STATUSES

    spelled = [n.value for n in ast.walk(_parsed(PKG / "types.py")) if isinstance(n, ast.Constant) and n.value in STATUSES]
    assert sorted(spelled) == sorted(STATUSES)


def test_the_0_1_rewards_module_re_exports_the_integrations_face():
    # rlvr_grade/rewards.py (0.1's names) repeated integrations/__init__.py's imports and __all__.
    import rlvr_grade.integrations as face
    import rlvr_grade.rewards as old

    assert set(face.__all__) <= set(old.__all__) and all(getattr(old, n) is getattr(face, n) for n in face.__all__)
    spelled = {a.name for n in ast.walk(_parsed(PKG / "rewards.py")) if isinstance(n, ast.ImportFrom) for a in n.names}
    spelled |= {n.value for n in ast.walk(_parsed(PKG / "rewards.py")) if isinstance(n, ast.Constant)}
    assert spelled & set(face.__all__) == set()


def test_the_environments_never_reach_into_the_sandbox():
    # The sandbox reads environments (their interpreters, stdlib snapshots); envs/store.py made
    # its snapshot with sandbox/root.py's private _link_or_copy, so each package needed the
    # other. Both take it from rlvr_grade/links.py now.
    graph = import_graph(top_level_only=False, type_checking=True)
    reach = {m: sorted(t for t in graph[m] if t.startswith("rlvr_grade.sandbox")) for m in graph if m.startswith("rlvr_grade.envs")}
    assert {m: t for m, t in reach.items() if t} == {}


def test_the_sandbox_imports_only_what_lies_below_it():
    # An allowlist of the floors under the sandbox: local.py and gvisor.py took their default
    # slot count from pool.py, the run's concurrency layer above the backends (a lazy import, so
    # no cycle showed). default_slots is the backend contract's now (sandbox/base.py), which the
    # run imports downward.
    below = ("rlvr_grade.sandbox", "rlvr_harness", "rlvr_grade.types", "rlvr_grade.boundary", "rlvr_grade.text",
             "rlvr_grade.envs", "rlvr_grade.leftovers", "rlvr_grade.links")
    graph = import_graph(top_level_only=False, type_checking=True)
    up = {m: sorted(t for t in graph[m] if not t.startswith(below)) for m in graph if m.startswith("rlvr_grade.sandbox")}
    assert {m: t for m, t in up.items() if t} == {}


def test_the_cycle_finder_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_each_style_is_one_module_owning_its_harness_entry_and_verdict():
    from rlvr_harness.wire import ENTRY_OF

    for name in STYLES:
        mod = style_of(name)
        assert mod.__name__ == f"rlvr_grade.checks.{name}" and mod.NAME == name
        assert mod.HARNESS == ENTRY_OF[name]  # the harness's list, the one runner.run dispatches by
        where, _, fn = mod.HARNESS.rpartition(".")
        assert where.startswith("rlvr_harness.") and callable(getattr(importlib.import_module(where), fn))
        assert callable(mod.verdict)
    # the validator's check is the harness's fifth style, none of the grader's
    assert set(ENTRY_OF) == {*STYLES, "validate"}


def test_a_style_the_harness_has_no_entry_for_cannot_be_built(monkeypatch):
    # The styles' harness entries were one list in two places: each checks/<style>.py named a
    # function and runner.run chose by an if-chain of its own. A style module now takes its
    # entry from the harness's list; one the harness does not run cannot even be imported.
    import importlib.util

    from rlvr_harness import wire

    monkeypatch.delitem(wire.ENTRY_OF, "call")
    spec = importlib.util.spec_from_file_location("a_style_without_an_entry", PKG / "checks" / "call.py")
    with pytest.raises(KeyError, match="call"):
        spec.loader.exec_module(importlib.util.module_from_spec(spec))


def test_the_runner_calls_the_entry_the_harness_lists_and_nothing_for_a_style_it_does_not(monkeypatch):
    from rlvr_harness import runner, wire

    payload = wire.CheckPayload(style="asserts", program="x = 1", tests="assert x == 1")
    called, reported = [], []
    monkeypatch.setattr(runner, "entry_probe", lambda *args: called.append(args), raising=False)
    monkeypatch.setitem(wire.ENTRY_OF, "asserts", "rlvr_harness.runner.entry_probe")
    runner.run(payload, reported.append, "/work", "/tests")
    assert called == [(payload, reported.append, "/work", "/tests")] and reported == []
    monkeypatch.delitem(wire.ENTRY_OF, "asserts")
    runner.run(payload, reported.append, "/work", "/tests")
    assert len(called) == 1
    assert reported == [{"ev": "phase", "phase": "runtime", "msg": "unknown test style 'asserts'"}]


def test_a_stdio_row_is_judged_once(monkeypatch):
    # scoring.score (now checks/styles.score) compared every case twice (verdict, then judge again for the case verdicts).
    from rlvr_grade.checks import stdio
    from rlvr_grade.checks.styles import score
    from rlvr_grade.scoring import RewardConfig
    from rlvr_harness.stdio import pack_output

    calls = []
    real = stdio.compare_output
    monkeypatch.setattr(stdio, "compare_output", lambda *a: calls.append(a[1]) or real(*a))
    check = build_check(Rollout(0, {"completion": "print(1)", "tests": [{"input": "", "output": "1"}] * 2}),
                        CheckOptions(test_style="stdio"))
    recs = tuple(Record(f"case:{i}", "passed", "", pack_output(b"1\n")) for i in range(2))
    out = score(check, Execution(0, None, "", "", 0.1, 0.1, 1.0, None, recs, True), RewardConfig(), 1.0)
    assert (out.status, out.case_verdicts) == ("pass", ("AC", "AC")) and calls == [0, 1]


def test_whether_a_check_has_an_output_validator_is_asked_in_one_place():
    # api.py (`_validator`: "is this stdio?") and scoring/validator.py (`needs_validator`:
    # "stdio, with a validator?") asked it twice, and api.py asked both. Check.output_validator
    # answers it (types.py); nothing else reads a judge's validator.
    from rlvr_grade.types import Judge, Validator

    reads = [(rel, node.lineno) for rel, tree in _trees() for node in ast.walk(tree)
             if isinstance(node, ast.Attribute) and node.attr == "validator" and isinstance(node.value, ast.Attribute)
             and node.value.attr == "judge"]
    assert [rel for rel, _ in reads] == ["rlvr_grade/types.py"], reads
    v = Validator(files=(("check.py", "import sys\n"),), main="check.py", language="python")
    stdio = build_check(Rollout(0, {"completion": "print(1)", "tests": [{"input": "", "output": "1"}]}),
                        CheckOptions(test_style="stdio", validator=v))
    assert stdio.output_validator == v
    call = build_check(Rollout(0, {"completion": "def f():\n    return 1\n",
                                   "tests": {"fn_name": "f", "inputs": [[]], "outputs": [1]}}), CheckOptions(test_style="call"))
    assert call.output_validator is None and replace(call, judge=Judge(validator=v)).output_validator is None


def test_each_cli_command_parses_and_calls_the_library_in_about_40_lines():
    # Issue 19: `score` was 180 lines with 39 parameters. A command takes its options' groups
    # (cli/options.py) and calls the library; its decorators and signature count too.
    tree = _parsed(PKG / "cli" / "commands.py")
    sizes = {n.name: n.end_lineno - min([d.lineno for d in n.decorator_list] + [n.lineno]) + 1
             for n in tree.body if isinstance(n, ast.FunctionDef) and n.decorator_list}
    assert "score" in sizes and {name: size for name, size in sizes.items() if size > 40} == {}, sizes


def test_the_library_special_cases_no_backend_by_name():
    # api.py compared the backend's name with "local"/"gvisor" to decide how to start it and
    # what to hand it; those are properties of the backend class now (base.Backend).
    from rlvr_grade.sandbox import BACKENDS

    for module in ("api.py", "sandbox/__init__.py"):
        tree = ast.parse((PKG / module).read_text())
        compared = [c.value for node in ast.walk(tree) if isinstance(node, ast.Compare)
                    for c in ast.walk(node) if isinstance(c, ast.Constant) and c.value in BACKENDS]
        assert compared == [], (module, compared)


def test_the_sandbox_asks_a_style_its_properties_never_its_name():
    # Issue 19: the sandbox chose the kind of worker (pytest or lean), the test module on disk
    # and the prepared-asserts path by comparing a check's style with "pytest" or "asserts", in
    # six places (warm, inner, local x2, zygote x2). A style declares them once
    # (rlvr_harness/wire.py HarnessStyle: worker, prepared); the sandbox reads the payload's
    # `worker` and `preparable`, never `.style`.
    from rlvr_harness.wire import HARNESS_STYLES, WARM

    names = set(HARNESS_STYLES) - set(WARM)  # "pytest" is a kind of worker as well as a style
    found = []
    for rel, tree in _trees():
        if not rel.startswith("rlvr_grade/sandbox/"):
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr == "style") or (isinstance(node, ast.Name) and node.id == "style"):
                found.append((rel, node.lineno, "style"))
            if isinstance(node, ast.Compare):
                found += [(rel, node.lineno, c.value) for c in ast.walk(node) if isinstance(c, ast.Constant) and c.value in names]
    assert found == []
    assert {s.worker for s in HARNESS_STYLES.values()} <= set(WARM)
    assert [name for name, s in HARNESS_STYLES.items() if s.worker != "lean"] == ["pytest"]
    assert [name for name, s in HARNESS_STYLES.items() if s.prepared] == ["asserts"]


# -- the sealed harness and what is shipped ----------------------------------------------------
# The pytest style runs the environment's own pytest inside the sandbox: it is imported there,
# never shipped.
ENVIRONMENT_LIBRARIES = {"pytest", "_pytest", "pluggy"}
# The grading pipeline: none of it may run inside a sandbox.
PIPELINE = ("api", "cli", "checks", "scoring", "io", "cache", "envs", "integrations", "pool", "summary",
            "reports", "filtering", "console", "doctor", "rewards", "entry", "cli_env", "sandbox.local",
            "sandbox.gvisor", "sandbox.beam", "sandbox.remote", "sandbox.bundle",
            # the grader's side of the boundary: the backend contract, how a report is read
            # (boundary.execution_from_wire) and the types it makes; the runner writes reports
            "sandbox.base", "boundary", "types", "text")


def _stdlib(name: str) -> bool:
    import sys

    return name.split(".")[0] in sys.stdlib_module_names


def test_the_harness_imports_only_the_stdlib_and_itself():
    # harness/ ran inside the sandbox but imported rlvr_grade.compare (call.py), languages
    # (stdio.py) and textcache (prepared.py), which made the whole package what Beam receives.
    outside = {}
    for path in sorted(HARNESS.rglob("*.py")):
        for name in module_imports(path, top_level_only=False):
            if _stdlib(name) or name.split(".")[0] in ENVIRONMENT_LIBRARIES:
                continue
            if name == "rlvr_harness" or name.startswith("rlvr_harness."):
                continue
            outside.setdefault(path.name, []).append(name)
    assert outside == {}
    # the runner shipped beside it imports rlvr_grade's own __init__ first: stdlib only too
    assert [n for n in module_imports(PKG / "__init__.py", top_level_only=False) if not _stdlib(n)] == []


def _closure(roots: list[str]) -> set[str]:
    files = {_module_name(p): p for p in [*PKG.rglob("*.py"), *HARNESS.rglob("*.py")]}
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen or name not in files:
            continue
        seen.add(name)
        parts = name.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]
        todo += [n for n in module_imports(files[name], top_level_only=False) if n.startswith(("rlvr_grade", "rlvr_harness"))]
    return seen


def test_what_beam_receives_is_the_harness_and_its_runner_nothing_else():
    # The upload was every .py file of the package (86 files, 238 KB gzipped on main at 13d138c).
    from rlvr_grade.sandbox import bundle

    shipped = {_module_name(PKG.parent / rel) for rel, _ in bundle.package_files()}
    harness = {_module_name(p) for p in HARNESS.rglob("*.py")}
    needed = _closure(["rlvr_grade.sandbox.inner", "rlvr_grade.sandbox.warm", *harness])
    assert shipped == needed, (sorted(shipped - needed), sorted(needed - shipped))
    assert not [m for m in shipped for p in PIPELINE if m == f"rlvr_grade.{p}" or m.startswith(f"rlvr_grade.{p}.")]
    # The harness's C extensions go with it, built and stripped: a runner that cannot load
    # them refuses the check (inner.require_extensions), so none may be left out.
    from rlvr_grade.sandbox.inner import EXTENSIONS

    native = [rel for rel, _ in bundle.shipped_extensions()]
    assert sorted(rel.split("/")[-1].split(".")[0] for rel in native) == sorted(EXTENSIONS), native
    assert all(rel.startswith("rlvr_harness/") for rel in native), native
    size = len(bundle.build_archive({"payload": {}}))
    assert size < 200_000, size  # docs/backends.md gives the measured size (195,905 bytes, 39 files)


def test_what_beam_receives_compiles_to_the_same_code_as_the_checkout():
    # The archive's files have their comments cut (bundle.shipped_files): nothing else may move,
    # not a line or a column, or a remote traceback would name other lines than the checkout's.
    import marshal

    from rlvr_grade.sandbox import bundle

    whole = dict(bundle.package_files())
    shipped = dict(bundle.shipped_files())
    assert whole.keys() == shipped.keys()
    for rel, data in shipped.items():
        assert b"#" not in b"".join(line for line in data.splitlines() if line.lstrip().startswith(b"#")), rel
        assert data.count(b"\n") == whole[rel].count(b"\n"), rel
        same = marshal.dumps(compile(whole[rel], rel, "exec")) == marshal.dumps(compile(data, rel, "exec"))
        assert same, rel
    assert sum(map(len, shipped.values())) < 0.95 * sum(map(len, whole.values()))


# Issue 19, "one process runner": candidate code gets a process in two places, and both are
# collected by the one collector (rlvr_harness/process.py `collect`, the only wait4 of a run);
# docs/architecture.md "Processes" says why there are two spawns. Every other fork or Popen runs
# the grader's own code; a new one is named here with its reason.
CANDIDATE_SPAWNS = {
    ("rlvr_grade/sandbox/zygote.py", "Zygote.execute", "os.fork"),  # a check's child, set up in fresh namespaces
    ("rlvr_harness/process.py", "spawn", "os.fork"),  # a stdio/call/validate case's process, inside a check
    # a split asserts check's program process, inside the check (its sandbox, cgroup, rlimits,
    # seccomp): it ends when the tests' end of its socketpair closes; the worker collects the check
    ("rlvr_harness/program.py", "start", "os.fork"),
}
GRADER_PROCESSES = {
    ("rlvr_grade/sandbox/isolation.py", "make_template", "os.fork"): "builds a language's root once per worker",
    # the one throwaway probe (inner's "can this runner build namespaces", isolation's "may a
    # check's uid make a user namespace", "may this process", zygote's preload trial "which
    # raw-memory module does this library need"): a question that cannot be undone
    ("rlvr_grade/sandbox/linux.py", "probe", "os.fork"): "a probe in a throwaway child",
    ("rlvr_grade/sandbox/zygote.py", "become_userns_init", "os.fork"): "the unprivileged worker's pid-namespace init",
    ("rlvr_grade/sandbox/zygote.py", "seed_main", "os.fork"): "a seed forks a warm worker",
    ("rlvr_grade/sandbox/local.py", "_Seed._start.popen", "subprocess.Popen"): "starts a seed interpreter",
    ("rlvr_grade/sandbox/gvisor.py", "GvisorBackend._popen", "subprocess.Popen"):
        "runsc, whose runner collects the check; runsc itself (the whole sandbox) is collected by process.collect",
    ("rlvr_harness/languages.py", "toolchain_versions", "subprocess.Popen"): "asks compilers their version",
}


def _calls(names: set[str]) -> set[tuple[str, str, str]]:
    """(file, enclosing function's dotted name, call) for every call of `names` in both packages."""
    found = set()
    tails = {n.rsplit(".", 1)[-1] for n in names}

    def visit(rel: str, node: ast.AST, where: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                visit(rel, child, [*where, child.name])
                continue
            func = getattr(child, "func", None)
            # unparse only what can be one of `names` (a name, or an attribute of a name): cheap
            if isinstance(child, ast.Call) and (getattr(func, "attr", None) or getattr(func, "id", None)) in tails:
                if ast.unparse(func) in names:
                    found.add((rel, ".".join(where), ast.unparse(func)))
            visit(rel, child, where)

    for rel, tree in _trees():
        visit(rel, tree, [])
    return found


@functools.lru_cache(maxsize=1)
def _trees() -> tuple[tuple[str, ast.Module], ...]:
    return tuple((p.relative_to(PKG.parent).as_posix(), _parsed(p))
                 for p in [*sorted(PKG.rglob("*.py")), *sorted(HARNESS.rglob("*.py"))])


def test_candidate_code_is_spawned_in_two_places_and_collected_by_one_function():
    spawns = _calls({"os.fork", "os.forkpty", "os.posix_spawn", "os.posix_spawnp", "os.system", "os.popen",
                     "subprocess.Popen", "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output"})
    # The grader's own tools (uv, runsc, a Python probe) run to completion through subprocess.run;
    # inside a check (the harness) nothing does.
    tools = {s for s in spawns if s[2] == "subprocess.run" and s[0].startswith("rlvr_grade/")}
    unknown = spawns - CANDIDATE_SPAWNS - set(GRADER_PROCESSES) - tools
    assert unknown == set(), f"a new process: name it in CANDIDATE_SPAWNS or GRADER_PROCESSES with its reason: {unknown}"
    assert CANDIDATE_SPAWNS <= spawns and set(GRADER_PROCESSES) <= spawns
    reaped = _calls({"os.wait4"})
    assert reaped == {("rlvr_harness/process.py", "collect", "os.wait4")}
    # The gVisor backend collects the whole sandbox (runsc, its slot cgroup's CPU) with the same one.
    assert _calls({"process.collect", "collect"}) == {("rlvr_grade/sandbox/zygote.py", "Zygote._collect", "process.collect"),
                                                      ("rlvr_harness/process.py", "run", "collect"),
                                                      ("rlvr_grade/sandbox/gvisor.py", "GvisorBackend._popen", "process.collect")}


def test_every_rlimit_is_set_in_one_place():
    # Issue 19: "where is the CPU limit enforced?" had several answers: rlimits were set by
    # limits.set_check_rlimits (a check's Python set-up, the runner inside gVisor and Beam) and
    # by process.spawn's own loop (a case). Python sets every rlimit in rlvr_harness/process.py
    # `set_rlimits` (beside `collect`, which stops a run at its CPU limit); _child.c sets the
    # values it is handed (limits.check_rlimits through zygote._c_spec) with one call.
    setters = {"resource.setrlimit", "setrlimit", "resource.prlimit", "prlimit", "os.setrlimit"}
    assert _calls(setters) == {("rlvr_harness/process.py", "set_rlimits", "resource.setrlimit")}
    child = (PKG / "sandbox" / "_child.c").read_text()
    assert child.count("setrlimit(") == 1 and "prlimit" not in child


def test_every_wall_limit_made_from_a_cpu_limit_is_made_in_the_limits_policy():
    # Issue 19, "one limits policy": a check's wall backstop (types.Limits.effective_wall_s), a
    # stdio/call check's (checks/cases.py) and a case's (rlvr_harness/stdio.py) were three
    # formulas in three files. rlvr_harness/limits.py holds them (check_wall_s,
    # cases_check_wall_s, case_wall_s). Found: a product with a CPU value inside a function, a
    # keyword or an assignment about wall time.
    found = []

    def visit(rel: str, node: ast.AST, wall: bool) -> None:
        for child in ast.iter_child_nodes(node):
            about = wall
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                about = "wall" in child.name
            elif isinstance(child, ast.keyword):
                about = wall or "wall" in (child.arg or "")
            elif isinstance(child, (ast.Assign, ast.AnnAssign)):
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                about = wall or any("wall" in ast.unparse(t) for t in targets)
            if about and isinstance(child, ast.BinOp) and isinstance(child.op, ast.Mult) and "cpu" in ast.unparse(child):
                found.append((rel, ast.unparse(child)))
            visit(rel, child, about)

    for rel, tree in _trees():
        visit(rel, tree, False)
    assert sorted(found) == [("rlvr_harness/limits.py", "2.0 * cpu_s"), ("rlvr_harness/limits.py", "3.0 * case_cpu_s"),
                             ("rlvr_harness/limits.py", "3.0 * check_cpu_s")]


def test_every_extension_is_built_without_debug_information():
    """An extension's DWARF names the folder it was compiled in (the checkout), and the harness's
    extensions are files in every check's root, which a check reads (issue 16,
    grader_paths_in_files): each ext-module in pyproject.toml is built -g0."""
    import tomllib

    modules = tomllib.loads((PKG.parent / "pyproject.toml").read_text())["tool"]["setuptools"]["ext-modules"]
    assert modules
    assert [m["name"] for m in modules if "-g0" not in m.get("extra-compile-args", ())] == []
