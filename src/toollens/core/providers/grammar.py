"""OpenAI's grammar check: compile a strict schema with llguidance, report a refusal as a finding.

llguidance is, per its authors, the grammar engine that has served OpenAI's JSON-schema
Structured Outputs since May 2025. Compiling a schema needs no tokenizer and no model: the
JSON-schema compiler either builds a grammar or says why not (an unknown format, an
unsatisfiable schema, a keyword it does not implement). That answer is one more oracle
beside the documented rules, behind the same :class:`~toollens.core.records.Finding`
interface, with its own rule id ``openai.grammar-rejected``.

llguidance is a dependency of toollens; should it be missing (a platform without a wheel),
the check is skipped and the verdict says so instead of calling the schema clean.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from toollens.core.memo import edit_cache
from toollens.core.providers.rules import E, Hit, ProviderRule, RuleContext, S, W, rule
from toollens.core.providers.walk import iter_schema_nodes
from toollens.core.records import Citation
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.toolkit import (
    CACHE_KEY_DEPTH,
    SCHEMA_LIST_KEYWORDS,
    SCHEMA_MAP_KEYWORDS,
    SCHEMA_VALUE_KEYWORDS,
    encode_compact,
    nests_deeper,
)
from toollens.core.schema.types import JsonSchema

LLGUIDANCE = Citation(
    "llguidance JSON-schema compiler (the grammar engine of OpenAI Structured Outputs)",
    "https://github.com/guidance-ai/llguidance/blob/main/docs/json_schema.md",
    "2026-11-29",
    evidence="code",
)
_MAX_MESSAGE = 300  # llguidance may append grammar details; the first clause is what matters
_FAILED = "\x00failed: "  # marks llguidance failing itself, not refusing the schema


@dataclass(frozen=True)
class GrammarEngine:
    """The installed llguidance, or why there is none."""

    available: bool
    version: str | None
    why_not: str | None = None

    @property
    def label(self) -> str:
        # The version stays out of the label so reports read the same across installs.
        return "llguidance (OpenAI's grammar engine)"


@functools.cache
def grammar_engine() -> GrammarEngine:
    """Whether llguidance can be used here (imported once, on first use)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        import llguidance  # noqa: F401 - imported to learn whether it can be
    except ImportError as exc:  # a platform without a wheel: the check is skipped, and said so
        return GrammarEngine(False, None, f"llguidance is not installed ({exc.name})")
    try:
        installed: str | None = version("llguidance")
    except PackageNotFoundError:  # imported from a source tree: only the label loses it
        installed = None
    return GrammarEngine(True, installed)


@edit_cache(256)
def _compile(schema_text: str) -> str:
    """llguidance's refusal for a schema given as JSON text, or ``""`` when it compiles."""
    import llguidance

    # Same verdicts as the defaults on the whole corpus, in about half the time on large
    # schemas, and one-line messages.
    limits = llguidance.LLParserLimits(precompute_large_lexemes=False, verbose_errors=False)
    try:
        grammar = llguidance.LLMatcher.grammar_from_json_schema(schema_text)
        return str(llguidance.LLMatcher.validate_grammar(grammar, limits=limits))
    except (ValueError, TypeError) as exc:  # grammar_from_json_schema refuses non-objects
        return str(exc) or type(exc).__name__
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # a Rust panic (PanicException is a BaseException)
        return _FAILED + (str(exc).splitlines()[0] if str(exc) else type(exc).__name__)


# Keywords that describe a value without constraining it: the grammar is the same without
# them, so an edit to a docstring (a description) reuses the compiled verdict.
_ANNOTATIONS = frozenset({"description", "title", "examples", "$comment", "deprecated"})


def _without_annotations(node: Any, depth: int = 0) -> Any:
    if not isinstance(node, dict) or depth > CACHE_KEY_DEPTH:
        return node
    out: JsonSchema = {}
    for key, value in node.items():
        if key in _ANNOTATIONS and isinstance(value, (str, list, bool)):
            continue
        if key in SCHEMA_MAP_KEYWORDS and isinstance(value, dict):
            out[key] = {name: _without_annotations(sub, depth + 1) for name, sub in value.items()}
        elif key in SCHEMA_LIST_KEYWORDS and isinstance(value, list):
            out[key] = [_without_annotations(sub, depth + 1) for sub in value]
        elif key in SCHEMA_VALUE_KEYWORDS:
            out[key] = _without_annotations(value, depth + 1)
        else:
            out[key] = value
    return out


def grammar_refusal(schema: object) -> str | None:
    """Why llguidance cannot compile ``schema`` (``None``: it compiles or cannot be asked).

    A message starting with :data:`_FAILED` means llguidance itself failed on the schema.
    """
    if not grammar_engine().available or not isinstance(schema, dict):
        return None
    if nests_deeper(schema, CACHE_KEY_DEPTH):
        # Far past any depth a provider accepts (openai.too-deep says so). Not asked, on every
        # Python alike: whether the JSON encoder reaches such depths differs between versions.
        return None
    try:
        text = encode_compact(_without_annotations(schema))
    except (TypeError, ValueError, RecursionError):  # not JSON data: other rules report it
        return None
    message = _compile(text).strip()
    if not message or message.startswith("WARNING"):
        return None
    first = message.splitlines()[0]
    return first if len(first) <= _MAX_MESSAGE else first[: _MAX_MESSAGE - 3] + "..."


# --------------------------------------------------------------------------------------------
# Where a refusal points: derived from the message where it names a format, keys or a property

_FORMAT = re.compile(r"Unknown format: (.*)$")
_KEYS = re.compile(r"Unimplemented keys: \[(.*?)\]")
_PROPERTY = re.compile(r"property '([^']*)'")


def _pointer_for(schema: object, message: str) -> str | None:
    nodes = [n for n in iter_schema_nodes(schema) if isinstance(n.value, dict)]
    fmt = _FORMAT.search(message)
    if fmt:
        wanted = fmt.group(1).strip()
        for node in nodes:
            if node.value.get("format") == wanted:
                return join_pointer(node.pointer, "format")
    keys = _KEYS.search(message)
    if keys:
        names = re.findall(r'"([^"]*)"', keys.group(1))
        for node in nodes:
            hit = next((k for k in names if k in node.value), None)
            if hit is not None:
                return join_pointer(node.pointer, hit)
    prop = _PROPERTY.search(message)
    if prop:
        for node in nodes:
            props = node.value.get("properties")
            if isinstance(props, dict) and prop.group(1) in props:
                return join_pointer(node.pointer, "properties", prop.group(1))
    return None


def grammar_hits(schema: object) -> Iterator[tuple[ProviderRule, Hit]]:
    """A hit when llguidance refuses ``schema`` (pointing where its message says), or when
    llguidance itself fails on it (its verdict is then unknown)."""
    message = grammar_refusal(schema)
    if message is None:
        return
    if message.startswith(_FAILED):
        yield GRAMMAR_FAILED_RULE, Hit(None, {"why": message[len(_FAILED) :]})
    else:
        yield GRAMMAR_RULE, Hit(_pointer_for(schema, message), {"why": message})


def grammar_rejected(ctx: RuleContext) -> Iterator[Hit]:
    return (hit for rule, hit in grammar_hits(ctx.schema) if rule is GRAMMAR_RULE)


def grammar_failed(ctx: RuleContext) -> Iterator[Hit]:
    return (hit for rule, hit in grammar_hits(ctx.schema) if rule is GRAMMAR_FAILED_RULE)


# fmt: off
GRAMMAR_RULE: ProviderRule = rule(
    "openai.grammar-rejected", E, S, "llguidance cannot compile the strict schema",
    "OpenAI's grammar engine (llguidance) cannot compile this schema: {why}",
    "change the schema where the message points; OpenAI rejects what its grammar engine "
    "cannot compile", LLGUIDANCE, grammar_rejected,
)
GRAMMAR_FAILED_RULE: ProviderRule = rule(
    "openai.grammar-unchecked", W, S, "llguidance failed on the schema, so it was not judged",
    "OpenAI's grammar engine (llguidance) failed on this schema instead of judging it: {why}",
    "the documented rules still apply; check unusual characters in names and enum values",
    LLGUIDANCE, grammar_failed,
)
# fmt: on
