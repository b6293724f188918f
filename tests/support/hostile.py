"""Shared hostile inputs for the hardening tests: payloads, case builders, guards, HTML audit.

Nothing here is a test; the ``test_hardening_*`` and ``test_endless_editing`` modules import
it. Builders make fresh objects on every call, so a case that mutates its input cannot leak
into another case.
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import signal
import textwrap
import types
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from typing import Any

from toollens.core.errors import ToolLensError
from toollens.jupyter.live import register_source

# ---------------------------------------------------------------------------- payloads

XSS_PAYLOADS: tuple[str, ...] = (
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    '"><svg onload=alert(1)>',
    "' onmouseover='x",
    "</textarea>",
    "{{7*7}}",
)

# One string carrying every payload, for places that take a single text.
ALL_PAYLOADS = " ".join(XSS_PAYLOADS)

ODD_TEXT: tuple[str, ...] = (
    "lone surrogate \ud800 here",
    "NUL \x00 byte",
    "right-to-left \u202e override",
    "zero width \u200b\u200c\u200d joiners",
    "combining a\u0301\u0301\u0301\u0301",
    "emoji \U0001f600 and \U0001f9ea",
    "BOM \ufeff inside",
    "line\u2028separator\u2029paragraph",
    "\r\nCRLF\rCR",
)


# ---------------------------------------------------------------------------- time bound


class CaseTimeout(AssertionError):
    """A case used more CPU time than its bound: toollens hung or went quadratic."""


@contextlib.contextmanager
def time_limit(seconds: float, what: str) -> Iterator[None]:
    """Fail with :class:`CaseTimeout` when the body uses more than ``seconds`` of CPU time.

    The bound counts this process's CPU time (``ITIMER_PROF``), not the wall clock: a
    machine busy with other work slows a case down but does not make it fail, while an
    endless loop or quadratic work still runs into the bound. Uses ``SIGPROF`` (the main
    thread of a POSIX process, which is where pytest runs tests); elsewhere the body runs
    unbounded rather than not at all.
    """
    if not hasattr(signal, "setitimer"):  # pragma: no cover - Windows
        yield
        return

    def expire(_signum: int, _frame: Any) -> None:
        raise CaseTimeout(f"{what} did not finish within {seconds:g} s of CPU time")

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


# ---------------------------------------------------------------------------- outcomes


def outcome(call: Callable[[], Any], *, what: str, seconds: float = 10.0) -> Any:
    """Run ``call`` under a CPU-time bound; return its value or the ``ToolLensError`` it raised.

    Anything else (RecursionError, KeyError, a pydantic or json exception, a hang) fails
    the test with the case named.
    """
    try:
        with time_limit(seconds, what):
            return call()
    except ToolLensError as exc:
        return exc
    except CaseTimeout:
        raise
    except RecursionError as exc:
        raise AssertionError(f"{what}: RecursionError escaped: {exc}") from exc
    except Exception as exc:
        raise AssertionError(
            f"{what}: {type(exc).__name__} escaped instead of a ToolLensError: {exc}"
        ) from exc


def assert_helpful(exc: ToolLensError, *, where: str | None = None) -> None:
    """The error names where (parameter, pointer or the given text) and what to do."""
    text = str(exc)
    assert text.strip(), f"{type(exc).__name__} has an empty message"
    assert exc.hint, f"no hint (what to do) in {text!r}"
    located = exc.parameter is not None or exc.pointer is not None
    if where is not None:
        haystack = " ".join(
            str(part) for part in (text, exc.parameter, exc.pointer) if part is not None
        )
        assert where in haystack, f"{where!r} is not named in {text!r}"
    else:
        assert located or len(text) > 20, f"{text!r} does not say where"
    # Errors end up in one-line banners, CLI stderr and notebooks: keep them bounded.
    assert len(text) < 4000, f"message of {len(text)} chars"


# ---------------------------------------------------------------------------- builders

_counter = itertools.count()


def module_from_source(source: str, *, prefix: str = "tl_hostile") -> types.ModuleType:
    """A module built from ``source`` whose functions ``inspect.getsource`` can read."""
    name = f"{prefix}_{next(_counter)}"
    filename = f"<{name}>"
    text = textwrap.dedent(source)
    register_source(filename, text)
    module = types.ModuleType(name)
    exec(compile(text, filename, "exec"), module.__dict__)
    return module


def function_from_source(source: str, name: str | None = None) -> Any:
    """The function (or class) ``name`` defined by ``source``; the last definition if unnamed."""
    module = module_from_source(source)
    if name is None:
        import ast

        tree = ast.parse(textwrap.dedent(source))
        defs = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
        name = defs[-1]
    return getattr(module, name)


def wide_function(count: int = 300) -> Any:
    """``def wide(p0: int, p1: str = 'x', ...)`` with ``count`` parameters."""
    # A parameter without a default cannot follow one with a default: required ones first.
    required = [f"p{i}: int" for i in range(0, count, 2)]
    optional = [f"p{i}: str = {('v' + str(i))!r}" for i in range(1, count, 2)]
    params = ", ".join(required + optional)
    return function_from_source(f"def wide({params}) -> int:\n    return 0\n")


def nested_models_source(levels: int) -> str:
    lines = ["from pydantic import BaseModel", "", "class M0(BaseModel):", "    leaf: int", ""]
    for i in range(1, levels):
        lines += [f"class M{i}(BaseModel):", f"    inner: M{i - 1}", ""]
    lines += [f"def nested(value: M{levels - 1}) -> None:", "    pass", ""]
    return "\n".join(lines)


def nested_models_function(levels: int) -> Any:
    return function_from_source(nested_models_source(levels), "nested")


def deep_list(levels: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(levels):
        value = [value]
    return value


def deep_object_schema(levels: int) -> dict[str, Any]:
    """``levels`` nested ``{"type": "object", "properties": {"a": ...}}`` around a string."""
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}, "required": ["a"]}
    return schema


def deep_anyof_schema(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"anyOf": [schema, {"type": "null"}]}
    return {"type": "object", "properties": {"a": schema}, "required": ["a"]}


def self_containing_dict() -> dict[str, Any]:
    """A Python dict that contains itself: ``d["self"] = d`` (no JSON text can say this)."""
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    schema["self"] = schema
    return schema


def self_containing_properties() -> dict[str, Any]:
    """``d["properties"]["a"] = d``: a cycle through a schema keyword."""
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    schema["properties"]["a"] = schema
    return schema


def object_schema(**properties: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def function_with_parameter_named(name: str) -> Any:
    """A callable whose ``__signature__`` claims a parameter ``name`` (not an identifier)."""

    def tool(**kwargs: Any) -> None:
        return None

    parameter = inspect.Parameter("placeholder", inspect.Parameter.KEYWORD_ONLY, annotation=int)
    # Parameter() refuses non-identifiers, which is the point of the case: bypass it.
    object.__setattr__(parameter, "_name", name)
    tool.__signature__ = inspect.Signature([parameter])  # type: ignore[attr-defined]
    return tool


class BrokenSignature:
    """A callable whose ``__signature__`` property raises."""

    @property
    def __signature__(self) -> Any:
        raise RuntimeError("signature exploded")

    def __call__(self, x: int) -> int:
        return x


class RaisingAnnotations:
    """A callable whose ``__annotations__`` property raises."""

    @property
    def __annotations__(self) -> Any:  # type: ignore[override]
        raise RuntimeError("annotations exploded")

    def __call__(self, x: int) -> int:
        return x


def function_with_raising_annotations() -> Any:
    """A plain function whose ``__annotations__`` raises when read (a descriptor hack)."""

    class Func:
        __name__ = "tricky"
        __qualname__ = "tricky"
        __doc__ = "Tricky."
        __module__ = __name__

        @property
        def __annotations__(self) -> Any:  # type: ignore[override]
            raise LookupError("no annotations for you")

        @property
        def __wrapped__(self) -> Any:
            raise AttributeError("__wrapped__")

        def __call__(self, a: int) -> int:
            return a

    return Func()


def function_with_doc(doc: str, *, params: str = "x: int") -> Any:
    func = function_from_source(f"def documented({params}) -> None:\n    pass\n")
    func.__doc__ = doc
    return func


# ---------------------------------------------------------------------------- HTML audit

DANGEROUS_TAGS = frozenset(
    {"script", "img", "svg", "iframe", "object", "embed", "textarea", "math", "base", "form"}
)
# Elements whose close tag HTMLParser does not expect.
VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "col", "wbr", "area", "source"})


class HtmlAudit(HTMLParser):
    """Collects what a browser would execute or load, and whether tags balance."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.bad_tags: list[str] = []
        self.bad_attrs: list[tuple[str, str, str | None]] = []
        self.unbalanced: list[str] = []
        self.stack: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._check(tag, attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._check(tag, attrs)

    def _check(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in DANGEROUS_TAGS:
            self.bad_tags.append(tag)
        for name, value in attrs:
            lowered = (value or "").strip().lower()
            handler = name.startswith("on")
            url = name in {"href", "src", "action", "formaction", "xlink:href"} and (
                lowered.startswith(("javascript:", "data:", "vbscript:"))
            )
            style = name == "style" and ("expression(" in lowered or "url(" in lowered)
            if handler or url or style:
                self.bad_attrs.append((tag, name, value))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()
        else:
            self.unbalanced.append(f"</{tag}> while open: {self.stack[-3:]}")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def audit_html(markup: str, *, balanced: bool = True) -> HtmlAudit:
    """Parse ``markup``; fail on executable tags or attributes (and unbalanced tags)."""
    audit = HtmlAudit()
    audit.feed(markup)
    audit.close()
    assert not audit.bad_tags, f"dangerous tags in HTML: {audit.bad_tags}"
    assert not audit.bad_attrs, f"dangerous attributes in HTML: {audit.bad_attrs}"
    if balanced:
        assert not audit.unbalanced, f"unbalanced HTML: {audit.unbalanced[:3]}"
        assert not audit.stack, f"unclosed tags: {audit.stack[-5:]}"
    return audit


def visible_text(markup: str) -> str:
    """The text a browser shows (entities decoded), outside ``<style>``."""
    skipping = False

    class _Text(HtmlAudit):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            nonlocal skipping
            skipping = skipping or tag == "style"
            super().handle_starttag(tag, attrs)

        def handle_endtag(self, tag: str) -> None:
            nonlocal skipping
            if tag == "style":
                skipping = False
            super().handle_endtag(tag)

        def handle_data(self, data: str) -> None:
            if not skipping:
                self.text.append(data)

    audit = _Text()
    audit.feed(markup)
    audit.close()
    return "".join(audit.text)
