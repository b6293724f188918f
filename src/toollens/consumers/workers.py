"""Judge a tool list's consumers in two processes; the report is the serial one.

Most of what judging costs is importing the libraries each consumer drives (the Agents SDK,
pydantic-ai, the Anthropic SDK, LangChain, google-genai; jsonschema for Anthropic's provider
check), and consumers that share none of them need not wait for each other. When more than
one core is available and the process can fork safely (Linux, one thread), the consumers of
:data:`APART` are judged in one forked worker while this process judges the others; the
worker sends its judgements back pickled, and the caller puts every judgement in the order
asked. A worker that fails, or whose judgements cannot be pickled, changes nothing but the
time: this process judges its consumers again.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

__all__ = ["APART", "Worker", "split", "start_worker", "usable_cores", "worker_count"]

_T = TypeVar("_T")

APART: frozenset[str] = frozenset(
    {"claude-code", "claude-desktop", "anthropic-sdk", "pydantic-ai:anthropic"}
)
"""The consumers judged in the worker: those that send to Anthropic. Only they need the two
largest imports, jsonschema (Anthropic's provider check) and the Anthropic SDK, and the two
sides then cost about the same (``benchmarks/bench_check_clients.py``: with the default
clients, jsonschema against the Agents SDK; with all, those two and pydantic-ai against the
Agents SDK, pydantic-ai, google-genai and LangChain). The worker takes them rather than this
process because this process has more to do once both are judged (the costs of the tools
each chosen client sends)."""


def worker_count(jobs: int | None) -> int:
    """How many processes judge: ``jobs`` (``None`` or 0: two when this process may use more
    than one core), at most two, and one where forking is not safe."""
    if jobs == 1 or not _can_fork():
        return 1
    if jobs is None or jobs == 0:
        return 2 if usable_cores() > 1 else 1
    return min(jobs, 2)


def split(chosen: Sequence[str], jobs: int | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``chosen`` as (judged here, judged in the worker); the worker's side is empty when one
    process judges, or when either side would have nothing to judge."""
    apart = tuple(c for c in chosen if c in APART)
    here = tuple(c for c in chosen if c not in APART)
    if worker_count(jobs) < 2 or not apart or not here:
        return tuple(chosen), ()
    return here, apart


def usable_cores() -> int:
    """The cores this process may run on (its affinity, where the platform has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def _can_fork() -> bool:
    # macOS and Windows: no fork (or an unsafe one); another thread may hold a lock the
    # child would wait on forever.
    return sys.platform.startswith("linux") and threading.active_count() == 1


class Worker(Generic[_T]):
    """``work()`` run in a forked child; :meth:`result` is what it returned.

    Attributes:
        from_child: whether :meth:`result` came from the child (``False`` until it is
            taken, or when the child failed and ``work()`` ran here).
    """

    def __init__(self, work: Callable[[], _T]) -> None:
        self._work = work
        self.from_child = False
        for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
            stream.flush()
        read, write = os.pipe()
        self._pid = os.fork()
        if self._pid == 0:  # the child: never returns
            os.close(read)
            _child(work, write)
        os.close(write)
        self._read: int | None = read

    def result(self) -> _T:
        """What the child's ``work()`` returned, or, when it failed, ``work()`` run here."""
        data = b""
        try:
            with os.fdopen(self._take(), "rb") as pipe:
                data = pipe.read()
        finally:
            os.waitpid(self._pid, 0)
        if data:
            try:
                value: _T = pickle.loads(data)
            except Exception:  # a class that does not load again: judge here, as if serial
                return self._work()
            self.from_child = True
            return value
        return self._work()

    def close(self) -> None:
        """Stop the child when its result is not wanted (the caller failed first)."""
        if self._read is None:
            return
        os.close(self._take())
        with contextlib.suppress(ProcessLookupError):  # it may have ended already
            os.kill(self._pid, signal.SIGKILL)
        os.waitpid(self._pid, 0)

    def _take(self) -> int:
        read, self._read = self._read, None
        assert read is not None
        return read


def _child(work: Callable[[], object], write: int) -> None:
    code = 0
    try:
        try:
            data = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException:  # any failure: the parent judges these itself
            data, code = b"", 1
        with os.fdopen(write, "wb") as pipe:
            pipe.write(data)
    finally:
        with contextlib.suppress(Exception):  # a warning a library printed, not lost
            sys.stderr.flush()
        os._exit(code)


def start_worker(work: Callable[[], _T]) -> Worker[_T]:
    """``work()`` started in a forked child (see :class:`Worker`)."""
    return Worker(work)
