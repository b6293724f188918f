"""``toolset(source)``: read every tool a source gives a model.

A source is one of:

- a :class:`Toolset` (returned as is) or an iterable of tools: functions and classes,
  :class:`Tool` records, tool definitions (dicts), and framework tool objects;
- a module object, or a string naming one (``"pkg.tools"``, ``"path/to/tools.py"``): see
  :func:`module_tools` for which of its attributes count as tools;
- a provider payload (``{"tools": [...]}``) as a dict, or a ``.json`` file holding one;
- ``"MODULE:ATTR"`` / ``"file.py:ATTR"``: the object named (a list, an agent, a function);
- a ``.json`` file holding a payload object or a bare list of tools;
- ``"project"`` or ``"project:DIR"``: the ``[tool.toollens] tools`` table of a project
  (the project layer registers that prefix: :mod:`toollens.project.source`);
- a string with a registered prefix (``"mcp:..."``): see
  :func:`~toollens.toolsets.registry.register_source`.

A source that cannot be read at all (a module that fails to import, a missing file, an MCP
server that does not answer, an object of an unknown kind, a string naming a source with no
tool) raises
:class:`~toollens.core.errors.TargetError` with one line naming the source and what to do;
a tool of a readable source that cannot be read is one entry carrying its error, and the
other tools are still read.
"""

from __future__ import annotations

import dataclasses
import os
import types
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toollens.core.errors import TargetError, ToolLensError
from toollens.core.options import ReportOptions
from toollens.toolsets.entries import OriginKind, Tool, ToolOrigin, callable_origin, one_line
from toollens.toolsets.mcp_source import saved_list_refusals
from toollens.toolsets.model import Toolset
from toollens.toolsets.registry import framework_entries, loader_for

if TYPE_CHECKING:
    from toollens.mcp.client import ConnectOptions

__all__ = ["holds_several", "read_object", "toolset", "unknown_entry"]


def toolset(
    source: object,
    options: ReportOptions | None = None,
    *,
    connect: ConnectOptions | None = None,
) -> Toolset:
    """Every tool ``source`` gives a model, each with its report, and the cross-tool findings.

    Args:
        source: see the module documentation for every accepted form.
        options: the report options every Python and JSON tool is read with.
        connect: how to reach the MCP servers a string source names (``env``,
            ``timeout``); the defaults when ``None``.

    Returns:
        A :class:`Toolset`; a tool that cannot be read is an entry with its ``error``.

    Raises:
        TargetError: the source as a whole cannot be read (see the module documentation).
    """
    if isinstance(source, Toolset):
        return source
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        found = _from_text(text, options, connect)
        if not found.tools:  # a file, server or table that lists nothing: nothing to judge
            raise TargetError(f"{text!r} holds no tools", hint="name a source that lists some")
        return found
    label = _label_of(source)
    if isinstance(source, Mapping):
        # lazy: toollens.consumers (~21 ms), for a mapping source only; `toolset(f)` skips it
        from toollens.consumers import is_mcp_listing

        if is_mcp_listing(source):  # a tools/list answer, in memory: as a saved one
            return _from_json_data(dict(source), "tools/list", options)
    if not _readable_kind(source):
        raise TargetError(
            f"toollens cannot read tools from a {type(source).__name__} object",
            hint=_KINDS_HINT,
        )
    try:
        entries = read_object(source, options, label)
    except ToolLensError as exc:
        raise TargetError(exc.message, pointer=exc.pointer, hint=exc.hint) from exc
    except Exception as exc:  # iterating a user's iterable runs user code
        raise TargetError(
            f"reading {label} raised {type(exc).__name__}: {one_line(str(exc))}"
        ) from exc
    return Toolset.from_entries(entries, label=label, options=options)


_KINDS_HINT = "pass functions, a module, an agent, tool definitions or a provider payload"


def _readable_kind(source: object) -> bool:
    if isinstance(source, (types.ModuleType, Mapping)) or callable(source):
        return True
    if isinstance(source, Iterable) and not isinstance(source, (bytes, bytearray)):
        return True
    return framework_entries(source, None, "") is not None


def holds_several(obj: object) -> bool:
    """Whether ``obj`` (what ``MODULE:ATTR`` names) is a source of tools rather than one tool,
    by the rule :func:`read_object` reads it with: a module, a toolset, a list or tuple, a
    tool-list payload, or a framework object holding other than one tool (an agent, a
    toolkit). A function, a model class, a JSON schema or one framework tool is one tool, as
    :func:`toollens.report` reads it."""
    if isinstance(obj, (Toolset, types.ModuleType)):
        return True
    if isinstance(obj, Mapping):
        # lazy: the payload readers (~1 ms) load for JSON data only, not for a callable
        from toollens.toolsets.payloads import holds_tool_list

        return holds_tool_list(obj)
    found = framework_entries(obj, None, "")
    if found is not None:  # the same count framework_report refuses as "not one tool"
        return len(found) != 1
    if callable(obj):
        return False
    return isinstance(obj, Iterable) and not isinstance(obj, (str, bytes, bytearray))


def read_object(source: object, options: ReportOptions | None, label: str) -> list[Tool]:
    """The entries of one Python object used as a source (not a string)."""
    found = framework_entries(source, options, label)
    if found is not None:
        return found
    if isinstance(source, types.ModuleType):
        # lazy: the module reader + toollens.targets (~5 ms), for a module source only
        from toollens.toolsets.modules import module_entries

        return module_entries(source, options, label=label)
    if isinstance(source, Mapping):
        # lazy: the payload readers (~1 ms) load for JSON data only, not for a callable
        from toollens.toolsets.payloads import payload_entries

        return payload_entries(source, label=label, options=options)
    if callable(source):
        return [Tool.from_callable(source, options=options)]
    if isinstance(source, Iterable) and not isinstance(source, (bytes, bytearray)):
        return _iterable_entries(source, options, label)
    return [unknown_entry(source, label, kind="callable")]


def _iterable_entries(
    items: Iterable[Any], options: ReportOptions | None, label: str
) -> list[Tool]:
    # lazy: the payload readers (~1 ms) load for JSON data only, not for a callable
    from toollens.toolsets.payloads import payload_entries, payload_entry

    items = list(items)
    if items and all(isinstance(item, Mapping) for item in items):  # a bare payload list
        return payload_entries(items, label=label, options=options)
    entries: list[Tool] = []
    for index, item in enumerate(items):
        if isinstance(item, Tool):
            entries.append(item)
        elif isinstance(item, Mapping):
            entries.append(payload_entry(item, index, label, options))
        else:
            found = _item_entries(item, options, label, index)
            entries.extend(found)
    return entries


def _item_entries(item: Any, options: ReportOptions | None, label: str, index: int) -> list[Tool]:
    found = framework_entries(item, options, label)
    if found is not None:
        return _reindexed(found, index)
    if callable(item) and not isinstance(item, types.ModuleType):
        origin = callable_origin(item, kind="callable", index=index)
        return [Tool.from_callable(item, origin=origin, options=options)]
    return [unknown_entry(item, label, kind="callable", index=index)]


def _reindexed(entries: list[Tool], index: int) -> list[Tool]:
    import dataclasses

    return [
        dataclasses.replace(e, origin=dataclasses.replace(e.origin, index=index)) for e in entries
    ]


def unknown_entry(obj: object, label: str, *, kind: OriginKind, index: int | None = None) -> Tool:
    """The entry for an object toollens cannot read tools from."""
    what = type(obj).__name__
    return Tool.failed(
        f"#{index}" if index is not None else what,
        ToolOrigin(kind=kind, label=label, index=index),
        f"toollens cannot read tools from a {what} object; {_KINDS_HINT}",
    )


def _label_of(source: Any) -> str:
    if isinstance(source, types.ModuleType):
        return source.__name__
    name = getattr(source, "name", None) if not isinstance(source, Mapping) else None
    if isinstance(name, str) and name:
        return name
    if isinstance(source, (list, tuple)):
        return f"{len(source)} tools"
    return type(source).__name__


# -- strings ---------------------------------------------------------------------------


def _from_text(text: str, options: ReportOptions | None, connect: ConnectOptions | None) -> Toolset:
    head, sep, rest = text.partition(":")
    if text == "project":
        head, sep, rest = "project", ":", ""
    loader = loader_for(head) if sep else None
    if loader is None and head == "project" and sep:
        raise TargetError(
            f"{text!r} names a project table, and the project source is not registered",
            hint="read it with toollens.toolset, or import toollens.project.source first",
        )
    if loader is not None:
        try:
            return loader(rest, options, connect)
        except ToolLensError as exc:
            raise TargetError(exc.message, pointer=exc.pointer, hint=exc.hint) from exc
        except Exception as exc:  # a plugged-in loader may raise anything
            raise TargetError(
                f"reading {text!r} raised {type(exc).__name__}: {one_line(str(exc))}"
            ) from exc
    return _resolve_text(text, options)


def _from_json_data(
    data: Mapping[str, object] | Sequence[object], label: str, options: ReportOptions | None
) -> Toolset:
    """The tools of a JSON value: a payload or a tool list, or a saved ``tools/list``
    answer, which its clients judge as saved (the Clients views); its tools are read as
    they send them, non-strict unless the caller asks (as ``mcp:``)."""
    # lazy: toollens.consumers + the payload readers (~24 ms), for JSON data only
    from toollens.consumers import is_mcp_listing, listing_from_payload
    from toollens.toolsets.payloads import payload_entries

    listing = listing_from_payload(data, label=label) if is_mcp_listing(data) else None
    read = options if options is not None or listing is None else ReportOptions(strict=False)
    ts = Toolset.from_entries(
        payload_entries(data, label=label, options=read),
        label=label,
        options=options,
        listing=listing,
    )
    if listing is None:
        return ts

    # What the SDK client refuses in the saved list, as an mcp: server's answer says it.
    refused = saved_list_refusals(listing)
    return dataclasses.replace(ts, cross_findings=(*ts.cross_findings, *refused))


def _resolve_text(text: str, options: ReportOptions | None) -> Toolset:
    # lazy: toollens.targets (~5 ms), for a text target only; `toolset(f)` skips it
    from toollens.targets import (
        is_dotted,
        load_json_value,
        load_module,
        parse_target,
        resolve_target,
    )

    if text.endswith(".json"):
        return _from_json_data(load_json_value(text), text, options)
    if text.endswith(".py") or is_dotted(text):
        # lazy: the module reader (~5 ms with targets), for a module source only
        from toollens.toolsets.modules import module_entries

        module = load_module(text)
        entries = module_entries(module, options, label=text)
        return Toolset.from_entries(entries, label=text, options=options)
    parse_target(text)  # raises with the forms a target may take
    obj = resolve_target(text)
    return Toolset.from_entries(read_object(obj, options, text), label=text, options=options)
