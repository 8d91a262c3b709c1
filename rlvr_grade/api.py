"""The library entry points: `score_file` (what the CLI runs) and `Grader`/`grade` (what a
trainer calls with rows in memory). The CLI is a thin layer over these."""

from __future__ import annotations

import atexit
import dataclasses
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, InvalidStateError, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from rlvr_grade import scoring
from rlvr_grade.cache import Cache, CacheError, check_key, key_context, runtime_fingerprint
from rlvr_grade.checks import CheckOptions, InvalidRow, build_check, styles
from rlvr_grade.checks.flags import scan as scan_flags
from rlvr_grade.io import open_output, open_rollouts
from rlvr_grade.io.readers import first_row
from rlvr_grade.pool import BackendHealth, done_future, ordered_map, with_retries
from rlvr_grade.sandbox import make_backend
from rlvr_grade.sandbox.base import Backend, default_slots
from rlvr_grade.scoring import RewardConfig
from rlvr_grade.summary import Summary
from rlvr_grade.types import BackendUnavailable, Check, InputError, Limits, Outcome, Rollout, SandboxError

log = logging.getLogger("rlvr_grade")


@dataclass(frozen=True)
class ScoreOptions:
    """Every knob of a grading run; the CLI flags map one to one onto these."""

    checks: CheckOptions = field(default_factory=CheckOptions)
    reward: RewardConfig = field(default_factory=RewardConfig)
    backend: str = "local"
    concurrency: int = 0  # 0: sandbox/base.default_slots(), one per core plus 2
    strict: bool = False
    retries: int = 3
    retry_delay: float = 0.5
    # Fail fast on a dead backend (see pool.BackendHealth): stop after this many infrastructure
    # failures in a row, or after failures with no success for this many seconds (0: never).
    max_infra_failures: int = 20
    backend_dead_after: float = 30.0
    backend_options: tuple[tuple[str, Any], ...] = ()
    # SQLite cache file (resume + dedupe across runs); None: duplicates are still graded once
    # within a run, in a private temporary store. The CLI defaults to cache.default_cache_path().
    cache: str | None = None
    # The environment checks run in (rlvr_grade/envs): a requirements file (built first if it
    # is not yet), a name or an id of a built one, or "default"; None: the default environment.
    # A row's `env` column (CheckOptions.env_col) overrides it. From Python, an
    # envs.Environment may be given itself.
    env: Any = None
    # What each environment's seed imports before forking the checks (local backend): None,
    # the import names of the packages the environment's spec names; "none" (or ()),
    # nothing; else these modules ("pandas,numpy" or a tuple). Never part of the cache key:
    # a check runs the same either way, only sooner.
    preload: str | tuple[str, ...] | None = None

    @property
    def workers(self) -> int:
        return self.concurrency or default_slots()


class StrictError(Exception):
    """--strict and a malformed row: stop the run (nothing is written)."""


def outcome_columns(outcome: Outcome) -> dict[str, Any]:
    return {
        "reward": outcome.reward,
        "status": outcome.status,
        "tests_passed": outcome.tests_passed,
        "tests_total": outcome.tests_total,
        "duration_ms": outcome.duration_ms,
        "error": outcome.error,
        "flags": list(outcome.flags),
        "cached": outcome.cached,
        "case_verdicts": list(outcome.case_verdicts),
    }


# backend -> the threads its checks run on (and its workers were spawned from).
_POOLS: "weakref.WeakKeyDictionary[Backend, ThreadPoolExecutor]" = weakref.WeakKeyDictionary()


def _validator(check: Check) -> Any:
    """The output-validator module for a check that has an output validator, else None:
    importing it (the stdio harness) costs every CLI start ~35 ms."""
    if check.output_validator is None:
        return None
    from rlvr_grade.scoring import validator

    return validator


class Grader:
    """A warm sandbox pool plus the grading rules. Reuse one across calls (a trainer's steps):
    starting the pool is the expensive part. Thread-safe (several threads may call `grade` at
    once; they share the pool's slots) and usable from asyncio through `agrade`; use as a
    context manager, or call `close()` when done.

    Options come as a ScoreOptions, or as keyword arguments named like the CLI flags
    (`Grader(preset="humaneval", timeout=5, concurrency=8)`); see `make_options`."""

    def __init__(
        self,
        options: ScoreOptions | None = None,
        backend: Backend | None = None,
        hide: Iterable[str] = (),
        env_progress: Callable[[str], None] | None = None,
        **option_kwargs: Any,
    ):
        self.options = make_options(options, **option_kwargs)
        self._env_progress = env_progress
        self._environment: Any = None  # the run's envs.Environment, once resolved
        self._row_envs: dict[str, str | InvalidRow] = {}  # a row's env value -> id, or why not
        self._providers: dict[str, list[tuple[str, str]]] | None = None  # import name -> (id, name) of built environments
        self.checks = self.options.checks.resolved()
        self._backend = backend
        self._hide = list(hide)
        self._started = False
        self._lock = threading.RLock()
        self._executor: ThreadPoolExecutor | None = None
        self._cache: Cache | None = None
        self._runtime: dict[str, Any] | None = None
        self._key_context = b""
        self._toolchain_contexts: dict[tuple[str, ...], bytes] = {}
        self._cache_lock = threading.Lock()
        self.checks_run = 0  # checks sent to the backend (not cache hits), for the summary's isolation
        self.health = BackendHealth(
            self.options.backend, self.options.max_infra_failures, self.options.backend_dead_after, probe=self._probe
        )
        if self.options.cache:
            # The sandbox must not see the cache (it could read other rows' verdicts): hide its
            # directory, which therefore has to exist before the backend plans its mounts.
            cache_dir = os.path.dirname(os.path.abspath(self.options.cache))
            try:
                os.makedirs(cache_dir, exist_ok=True)
            except OSError as exc:
                raise CacheError(f"cannot create the cache directory {cache_dir}: {exc.strerror}") from exc
            self._hide.append(cache_dir)

    @property
    def backend(self) -> Backend:
        with self._lock:
            if self._backend is None:
                opts = dict(self.options.backend_options)
                if self._hide:  # every backend takes `hide` (those with nothing local to hide ignore it)
                    opts.setdefault("hide", self._hide)
                self._backend = make_backend(self.options.backend, self.options.workers, **opts)
                self._backend.environment_options(preload=self.options.preload, progress=self._env_progress)
            return self._backend

    def start(self) -> "Grader":
        """Start the sandbox pool (idempotent, thread-safe)."""
        with self._lock:
            if self._started:
                return self
            # The checks run on a pool of threads that lives as long as this Grader, and the
            # backend starts on one of them. Local workers die with the *thread* that spawned
            # them (PR_SET_PDEATHSIG is per thread): started from a caller's short-lived
            # thread (asyncio.to_thread, a trainer's worker thread, one grade() call's pool)
            # they would be SIGKILLed when it ends and every later call would pay a restart.
            # The pool belongs to the backend, not to this Grader: a Grader dropped without
            # close() over a backend its caller keeps must not take the workers with it.
            backend = self.backend
            env = self.environment
            # Its workers start first (and a seed that cannot preload it is exit 2 here).
            backend.use_environment("" if env is None or env.default else env.id)
            executor = _POOLS.get(backend)
            if executor is None or executor._shutdown:  # type: ignore[attr-defined]
                executor = _POOLS[backend] = ThreadPoolExecutor(max_workers=self.options.workers, thread_name_prefix="rlvr-grade")
            try:
                if backend.start_on_pool:
                    executor.submit(backend.start).result()
                else:  # e.g. the runsc/Beam clients: started in the caller's thread
                    backend.start()
            except OSError as exc:  # e.g. the worker's interpreter cannot be executed
                raise SandboxError(f"the {self.options.backend} backend could not start: {exc}") from exc
            self._executor = executor
            self._started = True
        return self

    def close(self) -> None:
        """Stop the pool and its workers. A closed Grader starts again on its next use."""
        with self._lock:
            executor, self._executor = self._executor, None
            started, self._started = self._started, False
        # Not under the lock: the checks still running need it (the backend property).
        # Queued rows are dropped; running ones finish (bounded by their wall limit) before
        # the workers stop, so none of them respawns a worker after close.
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
            if self._backend is not None:
                _POOLS.pop(self._backend, None)
        if started and self._backend is not None:
            self._backend.close()
        # After the backend: checks still in flight fail as sandbox_error, which is not stored.
        if self._cache is not None:
            self._cache.close()
            self._cache = None

    @property
    def started(self) -> bool:
        return self._started

    def __enter__(self) -> "Grader":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- cache -----------------------------------------------------------------------------
    @property
    def cache(self) -> Cache:
        """The outcome store (opened on first use): options.cache, or a private temporary one."""
        with self._cache_lock:
            if self._cache is None:
                self._cache = Cache(self.options.cache, runtime=self.runtime)
            return self._cache

    @property
    def runtime(self) -> dict[str, Any]:
        """The runtime part of every cache key (grader, Python, backend fingerprint...)."""
        if self._runtime is None:
            runtime = runtime_fingerprint(self.backend.fingerprint())
            self._key_context = key_context(self.options.reward, runtime)
            self._runtime = runtime
        return self._runtime

    # -- environments ----------------------------------------------------------------------
    @property
    def environment(self) -> Any:
        """The run's environment (an envs.Environment), resolved from options.env on first use
        and built then if it is a spec not built yet (progress through `env_progress`).
        Raises envs.EnvError (an InputError: exit 2 in the CLI) when it names nothing or does
        not resolve, or when the backend cannot run checks in an environment."""
        with self._lock:
            if self._environment is None:
                from rlvr_grade import envs

                ref = self.options.env
                if ref is not None and not isinstance(ref, str):
                    env = ref  # an envs.Environment already (Python callers, tests)
                else:  # "default": the backend builds its folder when it first needs it
                    env = envs.resolve(ref, build=True, progress=self._env_progress) if ref and ref.strip() != "default" else None
                if env is not None and not env.default and not self.backend.environments:
                    raise envs.EnvError(
                        f"the {self.options.backend} backend cannot run checks in an environment yet",
                        tip="use --backend beam, or leave out --env",
                    )
                if env is not None:
                    self.backend.add_environment(env)
                self._environment = env if env is not None else False
            return self._environment or None

    def _env_id(self, rollout: Rollout) -> str:
        """The environment id a row's check runs in: its `env` column (a name, an id or
        "default"), else the run's; "" is the default environment. A value that names no
        built environment is InvalidRow."""
        col = self.checks.env_col
        value = rollout.row.get(col) if col else None
        if value is None or value == "":
            env = self.environment
            return "" if env is None or env.default else env.id
        if not isinstance(value, str):
            raise InvalidRow(f"env column {col!r} is {type(value).__name__}, expected an environment name, id or requirements file")
        found = "" if value.strip() == "default" else self._row_envs.get(value)
        if found is None:
            from rlvr_grade import envs

            try:
                # Never a build (or the network) mid-run, and never a file the row names.
                env = envs.resolve(value, build=False, files=False)
            except envs.EnvError as exc:
                found = InvalidRow(f"env column {col!r}: {exc}" + (f" ({exc.tip})" if exc.tip else ""))
            else:
                found = "" if env.default else env.id
                self.backend.add_environment(env)
            self._row_envs[value] = found
        if isinstance(found, InvalidRow):
            raise found
        return found

    def cache_key(self, rollout: Rollout) -> str | None:
        """The content hash this row is cached under; None for a row that is not gradable."""
        prepared = self._prepare(rollout)
        return None if isinstance(prepared, Outcome) else prepared[1]

    def _prepare(self, rollout: Rollout) -> Outcome | tuple[Check, str]:
        """(check, key) for a gradable row, else its invalid_input Outcome (or, for a bug of the
        grader on this row, its sandbox_error)."""
        if rollout.error is not None:
            return self._invalid(rollout, rollout.error)
        self.runtime  # noqa: B018 - computes the run's key context (once; its failure is the run's)
        try:
            check = build_check(rollout, self.checks)
            env_id = self._env_id(rollout)
        except InvalidRow as exc:
            return self._invalid(rollout, str(exc))
        except Exception as exc:  # noqa: BLE001 - a bug on one row is that row's sandbox_error
            return _grader_failure(exc, rollout.where, "building its check")
        if env_id:
            check = replace(check, env=env_id)
        try:
            return check, check_key(check, self._context_for(check))
        except Exception as exc:  # noqa: BLE001
            return _grader_failure(exc, rollout.where, "computing its cache key")

    def _context_for(self, check: Check) -> bytes:
        """The run's key context, plus the toolchain versions of the languages `check` is
        compiled or run with other than Python (its own, its output validator's): a compiler
        upgrade must not serve the old compiler's rewards. Python rows need none, so a Python
        run never pays for asking a toolchain its version."""
        langs = {check.language}
        if check.output_validator is not None:
            langs.add(check.output_validator.language)
        langs.discard("python")
        if not langs:
            return self._key_context
        key = tuple(sorted(langs))
        context = self._toolchain_contexts.get(key)
        if context is None:
            tools = {lang: self.backend.toolchain(lang) for lang in key}
            tools = {lang: t for lang, t in tools.items() if t is not None}
            context = key_context(self.options.reward, {**self.runtime, "toolchains": tools}) if tools else self._key_context
            self._toolchain_contexts[key] = context
        return context

    # -- one row ---------------------------------------------------------------------------
    def grade_rollout(self, rollout: Rollout) -> Outcome:
        """Grade one row (from the cache when its key is there). Never raises for a bad row, a
        failed sandbox or a grader bug on this row (each is an Outcome); raises
        BackendUnavailable once the backend has been found down."""
        prepared = self._prepare(rollout)
        if isinstance(prepared, Outcome):
            return prepared
        outcome = self.cache.get(prepared[1]) or self._run_check(*prepared)
        return self._annotate(outcome, prepared[0])

    def _annotate(self, outcome: Outcome, check: Check) -> Outcome:
        """What is added after the cache, so a cached outcome never carries another run's
        policy or machine: flags from the completion's text and the --on-suspicious policy;
        for a missing module, which built environment provides it."""
        outcome = scoring.apply_flags(outcome, scan_flags(check.program), self.options.reward)
        if "halted; None in sys.modules" in outcome.error:
            # a module the tests import that the environment lacks is held absent in sys.modules
            # (runner.restorer: a program's own stand-in is no module of the environment's);
            # Python's words for it then are these: say it as every other missing module says it
            import re

            outcome = replace(outcome, error=re.sub(r"import of ([A-Za-z_][\w.]*) halted; None in sys\.modules",
                                                    r"No module named '\1'", outcome.error))
        if "No module named" in outcome.error and outcome.status in ("runtime_error", "fail", "compile_error"):
            try:
                hint = self._module_hint(outcome.error, check.env)
            except Exception:  # noqa: BLE001 - a hint is optional; its failure is no row's
                log.debug("no environment hint for %r", outcome.error, exc_info=True)
                hint = None
            if hint:
                outcome = replace(outcome, error=f"{outcome.error} ({hint})")
        return outcome

    def _module_hint(self, error: str, env_id: str) -> str | None:
        import re

        m = re.search(r"No module named '([A-Za-z_][\w.]*)'", error)
        if m is None:
            return None
        if self._providers is None:
            from rlvr_grade import envs

            try:
                found = envs.list_envs()
            except envs.EnvError:
                found = []
            providers: dict[str, list[tuple[str, str]]] = {}
            for env in found:
                for _dist, names in env.provides:
                    for name in names:
                        providers.setdefault(name, []).append((env.id, env.names[0] if env.names else env.short_id))
            self._providers = providers
        module = m.group(1).split(".")[0]
        which = sorted({ref for eid, ref in self._providers.get(module, ()) if eid != env_id})
        if not which:
            return None
        return f"environment {' or '.join(which[:3])} provides {module}: --env {which[0]}"

    def _run_check(self, check: Check, key: str) -> Outcome:
        """Run, judge, score and cache one check. Only what ends the run leaves it as an
        exception: the backend found down, the cache file failing; anything else going wrong
        is this row's sandbox_error."""
        try:
            return self._execute(check, key)
        except (BackendUnavailable, CacheError):
            raise
        except Exception as exc:  # noqa: BLE001 - a grader bug on one row is that row's sandbox_error
            return _grader_failure(exc, None, "grading it")

    def _execute(self, check: Check, key: str) -> Outcome:
        t0 = time.perf_counter()
        if check.env and not self.backend.environments:
            # Never in the grader's own world instead: the row asked for another one.
            return scoring.infrastructure_failure(
                f"the {self.options.backend} backend cannot run checks in an environment yet (env {check.env[:12]})"
            )
        self.checks_run += 1  # a plain int += under the GIL: a count for the summary, not a lock
        retries, delay = self.options.retries, self.options.retry_delay
        try:
            ex = with_retries(lambda: self.backend.run(check), retries, delay, self.health)
        except BackendUnavailable:
            raise
        except SandboxError as exc:
            return scoring.infrastructure_failure(str(exc))
        validator = _validator(check)
        if validator is not None:  # the output validator: its own sandbox check
            try:
                ex = with_retries(lambda: validator.validate(self.backend, check, ex), retries, delay, self.health)
            except BackendUnavailable:
                raise
            except SandboxError as exc:
                return scoring.infrastructure_failure(f"output validator: {exc}")
        duration_ms = (time.perf_counter() - t0) * 1000
        outcome = styles.score(check, ex, self.options.reward, duration_ms)
        self.cache.put(key, outcome)  # before the future completes: a duplicate finds it here
        return outcome

    def _probe(self) -> None:
        """BackendHealth's probe: a check any working backend passes (raises SandboxError when
        the backend cannot run it)."""
        probe = build_check(Rollout(index=-1, row={"completion": "", "tests": "assert True\n"}), CheckOptions(limits=self.checks.limits))
        ex = self.backend.run(probe)
        if not ex.done:
            raise SandboxError(f"the {self.options.backend} backend could not run a probe check that does nothing")

    def _invalid(self, rollout: Rollout, message: str) -> Outcome:
        if self.options.strict:
            raise StrictError(f"{rollout.where}: {message}")
        return scoring.invalid(f"{rollout.where}: {message}")

    # -- many rows -------------------------------------------------------------------------
    def iter_grade(self, rollouts: Iterable[Rollout]) -> Iterator[tuple[Rollout, Outcome]]:
        """Grade a stream of rollouts concurrently; yields (rollout, outcome) in input order."""
        # The sandbox pool starts at the first cache miss (from this thread, as before), so a
        # rerun served entirely from the cache never spins up a sandbox.
        # key -> future of the first row with that key still running: an identical row waits
        # for it instead of running again. A key leaves when its future completes, by which
        # time a final outcome is in the cache (put happens before the future resolves).
        if self.health.tripped:
            self.health.reset()  # a new call: the backend gets a new chance (and a new probe)
        inflight: dict[str, Future] = {}
        lock = threading.RLock()  # re-entered when a callback fires at once on a done future
        checks: dict[int, Check] = {}  # row index -> its check, annotated on the way out

        def submit(pool: ThreadPoolExecutor, r: Rollout) -> Future:
            prepared = self._prepare(r)
            if isinstance(prepared, Outcome):
                return done_future((r, prepared))
            check, key = prepared
            checks[r.index] = check
            with lock:
                first = inflight.get(key)
                if first is None:
                    hit = self.cache.get(key)
                    if hit is not None:
                        return done_future((r, hit))
                    self.start()
                    # The Grader's long-lived pool, not ordered_map's per-call one (see start()).
                    fut = (self._executor or pool).submit(self._run_check, check, key)
                    inflight[key] = fut
                    fut.add_done_callback(lambda _f: _forget(key))
                    return _paired(r, fut)
            return _follow(self._executor or pool, r, first, lambda: self._run_check(check, key))

        def _forget(key: str) -> None:
            with lock:
                inflight.pop(key, None)

        for r, outcome in ordered_map(rollouts, submit, self.options.workers):
            check = checks.pop(r.index, None)
            if check is not None:
                outcome = self._annotate(outcome, check)
            yield r, outcome

    def grade(self, rows: Iterable[dict[str, Any]] | Any) -> list[Outcome]:
        """Grade rows held in memory (dicts, or a pyarrow Table); results in input order.
        Each row is a dict with the columns the options name (completion, tests, ...)."""
        return [outcome for _, outcome in self.iter_grade(self._rollouts(rows))]

    async def agrade(self, rows: Iterable[dict[str, Any]] | Any) -> list[Outcome]:
        """`grade` for asyncio: each row is submitted to the pool's threads and awaited, so the
        event loop keeps running and many concurrent `agrade` calls cost no thread each.
        Cancelling the awaiting task cancels the rows not yet started."""
        import asyncio  # here, not at the top: ~50 ms of every CLI start otherwise

        loop = asyncio.get_running_loop()
        if not self._started:
            await loop.run_in_executor(None, self.start)  # a pool start takes seconds
        executor = self._executor
        assert executor is not None
        pending: list[asyncio.Future] = []
        for rollout in self._rollouts(rows):
            if rollout.error is not None:
                fut = loop.create_future()
                fut.set_result(self.grade_rollout(rollout))
                pending.append(fut)
            else:
                pending.append(asyncio.wrap_future(executor.submit(self.grade_rollout, rollout)))
        try:
            return list(await asyncio.gather(*pending))
        except asyncio.CancelledError:
            for fut in pending:
                fut.cancel()
            raise

    @staticmethod
    def _rollouts(rows: Iterable[dict[str, Any]] | Any) -> Iterator[Rollout]:
        if hasattr(rows, "to_pylist"):
            rows = rows.to_pylist()
        for i, row in enumerate(rows):
            if not isinstance(row, dict):
                yield Rollout(index=i, row={}, error=f"expected a dict, got {type(row).__name__}")
            else:
                yield Rollout(index=i, row=row)

def grade(rows: Iterable[dict[str, Any]] | Any, options: ScoreOptions | None = None, **option_kwargs: Any) -> list[Outcome]:
    """Grade `rows` (dicts or a pyarrow Table) and return their Outcomes in input order.

    Uses the process-wide shared Grader for these options (see `shared_grader`), so calling
    it every training step reuses one warm pool instead of starting one per call."""
    return shared_grader(options, **option_kwargs).grade(rows)


async def agrade(rows: Iterable[dict[str, Any]] | Any, options: ScoreOptions | None = None, **option_kwargs: Any) -> list[Outcome]:
    """`grade` for asyncio (does not block the event loop)."""
    return await shared_grader(options, **option_kwargs).agrade(rows)


# CLI flag names that are not the dataclass field they set.
_ALIASES: dict[str, tuple[str, str]] = {
    "timeout": ("limits", "cpu_s"),
    "wall_timeout": ("limits", "wall_s"),
    "memory": ("limits", "memory_mb"),
    "reward": ("reward", "shape"),
}


def make_options(options: ScoreOptions | None = None, **kwargs: Any) -> ScoreOptions:
    """ScoreOptions from keyword arguments named like the CLI flags (`preset`, `tests_col`,
    `timeout`, `memory`, `reward`, `concurrency`, ...) or like any field of ScoreOptions,
    CheckOptions, RewardConfig or Limits, applied over `options` (default: the defaults).
    An unknown name raises TypeError listing the valid ones."""
    opts = options or ScoreOptions()
    if not kwargs:
        return opts
    parts: dict[str, dict[str, Any]] = {"top": {}, "checks": {}, "reward": {}, "limits": {}}
    fields = _option_fields()
    for name, value in kwargs.items():
        if name in _ALIASES:
            where, real = _ALIASES[name]
            parts[where][real] = value
            continue
        for where in ("top", "checks", "reward", "limits"):
            if name in fields[where]:
                parts[where][name] = value
                break
        else:
            valid = sorted(option_names())
            raise TypeError(f"unknown grading option {name!r}; valid: {', '.join(valid)}")
    limits = replace(opts.checks.limits, **parts["limits"])
    checks = replace(opts.checks, limits=limits, **parts["checks"])
    reward = replace(opts.reward, **parts["reward"])
    return replace(opts, checks=checks, reward=reward, **parts["top"])


def _option_fields() -> dict[str, set[str]]:
    """Where each keyword of make_options lands: a field of ScoreOptions, CheckOptions,
    RewardConfig or Limits."""
    return {
        "top": {f.name for f in dataclasses.fields(ScoreOptions)} - {"checks", "reward"},
        "checks": {f.name for f in dataclasses.fields(CheckOptions)} - {"limits"},
        "reward": {f.name for f in dataclasses.fields(RewardConfig)},
        "limits": {f.name for f in dataclasses.fields(Limits)},
    }


def option_names() -> frozenset[str]:
    """Every keyword `make_options` accepts (so Grader, grade and the trainers' adapters)."""
    return frozenset(set(_ALIASES).union(*_option_fields().values()))


_SHARED: dict[tuple[int, str], Grader] = {}
_SHARED_LOCK = threading.Lock()


def shared_grader(options: ScoreOptions | None = None, **option_kwargs: Any) -> Grader:
    """The process-wide Grader for these options, started on first use and closed at exit.

    Trainers call reward functions every step, from whatever thread they like: one warm pool
    per distinct set of options, per process (a forked child gets its own, never its
    parent's workers)."""
    opts = make_options(options, **option_kwargs)
    key = (os.getpid(), repr(opts))
    with _SHARED_LOCK:
        grader = _SHARED.get(key)
        if grader is None:
            if not _SHARED:
                atexit.register(close_shared)
            grader = _SHARED[key] = Grader(opts)
    return grader.start()


def close_shared() -> None:
    """Close this process's shared Graders (registered with atexit)."""
    with _SHARED_LOCK:
        mine = [k for k in _SHARED if k[0] == os.getpid()]
        graders = [_SHARED.pop(k) for k in mine]
    for g in graders:
        g.close()


def _grader_failure(exc: BaseException, where: str | None, doing: str) -> Outcome:
    """A bug of the grader on one row: the row's sandbox_error (null reward, retried by the
    next run), the traceback's last line as its error; the whole traceback is logged (the CLI
    shows it with --verbose)."""
    log.debug("grader error on %s while %s", where or "a row", doing, exc_info=exc)
    return scoring.grader_failure(exc)


def _settle(out: Future, src: Future, value: Callable[[Any], Any] = lambda v: v) -> None:
    """Resolve `out` like the finished `src` (result mapped through `value`); a no-op when `out`
    was cancelled meanwhile (the run is being torn down)."""
    try:
        if src.cancelled():
            out.cancel()
        elif src.exception() is not None:
            out.set_exception(src.exception())
        else:
            out.set_result(value(src.result()))
    except InvalidStateError:
        pass


def _paired(rollout: Rollout, fut: Future) -> Future:
    """A future of (rollout, outcome) resolving with `fut` (an Outcome future). Cancelling it
    cancels `fut`, so a torn-down run does not go on executing queued checks."""
    out: Future = Future()
    out.add_done_callback(lambda o: fut.cancel() if o.cancelled() else None)
    fut.add_done_callback(lambda f: _settle(out, f, lambda outcome: (rollout, outcome)))
    return out


def _follow(pool: ThreadPoolExecutor, rollout: Rollout, first: Future, rerun: Callable[[], Outcome]) -> Future:
    """A duplicate of a row still running: take the first one's outcome (served, so
    cached=True, with the duration measured when it ran) without holding a worker while it
    waits. If the first ended in sandbox_error — not a verdict — the duplicate gets its own
    attempt."""
    out: Future = Future()

    def done(f: Future) -> None:
        if not f.cancelled() and f.exception() is None and f.result().status == "sandbox_error":
            try:
                retry = pool.submit(rerun)
            except RuntimeError:  # the pool is shutting down: the run is ending anyway
                out.cancel()
                return
            out.add_done_callback(lambda o: retry.cancel() if o.cancelled() else None)
            retry.add_done_callback(lambda r: _settle(out, r, lambda outcome: (rollout, outcome)))
            return
        _settle(out, f, lambda outcome: (rollout, replace(outcome, cached=True)))

    first.add_done_callback(done)
    return out




def check_columns(first: Rollout | None, source_columns: list[str] | None, opts: CheckOptions) -> None:
    """A column missing from the input as a whole is an input error (exit 2), not N bad rows."""
    cols = source_columns if source_columns is not None else (list(first.row) if first else None)
    if cols is None:
        return
    for col in opts.required_columns():
        if col not in cols:
            near = ", ".join(sorted(cols)[:12])
            flag = "--completion-col" if col == opts.completion_col else "--tests-col"
            tip = f"the input has: {near}. Map yours with {flag} NAME" + (
                "" if opts.preset != "none" else ", or try --preset humaneval / --preset mbpp"
            )
            raise InputError(f"input has no column {col!r}", tip=tip)


def score_file(
    input_path: str,
    output_path: str | None,
    options: ScoreOptions | None = None,
    on_row: Callable[[Rollout, Outcome, int | None, int | None], None] | None = None,
    grader: Grader | None = None,
    on_env_progress: Callable[[str], None] | None = None,
) -> Summary:
    """Grade every row of `input_path` and write it, with the reward columns, to `output_path`
    (format from its extension; None writes nothing). Returns the run's Summary.

    Raises InputError/OutputError before any row is graded when the input or the output is
    unusable. When the backend is found down (BackendUnavailable), the rows graded up to then
    are written, in input order, and the output committed before the exception propagates
    (its `rows_written` says how many); their outcomes are in the cache, so a rerun resumes."""
    options = options or ScoreOptions()
    source = open_rollouts(input_path)
    checks = options.checks.resolved()
    files = [os.path.abspath(p) for p in (input_path, output_path) if p and p != "-"]
    # Their folders are masked; the files themselves too, in case a folder must stay visible
    # (an input sitting inside the interpreter's own tree).
    hide = [os.path.dirname(p) for p in files] + files
    first, rows = first_row(iter(source))
    check_columns(first, source.columns, checks)
    sink = open_output(output_path, source.schema) if output_path else None
    own = grader is None
    try:
        grader = grader or Grader(options, hide=hide, env_progress=on_env_progress)
        grader.environment  # noqa: B018 - resolved (built if need be) before anything is written
    except BaseException:
        if sink is not None:
            sink.abort()
        if own and isinstance(grader, Grader):
            grader.close()
        raise
    summary = Summary(backend=options.backend)
    ran_before = grader.checks_run
    t0 = time.perf_counter()
    try:
        for rollout, outcome in grader.iter_grade(rows):
            if sink is not None:
                sink.write({**rollout.row, **outcome_columns(outcome)} if rollout.error is None
                           else {"_line": rollout.line, **outcome_columns(outcome)})
            group = rollout.row.get(checks.group_col) if checks.group_col else None
            summary.add(outcome, group)
            if on_row is not None:
                on_row(rollout, outcome, source.bytes_read, source.total_bytes)
        # After the loop: the pool starts lazily, at the first check that is not in the cache.
        summary.isolation = grader.backend.isolation() if grader.checks_run > ran_before else {"level": "cached" if summary.cached else "no check ran"}
    except BackendUnavailable as exc:
        if sink is not None:
            sink.close()  # the rows graded so far, in order: a rerun fills in the rest from the cache
            sink = None
        exc.rows_written = summary.rows  # type: ignore[attr-defined]
        exc.output = output_path  # type: ignore[attr-defined]
        raise
    except BaseException:
        if sink is not None:
            sink.abort()
        raise
    finally:
        if own:
            grader.close()
    if sink is not None:
        sink.close()
        summary.unwritable_values = sink.misfits
    summary.wall_s = time.perf_counter() - t0
    return summary


def with_limits(options: ScoreOptions, **limits: Any) -> ScoreOptions:
    return replace(options, checks=replace(options.checks, limits=replace(options.checks.limits, **limits)))
