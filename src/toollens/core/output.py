"""Structured output: which schema a model gets for an output type, and how its answer is read.

An output type takes one of three paths, decided by :func:`output_schema`:

- **plain text** for no declared type (``None``, ``type(None)``, or a callable's missing
  return annotation, ``inspect.Signature.empty``) and ``str``: no JSON schema is sent and the
  answer is returned as the text the model wrote;
- **direct** for pydantic models (generic ones included), TypedDicts and ``dict`` types: their
  object schema is sent as it is;
- **wrapped** for everything else (scalars, containers, dataclasses, enums, ``Literal``,
  unions, ``Any``, ``Annotated``): the type sits under the one required key ``"response"`` of
  an object named ``OutputType``, because providers want an object at the root.

Everything a model can get wrong on the way back (not UTF-8, empty, not JSON, NaN, numbers that
overflow, nesting too deep, the wrong shape) is raised as ``ModelBehaviorError`` with a JSON
pointer and a hint; JSON and pydantic exceptions never escape (``toollens.core.answers``).
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import types
import typing
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, cast, get_args, get_origin

from pydantic import BaseModel, TypeAdapter
from pydantic.errors import PydanticUserError
from typing_extensions import TypedDict, is_typeddict

from toollens.core.answers import WRAPPER_KEY, OutputFailure, decode_answer, validate_answer
from toollens.core.errors import STRICT_OFF, SchemaConstructionError, StrictSchemaError
from toollens.core.records import Change
from toollens.core.schema.toolkit import copy_json
from toollens.core.schema.types import JsonSchema
from toollens.core.validation import pydantic_reason

WRAPPER_TITLE = "OutputType"
"""The ``title`` of the wrapper object's schema."""

__all__ = [
    "PROVIDER_NAME",
    "WRAPPER_KEY",
    "WRAPPER_TITLE",
    "OutputFailure",
    "OutputPath",
    "OutputSchema",
    "OutputStreamValidator",
    "output_schema",
    "type_name",
]

PROVIDER_NAME = "final_output"
"""The format name providers receive for every structured output, whatever the type."""


class OutputPath(str, enum.Enum):
    """How an output type reaches the model."""

    PLAIN_TEXT = "plain-text"  # no schema; the answer is prose
    DIRECT = "direct"  # the type's own object schema
    WRAPPED = "wrapped"  # {"response": <type>}


@dataclass(frozen=True)
class OutputSchema:
    """What a model is asked to produce for one output type, and how its answer is validated.

    Build it with :func:`output_schema`. ``json_schema`` and ``raw_json_schema`` are ``None``
    on the plain-text path: nothing is sent, so there is nothing to show (the reference SDK
    raises instead; a viewer prefers data to an exception).

    Attributes:
        output_type: the type as given (``None`` when no type was declared, for ``None``,
            ``type(None)`` and a missing return annotation alike).
        path: plain text, direct or wrapped.
        name: a stable, descriptive name such as ``list[Foo]`` or ``Foo | None``.
        strict: whether strict mode was asked for; it decides both the schema and validation.
        json_schema: the schema sent to the model (strict when ``strict``).
        raw_json_schema: pydantic's schema before strict conversion.
        strict_changes: the rewrites strict conversion made, in order.
        unannotated: the type came from a callable with no return annotation (plain text).
    """

    output_type: Any
    path: OutputPath
    name: str
    strict: bool
    json_schema: JsonSchema | None
    raw_json_schema: JsonSchema | None
    strict_changes: list[Change]
    _adapter: TypeAdapter[Any] | None = field(default=None, repr=False, compare=False)
    unannotated: bool = False

    @property
    def label(self) -> str:
        """The path in words, e.g. ``plain text (no return annotation)``."""
        if self.unannotated:
            return "plain text (no return annotation)"
        return _PATH_LABELS[self.path]

    @property
    def is_plain_text(self) -> bool:
        return self.path is OutputPath.PLAIN_TEXT

    @property
    def is_wrapped(self) -> bool:
        return self.path is OutputPath.WRAPPED

    @property
    def provider_name(self) -> str:
        """The format name providers send (``"final_output"``); ``name`` is for people."""
        return PROVIDER_NAME

    @property
    def answer_hint(self) -> str:
        """What the model must send, in one clause; used as the hint of every failure."""
        if self.path is OutputPath.WRAPPED:
            return f'the model must answer {{"{WRAPPER_KEY}": <{self.name}>}}'
        if self.path is OutputPath.DIRECT:
            return f"the model must answer a JSON object matching {self.name}"
        return "the model may answer any text"

    def explain(self) -> str:
        """One sentence saying why the output type took its path."""
        return _explain(self)

    # Any: the value is of the output type, which this record does not carry as a type
    # parameter (it is often a runtime-built alias such as list[int] or Literal[...]).
    def validate_json(self, text: str | bytes) -> Any:
        """Parse and validate one complete model answer.

        Args:
            text: the answer, as text or UTF-8 bytes.

        Returns:
            The text itself on the plain-text path; otherwise the validated value, unwrapped
            from ``{"response": ...}`` on the wrapped path.

        Raises:
            ModelBehaviorError: for anything the model got wrong, with ``pointer``, ``rule``
                (an ``OutputFailure`` value) and ``hint``. Exceptions other than ``ValueError``
                and ``AssertionError`` raised by user validators are bugs in the type, not model
                behaviour, so pydantic (and this function) let them through.
        """
        decoded = decode_answer(text)
        if self._adapter is None:
            return decoded
        return validate_answer(self, self._adapter, decoded)

    # Any: a value of the output type, as for validate_json.
    def validate_stream(self, chunks: Iterable[str | bytes]) -> Any:
        """Validate an answer that arrives in chunks, exactly as ``validate_json`` on the whole."""
        validator = OutputStreamValidator(self)
        for chunk in chunks:
            validator.feed(chunk)
        return validator.finish()


class OutputStreamValidator:
    """Collects streamed chunks of one answer, then validates them as ``validate_json`` would.

    Nothing is judged before ``finish``: a partial answer is not wrong yet, and judging early
    could report a different first problem than the non-streaming path.
    """

    def __init__(self, schema: OutputSchema) -> None:
        self.schema = schema
        self._chunks: list[str | bytes] = []
        self._finished = False

    def feed(self, chunk: str | bytes) -> None:
        if self._finished:
            raise ValueError("this stream is already finished; start a new validator")
        if not isinstance(chunk, (str, bytes)):
            raise TypeError(f"a chunk must be str or bytes, got {type(chunk).__name__}")
        self._chunks.append(chunk)

    # Any: a value of the output type, as for OutputSchema.validate_json.
    def finish(self) -> Any:
        """Validate everything fed so far; see ``OutputSchema.validate_json``."""
        self._finished = True
        chunks = self._chunks
        if all(isinstance(c, str) for c in chunks):
            return self.schema.validate_json("".join(cast("list[str]", chunks)))
        # Bytes are joined before decoding so a character split across chunks survives; an
        # unpaired surrogate in a str chunk becomes bytes that fail decoding like any other.
        return self.schema.validate_json(
            b"".join(
                c if isinstance(c, bytes) else c.encode("utf-8", "surrogatepass") for c in chunks
            )
        )


def output_schema(output_type: object = None, *, strict: bool = True) -> OutputSchema:
    """Build the output schema a model receives for ``output_type``.

    Args:
        output_type: the declared output type; ``None`` (or ``type(None)``, the same thing
            once annotated) means none was declared, and ``inspect.Signature.empty`` (a
            callable without a return annotation) too: all three are plain text.
        strict: convert the schema to strict form and validate answers in pydantic strict mode.

    Returns:
        The schema, its path, name and strict rewrites, ready to validate answers.

    Raises:
        StrictSchemaError: ``strict`` is set and the type cannot be strict (open maps, models
            with ``extra="allow"``); it keeps the converter's pointer.
        SchemaConstructionError: pydantic cannot build a schema for the type.
    """
    unannotated = output_type is inspect.Signature.empty
    if unannotated or output_type is type(None):
        output_type = None  # `-> None` and no annotation: the result reaches the model as text
    path = _path_of(output_type)
    name = type_name(output_type)
    if path is OutputPath.PLAIN_TEXT:
        return OutputSchema(
            output_type, path, name, strict, None, None, [], unannotated=unannotated
        )
    adapter, cached_schema = _adapter_and_schema(output_type, wrapped=path is OutputPath.WRAPPED)
    raw = copy_json(cached_schema)
    changes: list[Change] = []
    if strict:
        sent, changes = _make_strict(name, raw)
    else:
        sent = copy_json(raw)
    return OutputSchema(output_type, path, name, strict, sent, raw, list(changes), adapter)


def type_name(output_type: object) -> str:
    """A stable, descriptive name: ``list[Foo]``, ``Foo | None``, ``Literal['ok', 'done']``.

    The plain-text path is named ``str`` whether or not a type was declared, because the model
    answers text either way. ``Annotated`` metadata is left out: it constrains values rather
    than naming a type, and its reprs (validator functions) are not stable between runs.
    """
    if output_type is None:
        return "str"
    return _name(output_type)


# --- paths and names ---------------------------------------------------------------------


def _path_of(output_type: Any) -> OutputPath:
    if output_type is None or output_type is str:
        return OutputPath.PLAIN_TEXT
    target = get_origin(output_type) or output_type
    if isinstance(target, type) and issubclass(target, (BaseModel, dict)):
        return OutputPath.DIRECT
    return OutputPath.WRAPPED


_UNION_ORIGINS: tuple[Any, ...] = (typing.Union, types.UnionType)


def _name(tp: Any) -> str:
    if tp is None or tp is type(None):
        return "None"
    if tp is Ellipsis:
        return "..."
    if isinstance(tp, (list, tuple)):  # Callable's parameter list
        return "[" + ", ".join(_name(arg) for arg in tp) + "]"
    if isinstance(tp, str):
        return tp
    if isinstance(tp, typing.ForwardRef):
        return tp.__forward_arg__
    origin = get_origin(tp)
    args = get_args(tp)
    if origin is Annotated:
        return _name(args[0])
    if origin in _UNION_ORIGINS:
        return " | ".join(_name(arg) for arg in args)
    if origin is Literal:
        return "Literal[" + ", ".join(_literal_value(arg) for arg in args) + "]"
    if origin is None:
        return str(getattr(tp, "__name__", None) or repr(tp))
    base = getattr(origin, "__name__", None) or repr(origin)
    if origin is tuple and not args and tp is not tuple:
        return f"{base}[()]"
    return f"{base}[{', '.join(_name(arg) for arg in args)}]" if args else base


def _literal_value(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    return repr(value)


_PATH_LABELS = {
    OutputPath.PLAIN_TEXT: "plain text",
    OutputPath.DIRECT: "direct",
    OutputPath.WRAPPED: "wrapped",
}


def _explain(schema: OutputSchema) -> str:
    tp, name = schema.output_type, schema.name
    if schema.unannotated:
        return (
            "The callable has no return annotation, so its result reaches the model as plain "
            "text and no schema is sent."
        )
    if tp is None:
        return (
            "No output type was declared (None, or a function's -> None), so the answer is "
            "plain text and no schema is sent."
        )
    if schema.path is OutputPath.PLAIN_TEXT:
        return "str output is plain text, so no schema is sent and the answer is kept as written."
    if schema.path is OutputPath.DIRECT:
        target = get_origin(tp) or tp
        if issubclass(target, BaseModel):
            kind = "a pydantic model"
        elif is_typeddict(target):
            kind = "a TypedDict (a dict at runtime)"
        else:
            kind = "a dict type"
        return (
            f"{name} is {kind}, so its object schema is sent as it is; "
            f"the model must answer a JSON object matching {name}."
        )
    why = (
        f"{name} is a dataclass, and only pydantic models and dicts are sent unwrapped"
        if dataclasses.is_dataclass(tp)
        else f"{name} is not an object type"
    )
    return (
        f'{why}, so it is wrapped in {{"{WRAPPER_KEY}": ...}}; '
        f'the model must answer {{"{WRAPPER_KEY}": <{name}>}}.'
    )


# --- schema construction -----------------------------------------------------------------


# What was built per output type, held weakly so the classes a live-editing session keeps
# redefining are never kept alive here: the entry goes with its type. The JSON schema is
# plain data; the TypeAdapter refers to the type, so it is held weakly too and is shared
# while an OutputSchema still uses it.
_BUILT: weakref.WeakKeyDictionary[Any, dict[tuple[str, bool], _Built]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class _Built:
    adapter: weakref.ref[TypeAdapter[Any]]
    schema: JsonSchema  # callers copy it, it is never handed out


def _adapter_and_schema(output_type: Any, *, wrapped: bool) -> tuple[TypeAdapter[Any], JsonSchema]:
    # The repr is part of the key because typing compares unions and Literals as sets:
    # int | str == str | int, but their schemas list the members in a different order.
    key = (repr(output_type), wrapped)
    try:
        known = _BUILT.get(output_type)
    except TypeError:  # unhashable (Annotated with a list) or no weak reference (int | str)
        return _build(output_type, wrapped)
    built = known.get(key) if known is not None else None
    if built is None:
        adapter, schema = _build(output_type, wrapped)
    else:
        schema = built.schema
        adapter = built.adapter() or _adapter(output_type, wrapped)
        if built.adapter() is adapter:
            return adapter, schema
    _BUILT.setdefault(output_type, {})[key] = _Built(weakref.ref(adapter), schema)
    return adapter, schema


def _build(output_type: Any, wrapped: bool) -> tuple[TypeAdapter[Any], JsonSchema]:
    adapter = _adapter(output_type, wrapped)
    try:
        return adapter, adapter.json_schema()
    except (PydanticUserError, TypeError, NameError, ValueError) as exc:
        raise _unschemable(output_type, exc) from exc


def _adapter(output_type: Any, wrapped: bool) -> TypeAdapter[Any]:
    target = output_type
    if wrapped:
        # typing_extensions' TypedDict: pydantic needs it rather than typing's before 3.12.
        target = cast(Any, TypedDict)(WRAPPER_TITLE, {WRAPPER_KEY: output_type})
    try:
        return TypeAdapter(target)
    # Pydantic reports unsupported, unresolved and un-schemable types through these; anything
    # else it raises while inspecting an arbitrary user type is the same kind of problem.
    except (PydanticUserError, TypeError, NameError, ValueError) as exc:
        raise _unschemable(output_type, exc) from exc


def _unschemable(output_type: Any, exc: Exception) -> SchemaConstructionError:
    return SchemaConstructionError(
        f"output type {type_name(output_type)} cannot become a JSON schema: {pydantic_reason(exc)}",
        pointer="",
        hint="use JSON-representable types (models, TypedDicts, lists, scalars)",
    )


def _make_strict(name: str, raw: JsonSchema) -> tuple[JsonSchema, list[Change]]:
    # Imported here so this module does not depend on the strict converter at import time.
    from toollens.core.strict import explain_strict

    try:
        strict_schema, changes = explain_strict(raw)  # reads raw, returns a fresh schema
    except StrictSchemaError as exc:
        raise StrictSchemaError(
            f"output type {name} cannot be strict: {exc.message}",
            pointer=exc.pointer,
            rule=exc.rule,
            hint="make the type closed (declared fields, no open dict or extra='allow') "
            f"or {STRICT_OFF}",
        ) from exc
    return strict_schema, list(changes)
