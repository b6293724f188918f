"""Each place an error names, mapped back to the tool as served, its pointer, its source line
and the toollens rule that predicts it.

The request counted its tools in the order the target lists them (a module's functions, a
payload's entries, a server's ``tools/list``), so a position names a tool directly, unless a
client sent the request: a client puts its own tools first and renames the server's
(``mcp__server__tool``, ``mcp_server_tool``), so a client's place is found by its name, or by
the one tool a matching rule fires on. The rule is found by running toollens' own checks on
that tool, on that provider's (or client's) path, and matching the finding's pointer and
keyword to the place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toollens.core.records import Finding
from toollens.core.schema.pointer import escape_token
from toollens.core.schema.types import JsonObject
from toollens.explain.checks import findings_on_path
from toollens.explain.records import ErrorPlace, PathToken
from toollens.explain.sources import SourceLine, source_line

if TYPE_CHECKING:
    from toollens.toolsets import Tool, Toolset

__all__ = ["Explanation", "explain_places", "served_name"]


@dataclass(frozen=True)
class Explanation:
    """One place of an error, explained.

    Attributes:
        place: what the error text says of it.
        tool: the tool's name as served, or ``None`` when no tool could be named.
        index: the tool's position in the request, as the error counted it.
        pointer: the JSON pointer in the tool's parameters schema (``None``: the error is
            about the name or the whole tool, or the position could not be read).
        finding: the toollens finding that predicts the place, or ``None``.
        source: the file and line the value is written at, for a tool read from a file.
        note: what else is worth knowing (how the tool was found, why no rule matched).
    """

    place: ErrorPlace
    tool: str | None = None
    index: int | None = None
    pointer: str | None = None
    finding: Finding | None = None
    source: SourceLine | None = None
    note: str = ""

    @property
    def rule(self) -> str | None:
        return None if self.finding is None else self.finding.rule

    @property
    def fix(self) -> str | None:
        return None if self.finding is None else self.finding.fix

    def to_json(self) -> JsonObject:
        """The place as ``explain --format json`` writes it."""
        return {
            "provider": self.place.provider or self.place.author,
            "author": self.place.author,
            "client": self.place.client,
            "tool": self.tool,
            "index": self.index,
            "pointer": self.pointer,
            "rule": self.rule,
            "cited": None
            if self.finding is None or self.finding.cite is None
            else self.finding.cite.to_json(),
            "source": None if self.source is None else self.source.to_json(),
            "fix": self.fix,
            "error": self.place.reason,
            "note": self.note or None,
        }


def served_name(requested: str, names: Sequence[str]) -> str | None:
    """The served tool a request's name stands for: itself, or a client's renaming of it
    (``mcp__server__tool``, ``mcp_server_tool``; unsafe characters as ``_``)."""
    if requested in names:
        return requested
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", requested)
    fits = [
        n
        for n in names
        if requested.startswith("mcp")
        and (safe.endswith("_" + re.sub(r"[^A-Za-z0-9_-]", "_", n)) or requested.endswith(n))
    ]
    return max(fits, key=len) if fits else None


def _pointer(path: Sequence[PathToken] | None, schema: object) -> str | None:
    """The JSON pointer of ``path`` in ``schema``: a property given by position is named.
    ``None`` when a position is past the schema's properties: the path is not in it (the
    request held another version of the tool)."""
    if path is None:
        return None
    tokens: list[str] = []
    node = schema
    previous: PathToken | None = None
    for step in path:
        if previous == "properties" and isinstance(step, int) and isinstance(node, dict):
            keys = list(node)
            if not 0 <= step < len(keys):
                return None
            step = keys[step]
        tokens.append(escape_token(step))
        node = _child(node, step)
        previous = step
    return "".join("/" + t for t in tokens)


def _child(node: object, step: PathToken) -> object:
    if isinstance(node, dict):
        return node.get(str(step))
    if isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
        return node[step]
    return None


_KEYWORD_WORDS: dict[str, tuple[str, ...]] = {
    "additionalProperties": ("additional",),
    "items": ("items", "array"),
    "anyOf": ("anyof", "any-of", "union", "composition", "top-level", "root"),
    "properties": ("propert", "key"),
    "type": ("type",),
    "name": ("name",),
    "required": ("required",),
    "$schema": ("$schema", "schema-keyword", "unsupported"),
    "root": ("root",),
    "$id": ("$id", "uri"),
}


def _words(keyword: str) -> tuple[str, ...]:
    return _KEYWORD_WORDS.get(keyword, (keyword.lower(),))


def _score(finding: Finding, place: ErrorPlace, pointer: str | None) -> int:
    """How well ``finding`` predicts the place; 0: it does not. When the error names a
    keyword, a finding that does not speak of it never matches."""
    text = f"{finding.rule} {finding.message} {finding.pointer or ''}".lower()
    said = place.keyword is not None and any(w in text for w in _words(place.keyword))
    if place.keyword is not None and not said:
        return 0
    if place.part == "name":
        return 3 if "name" in finding.rule else 0
    at = finding.pointer
    if pointer is not None and at is not None:
        if at == pointer:
            return 5
        if at.startswith(pointer + "/") or pointer.startswith(at + "/"):
            return 3
        return 0
    return 2 if said else 0


def best_finding(
    findings: Iterable[Finding], place: ErrorPlace, pointer: str | None
) -> Finding | None:
    """The finding that predicts the place best, errors first among equals."""
    ranked = [(f, _score(f, place, pointer)) for f in findings]
    kept = [(f, s + (f.severity == "error")) for f, s in ranked if s > 0]
    return max(kept, key=lambda item: item[1])[0] if kept else None


@dataclass(frozen=True)
class _Judged:
    """One tool and every finding toollens has for it on the place's path."""

    tool: Tool
    index: int
    findings: tuple[Finding, ...]


def _candidates(ts: Toolset, place: ErrorPlace) -> tuple[list[Tool], str]:
    """The tools the place may be about, and how they were found."""
    tools = list(ts.tools)
    if place.name is not None:
        name = served_name(place.name, [t.name for t in tools])
        found = [t for t in tools if t.name == name]
        if not found:  # a name the request made up (a client's prefix), or redacted
            return tools, f"no tool served is named {place.name!r}: found by the rule it breaks"
        return found, "" if place.name == name else f"the request named it {place.name!r}"
    if place.index is not None and place.client is None and place.index < len(tools):
        return [tools[place.index]], ""
    if place.index is not None and place.client is None:
        return tools, f"the request had more tools than the target ({len(tools)})"
    if place.client is not None and place.index is not None:
        return tools, (
            f"{place.client} puts its own tools before the server's, so index {place.index} "
            "is not a position in the target: the tool was found by the rule it breaks"
        )
    return tools, ""


def explain_place(ts: Toolset | None, place: ErrorPlace) -> Explanation:
    """The place mapped onto ``ts`` (or only read, without a target)."""
    if ts is None:
        pointer = _pointer(place.path, None)
        note = _unmapped(place)
        return Explanation(place, tool=place.name, index=place.index, pointer=pointer, note=note)
    tools, how = _candidates(ts, place)
    judged = [_Judged(t, ts.tools.index(t), tuple(findings_on_path(ts, t, place))) for t in tools]
    matches = [(j, _match(j, place)) for j in judged]
    hits = [(j, m) for j, m in matches if m[0] is not None]
    if len(judged) == 1 or len(hits) == 1:
        chosen, (finding, pointer) = hits[0] if len(hits) == 1 else matches[0]
        return _explained(place, chosen, finding, pointer, how)
    if not judged:
        return Explanation(place, tool=None, index=place.index, note=how)
    names = ", ".join(j.tool.name for j, _ in hits[:5]) or "none"
    note = f"{how}; the tools a rule predicts this of: {names}".lstrip("; ")
    return Explanation(place, index=place.index, note=note)


def _match(judged: _Judged, place: ErrorPlace) -> tuple[Finding | None, str | None]:
    pointer = _pointer(place.path, judged.tool.input_schema)
    finding = best_finding(judged.findings, place, pointer)
    if pointer is None and finding is not None and place.part == "parameters":
        pointer = finding.pointer
    return finding, pointer


def _explained(
    place: ErrorPlace, judged: _Judged, finding: Finding | None, pointer: str | None, how: str
) -> Explanation:
    notes = [how] if how else []
    if finding is None and judged.tool.error is not None:
        # toollens refused the tool too: the place is where its error says
        said = re.search(r"\bat (/\S*|/):", judged.tool.error)
        pointer = said.group(1) if said else pointer
        notes.append(f"toollens could not read the tool either: {judged.tool.error}")
    elif finding is None:
        notes.append(f"no toollens rule predicts this; the error says: {place.reason}")
    # a client's request counts its own tools too: without the text's index there is none
    index = place.index if place.index is not None or place.client else judged.index
    return Explanation(
        place,
        tool=judged.tool.name,
        index=index,
        pointer=pointer,
        finding=finding,
        source=source_line(judged.tool, pointer, place.part),
        note="; ".join(notes),
    )


def _unmapped(place: ErrorPlace) -> str:
    where = "" if place.path is None else f" at {'/'.join(map(str, place.path)) or '/'}"
    return f"no target given: {place.reason}{where} (name the target to find the tool and rule)"


def explain_places(ts: Toolset | None, places: Iterable[ErrorPlace]) -> Iterator[Explanation]:
    """Each place explained against ``ts`` (``None``: read from the text alone)."""
    for place in places:
        yield explain_place(ts, place)
