"""The text OpenAI chat models read for function tools, cut into labelled segments.

The models do not read the JSON: the tool definitions become a TypeScript-like block in a
system message::

    # Tools

    ## functions

    namespace functions {

    // Get the current weather
    type get_weather = (_: {
    // The city
    location: string,
    unit?: "c" | "f", // default: c
    }) => any;

    } // namespace functions

Validated parts (published API-measured prompt_tokens, see tests/tokens/test_tokens_measured.py):
descriptions, required/optional names, string/number/boolean types, enums, arrays, nested
objects, no-parameter functions. Defaults are written as openai-harmony (OpenAI's renderer
of the same block for gpt-oss) writes them. Not validated, and written differently from
harmony (which renders ``$ref``, ``anyOf`` and ``const`` as ``any``): ``$ref`` expands in
place (up to :data:`REF_BUDGET` characters), unions are joined with ``|``, ``const`` is
its literal, and every line of a multi-line description starts with ``//``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toollens.core.schema.pointer import UnresolvedRef, ref_name, resolve_local
from toollens.tokens.tooldefs import ToolDef

HEADER = "# Tools\n\n## functions\n\nnamespace functions {\n\n"
FOOTER = "} // namespace functions"
FRAME = "frame"  # the part label of text that belongs to no tool
# Characters of one tool's block after which `$ref`s are named, not expanded (~50k tokens).
REF_BUDGET = 200_000
NAME_DESCRIPTION = "name + description"
_SCALARS = {
    "string": "string",
    "number": "number",
    "integer": "number",
    "boolean": "boolean",
    "null": "null",
}


@dataclass(frozen=True)
class Segment:
    """A piece of the rendered text and who it belongs to.

    Attributes:
        text: the characters.
        tool: index of the tool in the request, or ``None`` for the shared frame.
        path: the parameter path (``"unit"``, ``"items[].name"``); ``""`` for the tool itself.
        kind: ``name + description``, ``name``, ``type``, ``description``, ``enum``,
            ``default`` or ``frame``.
    """

    text: str
    tool: int | None
    path: str
    kind: str


def render(tools: Sequence[ToolDef], notes: list[str] | None = None) -> tuple[Segment, ...]:
    """The segments of the tools block, in order; their texts joined are the block.

    ``notes`` receives a line for each tool whose ``$ref``s were not all expanded.
    """
    out = [Segment(HEADER, None, "", FRAME)]
    for index, tool in enumerate(tools):
        out.extend(_tool(index, tool, notes if notes is not None else []))
    out.append(Segment(FOOTER, None, "", FRAME))
    return tuple(out)


def text_of(segments: Sequence[Segment]) -> str:
    return "".join(s.text for s in segments)


def _tool(index: int, tool: ToolDef, notes: list[str]) -> Iterator[Segment]:
    head = "".join(f"// {line}\n" for line in (tool.description or "").splitlines())
    params = tool.parameters
    walker = _Walker(index, params)
    if not isinstance(params.get("properties"), Mapping) or not params["properties"]:
        yield Segment(f"{head}type {tool.name} = () => any;\n\n", index, "", NAME_DESCRIPTION)
        return
    yield Segment(f"{head}type {tool.name} = (_: {{\n", index, "", NAME_DESCRIPTION)
    yield from walker.properties(params, "", 0)
    yield Segment("}) => any;\n\n", index, "", NAME_DESCRIPTION)
    if walker.truncated:
        notes.append(
            f"{tool.name}: $ref definitions past {REF_BUDGET:,} characters are counted by "
            "name, not expanded (the real cost is higher)"
        )


class _Walker:
    """Renders one tool's parameters; ``$ref`` resolves against the tool's root schema."""

    def __init__(self, tool: int, root: Mapping[str, Any]) -> None:
        self.tool = tool
        self.root = root
        self.expanding: list[str] = []
        self.written = 0  # characters so far: refs stop expanding past REF_BUDGET
        self.truncated = False

    def seg(self, text: str, path: str, kind: str) -> Segment:
        self.written += len(text)
        return Segment(text, self.tool, path, kind)

    def properties(self, obj: Mapping[str, Any], prefix: str, indent: int) -> Iterator[Segment]:
        required = obj.get("required") or ()
        pad = " " * indent
        for name, sub in (obj.get("properties") or {}).items():
            path = f"{prefix}{name}"
            node = self.resolve(sub)
            description = node.get("description") if isinstance(node, Mapping) else None
            if isinstance(description, str) and description:
                lines = "".join(f"{pad}// {line}\n" for line in description.splitlines())
                yield self.seg(lines, path, "description")
            mark = "" if name in required else "?"
            yield self.seg(f"{pad}{name}{mark}:", path, "name")
            # The space goes with the type: " string" is one token and belongs to the type.
            pieces = list(self.type_of(sub, path, indent))
            first = pieces[0]
            yield Segment(f" {first.text}", first.tool, first.path, first.kind)
            yield from pieces[1:]
            yield self.seg(",", path, "name")
            if isinstance(node, Mapping) and "default" in node:
                yield self.seg(f" // default: {_plain(node['default'])}", path, "default")
            yield self.seg("\n", path, "name")

    def resolve(self, node: Any) -> Any:
        """The schema a local ``$ref`` names (``{}`` when it names nothing), else ``node``."""
        ref = node.get("$ref") if isinstance(node, Mapping) else None
        if not isinstance(ref, str) or not ref.startswith("#"):
            return node
        try:
            _, target = resolve_local(self.root, ref)
        except UnresolvedRef:
            return {}
        return target if isinstance(target, Mapping) else {}

    def type_of(self, node: Any, path: str, indent: int) -> Iterator[Segment]:
        if not isinstance(node, Mapping):
            yield self.seg("any", path, "type")
            return
        ref = node.get("$ref")
        if isinstance(ref, str):
            yield from self._ref(ref, path, indent)
            return
        if "enum" in node and isinstance(node["enum"], list):
            yield self.seg(" | ".join(_literal(v) for v in node["enum"]), path, "enum")
            return
        if "const" in node:
            yield self.seg(_literal(node["const"]), path, "enum")
            return
        members = node.get("anyOf") or node.get("oneOf")
        if isinstance(members, list) and members:
            yield from self._union(members, path, indent)
            return
        yield from self._typed(node, path, indent)

    def _ref(self, ref: str, path: str, indent: int) -> Iterator[Segment]:
        # A recursive definition is named instead of looping; a definition used in many
        # places can grow the text exponentially, so expansion stops past a budget.
        if ref in self.expanding or self.written > REF_BUDGET:
            self.truncated = self.truncated or ref not in self.expanding
            yield self.seg(_ref_name(ref), path, "type")
            return
        self.expanding.append(ref)
        try:
            yield from self.type_of(self.resolve({"$ref": ref}), path, indent)
        finally:
            self.expanding.pop()

    def _union(self, members: list[Any], path: str, indent: int) -> Iterator[Segment]:
        for i, member in enumerate(members):
            if i:
                yield self.seg(" | ", path, "type")
            yield from self.type_of(member, path, indent)

    def _typed(self, node: Mapping[str, Any], path: str, indent: int) -> Iterator[Segment]:
        kind = node.get("type")
        if isinstance(kind, list):
            for i, one in enumerate(kind):
                if i:
                    yield self.seg(" | ", path, "type")
                yield from self._typed({**node, "type": one}, path, indent)
        elif kind == "array":
            items = node.get("items")
            if isinstance(items, Mapping):
                yield from self.type_of(items, f"{path}[]", indent)
                yield self.seg("[]", path, "type")
            else:
                yield self.seg("any[]", path, "type")
        elif kind == "object" or "properties" in node:
            yield from self._object(node, path, indent)
        else:
            yield self.seg(_SCALARS.get(str(kind), "any"), path, "type")

    def _object(self, node: Mapping[str, Any], path: str, indent: int) -> Iterator[Segment]:
        props = node.get("properties")
        if not isinstance(props, Mapping) or not props:
            yield self.seg("object", path, "type")
            return
        yield self.seg("{\n", path, "type")
        yield from self.properties(node, f"{path}.", indent + 2)
        yield self.seg("}", path, "type")


def _ref_name(ref: str) -> str:
    """The name a ``$ref`` is written by when not expanded: its last pointer token."""
    return ref_name(ref, root="any")


def _literal(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _plain(value: Any) -> str:
    # openai-harmony writes a string default bare (`// default: celsius`), others as JSON.
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
