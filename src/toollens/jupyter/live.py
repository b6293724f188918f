"""Run an author's edited source safely: fresh namespace, errors as data, never a traceback.

The explorer calls :func:`define_from_source` on every (debounced) edit. The source is
compiled and executed in a shallow copy of the function's module globals, so nothing the
edited code binds reaches the author's namespace until they press Apply
(:func:`apply_source`). Every failure of the author's code, ``SystemExit`` included, comes
back as a :class:`LiveError` with the line in the edited text; only ``KeyboardInterrupt``
propagates, so the author can still interrupt a runaway edit.
"""

from __future__ import annotations
import __future__

import ast
import contextlib
import inspect
import io
import linecache
import textwrap
import types
import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from toollens.core.schema.types import ToolFunction
from toollens.core.spans.trees import parse_module

ErrorKind = Literal["syntax", "exception", "missing", "not-callable"]

_FUTURE_FLAGS = {
    name: getattr(__future__, name).compiler_flag for name in __future__.all_feature_names
}


@dataclass(frozen=True)
class LiveError:
    """Why the edited source did not give a usable object.

    Attributes:
        kind: ``"syntax"`` (does not compile / parse), ``"exception"`` (raised while
            running or while building the schema), ``"missing"`` (defines no function or
            class), ``"not-callable"`` (the name is bound to something that is not callable).
        message: one line, e.g. ``"SyntaxError: expected ':'"``.
        line: 1-based line in the edited text, when known.
        column: 1-based column, when known.
    """

    kind: ErrorKind
    message: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        where = ""
        if self.line is not None:
            where = f"line {self.line}"
            if self.column is not None:
                where += f", column {self.column}"
            where += ": "
        return f"{where}{self.message}"


@dataclass(frozen=True)
class LiveResult:
    """The outcome of running edited source.

    Attributes:
        value: the object picked from the namespace, or ``None`` on error.
        name: the name it was bound to.
        error: what went wrong, or ``None``.
        note: something the author should know although it worked (a renamed function).
        namespace: the namespace the source ran in (a copy unless applied).
    """

    value: Any = None
    name: str | None = None
    error: LiveError | None = None
    note: str | None = None
    namespace: Mapping[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class SourceInfo:
    """Editable source of an object: dedented text and how to compile it like the original."""

    text: str
    flags: int  # __future__ compiler flags of the original module (e.g. annotations)


def future_flags(obj: object, namespace: Mapping[str, object]) -> int:
    """The ``__future__`` flags the original was compiled with, so edits behave the same."""
    code = getattr(inspect.unwrap(obj), "__code__", None) if callable(obj) else None
    flags = 0
    if isinstance(code, types.CodeType):
        for flag in _FUTURE_FLAGS.values():
            flags |= code.co_flags & flag
    for name, flag in _FUTURE_FLAGS.items():
        # `from __future__ import x` also binds x in the module: a cheap signal for classes
        if namespace.get(name) is getattr(__future__, name):
            flags |= flag
    return flags


def source_of(obj: object, namespace: Mapping[str, object] | None = None) -> SourceInfo | None:
    """The dedented source of a function or class, or ``None`` when there is none to edit."""
    text = _getsource(obj)
    if inspect.isclass(obj) and (text is None or not _defines_class(text, obj)):
        # Python 3.13 reads a class's lines at ``__firstlineno__`` in whatever file its
        # module names, so a class typed in a cell can come back as unrelated lines.
        text = _class_source_from_methods(obj)
    if text is None:
        return None
    return SourceInfo(textwrap.dedent(text), future_flags(obj, namespace or {}))


def _getsource(obj: Any) -> str | None:
    try:
        return inspect.getsource(obj)
    except Exception:  # builtins, C extensions, REPL objects: inspect raises several types
        return None


def _defines_class(text: str, cls: type) -> bool:
    """Whether ``text`` is the definition of a class named like ``cls``."""
    try:
        tree = ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError):
        return False
    first = tree.body[0] if tree.body else None
    return isinstance(first, ast.ClassDef) and first.name == cls.__name__


def _class_source_from_methods(cls: type) -> str | None:
    """Class source found through linecache (classes defined in notebook cells).

    ``inspect`` needs the module's ``__file__``, which a notebook's ``__main__`` lacks. The
    class is looked up in the files its methods came from, then in every cached source
    (IPython caches each cell), newest first; a candidate must declare the class's own
    annotated fields, so a same-named class elsewhere is not taken for it, and must start at
    the class's ``__firstlineno__`` where Python (3.13+) records it.
    """
    files: list[str] = []
    for member in vars(cls).values():
        code = getattr(inspect.unwrap(member), "__code__", None) if callable(member) else None
        if isinstance(code, types.CodeType):
            files.append(code.co_filename)
    files.extend(reversed([name for name in list(linecache.cache) if name not in files]))
    fields = set(vars(cls).get("__annotations__", {}))
    first_line = vars(cls).get("__firstlineno__")  # the class's own, never a base's
    for filename in files:
        lines = linecache.getlines(filename)
        if not lines or not any(f"class {cls.__name__}" in line for line in lines):
            continue
        try:
            tree = ast.parse("".join(lines))
        except (SyntaxError, ValueError):
            continue
        for node in reversed(tree.body):
            if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
                declared = {
                    stmt.target.id
                    for stmt in node.body
                    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                }
                start = min([d.lineno for d in node.decorator_list] + [node.lineno])
                if fields <= declared and first_line in (None, start):
                    return "".join(lines[start - 1 : node.end_lineno or node.lineno])
    return None


def defined_names(source: str) -> list[str]:
    """Top-level function and class names the source defines, in source order."""
    try:
        tree = parse_module(source)
    except (SyntaxError, ValueError):
        return []
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return [node.name for node in tree.body if isinstance(node, kinds)]


def register_source(filename: str, source: str) -> None:
    """Make ``inspect.getsource`` and tracebacks find code compiled under ``filename``."""
    # mtime None marks an entry linecache.checkcache must keep (like IPython's cells)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def define_from_source(
    source: str,
    *,
    base_globals: Mapping[str, object],
    filename: str,
    target_name: str | None = None,
    flags: int = 0,
) -> LiveResult:
    """Compile and run edited source in a fresh copy of ``base_globals``; pick the target.

    Args:
        source: the edited text (dedented by the caller or not: it is dedented here).
        base_globals: the original module's globals; copied, never written to.
        filename: the name the code is compiled under (used to find error lines).
        target_name: the name to pick; when the source no longer defines it (renamed), the
            last top-level function or class is picked and ``note`` says so.
        flags: ``__future__`` compiler flags to compile with (see :func:`future_flags`).

    Returns:
        A :class:`LiveResult`; user-code errors are in ``.error``, never raised
        (``KeyboardInterrupt`` excepted).
    """
    namespace = dict(base_globals)
    return _run(source, namespace, dict(base_globals), filename, target_name, flags)


def apply_source(
    source: str,
    *,
    namespace: dict[str, Any],  # Any: a module's globals, as exec() takes them
    filename: str,
    target_name: str | None = None,
    flags: int = 0,
) -> LiveResult:
    """Run edited source in the author's own ``namespace`` (the explorer's Apply button)."""
    before = dict(namespace)
    return _run(source, namespace, before, filename, target_name, flags)


def _run(
    source: str,
    namespace: dict[str, Any],
    before: Mapping[str, Any],
    filename: str,
    target_name: str | None,
    flags: int,
) -> LiveResult:
    text = textwrap.dedent(source)
    try:
        code = compile(text, filename, "exec", flags=flags, dont_inherit=True)
    except SyntaxError as exc:
        return LiveResult(error=syntax_error(exc))
    except (ValueError, OverflowError) as exc:  # null bytes, literal too large
        return LiveResult(error=LiveError("syntax", f"{type(exc).__name__}: {exc}"))
    register_source(filename, text)
    try:
        try:
            # The author's module-level prints would land in the widget's log; keep them quiet.
            with (
                contextlib.redirect_stdout(io.StringIO()),
                contextlib.redirect_stderr(io.StringIO()),
            ):
                exec(code, namespace)  # the point of live editing: run the author's code
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit and friends from user code become data too
            return LiveResult(error=exception_error(exc, filename), namespace=namespace)
        return _pick(text, namespace, before, target_name)
    finally:
        _forget_when_unused(filename, code, namespace, before)


def _forget_when_unused(
    filename: str, code: types.CodeType, namespace: Mapping[str, Any], before: Mapping[str, Any]
) -> None:
    """Drop ``filename``'s linecache entry once nothing compiled from it is alive.

    Every Apply compiles under a new name, so without this each one would leave its source
    in ``linecache`` for good. What can still need the text: the functions (their code
    objects, however they are wrapped) and the classes this run defined.
    """
    entry = linecache.cache.get(filename)
    if entry is None:
        return
    holders: list[Any] = list(_nested_code(code))
    holders.extend(
        value
        for name, value in namespace.items()
        if isinstance(value, type) and _rebound(name, namespace, before)
    )
    remaining = [len(holders)]

    def release() -> None:
        remaining[0] -= 1
        if remaining[0] == 0 and linecache.cache.get(filename) is entry:
            del linecache.cache[filename]

    for holder in holders:
        weakref.finalize(holder, release)


def _nested_code(code: types.CodeType) -> Iterator[types.CodeType]:
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _nested_code(const)


def _pick(
    text: str,
    namespace: Mapping[str, Any],
    before: Mapping[str, Any],
    target_name: str | None,
) -> LiveResult:
    note = None
    if target_name is not None and _rebound(target_name, namespace, before):
        name = target_name  # the usual edit: no need to parse the text for its names
    elif names := defined_names(text):
        name = names[-1]
        if target_name is not None:
            note = f"{target_name!r} is no longer defined; showing {name!r}, the last definition"
    else:
        what = f"{target_name!r} or any other" if target_name else "a"
        return LiveResult(
            error=LiveError("missing", f"the source does not define {what} function or class"),
            namespace=namespace,
        )
    value = namespace[name]
    if not callable(value):
        return LiveResult(
            error=LiveError(
                "not-callable",
                f"{name!r} is a {type(value).__name__} after its decorators ran, not a callable",
            ),
            namespace=namespace,
        )
    return LiveResult(value=value, name=name, note=note, namespace=namespace)


def _rebound(name: str, namespace: Mapping[str, Any], before: Mapping[str, Any]) -> bool:
    return name in namespace and (name not in before or namespace[name] is not before[name])


def syntax_error(exc: SyntaxError) -> LiveError:
    """A ``SyntaxError`` as data, with the line and column in the edited text."""
    message = f"{type(exc).__name__}: {exc.msg}"
    return LiveError("syntax", message, exc.lineno, exc.offset)


def exception_error(exc: BaseException, filename: str) -> LiveError:
    """An exception as data, located at the deepest traceback frame in ``filename``."""
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        return syntax_error(exc)
    detail = str(exc).strip().splitlines()
    message = type(exc).__name__ + (f": {detail[0]}" if detail else "")
    return LiveError("exception", message, line)


def editable_function(obj: object) -> ToolFunction | None:
    """The plain function behind ``obj`` when an author can edit it, else ``None``."""
    inner = inspect.unwrap(obj) if callable(obj) else None
    if inspect.isfunction(inner) and inner.__name__ != "<lambda>":
        return inner
    return None
