"""The pitfall linter: a triggering and a clean example for every rule."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from toollens.core.errors import SchemaConstructionError
from toollens.core.function_schema import function_schema
from toollens.core.lint import LINT_RULES, LINT_RULES_BY_ID, iter_findings, lint, word_count
from toollens.core.records import Finding


def only(findings: list[Finding], rule: str) -> Finding:
    """Exactly one finding of ``rule``; return it for comparing its text."""
    matching = [f for f in findings if f.rule == rule]
    assert len(matching) == 1, f"expected one {rule}, got {[str(f) for f in findings]}"
    return matching[0]


def none_of(findings: list[Finding], rule: str) -> None:
    assert [str(f) for f in findings if f.rule == rule] == []


# --------------------------------------------------------------------------------------------
# Callables, bad and clean, per rule


def good(query: str, limit: int = 10) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
        limit: maximum number of results to return.
    """
    return query


def implicit_optional(query: str, country: str = None) -> str:  # noqa: RUF013
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
        country: only documents about this country.
    """
    return query


def explicit_optional(query: str, country: str | None = None) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
        country: only documents about this country.
    """
    return query


def no_doc(query: str) -> str:
    return query


def vague_doc(query: str) -> str:
    """Search.

    Args:
        query: search keywords to look for.
    """
    return query


def param_vague(query: str) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: the query.
    """
    return query


def param_undocumented(query: str, page: int) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
    """
    return query


def ghost_param(query: str) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
        top_k: how many results.
    """
    return query


def with_raises(query: str) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.

    Raises:
        KeyError: when the index is missing.
    """
    return query


def with_returns(query: str) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.

    Returns:
        the matching document titles.
    """
    return query


def conflicting(query: Annotated[str, "text to search the index with"]) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
    """
    return query


def agreeing(query: Annotated[str, "search keywords to look for"]) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
    """
    return query


def float_count(query: str, top_k: float) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
        top_k: how many documents to return.
    """
    return query


def float_real(query: str, temperature: float = 1) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
        temperature: sampling temperature for reranking.
    """
    return query


def int_fraction(query: str, keep: int) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
        keep: fraction of results to keep, between 0 and 1.
    """
    return query


def unchecked_email(
    query: str, email: Annotated[str, Field(json_schema_extra={"format": "email"})]
) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
        email: where to send the results.
    """
    return query


def checked_date(query: str, since: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")]) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
        since: the earliest date, as YYYY-MM-DD.
    """
    return query


class Filters(BaseModel):
    category: str


class ClosedFilters(BaseModel):
    model_config = ConfigDict(extra="forbid")
    category: str


def open_filters(query: str, filters: Filters) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
        filters: restrict results to one category.
    """
    return query


def closed_filters(query: str, filters: ClosedFilters) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
        filters: restrict results to one category.
    """
    return query


def mixed_styles(query: str) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.

    :param query: search keywords to look for.
    """
    return query


def untyped(query, limit: int = 10) -> str:  # type: ignore[no-untyped-def]
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
        limit: maximum number of results to return.
    """
    return str(query)


def with_kwargs(query: str, **options: str) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
        options: extra search engine options.
    """
    return query


_SENTINEL = object()


def opaque_default(query: str, marker: object = _SENTINEL) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.
        marker: an internal marker the caller may pass.
    """
    return query


def broken_doc(query: str) -> str:
    """Search the knowledge base for matching documents.

    Args:
        query: search keywords to look for.

    Raises:
        oops
    """
    return query


NON_STRICT = {"strict": False}
NULLABLE = {"optional_defaults": "nullable"}

# (rule id, bad target, its options, clean target, its options, expected pointer, text)
CASES: list[tuple[str, Any, dict[str, Any], Any, dict[str, Any], str | None, str]] = [
    ("lint.missing-tool-description", no_doc, {}, good, NULLABLE, None, "'no_doc'"),
    ("lint.vague-tool-description", vague_doc, {}, good, NULLABLE, None, '"Search." is 1 word'),
    ("lint.missing-parameter-description", param_undocumented, {}, good, NULLABLE,
     "/properties/page", "'page'"),
    ("lint.vague-parameter-description", param_vague, {}, good, NULLABLE, "/properties/query",
     "the parameter's name repeated"),
    ("lint.unknown-documented-parameter", ghost_param, {}, good, NULLABLE, None, "'top_k'"),
    ("lint.dropped-docstring-section", with_raises, {}, good, NULLABLE, None, "Raises"),
    ("lint.returns-not-sent", with_returns, {}, good, NULLABLE, None,
     '"the matching document titles."'),
    ("lint.conflicting-descriptions", conflicting, {}, agreeing, {}, "/properties/query",
     'the docstring description "search keywords to look for." is sent; the Annotated '
     'string says "text to search the index with"'),
    ("lint.integer-as-number", float_count, {}, float_real, NULLABLE, "/properties/top_k",
     "'top_k'"),
    ("lint.number-as-integer", int_fraction, {}, good, NULLABLE, "/properties/keep",
     "'fraction'"),
    ("lint.unchecked-format", unchecked_email, {}, checked_date, {},
     "/properties/email/format", '"email"'),
    ("lint.default-not-applied", good, {}, good, NULLABLE, "/properties/limit",
     "defaults to 10"),
    ("lint.none-default-not-nullable", implicit_optional, {}, explicit_optional, {},
     "/properties/country", "annotated str, which has no null"),
    ("lint.open-nested-object", open_filters, NON_STRICT, closed_filters, NON_STRICT,
     "/$defs/Filters", "/$defs/Filters"),
    ("lint.docstring-style-uncertain", mixed_styles, {}, good, NULLABLE, None,
     "google 1, sphinx 1"),
    ("lint.docstring-parse-error", broken_doc, {}, good, NULLABLE, None, "does not parse"),
    ("lint.unannotated-parameter", untyped, NULLABLE, good, NULLABLE, "/properties/query",
     "'query'"),
    ("lint.var-keyword-non-strict", with_kwargs, NON_STRICT, good, NON_STRICT,
     "/properties/options", "**options"),
    ("lint.schema-warning", opaque_default, NON_STRICT, good, NON_STRICT, None,
     "not JSON serializable"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "bad", "bad_options", "clean", "clean_options", "pointer", "text"),
    CASES,
    ids=[c[0] for c in CASES],
)
def test_lint_rule(
    rule: str,
    bad: Callable[..., Any],
    bad_options: dict[str, Any],
    clean: Callable[..., Any],
    clean_options: dict[str, Any],
    pointer: str | None,
    text: str,
) -> None:
    spec = LINT_RULES_BY_ID[rule]
    if rule == "lint.none-default-not-nullable" and sys.version_info < (3, 11):
        # 3.10's typing.get_type_hints adds the Optional itself: the schema has null already
        nullable = function_schema(bad).raw_json_schema["properties"]["country"]
        assert {"type": "null"} in nullable["anyOf"]
        none_of(lint(bad, **bad_options), rule)
        return
    finding = only(lint(bad, **bad_options), rule)
    assert finding.pointer == pointer
    assert finding.severity is spec.severity
    assert text in finding.message
    assert finding.fix
    if pointer and pointer.startswith("/properties/"):
        assert finding.parameter == pointer.split("/")[2]
    none_of(lint(clean, **clean_options), rule)


def test_every_lint_rule_has_a_case() -> None:
    assert {c[0] for c in CASES} == {r.id for r in LINT_RULES}


def test_the_clean_function_is_clean() -> None:
    assert lint(good, optional_defaults="nullable") == []


def test_lint_accepts_a_function_schema() -> None:
    fs = function_schema(good)
    assert lint(fs) == lint(good)
    with pytest.raises(SchemaConstructionError, match="already built"):
        lint(fs, strict=False)


def test_iter_findings_is_a_generator() -> None:
    gen = iter_findings(good)
    assert iter(gen) is gen


@pytest.mark.parametrize(
    ("description", "vague"),
    [
        ("param", True),
        ("参数", True),
        ("The value.", True),
        ("data", True),
        ("query", True),  # the name repeated
        ("the query", True),
        ("Keywords", True),  # one word
        ("搜索关键词", False),  # five CJK characters say enough
        ("search keywords", False),
    ],
)
def test_vague_parameter_descriptions(description: str, vague: bool) -> None:
    def search(query: str) -> str:
        """Search the knowledge base for matching documents."""
        return query

    # Set after definition: with postponed annotations a local name would not resolve.
    search.__annotations__ = {"query": Annotated[str, description], "return": str}

    rules = [f.rule for f in lint(search)]
    assert ("lint.vague-parameter-description" in rules) is vague


def test_word_count_handles_cjk() -> None:
    assert word_count("search keywords") == 2
    assert word_count("搜索知识库中的相关信息") == 5
    assert word_count("") == 0


def test_default_not_applied_is_silent_when_not_strict() -> None:
    none_of(lint(good, strict=False), "lint.default-not-applied")


def test_conflict_ignores_docstring_when_docstring_info_is_off() -> None:
    none_of(lint(conflicting, use_docstring_info=False), "lint.conflicting-descriptions")
