"""The provider step: the provider a client talks to judges the tool as that client sends it.

After a consumer's verdicts, each tool it still sends (its ``sent`` copy) goes to the provider
that consumer talks to (:attr:`Consumer.provider <toollens.consumers.model.Consumer.provider>`:
Claude Code → ``anthropic``, Gemini CLI → ``gemini``, the Agents SDK → ``openai-responses``,
...), checked with that provider's own rules (:mod:`toollens.core.providers`), **strict only
when the client sends it strict** (the ``strict`` the client put in ``sent``, else the
consumer's mode). A tool the provider refuses becomes ``request-rejected`` (the API refuses
the whole request that carries it), with the provider's rules first among its hits; every finding,
warnings included, is on ``ClientVerdict.provider`` (a
:class:`~toollens.consumers.model.ProviderCheck`).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, MutableMapping

from toollens.consumers.model import (
    ClientVerdict,
    Consumer,
    ConsumerJudgement,
    ConsumerRule,
    Evidence,
    ProviderCheck,
    RuleHit,
    Verdict,
)
from toollens.core.choices import provider_id
from toollens.core.providers import RULES_BY_ID, check_provider
from toollens.core.records import Finding
from toollens.core.schema.types import JsonObject

__all__ = ["ProviderChecks", "judge_sent", "plain_schema", "provider_step", "sent_parts"]

ProviderChecks = MutableMapping[tuple[str, str | None, bool, str], ProviderCheck]
"""The provider checks one run has made, by provider, tool name, strictness and the schema's
JSON text (key order kept): clients that send a tool alike share its check."""

# Where each sent shape keeps its parameters: MCP (clients), OpenAI, Anthropic, Gemini.
_SCHEMA_KEYS = ("inputSchema", "parameters", "input_schema", "parameters_json_schema",
                "parametersJsonSchema")  # fmt: skip


def sent_parts(sent: Mapping[str, object]) -> tuple[str | None, object, bool | None]:
    """The name, parameters schema and ``strict`` flag of a ``sent`` copy, in any of the
    shapes clients send (an OpenAI Chat tool's ``function`` is looked into)."""
    tool = sent.get("function") if isinstance(sent.get("function"), Mapping) else sent
    assert isinstance(tool, Mapping)
    name = tool.get("name")
    schema = next((tool[k] for k in _SCHEMA_KEYS if k in tool), {"type": "object"})
    strict = tool.get("strict")
    return (
        name if isinstance(name, str) else None,
        schema,
        strict if isinstance(strict, bool) else None,
    )


def judge_sent(
    consumer: Consumer, sent: JsonObject, checks: ProviderChecks | None = None
) -> ProviderCheck | None:
    """What ``consumer``'s provider says about one tool as the consumer sends it; ``None``
    when the consumer talks to no one provider. ``checks``: the checks already made in this
    run (read, and added to), so a tool two clients send alike is checked once."""
    if consumer.provider is None:
        return None

    provider = provider_id(consumer.provider)
    name, schema, strict = sent_parts(sent)
    if provider == "gemini-openapi":
        schema = plain_schema(schema)
    is_strict = consumer.strict if strict is None else strict
    key = _check_key(provider, name, is_strict, schema) if checks is not None else None
    if key is not None and checks is not None and key in checks:
        return checks[key]
    # lazy: core.schema_fixes; `toollens --help` imports this module, not it
    from toollens.core.schema_fixes import for_schema_only

    findings = check_provider(schema, provider, name=name, strict=is_strict)  # type: ignore[arg-type]
    # What a client sends is a schema its author edits, not a Python function.
    check = ProviderCheck(provider, is_strict, for_schema_only(findings))
    if key is not None and checks is not None:
        checks[key] = check
    return check


def _check_key(
    provider: str, name: str | None, strict: bool, schema: object
) -> tuple[str, str | None, bool, str] | None:
    """The key of a provider check, or ``None`` for a schema that is not JSON (not shared)."""
    try:
        text = json.dumps(schema, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return provider, name, strict, text


_NAME_MAPS = frozenset({"properties", "$defs", "defs", "definitions"})  # keys are names


def plain_schema(value: object, names: bool = False) -> object:
    """A schema as google-genai puts it in the body (the API's ``Type`` enum names,
    ``OBJECT``; nested keywords in snake_case, ``any_of``), spelled as JSON Schema and the
    rules of the ``parameters`` field spell it (``object``, ``anyOf``). With ``names``,
    ``value`` maps property names to schemas (its keys are kept)."""
    if isinstance(value, list):
        return [plain_schema(v) for v in value]
    if not isinstance(value, Mapping):
        return value
    out: dict[str, object] = {}
    for key, item in value.items():
        name = str(key) if names else _camel(str(key))
        out[name] = plain_schema(item, names=not names and name in _NAME_MAPS)
    if not names and isinstance(out.get("type"), str):
        out["type"] = str(out["type"]).lower()
    return out


def _camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest) if head else key


def _as_rule(client: str, finding: Finding) -> ConsumerRule:
    """A provider rule, as the hit of a consumer verdict cites it (its source and date)."""
    known = RULES_BY_ID.get(finding.rule)
    cite = finding.cite
    return ConsumerRule(
        id=finding.rule,
        consumer=client,
        verdict=Verdict.REQUEST_REJECTED,
        summary=known.summary if known is not None else finding.message,
        fix=finding.fix,
        source=(cite.url or cite.title) if cite is not None else "",
        date=cite.date if cite is not None else "",
        evidence=Evidence(cite.evidence) if cite is not None else Evidence.DOCS,
    )


def _checked(
    consumer: Consumer, verdict: ClientVerdict, checks: ProviderChecks | None
) -> ClientVerdict:
    if verdict.sent is None:
        return verdict
    check = judge_sent(consumer, verdict.sent, checks)
    if check is None:
        return verdict
    if not check.rejected:
        return dataclasses.replace(verdict, provider=check)
    hits = tuple(
        RuleHit(_as_rule(consumer.id, f), f"{check.provider}: {f.message}", f.pointer)
        for f in check.errors
    )
    return dataclasses.replace(
        verdict,
        verdict=Verdict.REQUEST_REJECTED,
        hits=hits + verdict.hits,  # the provider's refusal decided it: first
        provider=check,
    )


def provider_step(
    consumer: Consumer, judgement: ConsumerJudgement, checks: ProviderChecks | None = None
) -> ConsumerJudgement:
    """``judgement`` with each sent tool judged by ``consumer``'s provider; ``checks``: the
    checks other clients of the run made (:func:`judge_sent`)."""
    if consumer.provider is None:
        return judgement
    tools = tuple(_checked(consumer, v, checks) for v in judgement.tools)
    return dataclasses.replace(judgement, tools=tools)
