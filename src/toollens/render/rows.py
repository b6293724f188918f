"""Table rows and list items of the panels, memoised on the text they show.

A live edit of a tool with hundreds of parameters changes one or two of them, yet every
panel is rebuilt from a new report. Each function here takes only what its row shows
(strings, flags, tuples of them) and returns the row's HTML, so an unchanged row is a cache
lookup instead of a dozen ``tag`` calls. The caches are bounded by entry count; a row is a
few hundred bytes to a few kilobytes.
"""

from __future__ import annotations

from toollens.core.memo import edit_cache
from toollens.core.records import Citation
from toollens.render.markup import Child, Markup, badge, code, join, tag

__all__ = [
    "Cand",
    "candidate",
    "change_item",
    "compact_change_item",
    "context_metadata_row",
    "finding_item",
    "metadata_row",
    "signature_row",
    "source_link",
    "value_cell",
    "why_item",
]

# Typographic marks as character references: the views stay ASCII (one byte a character)
# unless the author's own text is not, which makes every copy and encode of them cheaper.
CHECK = Markup(" &#10003;")  # " ✓"
DASH = Markup(" &mdash; ")  # " — "

_ROWS = 1024  # per cache: more than one edit of a 200-parameter tool shows, per kind

#: A candidate as shown: (label, shown value, won, reason, ``data-span``: its source span
#: "l1:c1-l2:c2", a key the explorer resolves, or "").
Cand = tuple[str, str, bool, str, str]


@edit_cache(_ROWS)
def candidate(c: Cand) -> Markup:
    """One source's value for an attribute: ✓ when it won, struck through when it lost."""
    label, shown, won, reason, span = c
    if won:
        body: Child = [
            tag("span", label, class_="tl-attr"),
            shown,
            tag("span", CHECK, class_="tl-mark"),
        ]
        return tag("div", body, class_="tl-cand tl-won", title=reason, data_span=span or None)
    return tag(
        "div",
        tag("span", label, class_="tl-attr"),
        tag("s", shown),
        class_="tl-cand tl-lost",
        title=reason,
        data_span=span or None,
    )


@edit_cache(_ROWS)
def value_cell(cands: tuple[Cand, ...], empty: str) -> Markup:
    """The value the model sees first, its source as a small label; the losers on demand.

    ``empty`` is shown when no source offers a value (``"required"`` for a default).
    """
    if not cands:
        return tag("td", empty, class_="tl-empty")
    won = [c for c in cands if c[2]]
    lost = [c for c in cands if not c[2]]
    body: list[Child] = [
        tag(
            "div",
            shown,
            " ",
            tag("span", label, class_="tl-srcl"),
            class_="tl-cand tl-won",
            title=reason,
            data_span=span or None,
        )
        for label, shown, _won, reason, span in won
    ]
    if lost:
        others = "1 other source" if len(lost) == 1 else f"{len(lost)} other sources"
        body.append(
            tag(
                "details",
                tag("summary", others),
                [candidate(c) for c in lost],
                class_="tl-others",
            )
        )
    return tag("td", body)


@edit_cache(_ROWS)
def signature_row(
    number: int,
    name: str,
    type_text: str,
    extra: tuple[str, ...],
    kind_short: str,
    kind: str,
    default: str,
    is_context: bool,
) -> Markup:
    """A parameter of the Signature table; ``extra`` is ``("context",)``, ``("alias", name)``."""
    more: Child = None
    if extra[:1] == ("context",):
        more = tag("div", badge("run context: injected, not in schema", "tl-context-badge"))
    elif extra[:1] == ("alias",):
        more = tag("div", "schema name ", code(extra[1]), class_="tl-muted")
    return tag(
        "tr",
        tag("td", str(number), class_="tl-muted"),
        tag("td", tag("span", name, class_="tl-name"), ": ", code(type_text), more),
        tag("td", badge(kind_short, "tl-kind"), title=kind),
        tag("td", default, class_="tl-muted" if default in ("required", "injected") else None),
        class_="tl-context" if is_context else None,
    )


@edit_cache(_ROWS)
def metadata_row(name: str, type_text: str, cells: tuple[Markup, ...]) -> Markup:
    """A parameter of the Metadata table: name, type, then one :func:`value_cell` per column."""
    return tag("tr", tag("td", name, class_="tl-name"), tag("td", _breakable(type_text)), *cells)


def _breakable(type_text: str) -> Markup:
    """A type as code that may wrap after each ``[`` and ``|`` as well as at its spaces, so
    ``Literal['celsius', 'fahrenheit']`` fits a narrow column without breaking a word."""
    import re

    children: list[Child] = []
    for i, part in enumerate(re.split(r"(?<=[\[|])", type_text)):
        children += [Markup("<wbr>"), part] if i else [part]
    return tag("code", *children)


@edit_cache(_ROWS)
def context_metadata_row(name: str, type_text: str, span: int) -> Markup:
    """The Metadata row of the run-context parameter, which the model never sees."""
    return tag(
        "tr",
        tag("td", name, class_="tl-name"),
        tag("td", code(type_text)),
        tag(
            "td",
            badge("injected, not in schema", "tl-context-badge"),
            " the runtime passes the run context; the model never sees it",
            colspan=str(span),
            class_="tl-context",
        ),
        class_="tl-context-row",
    )


@edit_cache(_ROWS)
def why_item(param: str | None, attribute: str, cands: tuple[tuple[str, bool, str], ...]) -> Markup:
    """Why each source of one attribute won or lost; ``param`` ``None``: the tool itself."""
    parts: list[Child] = []
    for index, (label, won, reason) in enumerate(cands):
        if index:
            parts.append("; ")
        shown: Child = (
            tag("span", label, CHECK, class_="tl-won")
            if won
            else tag("span", tag("s", label), class_="tl-lost")
        )
        parts.extend([shown, DASH, reason])
    if param is None:
        return tag("li", tag("strong", f"tool {attribute}"), ": ", join(*parts))
    return tag("li", code(param), " ", tag("strong", attribute), ": ", join(*parts))


@edit_cache(_ROWS)
def change_item(pointer: str, rule: str, reason: str) -> Markup:
    """One rewrite of strict conversion, with its reason."""
    return tag("li", code(pointer or "/"), " ", tag("span", rule, class_="tl-rule"), DASH, reason)


@edit_cache(_ROWS)
def compact_change_item(pointer: str, rules: tuple[tuple[str, str], ...]) -> Markup:
    """Every rewrite at one pointer on one line, reasons on hover."""
    return tag(
        "li",
        code(pointer or "/"),
        " ",
        join(
            *(
                join(", " if i else None, tag("span", rule, class_="tl-rule", title=reason))
                for i, (rule, reason) in enumerate(rules)
            )
        ),
    )


@edit_cache(_ROWS)
def finding_item(
    sev: str,
    rule: str,
    pointer: str | None,
    message: str,
    fix: str | None,
    cite: Citation | None,
) -> Markup:
    """One lint or provider finding; a cited rule links its source, with how strong it is
    and when it was read."""
    where = code(pointer or "/") if pointer is not None else None
    return tag(
        "li",
        badge(sev, f"tl-sev-{sev}"),
        tag("span", rule, class_="tl-rule"),
        " ",
        where,
        " " if where else None,
        message,
        tag("div", "Fix: ", fix, class_="tl-fix") if fix else None,
        source_link(cite),
        class_=f"tl-finding tl-sev-item-{sev}",
    )


def _safe_href(url: str | None) -> str | None:
    """``url`` when it is a web address a page may link to, else ``None``."""
    if url and url.lower().startswith(("https://", "http://")):
        return url
    return None


def source_link(cite: Citation | None) -> Markup | None:
    """A link to a rule's source, with how strong it is and when it was read; ``None`` when
    it has no web address (toollens' own rules, a source in words)."""
    href = _safe_href(cite.url) if cite is not None else None
    if cite is None or href is None:
        return None
    read = f", read {cite.checked}" if cite.checked else ""
    link = tag(
        "a", "source", href=href, title=cite.title, target="_blank", rel="noopener noreferrer"
    )
    return join(" ", link, tag("span", f" ({cite.evidence}{read})", class_="tl-muted"))
