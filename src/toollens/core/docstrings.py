"""Docstring parsing: style detection, the summary, and per-parameter descriptions.

docstring-parser does the parsing; this module decides the style the way the reference
implementation does (regex scores, ties sphinx > numpy > google, google when nothing
matches) and records how sure the guess was, so the linter can warn on mixed styles.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from dataclasses import dataclass

import docstring_parser
from docstring_parser import DocstringStyle as _ParserStyle

from toollens.core.errors import SchemaConstructionError
from toollens.core.memo import edit_cache

"""A docstring style by name, as options and the command line spell it."""


class DocstringStyle(str, enum.Enum):
    """The docstring dialects toollens understands."""

    GOOGLE = "google"
    NUMPY = "numpy"
    SPHINX = "sphinx"


_PARSER_STYLE = {
    DocstringStyle.GOOGLE: _ParserStyle.GOOGLE,
    DocstringStyle.NUMPY: _ParserStyle.NUMPYDOC,
    DocstringStyle.SPHINX: _ParserStyle.REST,
}

# One table of (style, pattern); each pattern that matches at a line start scores one point.
_STYLE_PATTERNS: tuple[tuple[DocstringStyle, re.Pattern[str]], ...] = tuple(
    (style, re.compile(pattern, re.MULTILINE))
    for style, pattern in (
        (DocstringStyle.SPHINX, r"^:param\s"),
        (DocstringStyle.SPHINX, r"^:type\s"),
        (DocstringStyle.SPHINX, r"^:return:"),
        (DocstringStyle.SPHINX, r"^:rtype:"),
        (DocstringStyle.NUMPY, r"^Parameters\s*\n\s*-{3,}"),
        (DocstringStyle.NUMPY, r"^Returns\s*\n\s*-{3,}"),
        (DocstringStyle.NUMPY, r"^Yields\s*\n\s*-{3,}"),
        (DocstringStyle.GOOGLE, r"^(Args|Arguments):"),
        (DocstringStyle.GOOGLE, r"^(Returns):"),
        (DocstringStyle.GOOGLE, r"^(Raises):"),
    )
)
_TIE_ORDER = (DocstringStyle.SPHINX, DocstringStyle.NUMPY, DocstringStyle.GOOGLE)
_GOOGLE_PARAM_HEADER = re.compile(r"^(args|arguments|params|parameters):\s*$", re.IGNORECASE)

# Sections that parse fine but never reach the model: the linter warns about them.
_DROPPED_SECTION_NAMES = {
    "raises": "Raises",
    "raise": "Raises",
    "except": "Raises",
    "exception": "Raises",
    "examples": "Examples",
    "example": "Examples",
    "notes": "Notes",
    "note": "Notes",
    "warns": "Warns",
    "warnings": "Warnings",
    "see_also": "See Also",
    "references": "References",
    "yields": "Yields",
    "deprecation": "Deprecated",
}


@dataclass(frozen=True)
class StyleGuess:
    """How the docstring style was chosen.

    Attributes:
        style: the style used for parsing.
        forced: the caller named the style.
        scores: points per style from the header patterns.
        confident: exactly one style scored, or the style was forced.
    """

    style: DocstringStyle
    forced: bool
    scores: dict[str, int]
    confident: bool


@dataclass(frozen=True)
class ParsedDocstring:
    """What a docstring contributes to a tool.

    Attributes:
        text: the cleaned docstring (``inspect.getdoc``), or ``None`` when there is none.
        description: the summary and body before the first section.
        params: parameter name (stars stripped) -> description, in docstring order.
        returns: the description of the return value, if documented.
        dropped_sections: section titles that parse but never reach the model.
        guess: how the style was chosen.
        parse_error: why parsing failed, when it did (the whole text is then the description).
    """

    text: str | None
    description: str | None
    params: dict[str, str]
    returns: str | None
    dropped_sections: tuple[str, ...]
    guess: StyleGuess | None
    parse_error: str | None = None


EMPTY = ParsedDocstring(None, None, {}, None, (), None)


def detect_style(doc: str) -> StyleGuess:
    """Guess a docstring's style from its section headers."""
    scores = {style.value: 0 for style in DocstringStyle}
    for style, pattern in _STYLE_PATTERNS:
        if pattern.search(doc):
            scores[style.value] += 1
    best = max(scores.values())
    if best == 0:
        return StyleGuess(DocstringStyle.GOOGLE, False, scores, True)
    winner = next(style for style in _TIE_ORDER if scores[style.value] == best)
    scoring = sum(1 for value in scores.values() if value)
    return StyleGuess(winner, False, scores, scoring == 1)


def coerce_style(style: DocstringStyle | str | None) -> DocstringStyle | None:
    """Accept a style name or enum member; raise a clear error for anything else."""
    if style is None or isinstance(style, DocstringStyle):
        return style
    try:
        return DocstringStyle(str(style).lower())
    except ValueError:
        choices = ", ".join(repr(s.value) for s in DocstringStyle)
        raise SchemaConstructionError(
            f"unknown docstring style {style!r}", hint=f"use one of {choices}, or None to detect"
        ) from None


def _blank_line_before_google_args(doc: str) -> str:
    # A google "Args:" header glued to the summary line is still meant as a section.
    lines = doc.splitlines()
    out: list[str] = []
    for index, line in enumerate(lines):
        if (
            index > 0
            and _GOOGLE_PARAM_HEADER.match(line)
            and out
            and out[-1].strip()
            and index + 1 < len(lines)
            and lines[index + 1].startswith((" ", "\t"))
        ):
            out.append("")
        out.append(line)
    return "\n".join(out)


def parse_docstring(doc: str | None, style: DocstringStyle | str | None = None) -> ParsedDocstring:
    """Parse a cleaned docstring into description, parameter docs and dropped sections."""
    if not doc:
        return EMPTY
    parsed = _parse_cached(doc, coerce_style(style))
    # The cached value is shared: hand out copies of its two mutable dicts.
    guess = parsed.guess
    if guess is not None:
        guess = dataclasses.replace(guess, scores=dict(guess.scores))
    return dataclasses.replace(parsed, params=dict(parsed.params), guess=guess)


# Parsing is a pure function of the text and the style, and live editing re-parses the same
# docstring on every edit to the signature; the cache is bounded by count.
@edit_cache(256)
def _parse_cached(doc: str, forced: DocstringStyle | None) -> ParsedDocstring:
    guess = (
        StyleGuess(forced, True, detect_style(doc).scores, True) if forced else detect_style(doc)
    )
    text = doc
    if guess.style is DocstringStyle.GOOGLE:
        text = _blank_line_before_google_args(text)
    try:
        # The leading newline lets a docstring that opens with "Args:" parse as a section.
        parsed = docstring_parser.parse("\n" + text, style=_PARSER_STYLE[guess.style])
    except docstring_parser.ParseError as exc:
        return ParsedDocstring(doc, doc.strip() or None, {}, None, (), guess, str(exc))

    description = _join_description(parsed)
    params: dict[str, str] = {}
    for param in parsed.params:
        name = param.arg_name.split()[0].lstrip("*") if param.arg_name else ""
        if name and param.description is not None:
            params.setdefault(name, param.description)
    returns = parsed.returns.description if parsed.returns else None
    dropped = []
    for meta in parsed.meta:
        key = meta.args[0].lower() if meta.args else ""
        title = _DROPPED_SECTION_NAMES.get(key)
        if title and title not in dropped:
            dropped.append(title)
    return ParsedDocstring(doc, description, params, returns, tuple(dropped), guess)


def _join_description(parsed: docstring_parser.Docstring) -> str | None:
    short, long = parsed.short_description, parsed.long_description
    if short and long:
        return short + ("\n\n" if parsed.blank_after_short_description else "\n") + long
    return short or long or None
