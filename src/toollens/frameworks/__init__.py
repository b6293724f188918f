"""Adapters over the real frameworks: what each one sends for the same Python function.

Each adapter is one module with a ``SPEC`` and a ``build(func) -> Sent`` that imports its
framework lazily and calls the framework's public API; nothing is re-implemented and
nothing is sent anywhere. Adding a framework is one module and one entry in ``ADAPTERS``.

Frameworks are slow to import (up to a second each), so :func:`preload` imports them once
per process, off the path of a keystroke; :func:`adapt` works without it.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import threading
import warnings
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from toollens.core.errors import TargetError
from toollens.core.schema.types import ToolFunction
from toollens.frameworks._spec import FrameworkSpec
from toollens.frameworks.records import FrameworkResult, Sent, Status

__all__ = [
    "ADAPTERS",
    "FrameworkResult",
    "FrameworkSpec",
    "Sent",
    "Status",
    "adapt",
    "adapt_all",
    "installed",
    "names",
    "preload",
    "spec",
]

#: framework key -> adapter module; the order is the order of every view.
ADAPTERS: dict[str, str] = {
    "openai-agents": "toollens.frameworks.openai_agents",
    "pydantic-ai": "toollens.frameworks.pydantic_ai",
    "langchain": "toollens.frameworks.langchain",
    "langchain-tool": "toollens.frameworks.langchain_tool",
    "mcp": "toollens.frameworks.mcp_sdk",
    "fastmcp": "toollens.frameworks.fastmcp",
    "anthropic": "toollens.frameworks.anthropic_sdk",
    "google-genai": "toollens.frameworks.google_genai",
}

_lock = threading.Lock()
_adapters: dict[str, ModuleType] = {}


def names() -> tuple[str, ...]:
    """Every framework toollens has an adapter for, installed or not."""
    return tuple(ADAPTERS)


def _adapter(key: str) -> ModuleType:
    module = _adapters.get(key)
    if module is not None:
        return module
    if key not in ADAPTERS:
        raise TargetError(
            f"unknown framework {key!r}",
            hint=f"choose from {', '.join(ADAPTERS)}",
        )
    module = importlib.import_module(ADAPTERS[key])
    found: FrameworkSpec = module.SPEC
    if found.key != key or not callable(getattr(module, "build", None)):
        # A table entry that names the wrong module is a bug in toollens, found on first use.
        raise RuntimeError(f"adapter {ADAPTERS[key]} does not implement framework {key!r}")
    _adapters[key] = module
    return module


def spec(key: str) -> FrameworkSpec:
    """The spec of one framework; ``TargetError`` for an unknown key."""
    spec_: FrameworkSpec = _adapter(key).SPEC
    return spec_


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def _missing_module(spec_: FrameworkSpec) -> str | None:
    top = spec_.modules[0]
    try:
        found = importlib.util.find_spec(top)
    except (ImportError, ValueError):  # a parent package missing or broken
        found = None
    return None if found is not None else top


def installed(frameworks: Iterable[str] | None = None) -> tuple[str, ...]:
    """The frameworks (of ``frameworks``, default all) whose package can be imported."""
    keys = names() if frameworks is None else tuple(frameworks)
    return tuple(k for k in keys if _missing_module(spec(k)) is None)


def preload(frameworks: Iterable[str] | None = None) -> tuple[str, ...]:
    """Import the installed frameworks now, once per process; returns the ones loaded.

    Call it from a background thread or before the first keystroke: later calls to
    :func:`adapt` then only build tools. A framework that fails to import is skipped
    here and reported by :func:`adapt`.
    """
    loaded = []
    with _lock:
        for key in installed(frameworks):
            try:
                for module in spec(key).modules:
                    importlib.import_module(module)
            except Exception:  # reported with the framework's message by adapt()
                continue
            loaded.append(key)
    return tuple(loaded)


def adapt(func: ToolFunction, framework: str) -> FrameworkResult:
    """What one framework makes of ``func``: its tool's name, description and schema.

    Never raises for the framework's sake: a missing package is ``NOT_INSTALLED``, any
    exception the framework raises is ``REFUSED`` with its own message. ``TargetError``
    for an unknown framework key.
    """
    spec_ = spec(framework)
    base = FrameworkResult(
        framework=spec_.key,
        label=spec_.label,
        api=spec_.api,
        version=_version(spec_.distribution),
        status=Status.NOT_INSTALLED,
    )
    missing = _missing_module(spec_)
    if missing is not None:
        return _replace(base, message=f"cannot import {missing}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            sent: Sent = _adapter(framework).build(func)
        except Exception as exc:  # the framework's refusal, whatever its type, is the finding
            return _replace(
                base,
                status=Status.REFUSED,
                message=f"{type(exc).__name__}: {_first_lines(exc)}",
                warnings=_warning_texts(caught),
            )
    return _replace(base, status=Status.ACCEPTED, sent=sent, warnings=_warning_texts(caught))


def adapt_all(
    func: ToolFunction, frameworks: Iterable[str] | None = None
) -> tuple[FrameworkResult, ...]:
    """:func:`adapt` for each framework (default: every one toollens knows)."""
    keys = names() if frameworks is None else tuple(dict.fromkeys(frameworks))
    return tuple(adapt(func, key) for key in keys)


def _replace(result: FrameworkResult, **changes: Any) -> FrameworkResult:
    import dataclasses

    return dataclasses.replace(result, **changes)


def _first_lines(exc: BaseException, limit: int = 600) -> str:
    text = " ".join(str(exc).split()) or "(no message)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _warning_texts(caught: list[warnings.WarningMessage]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught))
