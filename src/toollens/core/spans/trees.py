"""Parsed module text, shared by the code that reads a cell's names and the code that finds spans.

Finding the functions a text defines (``jupyter.live.defined_names``) and finding where each
value of a tool is written (``core.spans.locator``) need the same tree. Parsing a tool with
hundreds of parameters takes milliseconds, so the tree is parsed once and kept for the few
most recent texts (keyed by the text itself, so an edited text can never be served a stale
tree). A live edit itself compiles the text directly: the spans are located only when
someone asks for one.
"""

from __future__ import annotations

import ast
import threading
from collections import OrderedDict

__all__ = ["parse_module", "parsed_module"]

_KEPT = 2  # the current edit, and one other explorer (each tree holds thousands of objects)
_trees: OrderedDict[str, ast.Module] = OrderedDict()
_lock = threading.Lock()


def parse_module(text: str, filename: str = "<unknown>", flags: int = 0) -> ast.Module:
    """``ast.parse`` of ``text``, remembered for :func:`parsed_module`.

    Raises what ``compile`` raises for the text (``SyntaxError``, ``ValueError``).
    """
    tree = parsed_module(text)
    if tree is None:
        parsed = compile(text, filename, "exec", flags=flags | ast.PyCF_ONLY_AST, dont_inherit=True)
        assert isinstance(parsed, ast.Module)
        tree = parsed
        with _lock:
            _trees[text] = tree
            while len(_trees) > _KEPT:
                _trees.popitem(last=False)
    return tree


def parsed_module(text: str) -> ast.Module | None:
    """The tree :func:`parse_module` made of exactly this text, if it is still kept."""
    with _lock:
        tree = _trees.get(text)
        if tree is not None:
            _trees.move_to_end(text)
        return tree
