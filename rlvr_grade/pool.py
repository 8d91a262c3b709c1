"""Concurrency with order kept and memory bounded: at most `window` rows are in flight or
waiting to be written, however large the input is. Retries of infrastructure failures, and the
health of the backend they come from (a dead backend stops the run instead of failing every
remaining row slowly)."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from rlvr_grade.types import BackendUnavailable, SandboxError

T = TypeVar("T")
R = TypeVar("R")


def done_future(value: R) -> "Future[R]":
    fut: Future[R] = Future()
    fut.set_result(value)
    return fut


def ordered_map(
    items: Iterable[T],
    submit: Callable[[ThreadPoolExecutor, T], "Future[R]"],
    concurrency: int,
    window: int | None = None,
) -> Iterator[R]:
    """Yield submit()'s results in input order. `submit` may return an already-done future
    for rows that need no sandbox (invalid rows, cache hits)."""
    window = window or max(64, concurrency * 32)
    pending: deque[Future[R]] = deque()
    with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="rlvr-check") as pool:
        try:
            for item in items:
                pending.append(submit(pool, item))
                while pending and (len(pending) >= window or pending[0].done()):
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for fut in pending:
                fut.cancel()


class BackendHealth:
    """Whether the backend still grades, from the checks it runs.

    Every attempt that raises SandboxError is an infrastructure failure; any check that returns
    ends a streak. When `max_failures` attempts in a row failed, or failures kept coming for
    `dead_after_s` seconds with no check succeeding (0 disables either rule), one probe check
    (`probe`: a trivial check that must pass on any working backend) decides: if it runs, the
    failures belong to those rows (a hostile or broken row is retried, then sandbox_error, as
    ever) and the streak starts over; if it fails too, the backend is down: from then on every
    attempt raises BackendUnavailable naming the cause, and sleeps between retries end at once."""

    def __init__(self, backend: str = "", max_failures: int = 20, dead_after_s: float = 30.0,
                 probe: Callable[[], object] | None = None, clock: Callable[[], float] = time.monotonic):
        self.backend = backend
        self.max_failures = max_failures
        self.dead_after_s = dead_after_s
        self.probe = probe
        self.clock = clock
        self._lock = threading.Lock()
        self._down = threading.Event()
        self._streak = 0
        self._since: float | None = None
        self._last_success: float | None = None
        self._probing = False
        self.reason: str | None = None
        self.probes = 0

    @property
    def tripped(self) -> bool:
        return self._down.is_set()

    def check(self) -> None:
        """Raise BackendUnavailable once the backend has been found down."""
        if self._down.is_set():
            raise BackendUnavailable(self.reason or f"the {self.backend} backend is down")

    def reset(self) -> None:
        """Forget a verdict of down (a new run gives the backend a new chance)."""
        with self._lock:
            self._down.clear()
            self.reason = None
            self._streak, self._since = 0, None

    def succeeded(self) -> None:
        with self._lock:
            self._streak, self._since = 0, None
            self._last_success = self.clock()

    def failed(self, exc: BaseException, started: float | None = None) -> None:
        """Record a failed attempt that began at `started` (clock time; default: now). The
        time rule counts from the later of the last success and the first failing attempt's
        start: checks in flight when a backend dies fail only after their own timeouts."""
        now = self.clock()
        with self._lock:
            self._streak += 1
            if self._since is None:
                begun = now if started is None else started
                self._since = begun if self._last_success is None else max(begun, self._last_success)
            streak, since = self._streak, self._since
            due = (self.max_failures > 0 and streak >= self.max_failures) or (
                self.dead_after_s > 0 and streak >= 2 and now - since >= self.dead_after_s
            )
            if not due or self._probing or self._down.is_set():
                return
            self._probing = True
        cause: BaseException | None = exc
        try:
            if self.probe is not None:
                self.probes += 1
                try:
                    self.probe()
                    cause = None
                except Exception as probe_exc:  # noqa: BLE001 - the probe failing is the verdict
                    cause = probe_exc
        finally:
            with self._lock:
                self._probing = False
                if cause is None:  # the backend grades: these failures were the rows' own
                    self._streak, self._since = 0, None
                else:
                    what = " ".join(str(cause).split())[:300] or type(cause).__name__
                    self.reason = (
                        f"{what} ({streak} checks failed in a row over {now - since:.0f} s"
                        f"{', and a probe check too' if self.probe is not None else ''}; the run stopped)"
                    )
                    self._down.set()

    def pause(self, seconds: float) -> None:
        """Sleep between retries; returns as soon as the backend is found down."""
        self._down.wait(seconds)


def with_retries(fn: Callable[[], R], attempts: int = 3, base_delay: float = 0.5, health: BackendHealth | None = None) -> R:
    """Retry infrastructure failures with exponential backoff; re-raise the last one. With
    `health`, each attempt is recorded there and none starts once the backend is down.
    `attempts` below 1 is one attempt (no retry), never none."""
    attempts = max(1, attempts)
    for attempt in range(attempts):
        if health is not None:
            health.check()
            started = health.clock()
        try:
            result = fn()
        except BackendUnavailable:
            raise
        except SandboxError as exc:
            if health is not None:
                health.failed(exc, started)
                health.check()
            if attempt == attempts - 1:
                raise
            delay = base_delay * (2**attempt)
            if health is not None:
                health.pause(delay)
            else:
                time.sleep(delay)
        else:
            if health is not None:
                health.succeeded()
            return result
    raise AssertionError("unreachable")
