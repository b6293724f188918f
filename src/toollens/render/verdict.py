"""A provider's verdict, as text lines and as HTML: who judged the schema, and what each said.

One place formats a :class:`~toollens.core.providers.ProviderVerdict`, so the static report,
the explorer's provider panel and ``toollens check`` say the same thing.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from toollens.render.markup import Markup, badge, tag

if TYPE_CHECKING:
    from toollens.core.providers import Judgement, ProviderVerdict

_OUTCOME_CLASS = {"accepted": "tl-on", "rejected": "tl-sev-error", "not run": "tl-sev-info"}


def verdict_headline(verdict: ProviderVerdict) -> str:
    word = "accepts" if verdict.accepted else "rejects"
    return f"{verdict.provider} ({verdict.label}) {word} this tool"


def judgement_text(judgement: Judgement) -> str:
    """``documented rules: accepted (no rule broken) [source, date; ...]``."""
    text = f"{judgement.label}: {judgement.outcome} ({judgement.detail})"
    if judgement.sources:
        text += " [" + "; ".join(f"{s.title}, {s.date}" for s in judgement.sources) + "]"
    return text


def disagreement(judgements: tuple[Judgement, ...]) -> str | None:
    """When the judges that ran disagree, which one the verdict follows, and why."""
    outcomes = {j.outcome for j in judgements}
    if not {"accepted", "rejected"} <= outcomes:
        return None
    rejecting = " and ".join(j.label for j in judgements if j.outcome == "rejected")
    return (
        f"the judges disagree: the verdict follows {rejecting} (a tool is accepted only when "
        "every judge that ran accepts it)"
    )


def verdict_lines(verdict: ProviderVerdict, indent: str = "  ") -> list[str]:
    """The headline, then one line per judge, then which judge decides when they disagree."""
    split = disagreement(verdict.judgements)
    return [
        "verdict: " + verdict_headline(verdict),
        *(indent + judgement_text(j) for j in verdict.judgements),
        *([indent + split] if split else []),
    ]


def _source_links(judgement: Judgement) -> Markup | None:
    if not judgement.sources:
        return None
    links = [
        tag("a", f"{s.title} ({s.date})", href=s.url, target="_blank", rel="noopener noreferrer")
        for s in judgement.sources
        if s.url.startswith("https://")
    ]
    separated = [item for link in links for item in (link, "; ")][:-1]
    return tag("div", "Sources: ", separated, class_="tl-fix")


def verdict_html(verdict: ProviderVerdict) -> Markup:
    """The verdict as a list: one item per judge, its outcome as a badge."""
    return _verdict_html(verdict_headline(verdict), verdict.accepted, verdict.judgements)


# The same verdict comes back on most edits (a description does not change it).
@functools.lru_cache(maxsize=64)
def _verdict_html(headline: str, accepted: bool, judgements: tuple[Judgement, ...]) -> Markup:
    items = [
        tag(
            "li",
            badge(j.outcome, _OUTCOME_CLASS.get(j.outcome, "tl-sev-info")),
            " ",
            tag("span", j.label, class_="tl-rule"),
            ": ",
            j.detail,
            _source_links(j),
            class_="tl-judgement",
        )
        for j in judgements
    ]
    split = disagreement(judgements)
    return tag(
        "div",
        tag("p", headline, class_="tl-note"),
        tag("ul", items, class_="tl-findings tl-verdict"),
        tag("p", split, class_="tl-note tl-verdict-split") if split else None,
        class_="tl-verdict-block " + ("tl-verdict-accepted" if accepted else "tl-verdict-rejected"),
    )
