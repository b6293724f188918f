"""Turn a target named on a command line into the object it names.

A target is written one of these ways:

- ``MODULE:ATTR`` -- import ``MODULE`` (the working directory is on ``sys.path`` for the
  import, as with ``python -m``) and follow the dotted ``ATTR`` (``pkg.mod:Class.method``;
  the engine refuses an instance method read from its class, which still expects ``self``);
- ``path/to/file.py:ATTR`` -- load the file under a unique module name and follow ``ATTR``;
- ``path/to/file.json`` -- a JSON Schema, or a provider's tool payload, read from the file.
- ``mcp:COMMAND ARGS...`` / ``mcp:URL`` (``#TOOL``) -- an MCP server's tools, resolved to a
  :class:`toollens.mcp.ServerTools` (see :mod:`toollens.mcp`).

Every failure (a module that does not import, a missing attribute, a missing file, JSON
that does not parse) raises :class:`~toollens.core.errors.TargetError` with one line saying
what is wrong and what to do, chained to the original exception. The command line uses this
module; the ``%toolschema`` magic can too.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.util
import inspect
import itertools
import keyword
import os
import re
import sys
import types
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from toollens.core.callables import is_langchain_tool_class
from toollens.core.errors import TargetError, one_line
from toollens.core.providers import unwrap_payload as unwrap_tool
from toollens.core.schema.types import JsonMapping, JsonObject
from toollens.json_files import load_json_file, load_json_value
from toollens.mcp.target import is_mcp_target

if TYPE_CHECKING:
    from toollens.mcp.client import ConnectOptions

__all__ = [
    "TargetSpec",
    "callable_target",
    "is_dotted",
    "is_mcp_target",
    "is_project_source",
    "load_json_file",
    "load_json_value",
    "load_module",
    "parse_target",
    "resolve_context_types",
    "resolve_target",
    "unwrap_payload",
]

TargetOrigin = Literal["module", "file", "json"]

_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
_FORMS = "write MODULE:FUNC, path/to/file.py:FUNC or path/to/schema.json"
_counter = itertools.count()
PROJECT = "project"


# -- what a target string names, by its spelling alone (one home for every front end) ------


def is_dotted(text: str) -> bool:
    """Whether ``text`` is a dotted Python name (``pkg.tools``, ``search``)."""
    return bool(_DOTTED.fullmatch(text))


def is_project_source(text: str) -> bool:
    """Whether ``text`` names a project's ``[tool.toollens]`` table (``project[:DIR]``)."""
    return text == PROJECT or text.startswith(PROJECT + ":")


@dataclass(frozen=True)
class TargetSpec:
    """A parsed target string.

    Attributes:
        text: the target as written.
        origin: ``"module"`` (``MODULE:ATTR``), ``"file"`` (``file.py:ATTR``) or ``"json"``.
        location: the module name, or the file path as written.
        attribute: the dotted attribute path (``None`` for JSON files).
    """

    text: str
    origin: TargetOrigin
    location: str
    attribute: str | None = None


def parse_target(text: str) -> TargetSpec:
    """Split a target string into its form, location and attribute path.

    Raises:
        TargetError: the string is none of the three forms.
    """
    # Split on the last colon only when what follows is an attribute path, so a Windows
    # drive letter ("C:\\tools\\schema.json") is not mistaken for MODULE:ATTR.
    head, sep, tail = text.rpartition(":")
    if sep and head and _DOTTED.fullmatch(tail) and not tail.endswith((".py", ".json")):
        _check_attribute(text, tail)
        if _looks_like_path(head):
            return TargetSpec(text, "file", head, tail)
        if not _DOTTED.fullmatch(head):
            raise TargetError(
                f"{head!r} in {text!r} is neither a module name nor a .py file", hint=_FORMS
            )
        return TargetSpec(text, "module", head, tail)
    if text.endswith(".py") or (text.endswith(":") and text[:-1].endswith(".py")):
        raise TargetError(
            f"{text!r} names a Python file but no function",
            hint=f"add the attribute, e.g. {text.rstrip(':')}:my_tool",
        )
    if text and (_looks_like_path(text) or Path(text).is_file()):
        return TargetSpec(text, "json", text)
    raise TargetError(f"cannot tell what {text!r} names", hint=_FORMS)


def _check_attribute(text: str, attribute: str) -> None:
    for part in attribute.split("."):
        if keyword.iskeyword(part):
            raise TargetError(f"{attribute!r} in {text!r} is not an attribute path", hint=_FORMS)


def _looks_like_path(text: str) -> bool:
    return (
        text.endswith((".py", ".json"))
        or "/" in text
        or os.sep in text
        or (os.altsep is not None and os.altsep in text)
    )


def resolve_target(
    text: str,
    *,
    cwd: str | os.PathLike[str] | None = None,
    connect: ConnectOptions | None = None,
) -> object:
    """Return the object a target string names: a callable, a class, or a JSON dict.

    Args:
        text: ``MODULE:ATTR``, ``path/to/file.py:ATTR`` or ``path/to/file.json``.
        cwd: the directory relative paths and top-level modules are found from;
            the process's working directory when ``None``.
        connect: how to reach the server an ``mcp:`` target names (the defaults when
            ``None``).

    Raises:
        TargetError: the module does not import, the attribute or file does not exist, or
            the JSON file does not parse (with line and column).
    """
    if is_mcp_target(text):  # a server's tools (toollens.mcp.ServerTools)
        # lazy: mcp.project; `toollens show f` loads this module without it
        from toollens.mcp.project import resolve_server

        return resolve_server(text, cwd, connect)
    spec = parse_target(text)
    base = Path(os.getcwd() if cwd is None else cwd)
    if spec.origin == "json":
        return load_json_file(base / spec.location, shown=spec.location)
    if spec.origin == "module":
        module = _import_module(spec.location, base)
    else:
        module = _load_file(base / spec.location, shown=spec.location)
    assert spec.attribute is not None
    return _follow(module, spec.attribute, spec.location)


def callable_target(text: str) -> object:
    """The object a target names, to be called (``toollens try``, ``toollens fuzz``).

    Raises:
        TargetError: as :func:`resolve_target`, or the target is a JSON schema, which has
            no function to call.
    """
    target = resolve_target(text)
    if isinstance(target, dict):
        raise TargetError(
            f"{text} is a JSON schema, which has no function to call",
            hint="name a Python function: MODULE:FUNC or file.py:FUNC",
        )
    return target


def resolve_context_types(texts: Iterable[str]) -> tuple[type, ...]:
    """The classes ``MODULE:CLASS`` texts name (``--context-type``, ``context_types=``): a
    framework injects them as a run context, so they are not in the schema.

    Raises:
        TargetError: a text is not ``MODULE:CLASS``, does not import, or is not a class.
    """
    found = []
    for text in texts:
        if ":" not in text or is_mcp_target(text):
            raise TargetError(
                f"--context-type {text!r} is not MODULE:CLASS", hint="e.g. myapp.deps:Deps"
            )
        named = resolve_target(text)
        if not isinstance(named, type):
            raise TargetError(
                f"--context-type {text!r} is a {type(named).__name__}, not a class",
                hint="name the class of the injected parameter",
            )
        found.append(named)
    return tuple(found)


def load_module(location: str, *, cwd: str | os.PathLike[str] | None = None) -> types.ModuleType:
    """Import the module a target's location names: ``pkg.tools`` or ``path/to/file.py``.

    Raises:
        TargetError: as :func:`resolve_target`, for the module part of a target.
    """
    base = Path(os.getcwd() if cwd is None else cwd)
    if _looks_like_path(location):
        return _load_file(base / location, shown=location)
    if not is_dotted(location):
        raise TargetError(f"{location!r} is neither a module name nor a .py file", hint=_FORMS)
    return _import_module(location, base)


@contextmanager
def _on_sys_path(directory: Path) -> Iterator[None]:
    entry = str(directory)
    added = entry not in sys.path
    if added:
        sys.path.insert(0, entry)
    try:
        yield
    finally:
        if added and entry in sys.path:
            sys.path.remove(entry)


def _import_module(name: str, base: Path) -> types.ModuleType:
    with _on_sys_path(base):
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # Only the named module (or a parent package) missing is "no module named";
            # a missing import inside the module is the module failing to import.
            if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
                raise TargetError(
                    f"no module named {exc.name!r}",
                    hint="run from the directory that holds it, install it, or name the "
                    "file instead (path/to/file.py:FUNC)",
                ) from exc
            raise _import_failed(name, exc) from exc
        except (Exception, SystemExit) as exc:  # user code can raise anything
            raise _import_failed(name, exc) from exc


def _import_failed(name: str, exc: BaseException) -> TargetError:
    detail = one_line(exc)
    if isinstance(exc, SyntaxError) and exc.filename:
        detail = f"{exc.msg} ({Path(exc.filename).name}, line {exc.lineno})"
    return TargetError(
        f"importing {name!r} raised {type(exc).__name__}: {detail}",
        hint="fix the module so it imports (--debug shows the traceback)",
    )


def _load_file(path: Path, *, shown: str) -> types.ModuleType:
    if not path.is_file():
        raise TargetError(
            f"file {shown!r} does not exist" if not path.exists() else f"{shown!r} is not a file",
            hint="check the path (it is relative to the working directory)",
        )
    resolved = path.resolve()
    # A unique name per load: two versions of "tools.py" from different directories (the
    # usual diff of a checkout against a copy of the old file) must not share a module.
    digest = hashlib.sha1(str(resolved).encode("utf-8")).hexdigest()[:8]
    stem = re.sub(r"\W", "_", resolved.stem)
    name = f"_toollens_target_{stem}_{digest}_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise TargetError(f"cannot load {shown!r} as Python", hint="name a .py file")
    module = importlib.util.module_from_spec(spec)
    # Registered before running so dataclasses, pydantic and typing can find the module
    # by name while it executes; the file's directory is importable, as with `python file.py`.
    sys.modules[name] = module
    with _on_sys_path(resolved.parent):
        try:
            spec.loader.exec_module(module)
        except (Exception, SystemExit) as exc:  # user code can raise anything
            del sys.modules[name]
            raise _import_failed(shown, exc) from exc
    return module


def _follow(module: types.ModuleType, attribute: str, where: str) -> Any:
    value: Any = module
    walked: list[str] = []
    for part in attribute.split("."):
        try:
            value = getattr(value, part)
        except AttributeError as exc:
            owner = where + (":" + ".".join(walked) if walked else "")
            raise TargetError(
                f"{owner!r} has no attribute {part!r}",
                hint=_did_you_mean(value, part),
            ) from exc
        except Exception as exc:  # a property or __getattr__ can raise anything
            raise TargetError(
                f"getting {part!r} from {where!r} raised {type(exc).__name__}: {one_line(exc)}",
                hint="name a plain function or class",
            ) from exc
        walked.append(part)
    return value


def _did_you_mean(owner: Any, missing: str) -> str:
    try:
        names = [n for n in dir(owner) if not n.startswith("_")]
    except Exception:  # dir() runs user code (__dir__)
        names = []
    close = difflib.get_close_matches(missing, names, n=3)
    if close:
        return "did you mean " + " or ".join(repr(c) for c in close) + "?"
    return "check the spelling (attribute paths are case-sensitive)"


@dataclass(frozen=True)
class UnwrappedPayload:
    """The parts of a provider tool payload that describe the tool."""

    schema: JsonObject
    name: str | None
    description: str | None


def unwrap_payload(data: JsonMapping) -> UnwrappedPayload | None:
    """The parameters schema, name and description of a provider tool payload.

    Returns ``None`` when ``data`` is not a payload (it is then taken to be a schema). The
    payload shapes are the providers' own (:func:`toollens.core.providers.unwrap_payload`).
    """
    tool = unwrap_tool(data)
    if tool is None or not isinstance(tool.schema, Mapping):
        return None
    name, description = tool.field("name"), tool.field("description")
    return UnwrappedPayload(
        schema=dict(tool.schema),
        name=name if isinstance(name, str) else None,
        description=description if isinstance(description, str) else None,
    )


# -- the tools of a module (one rule: `check pkg.tools`, `pkg.tools:*`, the Python API) ------

# The framework classes whose instances are tools (or hold them), as (package, class name):
# told by name so no framework is imported to look at a module.
FRAMEWORK_TOOL_CLASSES = frozenset(
    {
        ("agents", "Agent"),
        ("agents", "FunctionTool"),
        ("agents", "Handoff"),
        ("pydantic_ai", "Agent"),
        ("pydantic_ai", "Tool"),
        ("langchain_core", "BaseTool"),
    }
)


class _Missing:
    def __repr__(self) -> str:
        return "MISSING_NAME"


MISSING_NAME: Any = _Missing()
"""The value :func:`module_tools` gives a name ``__all__`` lists but the module lacks."""


def module_tools(module: types.ModuleType) -> list[tuple[str, object]]:
    """``(name, value)`` of each attribute of ``module`` that is a tool, in order; nothing is
    read or called (documented in docs/toolsets.md):

    1. when the module defines ``__all__``, the names it lists, in its order, that are
       tool-shaped or pydantic models (a model listed there is named as a tool, as
       ``bind_tools([Model])`` takes it; a listed name that does not exist has the value
       :data:`MISSING_NAME`);
    2. otherwise every public attribute, in the order the module binds them, that is a
       function defined in that module (decorated functions count by the function they wrap;
       imported ones do not), a framework tool object it binds (``@function_tool``,
       LangChain ``@tool``, an agent), or a LangChain ``BaseTool`` subclass it defines.

    Other classes (pydantic models included) are not tools otherwise: a module defines
    models that are not tools (a tool's ``args_schema``, its records). Name one as
    ``MODULE:Model``, or list it in ``__all__``, to read it as a tool.
    """
    listed = _exported(module)
    if listed is not None:
        return [
            (name, getattr(module, name, MISSING_NAME))
            for name in listed
            if not hasattr(module, name)
            or _tool_shaped(getattr(module, name), None)
            or _is_model_class(getattr(module, name), None)
        ]
    return [
        (name, value)
        for name, value in list(vars(module).items())
        if not name.startswith("_") and _tool_shaped(value, module)
    ]


def no_tools_error(module: types.ModuleType, label: str) -> TargetError:
    """The error for a module :func:`module_tools` finds no tool in: what was looked for,
    and the classes that could be named instead."""
    listed = _exported(module)
    looked = (
        "the functions and tool objects its __all__ lists"
        if listed is not None
        else "public functions defined in it, framework tool objects and LangChain BaseTool "
        "subclasses"
    )
    models = [
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and _is_model_class(value, module)
    ]
    hint = (
        "pydantic models are not tools by default; name one as "
        f"{label}:{models[0]} (or list it in __all__) to read it as a tool"
        if models
        else "define a tool there, or name the object that holds them as MODULE:ATTR"
    )
    return TargetError(f"module {label!r} has no tools (looked for {looked})", hint=hint)


def is_framework_object(value: object) -> bool:
    """Whether ``value`` is a framework's tool object: an agent, an ``@function_tool``, a
    pydantic-ai ``Tool``, a LangChain tool (never a class, a function or a module)."""
    if isinstance(value, (types.ModuleType, type)) or inspect.isfunction(value):
        return False
    return any(
        (cls.__module__.split(".")[0], cls.__name__) in FRAMEWORK_TOOL_CLASSES
        for cls in type(value).__mro__
    )


def _exported(module: types.ModuleType) -> list[str] | None:
    names = getattr(module, "__all__", None)
    if isinstance(names, (list, tuple)) and all(isinstance(n, str) for n in names):
        return list(names)
    return None


def _tool_shaped(value: object, module: types.ModuleType | None) -> bool:
    """A function (defined in ``module`` when one is given), a framework tool object, or a
    LangChain tool class (defined in ``module`` when one is given)."""
    if is_framework_object(value):
        return True
    if is_langchain_tool_class(value):
        return module is None or getattr(value, "__module__", None) == module.__name__
    target = _unwrapped(value)
    if not inspect.isfunction(target):
        return False
    return module is None or target.__module__ == module.__name__


def _is_model_class(value: object, module: types.ModuleType | None) -> bool:
    """A pydantic model class (defined in ``module`` when one is given)."""
    if not isinstance(value, type) or is_langchain_tool_class(value):
        return False
    if module is not None and value.__module__ != module.__name__:
        return False
    return any(base.__name__ == "BaseModel" for base in value.__mro__[1:])


def _unwrapped(value: object) -> object:
    try:
        return inspect.unwrap(value) if callable(value) else value
    except Exception:  # a hostile __wrapped__ chain (ValueError on a cycle)
        return value
