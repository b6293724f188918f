"""The explorer's editing session: what the editor holds, what running it defines, Apply.

Edits run against the target's own module globals (so its imports resolve) and never touch
them; Apply binds the result in the notebook's namespace, which is often the same dict. The
source last run is remembered, so a toolbar change re-renders without running it again.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Callable, Mapping
from typing import Any, Literal

from toollens.core.schema.given import check_plain_data
from toollens.core.schema.toolkit import shorten
from toollens.jupyter.live import (
    LiveError,
    apply_source,
    define_from_source,
    editable_function,
    source_of,
)

__all__ = ["EditSession", "Mode"]

Mode = Literal["source", "json", "read-only"]
Defined = tuple[Any, LiveError | None, str | None]  # value, error, note

_filenames = itertools.count(1)


class EditSession:
    """One target opened for editing.

    Attributes:
        mode: ``"source"`` (Python, editable), ``"json"`` (a schema dict) or ``"read-only"``.
        text: the text the editor opens with.
        note: why the views are read-only, when they are.
        filename: the pseudo file edits are compiled as (tracebacks point into it).
    """

    def __init__(
        self,
        target: Any,
        source: str | None,
        namespace: dict[str, Any] | None,
        transform: Callable[[str], str] | None,
    ) -> None:
        self.mode, self.text, self._flags, self.note = _open(target, source)
        self._target = target
        self._transform = transform
        self.filename = f"<toollens-edit-{next(_filenames)}>"
        self._globals = _namespace_of(target)
        if self._globals is None or _bound_in(target, namespace):
            self._globals = namespace
        self._namespace = namespace if namespace is not None else self._globals
        self._target_name = getattr(target, "__name__", None)
        self._defined: tuple[str, Defined] | None = None

    @property
    def label(self) -> str:
        return self._target_name or type(self._target).__name__

    @property
    def can_apply(self) -> bool:
        return self.mode == "source" and self._namespace is not None

    def current_target(self, text: str) -> Defined:
        """What ``text`` defines: the value to report on, or the error that stops it."""
        if self.mode == "read-only":
            return self._target, None, None
        if self.mode == "json":
            return _parse_schema(text)
        if self._defined is not None and self._defined[0] == text:
            return self._defined[1]  # a toolbar change: the author's code is not run again
        runnable = self._transform(text) if self._transform is not None else text
        live = define_from_source(
            runnable,
            base_globals=self._globals or {},
            filename=self.filename,
            target_name=self._target_name,
            flags=self._flags,
        )
        self._defined = (text, (live.value, live.error, live.note))
        return self._defined[1]

    def apply(self, text: str) -> tuple[bool, str | None]:
        """Bind what ``text`` defines in the namespace; (success, a note for the author)."""
        if not self.can_apply or self._namespace is None:
            return False, None
        if self._transform is not None:
            text = self._transform(text)
        filename = f"<toollens-apply-{next(_filenames)}>"
        name, flags = self._target_name, self._flags
        if self._globals is self._namespace:
            result = apply_source(
                text, namespace=self._namespace, filename=filename, target_name=name, flags=flags
            )
        else:  # a library function: leave its module alone, bind the edit in the notebook
            base = self._globals or {}
            result = define_from_source(
                text, base_globals=base, filename=filename, target_name=name, flags=flags
            )
            if result.error is None and result.name is not None:
                self._namespace[result.name] = result.value
        if result.error is not None:
            return False, f"Apply failed: {result.error}"
        return True, f"Applied: {result.name!r} now refers to the edited version."


def _open(target: Any, source: str | None) -> tuple[Mode, str, int, str | None]:
    if isinstance(target, Mapping):
        # The error report() would give, before json.dumps meets a cycle or recurses
        # past the interpreter's limit.
        check_plain_data(target)
        return "json", json.dumps(target, indent=2, ensure_ascii=False), 0, None
    namespace = _namespace_of(target) or {}
    if source is not None or _is_editable(target):
        info = source_of(target, namespace)
        if source is not None:
            return "source", source, info.flags if info else 0, None
        if info is not None:
            return "source", info.text, info.flags, None
    what = _describe(target)
    info = source_of(target) if isinstance(target, type) else None
    if info is not None:
        note = f"{what} is read-only: only functions and pydantic models can be edited."
        return "read-only", info.text, 0, note
    note = f"{what} has no editable Python source; the views are read-only."
    return "read-only", f"# no editable source for {what}", 0, note


def _is_editable(target: Any) -> bool:
    if (
        editable_function(target) is not None
        and not hasattr(target, "__self__")
        and not _defined_in_class(target)
    ):
        return True
    return isinstance(target, type) and _is_pydantic_model(target)


def _defined_in_class(func: Any) -> bool:
    """A function from a class body: re-run alone, it would lose its class (and ``self``)."""
    parts = str(getattr(func, "__qualname__", "")).split(".")
    return len(parts) > 1 and parts[-2] != "<locals>"


def _is_pydantic_model(cls: type) -> bool:
    from pydantic import BaseModel

    try:
        return issubclass(cls, BaseModel)
    except TypeError:  # generic aliases and other type-likes are not classes
        return False


def _namespace_of(target: Any) -> dict[str, Any] | None:
    func = editable_function(target)
    if func is not None:
        return func.__globals__
    module = sys.modules.get(str(getattr(target, "__module__", "") or ""))
    return vars(module) if module is not None else None


def _bound_in(target: Any, namespace: dict[str, Any] | None) -> bool:
    """A class the notebook namespace binds by name: its cell ran there, whatever __module__."""
    name = getattr(target, "__name__", None)
    return (
        namespace is not None
        and isinstance(target, type)
        and isinstance(name, str)
        and namespace.get(name) is target
    )


def _describe(target: Any) -> str:
    label = getattr(target, "__qualname__", None) or getattr(target, "__name__", None)
    if not isinstance(label, str):
        label = shorten(repr(target))
    return f"{label} ({type(target).__name__})"


def _parse_schema(text: str) -> tuple[Any, LiveError | None, str | None]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, LiveError("syntax", f"invalid JSON: {exc.msg}", exc.lineno, exc.colno), None
    except RecursionError:
        return None, LiveError("syntax", "invalid JSON: nested too deeply"), None
    if not isinstance(data, dict):
        return None, LiveError("exception", "a JSON Schema must be an object ({...})", 1, 1), None
    return data, None, None
