"""JSON pointers (RFC 6901) and local ``$ref`` resolution: the one implementation.

Every module that names a place in a schema builds the pointer here, and every module that
follows a ``$ref`` decodes it here, so a reference that one view resolves never fails in
another. The decoding rule, stated once: a local reference is ``#`` followed by a
%-encoded JSON pointer (RFC 6901 section 6); the fragment is %-decoded first (invalid
UTF-8 escapes are refused), then split at ``/``, then each token has ``~1`` -> ``/`` and
``~0`` -> ``~`` undone. Nothing is ever fetched: a reference that is not local is refused.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import unquote

__all__ = [
    "LinkedPath",
    "RefProblem",
    "UnresolvedRef",
    "escape_token",
    "join_pointer",
    "linked_pointer",
    "ref_name",
    "ref_tokens",
    "resolve_local",
    "resolve_tokens",
    "split_pointer",
    "unescape_token",
]

LinkedPath = tuple[Any, Any] | None
"""A path built one ``(parent, token)`` pair per step, in O(1); ``None`` is the root.

Walkers extend it on every node and turn it into a pointer (``linked_pointer``) only when
an error or a change needs one.
"""


class RefProblem(str, enum.Enum):
    """Why a local ``$ref`` cannot be followed."""

    NOT_A_STRING = "not-a-string"
    REMOTE = "remote"
    ANCHOR = "anchor"
    BAD_ESCAPE = "bad-escape"
    MISSING = "missing"


class UnresolvedRef(ValueError):
    """A ``$ref`` that cannot be followed; callers turn it into their own error or finding.

    Attributes:
        problem: which rule the reference breaks.
        ref: the reference as written.
        found: for ``MISSING``, how many tokens resolved before the one that did not.
    """

    def __init__(self, problem: RefProblem, ref: Any, found: int = 0) -> None:
        super().__init__(f"$ref {ref!r}: {problem.value}")
        self.problem = problem
        self.ref = ref
        self.found = found


def escape_token(token: str | int) -> str:
    """Escape one reference token (``~`` -> ``~0``, ``/`` -> ``~1``)."""
    text = token if type(token) is str else str(token)
    if "~" in text or "/" in text:
        return text.replace("~", "~0").replace("/", "~1")
    return text


def unescape_token(token: str) -> str:
    """Undo ``escape_token``."""
    if "~" in token:
        return token.replace("~1", "/").replace("~0", "~")
    return token


def join_pointer(base: str, *tokens: str | int) -> str:
    """Append escaped tokens to a JSON pointer; ``""`` is the whole document."""
    return base + "".join("/" + escape_token(t) for t in tokens)


def split_pointer(pointer: str, limit: int = -1) -> list[str]:
    """The unescaped tokens of ``pointer``; only the first ``limit`` when given."""
    if not pointer:
        return []
    tokens = pointer.split("/", limit + 1 if limit >= 0 else -1)[1:]
    return [unescape_token(t) for t in tokens[: limit if limit >= 0 else None]]


def linked_pointer(path: LinkedPath) -> str:
    """The JSON pointer of a linked path (see ``LinkedPath``)."""
    tokens: list[str] = []
    while path is not None:
        path, token = path
        text = token if type(token) is str else str(token)
        if "~" in text or "/" in text:  # escape_token, inlined: this runs once per change
            text = text.replace("~", "~0").replace("/", "~1")
        tokens.append(text)
    if not tokens:
        return ""
    tokens.append("")  # joined in reverse: the leading "/" of the first token
    tokens.reverse()
    return "/".join(tokens)


def ref_tokens(ref: object) -> list[str]:
    """The pointer tokens a local ``$ref`` names (``[]`` for ``"#"``, the document root).

    Raises:
        UnresolvedRef: not a string, not local, an anchor, or invalid %-escapes.
    """
    if not isinstance(ref, str):
        raise UnresolvedRef(RefProblem.NOT_A_STRING, ref)
    if not ref.startswith("#"):
        raise UnresolvedRef(RefProblem.REMOTE, ref)
    try:
        fragment = unquote(ref[1:], errors="strict")
    except UnicodeDecodeError as exc:
        raise UnresolvedRef(RefProblem.BAD_ESCAPE, ref) from exc
    if not fragment:
        return []
    if not fragment.startswith("/"):
        raise UnresolvedRef(RefProblem.ANCHOR, ref)
    return [unescape_token(t) for t in fragment.split("/")[1:]]


def ref_name(ref: str, root: str = "#") -> str:
    """The name a ``$ref`` is shown by: its last pointer token, decoded (``#/$defs/a~1b`` ->
    ``a/b``, ``#/$defs/a%20b`` -> ``a b``); ``root`` for ``#``, the whole document; the text
    after the last ``/`` of a reference that is not a valid local one."""
    try:
        tokens = ref_tokens(ref)
    except UnresolvedRef:
        return ref.rsplit("/", 1)[-1]
    return tokens[-1] if tokens else root


def resolve_tokens(doc: object, tokens: Iterable[str], ref: object = None) -> object:
    """The value at ``tokens`` inside ``doc`` (an array index is a decimal token).

    Raises:
        UnresolvedRef: ``MISSING``, with ``found`` the number of tokens that resolved.
    """
    node = doc
    for found, token in enumerate(tokens):
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif (
            isinstance(node, list)
            and token.isascii()
            and token.isdigit()
            and int(token) < len(node)
        ):
            node = node[int(token)]
        else:
            raise UnresolvedRef(RefProblem.MISSING, ref, found)
    return node


def resolve_local(doc: object, ref: object) -> tuple[str, object]:
    """Follow one local ``$ref`` in ``doc``: ``(normalised pointer, target)``.

    Raises:
        UnresolvedRef: the reference breaks a rule (see ``RefProblem``) or names nothing.
    """
    tokens = ref_tokens(ref)
    return join_pointer("", *tokens), resolve_tokens(doc, tokens, ref)
