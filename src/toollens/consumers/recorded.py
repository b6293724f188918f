"""A consumer judged by the request its library sends (see :mod:`toollens.consumers.wire`).

The SDK client's listing first (:func:`~toollens.consumers.python.through_sdk_client`), then
the library runs through its public entry point on the tools it kept, served page by page;
per tool, what the request body holds is ``sent``:

- a tool on a page the library never asked for is ``tool-dropped`` (``<client>.first-page-only``);
- a tool it read but left out of the body is ``tool-dropped`` (``missing_rule``);
- when the library fails before sending, every tool it read is ``request-rejected`` with
  nothing sent, and each tool that fails the call on its own is named
  (``culprit_rule``, with the library's own exception).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toollens.consumers.model import (
    ClientVerdict,
    ConsumerJudgement,
    RequestVerdict,
    RuleHit,
    ToolList,
    Verdict,
)
from toollens.consumers.python import in_order, through_sdk_client
from toollens.consumers.rules import rule
from toollens.consumers.wire import Replay, kept_pages, run_recorded
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.types import JsonObject

if TYPE_CHECKING:
    from mcp_types import Tool

__all__ = [
    "Library",
    "changes",
    "dropped_keys",
    "failure_text",
    "judge_recorded",
]

Drive = Callable[[Replay, list[JsonObject]], Awaitable[object]]


@dataclass(frozen=True)
class Library:
    """How one library is driven and read.

    Attributes:
        client: the consumer id.
        drive: ``drive(replay, bodies)`` runs the library's public entry point with the
            server ``replay`` and a recording transport over ``bodies``.
        entries: the request body's tool entries, by the tool's served name.
        hits: the rules one tool's entry hits (``hits(client, tool, entry)``).
        culprit_rule: the rule of a tool that fails the call on its own.
        missing_rule: the rule of a tool read but not in the body.
    """

    client: str
    drive: Drive
    entries: Callable[[JsonObject], Mapping[str, JsonObject]]
    hits: Callable[[str, Tool, JsonObject], list[RuleHit]]
    culprit_rule: str
    missing_rule: str | None = None


def failure_text(exc: BaseException) -> str:
    """The first line of a library's exception, with its type."""
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}".rstrip(": ")


def judge_recorded(library: Library, listing: ToolList) -> ConsumerJudgement:
    """``library``'s verdicts on ``listing``, from the request body it sends."""
    client = library.client
    kept, lost = through_sdk_client(client, listing)
    if not kept:  # the SDK client lost every tool: the library never sees one
        return in_order(client, listing, lost, [])
    replay = Replay(kept_pages(listing, kept))
    recorded = run_recorded(functools.partial(library.drive, replay))
    read = [t for page in replay.pages[: max(replay.pages_read, 1)] for t in page]
    verdicts = {**lost, **_unread(client, replay, read)}
    if recorded.body is None:
        assert recorded.error is not None
        failed, request = _failed_request(library, read, recorded.error)
        verdicts.update(failed)
        judgement = in_order(client, listing, verdicts, [])
        return dataclasses.replace(judgement, requests=(request,))
    entries = library.entries(recorded.body)
    sent_names = []
    for tool in read:
        entry = entries.get(tool.name)
        if entry is None:
            text = "read from the server, but not in the request body"
            hit = RuleHit(rule(library.missing_rule or f"{client}.mcp-client"), text, "/_meta")
            verdicts[tool.name] = ClientVerdict.from_hits(client, tool.name, [hit], None)
            continue
        hits = library.hits(client, tool, entry)
        verdicts[tool.name] = ClientVerdict.from_hits(client, tool.name, hits, entry)
        sent_names.append(tool.name)
    return in_order(client, listing, verdicts, sent_names)


def _unread(client: str, replay: Replay, read: Sequence[Tool]) -> dict[str, ClientVerdict]:
    """The tools on pages the library never asked for."""
    seen = {t.name for t in read}
    unread = [(n, t) for n, page in enumerate(replay.pages, 1) for t in page if t.name not in seen]
    if not unread:
        return {}
    found = rule(f"{client}.first-page-only")  # a KeyError: a library toollens has no rule for
    out = {}
    for number, tool in unread:
        text = f"on tools/list page {number}; the library read {replay.pages_read} page(s)"
        out[tool.name] = ClientVerdict(
            client, tool.name, Verdict.TOOL_DROPPED, (RuleHit(found, text),)
        )
    return out


def _alone(library: Library, tool: Tool | None) -> BaseException | None:
    """The library's exception when it sends only ``tool`` (no tool: ``None``), if any."""
    replay = Replay([[tool] if tool else []])
    recorded = run_recorded(functools.partial(library.drive, replay))
    return recorded.error if recorded.body is None else None


def _failed_request(
    library: Library, read: Sequence[Tool], error: BaseException
) -> tuple[dict[str, ClientVerdict], RequestVerdict]:
    """Every tool read, rejected with the request; the tools that fail it on their own named."""
    client = library.client
    empty = _alone(library, None)
    if empty is not None:  # fails with no tool at all: not the tools' doing
        raise RuntimeError(f"{client} fails with no tool: {failure_text(empty)}") from empty
    culprits = {t.name: exc for t in read if (exc := _alone(library, t)) is not None}
    names = _some(list(culprits)) or "no single tool (only together)"
    text = f"the call fails on {names} ({failure_text(error)}): nothing is sent"
    failed = rule(f"{client}.request-failed")
    verdicts = {}
    for tool in read:
        own = culprits.get(tool.name)
        hit = (
            RuleHit(rule(library.culprit_rule), f"{failure_text(own)}: this tool fails the "
                    "call, and nothing is sent")
            if own is not None
            else RuleHit(failed, text)
        )  # fmt: skip
        verdicts[tool.name] = ClientVerdict.from_hits(client, tool.name, [hit], None)
    request = RequestVerdict(client, Verdict.REQUEST_REJECTED, RuleHit(failed, text),
                             tuple(t.name for t in read))  # fmt: skip
    return verdicts, request


def changes(before: object, after: object) -> str:
    """What a conversion did to a schema, in a few words: the keys it removed and added."""
    removed = list(dropped_keys(before, after))
    added = list(dropped_keys(after, before))
    parts = [f"removed {', '.join(removed)}"] if removed else []
    parts += [f"added {', '.join(added)}"] if added else []
    return "; ".join(parts) or "values changed"


def dropped_keys(before: object, after: object, at: str = "") -> Iterator[str]:
    """The pointers of keys in ``before`` that ``after`` (a filtered copy) lacks."""
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        for key, value in before.items():
            if key not in after:
                yield join_pointer(at, key)
            else:
                yield from dropped_keys(value, after[key], join_pointer(at, key))
    elif isinstance(before, list) and isinstance(after, list):
        for i, (b, a) in enumerate(zip(before, after, strict=False)):
            yield from dropped_keys(b, a, join_pointer(at, i))


def _some(names: Sequence[str], shown: int = 3) -> str:
    """``'a', 'b', 'c' and 23 more``."""
    listed = ", ".join(repr(n) for n in names[:shown])
    return listed + (f" and {len(names) - shown} more" if len(names) > shown else "")
