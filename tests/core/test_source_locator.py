"""The quick ways to a function's source find exactly what ``inspect.getsource`` finds.

``source_locator._quick_source`` ends a ``def`` at the first statement at its indentation
instead of tokenizing it; when that guess is wrong the text must fail to parse, so the
locator falls back to ``getsource``. ``_from_shared_tree`` takes the ``def`` from the tree a
live edit already parsed. Every function here is read each way and compared.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pkgutil
import types
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import toollens
from toollens.core.spans import locator as source_locator
from toollens.core.spans.locator import _from_shared_tree, _module_lines, _parse
from toollens.core.spans.locator import _quick_source as _quick_lines
from toollens.core.spans.trees import parse_module

TRICKY = '''
import functools


def black_style(
    a: int,
    b: str = "x",
) -> str:
    """Doc."""
    return b


def dedented_docstring(a: int) -> int:
    """Doc.

Dedented docstring text that looks like a new statement.
    """
    return a


def dedented_comment(a: int) -> int:
    x = a
# a comment at column zero inside the body
    return x


def string_at_column_zero(a: int) -> str:
    text = """
return_value = 1
"""
    return text


def bracket_at_column_zero(a: int) -> list[int]:
    items = [
a, a,
]
    return items


def backslash(a: int) -> int:
    total = a + \\
1
    return total


def passthrough(func: Any) -> Any:
    return func


@passthrough
@passthrough
def decorated(a: int) -> int:
    return a


def tagging(label: str) -> Any:
    return passthrough


@tagging(
    "over lines",
)
def decorator_over_lines(a: int) -> int:
    return a


class Holder:
    def method(self, a: int) -> int:
        """A method."""
        return a

    async def coroutine(self, a: int) -> int:
        return a


def outer() -> Any:
    def inner(a: int) -> int:
        return a
    return inner


def last_in_file(a: int) -> int:
    return a
'''


def _tricky_module() -> types.ModuleType:
    name = "toollens_tricky_sources"
    path = f"<{name}>"
    import linecache

    linecache.cache[path] = (len(TRICKY), None, TRICKY.splitlines(True), path)
    module = types.ModuleType(name)
    module.__dict__["Any"] = Any
    exec(compile(TRICKY, path, "exec"), module.__dict__)
    return module


def _functions() -> Iterator[tuple[str, Callable[..., Any]]]:
    tricky = _tricky_module()
    for name, value in vars(tricky).items():
        if inspect.isfunction(value) and value.__module__ == tricky.__name__:
            yield name, value
    yield "method", tricky.Holder.method
    yield "coroutine", tricky.Holder.coroutine
    yield "inner", tricky.outer()
    for info in pkgutil.walk_packages(toollens.__path__, "toollens."):
        module_name = info.name
        module = importlib.import_module(module_name)
        for name, value in sorted(vars(module).items()):
            if inspect.isfunction(value) and value.__module__ == module_name:
                yield f"{module_name}.{name}", value


FUNCTIONS = list(_functions())


def _quick_source(func: Callable[..., Any]) -> str | None:
    found = _module_lines(func)
    return None if found is None else _quick_lines(*found)


def _dump(text: str | None) -> str | None:
    parsed = _parse(text) if text is not None else None
    return None if parsed is None else ast.dump(parsed.node, include_attributes=True)


@pytest.mark.parametrize(("name", "func"), FUNCTIONS, ids=[n for n, _ in FUNCTIONS])
def test_the_quick_read_parses_to_the_same_def_or_not_at_all(
    name: str, func: Callable[..., Any]
) -> None:
    text = _quick_source(func)
    if text is None or _parse(text) is None:
        return  # not at all
    slow = inspect.getsource(func)
    if text != slow:  # the same text parses to the same def: compare the trees only if not
        assert _dump(text) == _dump(slow)


def test_the_quick_read_serves_most_functions() -> None:
    served = [name for name, func in FUNCTIONS if _dump(_quick_source(func)) is not None]
    assert len(FUNCTIONS) > 200
    assert len(served) >= 0.9 * len(FUNCTIONS)
    for name in ("black_style", "dedented_comment", "decorated", "method", "inner"):
        assert name in served


def test_a_wrong_guess_falls_back_to_getsource() -> None:
    module = dict(FUNCTIONS)
    for name in (
        "dedented_docstring",
        "string_at_column_zero",
        "bracket_at_column_zero",
        "backslash",
    ):
        func = module[name]
        assert _dump(_quick_source(func)) is None  # the guess cut it short: it does not parse
        locator = source_locator.SourceLocator(func, None)  # type: ignore[arg-type]
        assert locator._parsed is not None
        assert ast.dump(locator._parsed.node) == ast.dump(_parse(inspect.getsource(func)).node)


def test_objects_without_plain_source_take_the_slow_path() -> None:
    assert _quick_source(functools.partial(print)) is None
    assert _quick_source(len) is None
    assert _quick_source(lambda x: x) is None  # a lambda is no ``def``


def _spans(parsed: Any) -> list[Any]:
    """Every span the locator can give for a def: arguments, annotations, defaults, docstring."""
    out: list[Any] = [parsed.node.name, parsed.docstring]
    for arg, default in parsed.arguments.values():
        out.append(parsed.span(arg))
        if arg.annotation is not None:
            out.append(parsed.span(arg.annotation))
        if default is not None:
            out.append(parsed.span(default))
    return out


TRICKY_FUNCTIONS = [(name, func) for name, func in FUNCTIONS if "." not in name]


@pytest.mark.parametrize(("name", "func"), TRICKY_FUNCTIONS, ids=[n for n, _ in TRICKY_FUNCTIONS])
def test_the_shared_tree_gives_the_spans_getsource_gives(
    name: str, func: Callable[..., Any]
) -> None:
    lines, start = _module_lines(func) or ([], 0)
    parse_module("".join(lines))  # what a live edit does before the locator runs
    shared = _from_shared_tree(lines, start)
    slow = _parse(inspect.getsource(func))
    if slow is None:  # getsource found no def (a lambda): neither may the shared tree
        assert shared is None
        return
    assert shared is not None
    assert _spans(shared) == _spans(slow)


def test_a_text_never_parsed_has_no_shared_tree() -> None:
    lines, start = _module_lines(_spans) or ([], 0)
    assert lines
    assert _from_shared_tree(lines, start) is None  # this test file was never parse_module'd
