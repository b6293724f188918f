"""Judging clients in two processes, and sharing provider checks between clients, change no
output: the report, and ``check``'s JSON, are the serial run's byte for byte; and work a run
repeated is done once."""

from __future__ import annotations

import io
import json
import os
import pickle
import ssl
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import toollens.consumers.registry as registry
import toollens.consumers.workers as workers
from toollens.cli import main
from toollens.consumers import (
    CONSUMERS,
    ConsumerReport,
    available_clients,
    default_clients,
    judge_consumers,
    listing_from_payload,
)
from toollens.consumers.model_sdks import genai_http_options
from toollens.consumers.workers import APART, Worker, split, worker_count

CASES = Path(__file__).parent / "cases"
_BASE = os.environ.get("TOOLLENS_CORPORA_DIR")
_CORPUS = Path(_BASE) if _BASE else Path(__file__).resolve().parents[3] / "shared" / "corpora"
GITHUB = _CORPUS / "mcp" / "server-github.tools.json"

# cases where clients differ: refusals, rewrites, provider rejections, failed conversions
NAMES = ("frameworks", "provider-refuses", "pydantic-ai-fails", "request-fails", "x-mcp-header")
FILES = [CASES / f"{name}.tools.json" for name in NAMES] + ([GITHUB] if GITHUB.is_file() else [])


def _listing(path: Path) -> Any:
    return listing_from_payload(json.loads(path.read_text(encoding="utf-8")), label=path.name)


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> list[Worker[Any]]:
    """Fork allowed here as on a user's two-core Linux machine (a pytest-xdist worker runs
    threads, where toollens does not fork); the workers started, to check they were used."""
    monkeypatch.setattr(workers, "_can_fork", lambda: True)
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    started: list[Worker[Any]] = []

    def start(work: Callable[[], Any]) -> Worker[Any]:
        started.append(Worker(work))
        return started[-1]

    monkeypatch.setattr(registry, "start_worker", start)
    return started


@pytest.mark.parametrize("path", FILES, ids=[p.name.removesuffix(".tools.json") for p in FILES])
def test_clients_judged_apart_are_the_serial_report(path: Path, forking: list[Worker[Any]]) -> None:
    listing = _listing(path)
    serial = judge_consumers(listing, ["all"], jobs=1)
    assert not forking
    apart = judge_consumers(listing, ["all"], jobs=None)
    assert len(forking) == 1
    assert forking[0].from_child  # the child's judgements were used
    assert apart == serial
    assert pickle.loads(pickle.dumps(serial)) == serial  # what a worker sends back


def test_shared_provider_checks_change_no_verdict() -> None:
    # each client judged in a run of its own shares no check with another client
    listing = _listing(CASES / "provider-refuses.tools.json")
    shared = judge_consumers(listing, ["all"], jobs=1)
    alone = [judge_consumers(listing, [c], jobs=1).judgements[0] for c in available_clients()]
    assert shared == ConsumerReport(listing, tuple(alone))


@pytest.mark.parametrize(("clients", "fmt"), [((), "json"), (("all",), "json"), (("all",), "text")])
def test_check_prints_the_same_bytes_with_a_worker(
    clients: tuple[str, ...], fmt: str, forking: list[Worker[Any]]
) -> None:
    path = str(GITHUB if GITHUB.is_file() else CASES / "frameworks.tools.json")
    flags = [arg for c in clients for arg in ("--client", c)]

    def check(*extra: str) -> tuple[int, str]:
        out = io.StringIO()
        code = main(["check", path, *flags, "--format", fmt, *extra], stdout=out)
        return code, out.getvalue()

    serial = check("--jobs", "1")
    assert not forking
    assert check() == serial
    assert len(forking) == 1
    assert forking[0].from_child


@pytest.mark.slow
def test_the_command_prints_the_same_bytes_with_a_worker() -> None:
    # as a user runs it: a fresh interpreter, whose one thread may fork
    path = str(CASES / "frameworks.tools.json")

    def check(*extra: str) -> subprocess.CompletedProcess[str]:
        argv = [sys.executable, "-m", "toollens", "check", path, "--client", "all"]
        return subprocess.run(
            [*argv, "--format", "json", *extra],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    serial, apart = check("--jobs", "1"), check()
    assert (apart.returncode, apart.stdout) == (serial.returncode, serial.stdout)
    assert json.loads(serial.stdout)["clients"]


def test_a_failed_worker_is_judged_here(forking: list[Worker[Any]]) -> None:
    parent = os.getpid()
    assert Worker(os.getpid).result() != parent  # run in the child
    assert Worker(lambda: 1 / 0 if os.getpid() != parent else "here").result() == "here"
    unpicklable = Worker(lambda: (lambda: None) if os.getpid() != parent else "here")
    assert unpicklable.result() == "here"
    assert not unpicklable.from_child
    waiting = Worker(lambda: "x" * 10_000_000)
    waiting.close()  # a caller that failed first stops it


def test_which_clients_go_to_the_worker(forking: list[Worker[Any]]) -> None:
    defaults = default_clients()
    here, apart = split(defaults, None)
    assert set(apart) == {"claude-code", "claude-desktop"}
    assert here + apart == tuple(c for c in defaults if c not in APART) + apart
    assert split(defaults, 1) == (defaults, ())  # --jobs 1: one process
    assert split(("cursor",), None) == (("cursor",), ())  # nothing to send away
    assert split(("claude-code",), None) == (("claude-code",), ())  # nothing left here
    assert [worker_count(j) for j in (None, 0, 1, 2, 8)] == [2, 2, 1, 2, 2]


def test_the_worker_takes_the_clients_that_send_to_anthropic() -> None:
    assert {c.id for c in CONSUMERS.values() if c.provider == "anthropic"} == APART


def test_one_core_or_threads_mean_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "usable_cores", lambda: 1)
    assert worker_count(None) == 1
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    monkeypatch.setattr(workers.threading, "active_count", lambda: 2)
    assert worker_count(None) == 1


def test_a_genai_client_is_built_without_loading_a_ca_bundle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # google-genai's consumers build a client per tool when a request fails (server-github):
    # each would load the CA bundle twice, for connections the recording transport never makes
    genai = pytest.importorskip("google.genai")  # 3.10's test extra leaves it out

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a CA bundle was loaded")

    monkeypatch.setattr(ssl, "create_default_context", refused)
    client = genai.Client(api_key="toollens-offline", http_options=genai_http_options([]))
    assert client.aio is not None


def test_each_judgement_is_handed_on_once_this_process_first(forking: list[Worker[Any]]) -> None:
    # check counts the chosen clients' costs in on_judged, while the worker judges
    listing = _listing(CASES / "frameworks.tools.json")
    seen: list[str] = []
    report = judge_consumers(listing, ["all"], jobs=None, on_judged=lambda j: seen.append(j.client))
    here, apart = split(available_clients(), None)
    assert seen == [*here, *apart]
    assert [j.client for j in report.judgements] == list(available_clients())
