"""The registries ``toolset`` dispatches through: string prefixes and object readers.

``register_source("mcp", loader)`` makes ``toolset("mcp:...")`` call ``loader``;
``register_object_reader(reader)`` lets ``toolset`` read one more kind of Python object (an
agent, a framework's tool). Kept apart from :mod:`~toollens.toolsets.sources` so readers
and the module rule can use it without an import cycle.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from toollens.core.errors import TargetError
from toollens.toolsets.entries import Tool, ToolOrigin, name_of
from toollens.toolsets.model import Toolset

if TYPE_CHECKING:
    from toollens.core.report import Report, ReportOptions
    from toollens.mcp.client import ConnectOptions

__all__ = [
    "ConnectingLoader",
    "ObjectReader",
    "SourceLoader",
    "framework_entries",
    "framework_report",
    "loader_for",
    "register_object_reader",
    "register_source",
    "registered_prefixes",
]

SourceLoader = Callable[[str, "ReportOptions | None"], Toolset]
"""Reads the rest of a prefixed source string (``"calc:basic"`` -> ``"basic"``) into a
toolset."""

ConnectingLoader = Callable[[str, "ReportOptions | None", "ConnectOptions | None"], Toolset]
"""A loader that reaches servers (``mcp:``, the project table that lists some): it is also
given the connection options ``toolset(source, connect=...)`` was called with."""

ObjectReader = Callable[[Any, "ReportOptions | None", str], "list[Tool] | None"]
"""Reads the tools of one Python object (an agent, a framework tool) with a label, or
returns ``None`` when the object is not of its kind."""

_PREFIX = re.compile(r"[a-z][a-z0-9-]+")
_LOADERS: dict[str, ConnectingLoader] = {}
_READERS: list[ObjectReader] = []


def register_source(
    prefix: str, loader: SourceLoader | ConnectingLoader, *, connects: bool = False
) -> None:
    """Read string sources written ``PREFIX:REST`` with ``loader(REST, options)``, or with
    ``loader(REST, options, connect)`` when ``connects`` (a :data:`ConnectingLoader`).

    ``prefix`` is lower-case letters, digits and ``-``, at least two characters (so a
    Windows drive letter is never one). Registering a prefix again replaces its loader.
    """
    if not _PREFIX.fullmatch(prefix):
        raise TargetError(
            f"source prefix {prefix!r} must be lower-case letters, digits or '-', 2+ characters"
        )
    if connects:
        _LOADERS[prefix] = cast("ConnectingLoader", loader)
    else:
        plain = cast("SourceLoader", loader)
        _LOADERS[prefix] = lambda rest, options, connect: plain(rest, options)


def registered_prefixes() -> tuple[str, ...]:
    """The prefixes string sources can start with, sorted."""
    return tuple(sorted(_LOADERS))


def register_object_reader(reader: ObjectReader) -> None:
    """Let ``toolset`` read one more kind of object (tried before the built-in kinds)."""
    if reader not in _READERS:
        _READERS.append(reader)


def loader_for(prefix: str) -> ConnectingLoader | None:
    """The loader registered for ``prefix`` (called with the connection options), if any."""
    return _LOADERS.get(prefix)


def framework_entries(obj: object, options: ReportOptions | None, label: str) -> list[Tool] | None:
    """The entries a registered object reader finds in ``obj``; ``None`` when none knows it."""
    for reader in _READERS:
        try:
            found = reader(obj, options, label)
        except Exception as exc:  # a framework object's properties run user code
            origin = ToolOrigin(kind="callable", label=label)
            error = f"reading {type(obj).__name__} raised {type(exc).__name__}: {exc}"
            return [Tool.failed(_name_of(obj), origin, error)]
        if found is not None:
            return found
    return None


def framework_report(obj: object, options: ReportOptions) -> Report | None:
    """The report of one framework tool object, as its framework sends it; ``None`` when no
    reader knows ``obj`` (then :func:`toollens.report` reads it as a callable, model or schema).

    Raises:
        TargetError: the object holds several tools, or its tool cannot be read.
    """
    found = framework_entries(obj, options, _name_of(obj))
    if found is None:
        return None
    if len(found) != 1 or found[0].report is None:
        what = found[0].error if len(found) == 1 else f"it holds {len(found)} tools"
        raise TargetError(
            f"{_name_of(obj)!r} cannot be read as one tool: {what or 'it has no schema'}",
            hint="name one of its tools, or read them all: `toollens check MODULE:ATTR`, "
            "`toollens.toolset(obj)`",
        )
    return found[0].report


def _name_of(obj: Any) -> str:
    return name_of(obj, "name")
