"""A token count as text (bars of block characters) and as HTML (bars as widths).

Pure functions of a :class:`~toollens.tokens.TokenCount`; the CLI prints the text, the
notebook display and the explorer show the HTML.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toollens.render.markup import Markup, tag

if TYPE_CHECKING:
    from toollens.tokens.result import TokenCount

BAR_WIDTH = 30
TOKENS_STYLE = """
.tl-tok { font: 13px/1.45 system-ui, sans-serif; }
.tl-tok-head { font-weight: 600; margin-bottom: 4px; }
.tl-tok-method { font-weight: 400; color: #666; }
.tl-tok table { border-collapse: collapse; width: 100%; max-width: 720px; }
.tl-tok td { padding: 1px 6px; vertical-align: middle; }
.tl-tok td.tl-tok-n { text-align: right; font-variant-numeric: tabular-nums; width: 4em; }
.tl-tok td.tl-tok-barcell { width: 45%; }
.tl-tok .tl-tok-bar { height: 10px; background: #4c78a8; border-radius: 2px; }
.tl-tok tr.tl-tok-tool td { font-weight: 600; padding-top: 4px; }
.tl-tok tr.tl-tok-part td:first-child { padding-left: 20px; }
.tl-tok tr.tl-tok-part .tl-tok-bar { background: #9ecae9; }
.tl-tok .tl-tok-note { color: #666; font-size: 12px; margin: 2px 0; }
.tl-tok .tl-tok-unread { color: #b00020; font-size: 12px; margin: 2px 0; }
"""


def _bar(value: int, largest: int) -> str:
    width = round(BAR_WIDTH * value / largest) if largest else 0
    return "█" * width or ("▏" if value else "")


def tokens_text(counted: TokenCount) -> str:
    """The count as lines: the total, then the overhead, each tool and its parts."""
    lines = [_headline(counted)]
    lines.extend(f"  not read: {u.name}: {u.error}" for u in counted.unread)
    lines.extend(f"  {line}" for line in _sums(counted))
    largest = max([t.tokens for t in counted.tools] + [counted.overhead, 1])
    lines.append(f"  {'overhead':<34} {counted.overhead:>6}  {_bar(counted.overhead, largest)}")
    for tool in counted.tools:
        name = f"{tool.name} (deferred)" if tool.deferred else tool.name
        lines.append(f"  {name:<34} {tool.tokens:>6}  {_bar(tool.tokens, largest)}")
        for part in tool.parts:  # one scale for every bar: a part is never longer than its tool
            label = part.label if len(part.label) <= 30 else part.label[:29] + "…"
            lines.append(f"    {label:<32} {part.tokens:>6}  {_bar(part.tokens, largest)}")
    lines.extend(f"note: {n}" for n in counted.notes)
    return "\n".join(lines) + "\n"


def _headline(counted: TokenCount) -> str:
    line = f"{counted.total} tokens for {counted.model} ({counted.method}, {counted.tokenizer})"
    if counted.unread:
        read = len(counted.tools)
        line += (
            f", {read} of {read + len(counted.unread)} tools "
            f"({len(counted.unread)} could not be read, not counted)"
        )
    return line


def _sums(counted: TokenCount) -> list[str]:
    """The up-front / deferred split and the whole request, when they differ from the total."""
    out = []
    if counted.deferred:
        out.append(
            f"up front: {counted.up_front} tokens; deferred (paid once loaded): "
            f"{counted.deferred} tokens"
        )
    if counted.request is not None:
        out.append(
            f"request: {counted.request} tokens (messages {counted.messages} + tools up "
            f"front {counted.up_front})"
        )
    return out


def _row(kind: str, label: str, value: int, largest: int) -> Markup:
    percent = 100 * value / largest if largest else 0
    bar = tag("div", class_="tl-tok-bar", style=f"width: {percent:.1f}%")
    return tag(
        "tr",
        tag("td", label),
        tag("td", str(value), class_="tl-tok-n"),
        tag("td", bar, class_="tl-tok-barcell"),
        class_=f"tl-tok-{kind}",
        data_tokens=str(value),
    )


def tokens_html(counted: TokenCount, *, with_style: bool = True) -> Markup:
    """The count as an HTML fragment: a table with a bar per tool and per part."""
    largest = max([t.tokens for t in counted.tools] + [counted.overhead, 1])
    rows = [_row("tool", "overhead", counted.overhead, largest)]
    for tool in counted.tools:
        rows.append(_row("tool", tool.name, tool.tokens, largest))
        rows.extend(_row("part", p.label, p.tokens, largest) for p in tool.parts)
    head = tag(
        "div",
        f"{counted.total} tokens for {counted.model} ",
        tag("span", f"({counted.method}, {counted.tokenizer})", class_="tl-tok-method"),
        class_="tl-tok-head",
        data_total=str(counted.total),
    )
    unread = [
        tag("p", f"not read, not counted: {u.name}: {u.error}", class_="tl-tok-unread")
        for u in counted.unread
    ]
    sums = [tag("p", line, class_="tl-tok-note") for line in _sums(counted)]
    notes = [*unread, *sums, *(tag("p", n, class_="tl-tok-note") for n in counted.notes)]
    style = tag("style", Markup(TOKENS_STYLE)) if with_style else None
    return tag("div", style, head, tag("table", rows), notes, class_="tl-tok")


__all__ = ["tokens_html", "tokens_text"]
