"""The project side of the command line: the tool list, the lock, and GitHub annotations.

``toollens snapshot``, ``toollens diff --lock`` and every command run without a target read
the project's ``[tool.toollens]`` table; ``--format github`` turns findings and changes into
workflow-command annotations on the function (or parameter) they are about. ``cli.py``
registers the arguments through :func:`add_snapshot_command` and
:func:`add_project_arguments`, calls the functions here, and decides the exit codes; this
module never imports ``toollens.cli``, so the two do not form an import cycle.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from toollens.core.diff import DiffSeverity, SchemaChange, SchemaDiff
from toollens.core.schema.pointer import split_pointer

__all__ = [
    "SNAPSHOT_EPILOG",
    "add_project_arguments",
    "add_snapshot_command",
    "diff_lock",
    "format_checks_github",
    "format_diff_github",
    "join_shown",
    "project_reports",
    "project_tools",
    "write_snapshot",
]

SNAPSHOT_EPILOG = """\
Writes toollens.lock.json next to pyproject.toml: for every tool listed under
[tool.toollens], its name, description, parameters schema, output schema and the payload
of each configured provider. Commit it; `toollens diff --lock` then fails CI when what a
model receives changes without the lock changing in the same pull request.

examples:
  toollens snapshot
  toollens diff --lock                # 0 same, 1 compatible, 2 breaking, 3 error
  toollens diff --lock --update       # after review: rewrite the lock"""

_UPDATE_HINT = "after review, rewrite it with `toollens diff --lock --update`"
_LEVELS = {
    DiffSeverity.BREAKING: "error",
    DiffSeverity.COMPATIBLE: "warning",
    DiffSeverity.DESCRIPTION_ONLY: "notice",
}
_FINDING_LEVELS = {"error": "error", "warning": "warning", "info": "notice"}


# -- arguments ------------------------------------------------------------------------------


def add_snapshot_command(
    command: Callable[[str, str, str], argparse.ArgumentParser],
    strictness: Callable[[argparse.ArgumentParser], None],
    handler: Callable[[argparse.Namespace], tuple[str, int]],
) -> argparse.ArgumentParser:
    """Register ``toollens snapshot``."""
    snap = command("snapshot", "write toollens.lock.json for the project's tools", SNAPSHOT_EPILOG)
    strictness(snap)
    snap.set_defaults(handler=handler)
    return snap


def add_project_arguments(diff: argparse.ArgumentParser) -> None:
    """``--lock`` and ``--update`` for ``toollens diff``."""
    diff.add_argument(
        "--lock",
        action="store_true",
        help="compare the project's tools with toollens.lock.json (the default with no targets)",
    )
    diff.add_argument(
        "--update",
        action="store_true",
        help="with --lock: rewrite the lock after showing what changed (exit 0)",
    )
    diff.set_defaults(check=lambda args: _check_diff_arguments(diff, args))


def _check_diff_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.old is not None and args.new is None and not (args.lock or args.update):
        parser.error("the following arguments are required: NEW (or no target, for the lock)")
    if args.old is not None and (args.lock or args.update):
        parser.error("--lock and --update compare with the lock file; give no OLD or NEW")
    if args.old is None and args.provider is not None:
        parser.error(
            "--provider applies to OLD and NEW; the lock holds the providers under [tool.toollens]"
        )


# -- shared -----------------------------------------------------------------------------------


def _project(args: argparse.Namespace, providers: Sequence[str] | None = None) -> Any:
    from toollens.project.config import load_config

    config = load_config()
    # --no-strict on the command line wins over the table; the table's `strict = false` wins
    # over the default.
    strict = bool(getattr(args, "strict", True))  # compare has no --no-strict
    config = dataclasses.replace(config, strict=config.strict and strict)
    if providers:
        config = dataclasses.replace(config, providers=tuple(dict.fromkeys(providers)))
    return config


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2) + "\n"


class _Locator:
    """File (relative to the repository root) and line of a tool, or of one of its parameters."""

    def __init__(self, obj: Any, function: Any, *, file: str | None = None) -> None:
        from toollens.project.tools import relative_path, source_location

        self.obj = obj
        location = source_location(obj) if obj is not None else None
        self.file = relative_path(location.file) if location else file
        self.line = location.line if location else None
        self._names = {p.schema_name: p.name for p in getattr(function, "parameters", ()) or ()}

    def at(self, parameter: str | None) -> tuple[str | None, int | None]:
        from toollens.project.tools import parameter_line

        if parameter and self.obj is not None:
            python_name = self._names.get(parameter, parameter)
            line = parameter_line(self.obj, python_name)
            if line is not None:
                return self.file, line
        return self.file, self.line

    def for_change(self, change: SchemaChange, output: bool) -> tuple[str | None, int | None]:
        if output:  # a change to what the tool returns: point at its return annotation
            from toollens.project.tools import return_line

            line = return_line(self.obj) if self.obj is not None else None
            return self.file, line or self.line
        return self.at(_property_of(change.pointer))


def _property_of(pointer: str) -> str | None:
    """The top-level property a pointer is about (``/properties/q/type`` -> ``q``)."""
    tokens = split_pointer(pointer, 2)
    return tokens[1] if len(tokens) == 2 and tokens[0] == "properties" else None


def _change_annotations(
    name: str, changes: Sequence[SchemaChange], locator: _Locator, *, output: bool = False
) -> Iterator[Any]:
    from toollens.project.github import Annotation

    section = " (output)" if output else ""
    for change in changes:
        file, line = locator.for_change(change, output)
        yield Annotation(
            level=_LEVELS[change.severity],  # type: ignore[arg-type]
            title=f"toollens: {change.severity.value} change to tool {name}{section}",
            message=f"{change.where} {change.keyword}: {change.message}",
            file=file,
            line=line,
        )


# -- snapshot -------------------------------------------------------------------------------


def write_snapshot(args: argparse.Namespace, collected: tuple[Any, Any] | None = None) -> str:
    """Write the lock; say how many tools it holds.

    ``collected`` is (settings, tools) when the tools come from elsewhere than the project's
    table (``--toolset``).
    """
    from toollens.project.lock import build_lock, collect_tools, dump_lock

    config = _project(args) if collected is None else collected[0]
    tools = collect_tools(config) if collected is None else collected[1]
    _write(config.lock_path, dump_lock(build_lock(tools)))
    names = ", ".join(sorted(t.name for t in tools))
    return f"wrote {config.lock_path.name}: {len(tools)} tools ({names})\n"


def _write(path: Any, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except OSError as exc:
        from toollens.project.config import ProjectError

        raise ProjectError(f"cannot write {path.name}: {exc.strerror or exc}") from exc


# -- diff --lock ------------------------------------------------------------------------------


def diff_lock(
    args: argparse.Namespace, collected: tuple[Any, Any] | None = None
) -> tuple[str, Any]:
    """Compare the tools with the lock (and rewrite it with ``--update``); ``collected`` as
    for :func:`write_snapshot`.

    Returns:
        The formatted comparison and the :class:`~toollens.project.lock.LockDiff`.
    """
    from toollens.project.config import ProjectError
    from toollens.project.lock import build_lock, collect_tools, compare_lock, dump_lock, read_lock

    config = _project(args) if collected is None else collected[0]
    tools = collect_tools(config) if collected is None else collected[1]
    try:
        lock, text = read_lock(config.lock_path)
    except ProjectError:
        if not args.update:
            raise
        lock, text = {"lock_version": 1, "tools": {}}, ""  # --update replaces a broken lock
    result = compare_lock(lock, text, tools)
    text = _format_lock_diff(result, args.format, config)
    from toollens.project.lock_tokens import with_token_deltas

    text = with_token_deltas(text, args.format, lock, tools, config)
    if args.update:
        _write(config.lock_path, dump_lock(build_lock(tools)))
        text += _updated(result, config)
    return text, result


def _updated(result: Any, config: Any) -> str:
    return f"updated {config.lock_path.name}\n" if result.changed else ""


def _format_lock_diff(result: Any, fmt: str, config: Any) -> str:
    if fmt == "json":
        return _dump(_lock_diff_data(result))
    if fmt == "github":
        lines = [str(a) for a in _lock_annotations(result, config)]
        return "\n".join([*lines, _lock_headline(result, config)]) + "\n"
    return _lock_diff_text(result, config)


def _lock_headline(result: Any, config: Any) -> str:
    counts: dict[str, int] = {}
    for tool in result.tools:
        if tool.status != "unchanged":
            counts[tool.status] = counts.get(tool.status, 0) + 1
    if not counts:
        state = "out of date" if result.stale else "up to date"
        return f"{config.lock_path.name}: no changes to {len(result.tools)} tools; lock {state}"
    parts = ", ".join(f"{n} {status}" for status, n in counts.items())
    verdict = "breaking" if result.breaking else "not breaking"
    return f"{config.lock_path.name}: {parts} ({verdict})"


def _lock_diff_text(result: Any, config: Any) -> str:
    lines = [_lock_headline(result, config)]
    for tool in result.tools:
        if tool.status == "unchanged":
            continue
        where = _where(tool)
        if tool.status in ("added", "removed"):
            lines.append(f"{tool.status}: {tool.name}{where}")
            continue
        lines.append(f"{tool.name}{where}")
        if tool.tool:
            lines.extend("  " + line for line in str(tool.tool).splitlines())
        if tool.output:
            lines.extend(["  output:", *("    " + x for x in str(tool.output).splitlines())])
    if result.changed:
        lines.append(f"the lock no longer matches the tools; {_UPDATE_HINT}")
    return "\n".join(lines) + "\n"


def _where(tool: Any) -> str:
    ref = tool.project_tool.ref if tool.project_tool is not None else None
    return f" ({ref.target})" if ref is not None else ""


def _lock_diff_data(result: Any) -> dict[str, Any]:
    tools = {}
    for tool in result.tools:
        ref = tool.project_tool.ref if tool.project_tool is not None else None
        tools[tool.name] = {
            "status": tool.status,
            "target": ref.target if ref is not None else None,
            "breaking": tool.breaking,
            "tool": tool.tool.to_dict(),
            "output": tool.output.to_dict(),
            "stale": tool.stale,
        }
    return {
        "breaking": result.breaking,
        "changed": result.changed,
        "stale": result.stale,
        "tools": tools,
    }


def _lock_annotations(result: Any, config: Any) -> Iterator[Any]:
    from toollens.project.github import Annotation
    from toollens.project.lock import lock_line
    from toollens.project.tools import relative_path

    lock_file = relative_path(config.lock_path)
    for tool in result.tools:
        current = tool.project_tool
        locator = _Locator(
            current.ref.obj if current else None, current.reports[0].function if current else None
        )
        if tool.status == "removed":
            yield Annotation(
                level="error",
                title=f"toollens: tool {tool.name} removed",
                message=f"tool {tool.name!r} is in the lock but no longer in the project; "
                f"callers and prompts that use it break. {_UPDATE_HINT}",
                file=lock_file,
                line=lock_line(result.lock_text, tool.name),
            )
        elif tool.status == "added":
            yield Annotation(
                level="warning",
                title=f"toollens: new tool {tool.name}",
                message=f"tool {tool.name!r} is not in the lock yet; {_UPDATE_HINT}",
                file=locator.file,
                line=locator.line,
            )
        else:
            yield from _change_annotations(tool.name, tool.tool.changes, locator)
            yield from _change_annotations(tool.name, tool.output.changes, locator, output=True)
    if result.stale and not any(t.status != "unchanged" or t.changes for t in result.tools):
        yield Annotation(
            level="warning",
            title="toollens: lock out of date",
            message=f"{config.lock_path.name} differs from what `toollens snapshot` writes "
            f"(a provider payload or the file's layout); {_UPDATE_HINT}",
            file=lock_file,
        )


def format_diff_github(result: SchemaDiff, new_target: str) -> str:
    """Annotations for a two-target diff, on the NEW side's function (or JSON file)."""
    from toollens.targets import resolve_target

    file = _json_file(new_target)
    if file is not None:  # no function to point at: annotate the file
        locator = _Locator(None, None, file=file)
    else:
        obj = resolve_target(new_target)
        locator = _Locator(obj, _function_schema_or_none(obj))
    name = new_target.rpartition(":")[2] or new_target
    lines = [str(a) for a in _change_annotations(name, result.changes, locator)]
    return "\n".join([*lines, f"{new_target}: {result.headline}"]) + "\n"


def _json_file(target: str) -> str | None:
    """The repository-relative path of a JSON-file target; ``None`` for Python targets."""
    from pathlib import Path

    from toollens.project.tools import relative_path
    from toollens.targets import parse_target

    spec = parse_target(target)
    return relative_path(Path(spec.location)) if spec.origin == "json" else None


def _function_schema_or_none(obj: Any) -> Any:
    from toollens.core.errors import ToolLensError
    from toollens.core.function_schema import function_schema

    try:
        return function_schema(obj, strict=False)
    except (ToolLensError, TypeError):  # only used to map aliases back to parameters
        return None


# -- check and show ----------------------------------------------------------------------------


def project_reports(
    args: argparse.Namespace, providers: Sequence[str] | None, *, style: str | None = None
) -> tuple[tuple[tuple[Any, ...], Any], ...]:
    """Each project tool's reports (one per provider) and the object itself.

    ``providers`` and ``style`` given on the command line win over the table's.
    """
    from toollens.project.lock import build_reports

    config = _project(args, providers)
    if style:
        config = dataclasses.replace(config, docstring_style=style)
    return tuple((reports, ref.obj) for ref, reports in build_reports(config))


def project_tools(args: argparse.Namespace) -> tuple[tuple[tuple[str, Any], ...], tuple[str, ...]]:
    """Each project tool as (target, object), and the table's ``frameworks`` list."""
    from toollens.project.tools import expand_tools

    config = _project(args)
    return tuple((ref.target, ref.obj) for ref in expand_tools(config)), config.frameworks


def join_shown(texts: Sequence[str], fmt: str) -> str:
    """Several tools' ``show`` output as one: JSON as a list, text one after another."""
    if fmt == "json":
        return _dump([json.loads(t) for t in texts])
    return "\n".join(texts)


def format_checks_github(results: Sequence[tuple[Any, Any, Any]], target: str | None = None) -> str:
    """Check results as annotations, each tool followed by a summary line.

    Args:
        results: (check result, the tool's object, its FunctionSchema or ``None``) triples.
        target: the target as written, when one was given (a JSON file is annotated whole).
    """
    file = _json_file(target) if target is not None else None
    lines: list[str] = []
    for result, obj, function in results:
        locator = _Locator(obj, function, file=file)
        lines.extend(str(a) for a in _check_annotations(result, locator))
        lines.append(f"{result.title}: {'no errors' if not result.errors else 'errors found'}")
    return "\n".join(lines) + "\n"


def _check_annotations(result: Any, locator: _Locator) -> Iterator[Any]:
    from toollens.project.github import Annotation

    for view, message in result.view_errors.items():
        yield Annotation(
            level="error",
            title=f"toollens: {result.title}: {view} view failed",
            message=message,
            file=locator.file,
            line=locator.line,
        )
    groups = [("lint", result.lint), *result.providers.items()]
    for label, findings in groups:
        for finding in findings:
            file, line = locator.at(finding.parameter)
            fix = f" Fix: {finding.fix}" if finding.fix else ""
            yield Annotation(
                level=_FINDING_LEVELS[finding.severity.value],  # type: ignore[arg-type]
                title=f"toollens {label}: {finding.rule}",
                message=f"{result.title}: {finding.message}{fix}",
                file=file,
                line=line,
            )
