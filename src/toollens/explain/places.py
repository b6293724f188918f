"""An error text a provider or client wrote, read into the places it names.

Each shape is one row of :data:`SHAPES`: a regular expression and the function that turns
one match into an :class:`ErrorPlace`. A text may hold several shapes and several places
(Gemini lists every bad field); :func:`read_error` returns each place once, in the order
the text names them. Nothing here knows the tools that were sent: mapping a place back to a
tool, a pointer, a source line and a rule is :mod:`toollens.explain.mapping`'s work.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from toollens.core.choices import ProviderId
from toollens.explain.records import ErrorPlace, ErrorShape, Part, PathToken, UnreadableError

__all__ = ["SHAPES", "read_error"]

# --------------------------------------------------------------------------------------------
# Keywords named by the error's words

_KEYWORD_WORDS: tuple[tuple[str, str], ...] = (
    ("additionalproperties", "additionalProperties"),
    ("missing items", "items"),
    ("must have items", "items"),
    ("missing properties", "properties"),
    ("property keys", "properties"),
    ("oneof, allof, or anyof", "anyOf"),
    ("'required'", "required"),
    ("missing types", "type"),
    ("must have a 'type'", "type"),
    ("string should match pattern", "name"),
    ("does not match pattern", "name"),
    ("at most", "name"),
    ("invalid function name", "name"),
    ("only contain alphanumeric", "name"),
    ("is not of type 'array'", "required"),  # OpenAI: "None is not of type 'array'"
    ("is not of type 'object'", "properties"),
    ("json schema of 'type", "root"),  # "schema must be a JSON Schema of 'type: "object"'"
    ("uri-reference", "$id"),
    ("missing required parameter", "name"),
    ("alongside any_of", "anyOf"),
)


def _keyword(reason: str) -> str | None:
    lowered = reason.lower()
    return next((kw for words, kw in _KEYWORD_WORDS if words in lowered), None)


def _clean(reason: str) -> str:
    return " ".join(reason.split()).rstrip(" .")


def _client(text: str) -> str | None:
    """The client whose wrapper the text shows, where it is unmistakable."""
    if re.search(r"API Error: \d{3}\s", text):
        return "claude-code"  # Claude Code prints the API's answer after "API Error: 400"
    if "Sorry, your request failed" in text:
        return "vscode-copilot"  # VS Code's chat view wraps the provider's answer so
    return None


# --------------------------------------------------------------------------------------------
# OpenAI

_OPENAI_PARAM = re.compile(r"tools\[(\d+)\](\.function)?\.parameters")


def _openai_index(text: str) -> tuple[int | None, ProviderId]:
    found = _OPENAI_PARAM.search(text)
    if found is None:
        return None, "openai-chat"
    return int(found.group(1)), "openai-chat" if found.group(2) else "openai-responses"


def _context(text: str) -> tuple[PathToken, ...]:
    """``'properties', 'filters'`` (OpenAI's ``In context=(...)``) as path steps."""
    if not text.strip():
        return ()
    try:
        value = ast.literal_eval(f"({text},)")
    except (ValueError, SyntaxError):  # not a tuple of strings: split by hand
        return tuple(part.strip(" '\"") for part in text.split(","))
    return tuple(str(item) for item in value)


def _openai_schema(match: re.Match[str], text: str) -> ErrorPlace:
    """``Invalid schema for function 'f': In context=(...), reason``, or a part of it (a
    client that prints only the context and the reason, or only the reason)."""
    index, provider = _openai_index(text)
    reason = _clean(match.group("reason"))
    context = match.groupdict().get("context")
    return ErrorPlace(
        author="openai",
        provider=provider,
        reason=reason,
        client=_client(text),
        index=index,
        name=match.groupdict().get("name") or None,
        path=None if context is None else _context(context),
        keyword=_keyword(reason),
    )


def _openai_name(match: re.Match[str], text: str) -> ErrorPlace:
    chat = match.group("chat") is not None
    return ErrorPlace(
        author="openai",
        provider="openai-chat" if chat else "openai-responses",
        reason=_clean(match.group("reason")),
        part="name",
        client=_client(text),
        index=int(match.group("index")),
        keyword="name",
    )


def _openai_missing(match: re.Match[str], text: str) -> ErrorPlace:
    """``Missing required parameter: 'tools[0].name'``: the tool's fields are not where
    that API reads them (a Chat tool sent to Responses, or the other way round)."""
    chat = match.group("field").startswith("function")
    return ErrorPlace(
        author="openai",
        provider="openai-chat" if chat else "openai-responses",
        reason=_clean(match.group("reason")),
        part="tool",
        client=_client(text),
        index=int(match.group("index")),
        keyword="name",
    )


# --------------------------------------------------------------------------------------------
# Anthropic


def _anthropic(match: re.Match[str], text: str) -> ErrorPlace:
    reason = _clean(match.group("reason"))
    rest = tuple(step for step in match.group("rest").split(".") if step)
    is_name = match.group("part") == "name"
    return ErrorPlace(
        author="anthropic",
        provider="anthropic",
        reason=reason,
        part="name" if is_name else "parameters",
        client=_client(text),
        index=int(match.group("index")),
        path=None if is_name else rest,
        keyword="name" if is_name else _keyword(reason),
    )


# --------------------------------------------------------------------------------------------
# Gemini

_GEMINI_STEP = re.compile(r"([A-Za-z_$][\w$]*)(?:\[([^\]]*)\])?")


def _camel(word: str) -> str:
    """A protobuf field name (``any_of``) as the JSON Schema keyword (``anyOf``)."""
    head, *rest = word.split("_")
    return head + "".join(part.title() for part in rest)


def _gemini_path(text: str) -> tuple[PathToken, ...]:
    """``parameters.properties[tags].items`` (or ``properties[12].value``) as path steps,
    without the leading ``parameters``."""
    steps: list[PathToken] = []
    for word, key in _GEMINI_STEP.findall(text):
        if word == "value" and len(steps) >= 2 and steps[-2] == "properties":
            continue  # properties[12].value: the map entry's value, the property itself
        steps.append(_camel(word))
        if key:
            steps.append(int(key) if key.isdigit() else key)
    return tuple(steps[1:] if steps[:1] in (["parameters"], ["parametersJsonSchema"]) else steps)


def _gemini_provider(path: str) -> ProviderId:
    """``parameters`` is Gemini's OpenAPI Schema object (toollens' ``gemini-openapi``);
    ``parameters_json_schema`` takes JSON Schema (``gemini``)."""
    return "gemini" if path.startswith("parameters_json_schema") else "gemini-openapi"


def _gemini_part(path: str) -> Part:
    if path.startswith("parameters"):
        return "parameters"
    return "name" if path == "name" else "tool"


def _gemini_field(match: re.Match[str], text: str) -> ErrorPlace:
    reason = _clean(match.group("reason"))
    path = match.group("path")
    part = _gemini_part(path)
    return ErrorPlace(
        author="gemini",
        provider=_gemini_provider(path),
        reason=reason,
        part=part,
        client=_client(text),
        index=int(match.group("index")),
        path=_gemini_path(path) if part == "parameters" else None,
        keyword="name" if part == "name" else _gemini_keyword(path, reason),
    )


def _gemini_keyword(path: str, reason: str) -> str | None:
    """``.items: missing field``: the keyword missing; else the error's words, else the last
    keyword of the path (``enum[0]: cannot be empty``: ``enum``)."""
    steps = _gemini_path(path) if path.startswith("parameters") else ()
    words = [s for s in steps if isinstance(s, str)]
    last = words[-1] if words else None
    if reason.lower().startswith("missing field") and last is not None:
        return last
    return _keyword(reason) or last


def _vertex_any_of(match: re.Match[str], text: str) -> ErrorPlace:
    """Vertex AI names the function and a dotted path (``parameters.person.age``)."""
    steps = match.group("path").split(".")
    path: list[PathToken] = []
    for step in steps[1:] if steps[:1] == ["parameters"] else steps:
        path += ["properties", step]
    return ErrorPlace(
        author="gemini",
        provider="gemini-openapi",
        reason=_clean(match.group("reason")),
        client=_client(text),
        name=match.group("name"),
        path=tuple(path),
        keyword="anyOf",
    )


def _gemini_unknown(match: re.Match[str], text: str) -> ErrorPlace:
    field_name = match.group("field")
    path = match.group("path") or ""
    part = _gemini_part(path) if path else "tool"
    steps = _gemini_path(path) if part == "parameters" else ()
    return ErrorPlace(
        author="gemini",
        provider=_gemini_provider(path),
        reason=f'unknown name "{field_name}": {_clean(match.group("reason"))}',
        part=part,
        client=_client(text),
        index=int(match.group("index")),
        path=(*steps, field_name) if part == "parameters" else None,
        keyword=field_name,
    )


# --------------------------------------------------------------------------------------------
# Clients that refuse a tool themselves


def _vscode(match: re.Match[str], text: str) -> ErrorPlace:
    reason = _clean(match.group("reason"))
    return ErrorPlace(
        author="vscode-copilot",
        provider=None,
        reason=reason,
        client="vscode-copilot",
        name=match.group("name") or match.group("other"),
        keyword=_keyword(reason),
    )


def _cursor_name(match: re.Match[str], text: str) -> ErrorPlace:
    return ErrorPlace(
        author="cursor",
        provider=None,
        reason=_clean(match.group("reason")),
        part="name",
        client="cursor",
        name=match.group("name"),
        keyword="name",
    )


def _cursor_model(match: re.Match[str], text: str) -> ErrorPlace:
    model = match.group("model")
    return ErrorPlace(
        author="cursor",
        provider="gemini" if model.startswith("gemini") else None,
        reason=f"the argument schema is incompatible with {model}",
        client="cursor",
        name=match.group("name"),
    )


def _gemini_cli(match: re.Match[str], text: str) -> ErrorPlace:
    return ErrorPlace(
        author="gemini-cli",
        provider=None,
        reason="missing types in its parameter schema",
        client="gemini-cli",
        name=match.group("name"),
        keyword="type",
    )


_REASON = r"(?P<reason>[^\n\"]+)"

SHAPES: tuple[ErrorShape, ...] = (
    ErrorShape(
        "openai.invalid-schema",
        re.compile(
            r"Invalid schema for function '(?P<name>[^']*)':\s*"
            r"(?:In\s+context=\((?P<context>[^)]*)\),\s*)?" + _REASON
        ),
        _openai_schema,
    ),
    # the same answer as some clients print it: without the function, or only the reason
    ErrorShape(
        "openai.context",
        re.compile(r"In\s+context=\((?P<context>[^)]*)\),\s*" + _REASON),
        _openai_schema,
    ),
    ErrorShape(
        "openai.shape-reason",
        re.compile(r"(?P<reason>(?:object schema missing properties|array schema missing items))"),
        _openai_schema,
    ),
    ErrorShape(
        "openai.missing-parameter",
        re.compile(
            r"(?P<reason>Missing required parameter: "
            r"'tools\[(?P<index>\d+)\]\.(?P<field>[\w.]+)')"
        ),
        _openai_missing,
    ),
    ErrorShape(
        "openai.invalid-name",
        re.compile(
            r"Invalid '(?P<param>tools\[(?P<index>\d+)\](?P<chat>\.function)?\.name)':\s*" + _REASON
        ),
        _openai_name,
    ),
    ErrorShape(
        "anthropic.tools",
        re.compile(
            r"tools\.(?P<index>\d+)\.(?:[A-Za-z]+\.)?(?P<part>input_schema|name)"
            r"(?P<rest>(?:\.[\w$-]+)*):\s*" + _REASON
        ),
        _anthropic,
    ),
    ErrorShape(
        "gemini.field",
        re.compile(
            r"(?:(?:GenerateContentRequest|request)\.|\*\s*)tools\[\d+\]\.function_declarations"
            r"\[(?P<index>\d+)\]\.(?P<path>[\w\[\].$-]+?):\s*(?P<reason>[^\n\"*]+)"
        ),
        _gemini_field,
    ),
    ErrorShape(
        "gemini.unknown-name",
        re.compile(
            r"Unknown name \"(?P<field>[^\"]+)\" at\s+'(?:request\.)?tools\[\d+\]"
            r"\.function_declarations\[(?P<index>\d+)\](?:\.(?P<path>[^']*))?':\s*"
            r"(?P<reason>[^\n\"]+?)\.?(?=\n|\"|$|\s+Invalid)"
        ),
        _gemini_unknown,
    ),
    ErrorShape(
        "gemini.vertex-any-of",
        re.compile(
            r"Unable to submit request because [`'](?P<name>[^`']+)[`'] functionDeclaration "
            r"[`'](?P<path>[^`']+)[`'] schema (?P<reason>specified other fields alongside any_of)"
        ),
        _vertex_any_of,
    ),
    ErrorShape(
        "vscode-copilot.validate",
        re.compile(
            r"(?:Failed to validate tool (?P<name>[^\s:]+)|Error validating the (?P<other>\S+) "
            r"tool):\s+Error:\s*(?P<reason>[^.\n\"]+)"
        ),
        _vscode,
    ),
    ErrorShape(
        "cursor.tool-name",
        re.compile(
            r"(?P<name>\S+) - (?P<reason>Tool name must only contain alphanumeric characters"
            r" and underscores)"
        ),
        _cursor_name,
    ),
    ErrorShape(
        "cursor.model-schema",
        re.compile(
            r"The argument schema for tool \"?(?P<name>[^\s,\"]+)\"?,? is incompatible with "
            r"(?P<model>[\w.\-]+?)\.?(?=\s|$)"
        ),
        _cursor_model,
    ),
    ErrorShape(
        "gemini-cli.missing-types",
        re.compile(
            r"Skipping tool '(?P<name>[^']+)' from MCP server '(?P<server>[^']+)' because "
            r"it has missing types in its parameter schema"
        ),
        _gemini_cli,
    ),
)


def _unescaped(text: str) -> str:
    """The text with the escaping of JSON inside JSON undone (``\\"``, ``\\n``)."""
    text = re.sub(r"\\+n", "\n", text)
    return re.sub(r"\\+([\"'])", r"\1", text)


def _iter_places(text: str) -> Iterator[tuple[int, int, ErrorPlace]]:
    for shape in SHAPES:
        for match in shape.pattern.finditer(text):
            yield match.start(), match.end(), shape.place(match, text)


def _places(plain: str) -> dict[tuple[object, ...], ErrorPlace]:
    """Each place once; a match inside a longer one (the reason alone, inside the whole
    answer) is the same place."""
    seen: dict[tuple[object, ...], ErrorPlace] = {}
    end_of_last = -1
    for _start, end, place in sorted(_iter_places(plain), key=lambda i: (i[0], -i[1])):
        if end <= end_of_last:
            continue
        end_of_last = end
        key = (place.author, place.index, place.name, place.path, place.part, place.keyword)
        seen.setdefault(key, place)
    return seen


def read_error(text: str) -> tuple[ErrorPlace, ...]:
    """Every place ``text`` names, once each, in the order the text names them.

    Raises:
        UnreadableError: no provider or client error shape is in the text.
    """
    plain = _unescaped(text)
    # A terminal wraps long lines (Claude Code's "input_schem\n  a.properties"): when
    # nothing is found, the lines are read joined again.
    seen = _places(plain) or _places(re.sub(r"(?<=\w)\n[ \t]*(?=\w)", "", plain))
    if not seen:
        first = next((line.strip() for line in text.splitlines() if line.strip()), "")
        shown = first if len(first) <= 80 else first[:77] + "..."
        raise UnreadableError(
            f"no provider or client error shape found in {shown!r}",
            hint="paste the whole error body (the provider's JSON answer or the client's "
            "message); docs/explain.md lists the shapes toollens reads",
        )
    return tuple(seen.values())
