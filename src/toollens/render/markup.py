"""A tiny HTML builder that escapes by default.

Every ``str`` that reaches :func:`tag` as a child or an attribute value is escaped; only
:class:`Markup` (what :func:`tag` itself returns, or what a trusted formatter such as
pygments produced) passes through. Front ends therefore never build HTML with f-strings
around user text: names, docstrings, enum values and error messages all go through here.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from toollens.core.memo import edit_cache

__all__ = [
    "Child",
    "Markup",
    "badge",
    "code",
    "collect",
    "h",
    "join",
    "note",
    "safe_repr",
    "start_tag",
    "tag",
    "utf8_length",
]


class Markup(str):
    """A string that is already HTML; it is not escaped again."""

    __slots__ = ()


Child = str | Markup | None | Iterable["Child"]

# Tags that never take children.
_VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "col", "wbr"})


@edit_cache(4096)
def _escaped(text: str) -> str:
    # Views escape the same strings on every render (class names, labels, the reasons and
    # descriptions of parameters an edit did not touch): a cache hit is cheaper than five
    # replace calls.
    return html.escape(text, quote=True)


def h(text: object) -> Markup:
    """Escape any value's ``str`` for use as HTML text or a quoted attribute value."""
    if isinstance(text, Markup):
        return text
    return Markup(_escaped(str(text)))


def collect(children: Iterable[Child], out: list[str]) -> None:
    """Append each child's HTML to ``out``, escaping the ones that are not Markup."""
    # A loop, not a generator chain: this runs for every element of every view. Markup
    # (what tag returns) is the commonest child, so it is tested first.
    for child in children:
        kind = type(child)
        if kind is Markup:
            out.append(child)  # type: ignore[arg-type]  # narrowed by the type test
        elif kind is str:
            out.append(_escaped(child))  # type: ignore[arg-type]
        elif child is None:
            continue
        elif isinstance(child, str):
            out.append(h(child))
        else:
            collect(child, out)


def join(*children: Child) -> Markup:
    """Concatenate children, escaping the ones that are not :class:`Markup`."""
    out: list[str] = []
    collect(children, out)
    return Markup("".join(out))


_ATTR_NAMES: dict[str, str] = {}


def _attr_name(name: str) -> str:
    # Python keywords and dashes: class_ -> class, data_pointer -> data-pointer.
    attr = _ATTR_NAMES.get(name)
    if attr is None:
        attr = _ATTR_NAMES[name] = name.rstrip("_").replace("_", "-")
    return attr


def tag(name: str, *children: Child, **attrs: object) -> Markup:
    """Build ``<name attrs>children</name>``; ``None``/``False`` attributes are left out.

    Attribute names come from Python identifiers (never from user text); values are
    escaped with quotes, so a user string cannot end the attribute.
    """
    opening = _opening(name, attrs) if attrs else f"<{name}>"
    if name in _VOID:
        return Markup(opening)
    out = [opening]
    collect(children, out)
    out.append(f"</{name}>")
    return Markup("".join(out))


def start_tag(name: str, **attrs: object) -> Markup:
    """``<name attrs>`` alone, for a caller that appends the content and ``</name>`` itself."""
    return Markup(_opening(name, attrs))


def _opening(name: str, attrs: dict[str, object]) -> str:
    parts = [name]
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        if value is True:
            parts.append(_attr_name(key))
        elif type(value) is str:
            parts.append(f'{_attr_name(key)}="{_escaped(value)}"')
        else:
            parts.append(f'{_attr_name(key)}="{h(value)}"')
    return "<" + " ".join(parts) + ">"


# The small pieces every view repeats (the same notes, badges and code spans on each
# render), built once each.
_PIECES = 2048


def note(text: Child) -> Markup:
    """A muted explanatory paragraph."""
    if type(text) is str:
        return _note(text)
    return tag("p", text, class_="tl-note")


@edit_cache(_PIECES)
def _note(text: str) -> Markup:
    return tag("p", text, class_="tl-note")


@edit_cache(_PIECES)
def badge(text: str, *extra: str) -> Markup:
    """A small rounded label; ``extra`` classes colour it (``tl-sev-error``, ``tl-on``)."""
    return tag("span", text, class_=" ".join(["tl-badge", *extra]))


@edit_cache(_PIECES)
def code(text: str) -> Markup:
    """Inline code."""
    return tag("code", text)


def safe_repr(value: object, *, limit: int | None = None) -> str:
    """``repr`` that never raises and stays short (defaults are arbitrary user objects)."""
    try:
        text = repr(value)
    except Exception as exc:  # a user __repr__ may raise anything; show that instead
        text = f"<unrepresentable {type(value).__name__}: {type(exc).__name__}>"
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def utf8_length(text: str) -> int:
    """``len(text.encode())``, without encoding an ASCII text (what views almost always are)."""
    return len(text) if text.isascii() else len(text.encode())
