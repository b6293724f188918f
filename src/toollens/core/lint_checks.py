"""The lint checks: small generators, one per authoring pitfall, over a ``FunctionSchema``.

Each check yields a :class:`LintHit` (where, which parameter, the values its message
needs) per occurrence; the rule table in :mod:`toollens.core.lint` gives each its id,
severity, message and fix.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from toollens.core.function_schema import FunctionSchema
from toollens.core.metadata import MISSING, ParameterMetadata
from toollens.core.providers.walk import is_object_node, iter_schema_nodes
from toollens.core.schema.pointer import join_pointer, split_pointer
from toollens.core.schema.toolkit import FINDING_PREVIEW, preview_json, quote_prose
from toollens.core.signature import ParameterKind

__all__ = [
    "GENERIC_DESCRIPTIONS",
    "LintCheck",
    "LintHit",
    "conflicting_descriptions",
    "default_not_applied",
    "docstring_parse_error",
    "docstring_style_uncertain",
    "dropped_docstring_section",
    "integer_as_number",
    "missing_parameter_description",
    "missing_tool_description",
    "number_as_integer",
    "open_nested_object",
    "returns_not_sent",
    "schema_warning",
    "unannotated_parameter",
    "unchecked_format",
    "unknown_documented_parameter",
    "vague_parameter_description",
    "vague_tool_description",
    "var_keyword_non_strict",
    "word_count",
]


@dataclass(frozen=True)
class LintHit:
    """One place a lint rule matched."""

    pointer: str | None = None
    parameter: str | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)


LintCheck = Callable[[FunctionSchema], Iterator[LintHit]]


# --------------------------------------------------------------------------------------------
# Vagueness

GENERIC_DESCRIPTIONS = frozenset(
    {
        "param", "parameter", "parameters", "arg", "argument", "arguments", "value", "values",
        "data", "input", "inputs", "info", "information", "string", "str", "int", "integer",
        "number", "float", "bool", "boolean", "object", "dict", "list", "text", "thing",
        "stuff", "todo", "tbd", "tba", "fixme", "xxx", "...", "n/a", "none", "description",
        "参数", "值", "数据", "输入", "信息", "描述", "字符串",
    }
)  # fmt: skip
_ARTICLES = ("the ", "a ", "an ")
# Characters of a competing candidate's value quoted inside a metadata-conflict finding.
_CANDIDATE_PREVIEW = 50
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


_SPACES = re.compile(r"\s+")


def _normalize(text: str) -> str:
    text = _SPACES.sub(" ", text).strip().lower().rstrip(".:;,!。：；，")
    for article in _ARTICLES:
        if text.startswith(article):
            return text[len(article) :]
    return text


def word_count(text: str) -> int:
    """Whitespace words, with two CJK characters counted as one word (no spaces in CJK)."""
    cjk = len(_CJK.findall(text))
    latin = len(_CJK.sub(" ", text).split())
    return latin + cjk // 2


def _vague(text: str, *, name: str | None, min_words: int) -> str | None:
    """Why ``text`` says too little, or ``None``."""
    norm = _normalize(text)
    if norm in GENERIC_DESCRIPTIONS:
        return "a generic word"
    if name is not None and norm.replace(" ", "_") == name.lower().strip("_"):
        return "the parameter's name repeated"
    count = word_count(text)
    if count < min_words:
        return f"{count} word{'s' if count != 1 else ''}"
    return None


def _pointer(param: ParameterMetadata) -> str:
    return join_pointer("", "properties", param.schema_name)


# --------------------------------------------------------------------------------------------
# Checks


def missing_tool_description(fs: FunctionSchema) -> Iterator[LintHit]:
    if not (fs.description or "").strip():
        yield LintHit(fields={"name": fs.name})


def vague_tool_description(fs: FunctionSchema) -> Iterator[LintHit]:
    text = (fs.description or "").strip()
    why = _vague(text, name=None, min_words=3) if text else None
    if why:
        yield LintHit(fields={"value": quote_prose(text, FINDING_PREVIEW), "why": why})


def missing_parameter_description(fs: FunctionSchema) -> Iterator[LintHit]:
    for param in fs.schema_parameters:
        if not (param.description or "").strip():
            yield LintHit(_pointer(param), param.name, {"name": param.name})


def vague_parameter_description(fs: FunctionSchema) -> Iterator[LintHit]:
    for param in fs.schema_parameters:
        text = (param.description or "").strip()
        why = _vague(text, name=param.name, min_words=2) if text else None
        if why:
            fields = {"name": param.name, "value": quote_prose(text, FINDING_PREVIEW), "why": why}
            yield LintHit(_pointer(param), param.name, fields)


def unknown_documented_parameter(fs: FunctionSchema) -> Iterator[LintHit]:
    names = {p.name for p in fs.parameters}
    for documented in fs.docstring.params:
        if documented not in names:
            yield LintHit(
                None,
                None,
                {"name": documented, "known": preview_json(sorted(names), FINDING_PREVIEW)},
            )


def dropped_docstring_section(fs: FunctionSchema) -> Iterator[LintHit]:
    for title in fs.docstring.dropped_sections:
        yield LintHit(fields={"section": title})


def returns_not_sent(fs: FunctionSchema) -> Iterator[LintHit]:
    if fs.docstring.returns:
        yield LintHit(fields={"value": quote_prose(fs.docstring.returns, FINDING_PREVIEW)})


def conflicting_descriptions(fs: FunctionSchema) -> Iterator[LintHit]:
    for param in fs.schema_parameters:
        offers = [
            c
            for c in param.candidates_for("description")
            if not c.ignored and isinstance(c.value, str)
        ]
        if len({_normalize(c.value) for c in offers}) < 2:
            continue
        winner = next(c for c in offers if c.won)
        losers = "; ".join(
            f"the {c.source.label} says {quote_prose(c.value, _CANDIDATE_PREVIEW)}"
            for c in offers
            if not c.won
        )
        yield LintHit(
            _pointer(param),
            param.name,
            {
                "name": param.name,
                "winner": winner.source.label,
                "value": quote_prose(winner.value, _CANDIDATE_PREVIEW),
                "losers": losers,
            },
        )


_INT_NAMES = frozenset(
    {
        "n", "k", "count", "limit", "top_k", "top_n", "page", "page_size", "per_page", "offset",
        "index", "idx", "retries", "max_retries", "max_results", "num_results", "max_tokens",
    }
)  # fmt: skip
_INT_PREFIXES = ("n_", "num_")
_INT_SUFFIXES = ("_count", "_index", "_idx", "_limit")
_FRACTION = re.compile(
    r"\b(fraction|ratio|probability|proportion|between 0(\.0)? and 1(\.0)?|0\.\d+)", re.IGNORECASE
)


def _bare(annotation: Any) -> Any:
    """``T`` for ``T``, ``T | None`` and ``Optional[T]``; the annotation otherwise."""
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return args[0] if len(args) == 1 else annotation
    return annotation


def integer_as_number(fs: FunctionSchema) -> Iterator[LintHit]:
    for param in fs.schema_parameters:
        name = param.name.lower()
        counts = (
            name in _INT_NAMES or name.startswith(_INT_PREFIXES) or name.endswith(_INT_SUFFIXES)
        )
        if _bare(param.annotation) is float and counts:
            yield LintHit(_pointer(param), param.name, {"name": param.name})


def number_as_integer(fs: FunctionSchema) -> Iterator[LintHit]:
    for param in fs.schema_parameters:
        match = _FRACTION.search(param.description or "")
        if _bare(param.annotation) is int and match:
            yield LintHit(_pointer(param), param.name, {"name": param.name, "word": match[0]})


# Formats pydantic emits only for types that validate them.
PYDANTIC_CHECKED_FORMATS = frozenset(
    {
        "date-time", "date", "time", "duration", "uuid", "uuid1", "uuid3", "uuid4", "uuid5",
        "email", "uri", "ipv4", "ipv6", "ipvanyaddress", "ipvanyinterface", "ipvanynetwork",
        "ipv4network", "ipv6network", "ipv4interface", "ipv6interface", "password", "binary",
        "path", "file-path", "directory-path", "multi-host-uri", "json-string", "base64",
        "base64url", "regex",
    }
)  # fmt: skip


def unchecked_format(fs: FunctionSchema) -> Iterator[LintHit]:
    by_pointer = {_pointer(p): p for p in fs.schema_parameters}
    for node in iter_schema_nodes(fs.json_schema):
        fmt = node.value.get("format") if isinstance(node.value, dict) else None
        if not isinstance(fmt, str):
            continue
        param = _parameter_at(node.pointer, by_pointer)
        plain_str = param is not None and _bare(param.annotation) is str
        if plain_str or fmt not in PYDANTIC_CHECKED_FORMATS:
            yield LintHit(
                join_pointer(node.pointer, "format"),
                param.name if param is not None else None,
                {"value": preview_json(fmt, FINDING_PREVIEW)},
            )


def _parameter_at(
    pointer: str, by_pointer: Mapping[str, ParameterMetadata]
) -> ParameterMetadata | None:
    tokens = split_pointer(pointer, 4)
    if len(tokens) >= 2 and tokens[0] == "properties":
        param = by_pointer.get(join_pointer("", "properties", tokens[1]))
        # Only the parameter's own node or its nullable branch, not nested fields.
        if param is not None and (len(tokens) == 2 or (tokens[2] == "anyOf" and len(tokens) == 4)):
            return param
    return None


def default_not_applied(fs: FunctionSchema) -> Iterator[LintHit]:
    if not fs.strict:
        return
    for param in fs.schema_parameters:
        if (
            param.default is MISSING
            or param.default is None
            or param.kind in (ParameterKind.VAR_POSITIONAL, ParameterKind.VAR_KEYWORD)
            or param.schema_name in fs.nullable_defaults
        ):
            continue
        yield LintHit(
            _pointer(param), param.name, {"name": param.name, "value": repr(param.default)}
        )


def none_default_not_nullable(fs: FunctionSchema) -> Iterator[LintHit]:
    """``x: str = None`` (an implicit Optional): strict mode drops the null default and
    requires ``x``, whose schema has no null, so the model can never mean None."""
    if not fs.strict:
        return
    properties = fs.json_schema.get("properties", {})
    for param in fs.schema_parameters:
        if param.default is not None or param.kind in (
            ParameterKind.VAR_POSITIONAL,
            ParameterKind.VAR_KEYWORD,
        ):
            continue
        node = properties.get(param.schema_name)
        if isinstance(node, dict) and not _admits_null(node, fs.json_schema):
            fields = {"name": param.name, "annotation": param.annotation_text}
            yield LintHit(_pointer(param), param.name, fields)


def _admits_null(node: dict[str, Any], root: dict[str, Any]) -> bool:
    """Whether a strict schema node accepts null (its type, a branch, or what it refers to)."""
    declared = node.get("type")
    if declared == "null" or (isinstance(declared, list) and "null" in declared):
        return True
    if "enum" in node and None in node["enum"]:
        return True
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list) and any(
            isinstance(b, dict) and _admits_null(b, root) for b in branches
        ):
            return True
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for token in ref[2:].split("/"):
            target = target.get(token) if isinstance(target, dict) else None
        return isinstance(target, dict) and _admits_null(target, root)
    return "type" not in node and not any(k in node for k in ("anyOf", "oneOf", "$ref", "enum"))


def open_nested_object(fs: FunctionSchema) -> Iterator[LintHit]:
    if fs.strict:
        return
    for node in iter_schema_nodes(fs.json_schema):
        value = node.value
        if (
            node.pointer
            and isinstance(value, dict)
            and is_object_node(value)
            and "additionalProperties" not in value
        ):
            param = _parameter_at(node.pointer, {_pointer(p): p for p in fs.schema_parameters})
            yield LintHit(node.pointer, param.name if param else None, {"where": node.pointer})


def docstring_style_uncertain(fs: FunctionSchema) -> Iterator[LintHit]:
    guess = fs.docstring.guess
    if guess is not None and not guess.forced and not guess.confident:
        scored = ", ".join(f"{k} {v}" for k, v in guess.scores.items() if v)
        yield LintHit(fields={"style": guess.style.value, "scores": scored})


def docstring_parse_error(fs: FunctionSchema) -> Iterator[LintHit]:
    if fs.docstring.parse_error:
        yield LintHit(fields={"error": preview_json(fs.docstring.parse_error, FINDING_PREVIEW)})


def unannotated_parameter(fs: FunctionSchema) -> Iterator[LintHit]:
    for param in fs.callable_info.parameters:
        if not param.annotated and not param.is_context:
            meta = fs.parameter(param.name)
            yield LintHit(_pointer(meta), param.name, {"name": param.name})


def schema_warning(fs: FunctionSchema) -> Iterator[LintHit]:
    for note in fs.schema_warnings:
        yield LintHit(None, None, {"note": note})


def var_keyword_non_strict(fs: FunctionSchema) -> Iterator[LintHit]:
    if fs.strict:
        return
    for param in fs.schema_parameters:
        if param.kind is ParameterKind.VAR_KEYWORD:
            yield LintHit(_pointer(param), param.name, {"name": param.name})
