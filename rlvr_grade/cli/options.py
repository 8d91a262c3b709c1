"""The command line's options, declared once and shared by the commands that take them.

Each group is a class whose annotated attributes are options (flags, help, the `--help`
panel they appear in: what a user is deciding); `@uses(name=Group)` adds a group's options (or
`Group.only(...)` a few of them) to a command, and the command receives the group built and
validated. Validation and the translation into the library's ScoreOptions live here, with the
options, not in the command bodies."""

# No `from __future__ import annotations` here: the groups' annotations are the options' types,
# read as objects when a command is declared (typing.get_type_hints costs every CLI start).
import functools
import inspect
import os
from enum import Enum
from typing import Any, Callable, Optional

import typer

from rlvr_grade.cli.errors import UsageError, set_verbose

INPUT, GRADING, LIMITS, BACKEND, OUTPUT = "Input", "Grading", "Limits", "Backend", "Output and CI"
KEEP = "Which rows to keep"


class Preset(str, Enum):
    none = "none"
    humaneval = "humaneval"
    mbpp = "mbpp"
    leetcode = "leetcode"


class Extract(str, Enum):
    auto = "auto"
    none = "none"
    first = "first"
    last = "last"


class Style(str, Enum):
    auto = "auto"
    pytest = "pytest"
    asserts = "asserts"
    stdio = "stdio"
    call = "call"


class BackendName(str, Enum):
    local = "local"
    gvisor = "gvisor"
    beam = "beam"


class OnSuspicious(str, Enum):
    flag = "flag"
    zero = "zero"


class Shape(str, Enum):
    binary = "binary"
    fraction = "fraction"
    bonus = "bonus"


class Option:
    """An option of a group: its default, flags, help and `--help` panel (the type is the
    attribute's annotation)."""

    def __init__(self, default: Any, *flags: str, help: str, panel: Optional[str] = None, metavar: Optional[str] = None):
        self.default, self.flags, self.help, self.panel, self.metavar = default, flags, help, panel, metavar

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name


option = Option


class Group:
    """Options that belong together (see `uses`). A subclass lists them as annotated Option
    attributes; an instance holds their parsed values; `validate()` says what cannot be."""

    _options: tuple = ()

    def __init_subclass__(cls) -> None:
        cls._options = tuple(v for v in vars(cls).values() if isinstance(v, Option))

    def __init__(self, **values: Any):
        for opt in self._options:
            setattr(self, opt.name, values.pop(opt.name, opt.default))
        if values:
            raise TypeError(f"{type(self).__name__} has no option {sorted(values)[0]!r}")

    def replace(self, **changes: Any) -> "Group":
        return type(self)(**{**{o.name: getattr(self, o.name) for o in self._options}, **changes})

    def validate(self) -> None:
        """Raise UsageError for values that do not go together or are out of range."""

    @classmethod
    def only(cls, *names: str) -> tuple:
        """For a command that takes a few of the group's options (the others keep their defaults)."""
        assert set(names) <= {o.name for o in cls._options}, names
        return cls, names


def _parameters(group: type, names: Optional[tuple]) -> list:
    out = []
    for opt in group._options:
        if names is None or opt.name in names:
            default = typer.Option(opt.default, *opt.flags, help=opt.help, rich_help_panel=opt.panel, metavar=opt.metavar)
            annotation = vars(group)["__annotations__"][opt.name]
            out.append(inspect.Parameter(opt.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation))
    return out


def uses(**groups: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Give a command the options of these groups: `@uses(limits=Limits)` adds every option of
    Limits and passes the command `limits=Limits(...)`, built from them and validated;
    `Limits.only("timeout")` adds just those (the others keep their defaults)."""

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        specs = {name: g if isinstance(g, tuple) else (g, None) for name, g in groups.items()}
        signature = inspect.signature(fn)
        own = [p for p in signature.parameters.values() if p.name not in specs]
        # Arguments, then the groups' options (their panels in the order the groups are given),
        # then the command's own options.
        arguments = [p for p in own if isinstance(p.default, typer.models.ArgumentInfo)]
        options = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own if p not in arguments]
        added = [p for group, names in specs.values() for p in _parameters(group, names)]

        @functools.wraps(fn)
        def command(**values: Any) -> Any:
            built = {}
            for name, (group, names) in specs.items():
                built[name] = group(**{o.name: values.pop(o.name) for o in group._options if names is None or o.name in names})
                built[name].validate()
            return fn(**values, **built)

        command.__signature__ = signature.replace(parameters=arguments + added + options)  # type: ignore[attr-defined]
        # Typer reads annotations by name too: the groups' own names are not options.
        command.__annotations__ = {k: v for k, v in fn.__annotations__.items() if k not in specs}
        return command

    return decorate


# -- options a command declares itself, written once ------------------------------------------
def verbose_option(panel: str | None = OUTPUT) -> Any:
    """--verbose, on the app (before the command) or on a command: every error shows its traceback."""
    return typer.Option(False, "-v", "--verbose", help="Show tracebacks on errors.", callback=set_verbose,
                        rich_help_panel=panel, is_eager=True)


def quiet_option(help: str = "No progress bar and no summary table.") -> Any:
    return typer.Option(False, "-q", "--quiet", help=help, rich_help_panel=OUTPUT)


def json_option(what: str) -> Any:
    return typer.Option(False, "--json", help=f"Print {what} as JSON on stdout.", rich_help_panel=OUTPUT)


CACHE_HELP = "SQLite result cache (default: $RLVR_GRADE_CACHE, else $XDG_CACHE_HOME/rlvr-grade/cache.sqlite)."


# -- the groups -------------------------------------------------------------------------------
class Columns(Group):
    """Which columns of the input hold what."""

    completion_col: str = option("completion", help="Column holding the model's completion.", panel=INPUT)
    tests_col: str = option("tests", help="Column holding the tests.", panel=INPUT)
    id_col: Optional[str] = option(None, help="Column identifying a row (messages, the problem map, JUnit names).", panel=INPUT)
    group_col: Optional[str] = option(None, help="Rows sharing this column are samples of one problem (pass@k, group rules).", panel=INPUT)
    preset: Preset = option(Preset.none, help="Column layout of a known dataset (sets the tests, id and group columns).", panel=INPUT)
    env_col: str = option("env", help="Column naming a row's own environment (a name or id); an empty value means --env.", panel=INPUT)

    def resolved(self) -> Any:
        from rlvr_grade.checks import CheckOptions

        return CheckOptions(completion_col=self.completion_col, tests_col=self.tests_col, id_col=self.id_col,
                            group_col=self.group_col, preset=self.preset.value, env_col=self.env_col).resolved()  # type: ignore[arg-type]


class Grading(Group):
    """How rows are graded and rewarded."""

    test_style: Style = option(Style.auto, help="How the tests run (auto: per row).", panel=GRADING)
    extract: Extract = option(Extract.auto, help="Code extraction from markdown fences.", panel=GRADING)
    reward: Shape = option(Shape.binary, help="binary: 1 if all pass; fraction: passed/total; bonus: small reward for code that runs.", panel=GRADING)
    bonus: float = option(0.1, help="Reward for code that runs cleanly but fails tests (--reward bonus).", panel=GRADING)
    on_suspicious: OnSuspicious = option(OnSuspicious.flag, help="flag: list reward-hacking signs in the `flags` column; zero: also set a flagged row's reward to 0.", panel=GRADING)
    strict: bool = option(False, help="Abort on the first malformed row instead of marking it invalid_input.", panel=GRADING)
    language: str = option("python", help="stdio programs: python, c, cpp, java, javascript (a `language` column wins).", panel=GRADING)
    compare: Optional[str] = option(None, help="stdio/call output comparison: tokens (stdio default), exact, lines-unordered, float[:ABS[:REL]] (a `compare` column wins).", panel=GRADING)
    run_all_cases: bool = option(False, "--run-all-cases", help="stdio/call: judge every case instead of stopping at the first failure (for --reward fraction).", panel=GRADING)
    fn_name: Optional[str] = option(None, help="call style: the function (or Solution method) to call (a `fn_name` column wins).", panel=GRADING)
    output_validator: Optional[str] = option(None, help="stdio: a Kattis/ICPC output validator directory (validate.cc + headers, or one .py), run in its own sandbox.", panel=GRADING)
    validator_args: Optional[str] = option(None, help="Extra arguments for --output-validator, space separated.", panel=GRADING)

    def validate(self) -> None:
        from rlvr_grade.scoring import compare
        from rlvr_harness import languages

        try:
            languages.normalize(self.language)
            if self.compare:
                compare.parse_mode(self.compare)
        except ValueError as exc:
            raise UsageError(str(exc)) from None

    def validator(self) -> Any:
        if not self.output_validator:
            return None
        from rlvr_grade.types import Validator

        try:
            return Validator.from_dir(self.output_validator, tuple((self.validator_args or "").split()))
        except (OSError, ValueError) as exc:
            raise UsageError(f"--output-validator: {exc}") from None


class Limits(Group):
    """What one check may use, and how many run at once."""

    timeout: float = option(10.0, help="CPU seconds per check (the real limit).", panel=LIMITS)
    wall_timeout: Optional[float] = option(None, help="Wall-clock backstop per check (default 2 x timeout + 5 s).", panel=LIMITS)
    memory: int = option(512, help="Memory per check, MiB.", panel=LIMITS)
    case_timeout: Optional[float] = option(None, help="stdio/call: CPU seconds per case (default: the whole --timeout, which is the row's budget).", panel=LIMITS)
    concurrency: int = option(0, "-j", "--concurrency", help="Checks run at once (default: CPU count + 2).", panel=LIMITS)

    def validate(self) -> None:
        if self.timeout <= 0 or self.memory <= 0:
            raise UsageError("--timeout and --memory must be positive")
        if self.case_timeout is not None and self.case_timeout <= 0:
            raise UsageError("--case-timeout must be positive")


class Backend(Group):
    """Where checks run, and what happens when that fails."""

    backend: BackendName = option(BackendName.local, help="Sandbox backend: local (namespaces, default), gvisor (runsc per check), beam (a Beam sandbox per check; needs the beam extra).", panel=BACKEND)
    env: Optional[str] = option(None, "--env", metavar="SPEC|NAME|ID", help="The environment checks run in: a requirements file (built first if need be), or a built one's name or id (see `rlvr-grade env`); part of the cache key. Default: stdlib + pytest.", panel=BACKEND)
    preload: Optional[str] = option(None, "--preload", metavar="MOD,...|none", help="local and beam backends: the modules each environment's seed imports before forking the checks (beam: with memory snapshots) (default: the packages its spec names; none: nothing). Never changes a verdict, only how soon it comes.", panel=BACKEND)
    cache: Optional[str] = option(None, "--cache", metavar="PATH", help=CACHE_HELP + " A rerun grades only rows it has not seen.", panel=BACKEND)
    no_cache: bool = option(False, "--no-cache", help="Neither read nor write the cache (duplicates within the run are still graded once).", panel=BACKEND)
    max_infra_failures: int = option(20, help="Stop the run (exit 3) when this many checks in a row fail in the sandbox backend and a probe check fails too (0: never).", panel=BACKEND)
    backend_dead_after: float = option(30.0, help="Stop the run (exit 3) when the backend fails every check for this many seconds (0: never).", panel=BACKEND)
    beam_image: Optional[str] = option(None, help="Beam runner image: a python version (python3.11, the default, + pytest) or an image id; part of the cache key.", panel=BACKEND)
    beam_max_creates: int = option(16, help="Beam sandboxes being created at once (the rest wait), whatever --concurrency is.", panel=BACKEND)
    beam_rpc_timeout: float = option(30.0, help="Seconds one Beam call may take, its own retries included.", panel=BACKEND)
    beam_snapshot: Optional[bool] = option(None, "--beam-snapshot/--no-beam-snapshot", panel=BACKEND,
                                           help="Beam: restore each check's sandbox from a memory snapshot of a warm seed (its environment's --preload imported). "
                                           "Default: on for environments with a preload. Falls back to plain sandboxes where snapshots do not work; never changes a verdict.")
    allow_unsafe: bool = option(False, "--allow-network-and-writable-fs-UNSAFE", panel=BACKEND,
                                help="Run untrusted code even where the sandbox cannot cut the network or make the filesystem "
                                "read-only (no root and no user namespaces). Checks can then reach the network and write your files.")

    no_seccomp: bool = option(False, "--no-seccomp-UNSAFE", panel=BACKEND,
                              help="local backend: run checks without the seccomp filter (where none can be built: an "
                              "architecture other than x86_64 and aarch64). Checks can then reach the kernel's pools "
                              "(keyrings, SysV IPC, AIO, inotify, inet sockets); the isolation report and doctor say so.")

    def validate(self) -> None:
        if self.max_infra_failures < 0 or self.backend_dead_after < 0:
            raise UsageError("--max-infra-failures and --backend-dead-after must be >= 0 (0 disables)")
        if self.preload is not None:
            from rlvr_grade.sandbox.local import preload_choice

            try:
                preload_choice(self.preload)
            except ValueError as exc:
                raise UsageError(str(exc)) from None

    def cache_path(self) -> str | None:
        from rlvr_grade.cache import default_cache_path

        return None if self.no_cache else (self.cache or default_cache_path())

    def backend_options(self) -> tuple[tuple[str, Any], ...]:
        opts: dict[str, Any] = {}
        if self.backend == BackendName.beam:
            opts = {"max_creates": self.beam_max_creates, "rpc_timeout": self.beam_rpc_timeout}
            if self.beam_image:
                opts["image"] = self.beam_image
            if self.beam_snapshot is not None:
                opts["snapshot"] = self.beam_snapshot
        if self.allow_unsafe and self.backend == BackendName.local:
            opts["allow_unisolated"] = True
        if self.no_seccomp and self.backend == BackendName.local:
            opts["seccomp"] = False
        return tuple(sorted(opts.items()))


class Reports(Group):
    """What a run reports besides its rows, and the CI gates."""

    summary_json: Optional[str] = option(None, help="Also write the summary as JSON to this path.", panel=OUTPUT)
    junit_xml: Optional[str] = option(None, help="Write a JUnit XML report here (one testcase per row).", panel=OUTPUT)
    summary_problems: int = option(10_000, help="Cap on the per-problem pass map in the summary JSON (0: leave it out).", panel=OUTPUT)
    fail_under: Optional[float] = option(None, help="Exit 1 if the pass rate is below this (0-1).", panel=OUTPUT)
    baseline: Optional[str] = option(None, help="A previous run's summary JSON: print which problems regressed or improved.", panel=OUTPUT)
    fail_on_regression: bool = option(False, help="Exit 1 if any problem regressed since --baseline (named in the message).", panel=OUTPUT)

    def validate(self) -> None:
        if self.fail_on_regression and self.baseline is None:
            raise UsageError("--fail-on-regression needs --baseline PREVIOUS_SUMMARY.json")
        from rlvr_grade.io.writers import check_writable

        for path, what in ((self.summary_json, "summary"), (self.junit_xml, "JUnit report")):
            if path:
                check_writable(path, what)  # OutputError (exit 2) before any work

    def require_something(self, output: str | None) -> None:
        """A run that writes neither rows nor any report is a mistake, said before grading."""
        if output is None and all(v is None for v in (self.summary_json, self.fail_under, self.junit_xml, self.baseline)):
            raise UsageError("nothing to write", tip="pass -o scored.jsonl (or -o - for stdout)")

    def load_baseline(self) -> dict | None:
        from rlvr_grade import reports

        return reports.load_baseline(self.baseline) if self.baseline else None

    def collector(self, group_col: str | None, id_col: str | None) -> Any:
        from rlvr_grade import reports

        return reports.RunReport(group_col, id_col, self.summary_problems, self.junit_xml)

    def finish(self, data: dict, base: dict | None, table: bool, as_json: bool = False) -> None:
        """Baseline diff, the summary (JSON file, stdout or table), GitHub lines, CI gates."""
        from rlvr_grade import console, reports
        from rlvr_grade.cli.errors import GateFailed

        diff = reports.compare_with_baseline(base, data) if base is not None else None
        if diff is not None:
            data["baseline"] = diff.to_dict()
        if self.summary_json:
            write_json(self.summary_json, data)
        if as_json:
            import json

            typer.echo(json.dumps(data, indent=2))
        elif table:
            console.summary_table(data)
        if diff is not None:
            console.baseline_report(diff)
        failures = reports.gate_failures(data, diff, self.fail_under, self.fail_on_regression)
        reports.emit_github(data, diff, failures, echo=console.err_line)
        if failures:
            raise GateFailed(failures)


class Keep(Group):
    """filter's rules: which rows, or whole groups, to keep."""

    min_reward: Optional[float] = option(None, help="Keep rows with reward >= this.", panel=KEEP)
    max_reward: Optional[float] = option(None, help="Keep rows with reward <= this.", panel=KEEP)
    status: Optional[str] = option(None, help="Keep rows with one of these statuses, comma-separated (pass,fail).", panel=KEEP)
    no_flags: bool = option(False, "--no-flags", help="Drop rows flagged as suspicious.", panel=KEEP)
    flag: Optional[list[str]] = option(None, "--flag", help="Keep only rows carrying this flag (repeatable).", panel=KEEP)
    drop_flag: Optional[list[str]] = option(None, "--drop-flag", help="Drop rows carrying this flag (repeatable).", panel=KEEP)
    group_pass_rate: Optional[str] = option(None, help="Keep whole groups whose pass rate is in this range: '0<x<1', '0<=x<=0.5', 'x>0'.", panel=KEEP)

    def spec(self, columns: Columns) -> Any:
        from rlvr_grade.filtering import FilterSpec, parse_range

        try:
            return FilterSpec(
                min_reward=self.min_reward,
                max_reward=self.max_reward,
                statuses=frozenset(x.strip() for x in self.status.split(",") if x.strip()) if self.status else None,
                no_flags=self.no_flags,
                with_flags=frozenset(self.flag or ()),
                drop_flags=frozenset(self.drop_flag or ()),
                group_col=columns.group_col or ("task_id" if columns.preset != Preset.none and self.group_pass_rate else None),
                group_pass_rate=parse_range(self.group_pass_rate) if self.group_pass_rate is not None else None,
            )
        except ValueError as exc:
            raise UsageError(str(exc)) from None



def score_options(columns: Columns, grading: Grading, limits: Limits, backend: Backend | None = None) -> Any:
    """The library's ScoreOptions for these groups (backend None: the library's defaults, no
    persistent cache)."""
    from rlvr_grade.api import ScoreOptions
    from rlvr_grade.checks import CheckOptions
    from rlvr_grade.scoring import RewardConfig
    from rlvr_grade.types import Limits as CheckLimits
    from rlvr_harness import languages

    checks = CheckOptions(
        completion_col=columns.completion_col, tests_col=columns.tests_col, id_col=columns.id_col,
        group_col=columns.group_col, preset=columns.preset.value, env_col=columns.env_col,  # type: ignore[arg-type]
        extract=grading.extract.value, test_style=grading.test_style.value,  # type: ignore[arg-type]
        limits=CheckLimits(cpu_s=limits.timeout, wall_s=limits.wall_timeout, memory_mb=limits.memory),
        language=languages.normalize(grading.language), compare=grading.compare, case_timeout=limits.case_timeout,
        run_all=grading.run_all_cases, fn_name=grading.fn_name, validator=grading.validator(),
    )
    reward = RewardConfig(shape=grading.reward.value, bonus=grading.bonus, on_suspicious=grading.on_suspicious.value)  # type: ignore[arg-type]
    run: dict[str, Any] = {}
    if backend is not None:
        run = dict(backend=backend.backend.value, backend_options=backend.backend_options(), cache=backend.cache_path(),
                   env=backend.env, preload=backend.preload, max_infra_failures=backend.max_infra_failures, backend_dead_after=backend.backend_dead_after)
    return ScoreOptions(checks=checks, reward=reward, concurrency=limits.concurrency, strict=grading.strict, **run)


def write_json(path: str, data: dict) -> None:
    """A report file, written atomically (temp file + os.replace)."""
    import json

    from rlvr_grade.io.writers import temp_beside

    fd, tmp = temp_beside(path)
    with os.fdopen(fd, "w") as fh:
        json.dump(data, fh, indent=2, sort_keys=False)
        fh.write("\n")
    os.replace(tmp, path)

