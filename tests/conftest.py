"""Shared fixtures and options: golden files (``--update-goldens``) and the no-network guard."""

from __future__ import annotations

import gc
import os
import socket
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support import goldens, moved, scheduling
from support.goldens import check_json as check_golden  # the name test modules import

# pytest rewrites the asserts of every package that ships a pytest plugin (hypothesis,
# anyio, langsmith), each module as it is imported, unless its bytecode is cached
# (PYTHONDONTWRITEBYTECODE=1 here: nothing is). Their asserts are not this suite's; read
# from their installed bytecode they save each pytest process ~1-2 s (langsmith alone has
# 220 modules, imported with LangChain). This suite's test modules and conftest are still
# rewritten, with the same messages. Nothing above imports them.
THIRD_PARTY_REWRITES = frozenset({"hypothesis", "_hypothesis_ftz_detector", "anyio", "langsmith"})
for _finder in sys.meta_path:
    _marked = getattr(_finder, "_must_rewrite", None)  # pytest's AssertionRewritingHook
    if isinstance(_marked, set) and _marked & THIRD_PARTY_REWRITES:
        _marked.difference_update(THIRD_PARTY_REWRITES)
        getattr(_finder, "_marked_for_rewrite_cache", {}).clear()

__all__ = ["NetworkAccessError", "check_golden"]


# Test modules written for the flat layout import the helpers by their old bare names.
moved.install()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        goldens.OPTION,
        action="store_true",
        default=False,
        help="rewrite the golden files under tests/golden/ from the current output (review "
        "the diff); without it a missing or different golden file fails",
    )


# Modules marked `slow` (whole-suite runs only; the everyday loop is -m "not slow and not
# browser"): each spends seconds in subprocesses, kernels, notebooks or hypothesis examples.
SLOW_MODULES = frozenset({
    "test_benchmarks_smoke", "test_notebooks", "test_static_copies", "test_project_precommit",
    "test_endless_editing", "test_strict_properties", "test_diff_properties",
    "test_hardening_properties", "test_providers_corpus", "test_mcp_call", "test_mcp_call_oracle",
    "test_mcp_call_http", "test_explorer_memory_flat", "test_bench_memo_smoke",
    "test_framework_table", "test_tokens_bench_smoke", "test_roundtrip_bench",
})  # fmt: skip
# Single tests that run a benchmark script (``--quick``) in a subprocess: benchmarks, not the
# behaviour the everyday loop checks (each took 17-31 s of a 2-core loop).
SLOW_TESTS = frozenset({"test_bench_toolset_quick_runs"})
# Modules marked `frameworks`: they drive the agent frameworks' own code.
FRAMEWORK_MODULES = frozenset({
    "test_framework_adapters", "test_framework_compare", "test_framework_cli_render",
    "test_explorer_frameworks",
})  # fmt: skip


def pytest_configure(config: pytest.Config) -> None:
    from hypothesis import HealthCheck, settings  # after the rewrite marks above are gone

    # No test asserts a time, and Hypothesis' deadline (200 ms an example) and its too-slow
    # health check are times: on a loaded machine they failed a patching property about one
    # run in four. A test that needs them sets them itself.
    settings.register_profile(
        "toollens", deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    settings.load_profile("toollens")
    alias = os.environ.get("TOOLLENS_REGEN_GOLDEN") == "1"
    goldens.UPDATE = bool(config.getoption("update_goldens")) or alias


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under ``-n``, modules go to a worker whole, large ones in chunks: see scheduling."""
    if config.option.dist != "load":
        return None  # a --dist the user chose
    return scheduling.ModuleChunkScheduling(config, log, long=_known_long)


def _known_long(nodeid: str) -> bool:
    """Whether a test is one of those known to take seconds: the slow ones, the browser's
    (the controller has only test ids, not items)."""
    path = Path(nodeid.partition("::")[0])
    name = nodeid.rpartition("::")[2].partition("[")[0]
    return _is_browser(path) or _is_slow(path, name)


def _is_browser(path: Path) -> bool:
    return path.parent.name == "browser"


def _is_slow(path: Path, name: str) -> bool:
    return path.stem in SLOW_MODULES or name in SLOW_TESTS


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[None]:
    """Collect with the cyclic garbage collector paused, then freeze what collection built.

    Importing ~230 test modules and building ~8,000 items grows the heap to ~600,000
    objects; with the collector running, it re-traversed them ~20 times (2 s of each
    process's collection). Afterwards the survivors (modules, functions, items: they live
    the whole session) are moved out of the collector's view with ``gc.freeze()``, so the
    full collections during the run traverse only what the tests themselves keep.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return (yield)
    finally:
        if was_enabled:
            gc.enable()
        gc.collect()
        gc.freeze()
        # The default threshold (700 new objects) ran ~19,000 young collections in a 1,400-test
        # run, 5.1 of its 42.5 s of CPU; at 20,000 it ran ~600, 2.2 s (39.6 s in all), with the
        # same peak memory. Cycles are still collected, less often.
        gc.set_threshold(20_000, 20, 100)


def _shares_module_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    defs = info.name2fixturedefs.values() if info is not None else ()
    return any(d.scope == "module" and d.baseid for ds in defs for d in ds)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    sizes: Counter[Path] = Counter(item.path for item in items)
    for item in items:
        module = item.path.stem
        if _is_browser(item.path):
            item.add_marker(pytest.mark.browser)
        if _is_slow(item.path, getattr(item, "originalname", "")):
            item.add_marker(pytest.mark.slow)
        if module in FRAMEWORK_MODULES or item.path.parent.name == "frameworks":
            item.add_marker(pytest.mark.frameworks)
        if sizes[item.path] > scheduling.WHOLE and _shares_module_fixture(item):
            raise pytest.UsageError(
                f"{item.nodeid} shares a module-scoped fixture in a module of"
                f" {sizes[item.path]} tests; under -n a module goes to one worker whole only"
                f" up to {scheduling.WHOLE} tests: split the module"
                " (tests/support/scheduling.py)"
            )


@pytest.fixture
def golden():  # type: ignore[no-untyped-def]
    return check_golden


class NetworkAccessError(AssertionError):
    pass


def _refuse(*args: Any, **kwargs: Any) -> None:
    raise NetworkAccessError(f"toollens tried to open a network connection: {args!r}")


@pytest.fixture(autouse=True)
def no_network(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any test (browser and notebook tests excepted) that opens a socket connection."""
    if request.node.get_closest_marker("browser") or request.node.get_closest_marker("network_ok"):
        return
    monkeypatch.setattr(socket.socket, "connect", _refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", _refuse)
    monkeypatch.setattr(socket, "create_connection", _refuse)
    monkeypatch.setattr(socket, "getaddrinfo", _refuse)
