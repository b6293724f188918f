"""Adapters over the real frameworks: what each one sends for the same Python function.

Every framework is declared once, as one :class:`FrameworkSpec` in ``ADAPTERS`` (key, label,
API, distribution, modules, and its adapter module). The adapter module holds only a
``build(func) -> Sent`` that imports its framework lazily and calls the framework's public
API; nothing is re-implemented and nothing is sent anywhere. Adding a framework is one
adapter module and one entry in ``ADAPTERS``.

Frameworks are slow to import (up to a second each), so :func:`preload` imports them once
per process, off the path of a keystroke; :func:`adapt` works without it.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import threading
import warnings
from collections.abc import Callable, Iterable
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

#: framework key -> its declaration; the order is the order of every view. The adapter
#: paths stay literal strings: the import-graph test reads them as this package's edges.
ADAPTERS: dict[str, FrameworkSpec] = {
    entry.key: entry
    for entry in (
        FrameworkSpec(
            key="openai-agents",
            label="OpenAI Agents SDK",
            api="function_tool(func)",
            distribution="openai-agents",
            modules=("agents", "agents.models.chatcmpl_converter"),
            adapter="toollens.frameworks.openai_agents",
        ),
        FrameworkSpec(
            key="pydantic-ai",
            label="pydantic-ai",
            api="Tool(func).tool_def",
            distribution="pydantic-ai-slim",
            modules=("pydantic_ai",),
            adapter="toollens.frameworks.pydantic_ai",
        ),
        FrameworkSpec(
            key="langchain",
            label="LangChain",
            api="convert_to_openai_tool(func)",
            distribution="langchain-core",
            modules=("langchain_core.utils.function_calling",),
            adapter="toollens.frameworks.langchain",
        ),
        FrameworkSpec(
            key="langchain-tool",
            label="LangChain @tool",
            api="convert_to_openai_tool(tool(func, parse_docstring=True))",
            distribution="langchain-core",
            modules=("langchain_core.tools", "langchain_core.utils.function_calling"),
            adapter="toollens.frameworks.langchain_tool",
        ),
        FrameworkSpec(
            key="mcp",
            label="MCP Python SDK",
            api="MCPServer().add_tool(func); list_tools()",
            distribution="mcp",
            modules=("mcp.server.mcpserver",),
            adapter="toollens.frameworks.mcp_sdk",
        ),
        FrameworkSpec(
            key="fastmcp",
            label="FastMCP",
            api="FastMCP().tool(func); list_tools()",
            distribution="fastmcp",
            modules=("fastmcp",),
            adapter="toollens.frameworks.fastmcp",
        ),
        FrameworkSpec(
            key="anthropic",
            label="Anthropic SDK",
            api="beta_tool(func).to_dict()",
            distribution="anthropic",
            modules=("anthropic",),
            adapter="toollens.frameworks.anthropic_sdk",
        ),
        FrameworkSpec(
            key="google-genai",
            label="Google GenAI",
            api="FunctionDeclaration.from_callable_with_api_option"
            "(callable=func, use_json_schema=True)",
            distribution="google-genai",
            modules=("google.genai.types",),
            adapter="toollens.frameworks.google_genai",
        ),
    )
}

_lock = threading.Lock()


def names() -> tuple[str, ...]:
    """Every framework toollens has an adapter for, installed or not."""
    return tuple(ADAPTERS)


def spec(key: str) -> FrameworkSpec:
    """The declaration of one framework (no import); ``TargetError`` for an unknown key."""
    found = ADAPTERS.get(key)
    if found is None:
        raise TargetError(
            f"unknown framework {key!r}",
            hint=f"choose from {', '.join(ADAPTERS)}",
        )
    if found.key != key:
        # An entry filed under another framework's key is a bug in toollens, found on first use.
        raise RuntimeError(f"ADAPTERS[{key!r}] declares framework {found.key!r}")
    return found


def _build(key: str) -> Callable[[ToolFunction], Sent]:
    """The ``build`` of a framework's adapter module (imported once; the framework is not)."""
    adapter = spec(key).adapter
    build: Callable[[ToolFunction], Sent] | None = getattr(
        importlib.import_module(adapter), "build", None
    )
    if not callable(build):
        # An entry that names the wrong module is a bug in toollens, found on first use.
        raise RuntimeError(f"adapter {adapter} of framework {key!r} has no build(func)")
    return build


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
    build = _build(framework)
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
            sent = build(func)
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
