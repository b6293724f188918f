"""The ``[tool.toollens]`` table of a project's ``pyproject.toml``: which tools, which options.

```toml
[tool.toollens]
tools = ["pkg.tools:search", "pkg.tools:*", "pkg/agents.py:*"]
strict = true
mcp_strict = false
providers = ["openai-chat", "anthropic"]
docstring_style = "google"
optional_defaults = "keep"
frameworks = ["pydantic-ai"]
```

Every problem in the table (a missing or malformed file, an unknown key, a value of the
wrong type) raises :class:`ProjectError` with one line naming the key and what to write.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from toollens.core.choices import (
    DOCSTRING_STYLES,
    OPTIONAL_DEFAULTS,
    DocstringStyleName,
    OptionalDefaults,
    provider_id,
)
from toollens.core.errors import ToolLensError
from toollens.core.options import ReportOptions
from toollens.core.providers import PROVIDERS
from toollens.core.schema.toolkit import shorten
from toollens.core.schema.types import JsonMapping, JsonObject

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = [
    "LOCK_FILENAME",
    "ProjectConfig",
    "ProjectError",
    "command_config",
    "find_project_root",
    "load_config",
    "toolset_lock_config",
]

PYPROJECT = "pyproject.toml"
LOCK_FILENAME = "toollens.lock.json"
_TABLE = "[tool.toollens]"


class ProjectError(ToolLensError):
    """The project's ``[tool.toollens]`` table or its lock file cannot be used."""


@dataclass(frozen=True)
class ProjectConfig:
    """A project's tool list and the options every tool is built with.

    Attributes:
        root: the directory holding ``pyproject.toml``; targets are relative to it.
        tools: the tool targets as written (``MODULE:FUNC``, ``MODULE:*``, ``file.py:*``).
        strict: build strict schemas (OpenAI strict mode) of the Python and JSON tools.
        mcp_strict: judge the tools of the ``mcp:`` servers listed strict too; by default
            they are judged as their clients send them, non-strict (as ``check "mcp:..."``).
        providers: the providers whose payloads the lock records and ``check`` checks.
        docstring_style: ``google``, ``numpy``, ``sphinx``, or ``None`` to detect.
        optional_defaults: ``keep``, ``nullable``, or ``None`` for the engine's default.
        frameworks: frameworks to compare against (kept for the cross-framework lens).
        tokens_model: the model the lock records each tool's token count for (``None``:
            no counts).
        max_token_growth: ``diff --lock`` fails a tool that grew by more tokens than this.
    """

    root: Path
    tools: tuple[str, ...]
    strict: bool = True
    mcp_strict: bool = False
    providers: tuple[str, ...] = ("openai-chat",)
    docstring_style: str | None = None
    optional_defaults: str | None = None
    frameworks: tuple[str, ...] = ()
    tokens_model: str | None = "gpt-4o"
    max_token_growth: int | None = None

    def report_options(self, provider: str, *, mcp: bool = False) -> ReportOptions:
        """The options each tool's report for ``provider`` is built with (``mcp``: a tool of
        an ``mcp:`` server, see :meth:`mcp_options`)."""
        options = ReportOptions(
            strict=self.strict,
            provider=provider_id(provider),
            docstring_style=cast("DocstringStyleName | None", self.docstring_style),
            optional_defaults=cast("OptionalDefaults | None", self.optional_defaults),
        )
        return self.mcp_options(options) if mcp else options

    def mcp_options(self, options: ReportOptions) -> ReportOptions:
        """``options`` for a tool of an ``mcp:`` server listed in the table: judged as its
        clients send it, non-strict, unless ``mcp_strict`` makes it strict too."""
        return dataclasses.replace(options, strict=options.strict and self.mcp_strict)

    @property
    def lock_path(self) -> Path:
        """Where ``toollens snapshot`` writes the lock file."""
        return self.root / LOCK_FILENAME


def find_project_root(start: str | os.PathLike[str] | None = None) -> Path:
    """The nearest directory at or above ``start`` holding a ``pyproject.toml``.

    Raises:
        ProjectError: no ``pyproject.toml`` up to the file system root.
    """
    here = Path(os.getcwd() if start is None else start).resolve()
    for directory in (here, *here.parents):
        if (directory / PYPROJECT).is_file():
            return directory
    raise ProjectError(
        f"no {PYPROJECT} in {here.name or here} or above it",
        hint=f"name a target, or list the tools under {_TABLE} in {PYPROJECT}",
    )


def load_config(root: str | os.PathLike[str] | None = None) -> ProjectConfig:
    """Read ``[tool.toollens]`` from the project at (or above) ``root``.

    Raises:
        ProjectError: the file does not parse, the table is missing, or a key is wrong.
    """
    directory = find_project_root(root)
    path = directory / PYPROJECT
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ProjectError(f"cannot read {PYPROJECT}: {exc.strerror or exc}") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ProjectError(
            f"{PYPROJECT} is not valid TOML ({_first_line(exc)})", hint="fix the file"
        ) from exc
    table = data.get("tool", {}).get("toollens") if isinstance(data.get("tool"), dict) else None
    if table is None:
        raise ProjectError(
            f"{PYPROJECT} has no {_TABLE} table",
            hint=f'add {_TABLE} with tools = ["pkg.tools:*"], or name a target',
        )
    if not isinstance(table, dict):
        raise ProjectError(f"{_TABLE} in {PYPROJECT} is not a table", hint="write it as a table")
    return _parse_table(directory, table)


def command_config(strict: bool = True) -> ProjectConfig:
    """The project's table as a command reads it (``snapshot``, ``diff --lock``, ``compare``
    with no target): ``strict=False`` (``--no-strict``) wins over the table, the table's
    ``strict = false`` over the default.

    Raises:
        ProjectError: as :func:`load_config`.
    """
    config = load_config()
    return dataclasses.replace(config, strict=config.strict and strict)


def toolset_lock_config(strict: bool = True) -> ProjectConfig:
    """The settings the lock of a toolset (``--toolset SOURCE``) is written with: the
    project's table when there is one (its providers and strictness, none of its tools),
    with the lock next to it; else the working directory and the defaults. ``strict`` as
    for :func:`command_config`."""
    try:
        config = dataclasses.replace(load_config(), tools=())
    except ProjectError:
        config = ProjectConfig(root=Path.cwd(), tools=())
    return dataclasses.replace(config, strict=config.strict and strict)


def _parse_table(root: Path, table: JsonMapping) -> ProjectConfig:
    unknown = sorted(set(table) - set(_READERS))
    if unknown:
        raise ProjectError(
            f"unknown key {unknown[0]!r} in {_TABLE}",
            hint="known keys: " + ", ".join(_READERS),
        )
    if "tools" not in table:
        raise ProjectError(
            f"{_TABLE} has no 'tools' list", hint='add tools = ["pkg.tools:search", "pkg.tools:*"]'
        )
    values = {key: _READERS[key](key, value) for key, value in table.items()}
    return ProjectConfig(root=root, **values)


def _strings(key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ProjectError(
            f"{_TABLE} {key} is {_show(value)}, not a list of non-empty strings",
            hint=f'write {key} = ["..."]',
        )
    return tuple(dict.fromkeys(value))


def _tools(key: str, value: Any) -> tuple[str, ...]:
    tools = _strings(key, value)
    if not tools:
        raise ProjectError(f"{_TABLE} {key} is empty", hint='list at least one, e.g. "pkg.tools:*"')
    return tools


def _strict(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ProjectError(f"{_TABLE} {key} is {_show(value)}, not true or false")
    return value


def _choice(choices: tuple[str, ...]) -> Any:
    def read(key: str, value: Any) -> str:
        if value not in choices:
            raise ProjectError(
                f"{_TABLE} {key} is {_show(value)}",
                hint="use one of " + ", ".join(repr(c) for c in choices),
            )
        return str(value)

    return read


def _providers(key: str, value: Any) -> tuple[str, ...]:
    providers = _strings(key, value)
    for name in providers:
        if name not in PROVIDERS:
            raise ProjectError(
                f"{_TABLE} {key} names an unknown provider {name!r}",
                hint="use " + ", ".join(PROVIDERS),
            )
    if not providers:
        raise ProjectError(f"{_TABLE} {key} is empty", hint='e.g. providers = ["openai-chat"]')
    return providers


def _frameworks(key: str, value: Any) -> tuple[str, ...]:
    # lazy: toollens.frameworks (~4 ms); `toolset(f)` reads this module without it
    from toollens.frameworks import names

    frameworks = _strings(key, value)
    known = names()
    for name in frameworks:
        if name not in known:
            raise ProjectError(
                f"{_TABLE} {key} names an unknown framework {name!r}",
                hint="use " + ", ".join(known),
            )
    return frameworks


def _tokens_model(key: str, value: Any) -> str | None:
    if value is False:
        return None
    if not isinstance(value, str) or not value:
        raise ProjectError(f"{_TABLE} {key} is {_show(value)}", hint='e.g. "gpt-4o", or false')
    return value


def _count(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ProjectError(f"{_TABLE} {key} is {_show(value)}, not a whole number >= 0")
    return value


_READERS: JsonObject = {
    "tools": _tools,
    "strict": _strict,
    "mcp_strict": _strict,
    "providers": _providers,
    "docstring_style": _choice(DOCSTRING_STYLES),
    "optional_defaults": _choice(OPTIONAL_DEFAULTS),
    "frameworks": _frameworks,
    "tokens_model": _tokens_model,
    "max_token_growth": _count,
}


def _show(value: Any) -> str:
    return shorten(repr(value), 40)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
