"""The consumer and rule tables as Markdown (``docs/clients.md`` holds them; a test keeps
the page in step with :data:`~toollens.consumers.rules.CONSUMER_RULES`)."""

from __future__ import annotations

from toollens.consumers.registry import CONSUMERS
from toollens.consumers.rules import CONSUMER_RULES, RULES_BY_ID

__all__ = ["consumers_markdown", "rules_markdown"]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def consumers_markdown() -> str:
    """One row per consumer: id, name, what it sends, how it names tools, to which provider."""
    rows = [
        "| id | consumer | sends | names tools | judged by |",
        "| --- | --- | --- | --- | --- |",
    ]
    for c in CONSUMERS.values():
        sends = "strict" if c.strict else "non-strict"
        if f"{c.id}.sent-strict" in RULES_BY_ID:
            sends = "strict when compatible"
        picks = "(the model the user picks)" if c.kind == "client" else "(the framework on it)"
        judged = f"`{c.provider}`" if c.provider else picks
        rows.append(f"| `{c.id}` | {_cell(c.title)} | {sends} | `{_cell(c.naming)}` | {judged} |")
    return "\n".join(rows) + "\n"


def rules_markdown() -> str:
    """One row per rule: id, verdict, what the consumer does, source, date read, evidence."""
    rows = [
        "| rule | verdict | what the client does | source | read | evidence |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in CONSUMER_RULES:
        link = r.source.removeprefix("https://")
        rows.append(
            f"| `{r.id}` | {r.verdict.value} | {_cell(r.summary)} | [{_cell(link)}]({r.source}) "
            f"| {r.date} | {r.evidence.value} |"
        )
    return "\n".join(rows) + "\n"
