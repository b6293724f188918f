"""``%toolschema`` and ``%%toolschema``: open the explorer (or a static report) from a cell.

Load with ``%load_ext toollens``. Every failure that is not the author's cell itself (a name
that does not exist, an expression that raises, an object toollens cannot inspect) prints
one line to stderr instead of a traceback.
"""

# IPython's magic_arguments and display helpers are untyped.
# mypy: disable-error-code="no-untyped-call, untyped-decorator"

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from IPython.core.magic import Magics, line_cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from IPython.display import display

from toollens.core.choices import DEFAULT_PROVIDER, DOCSTRING_STYLES, OPTIONAL_DEFAULTS
from toollens.core.choices import PROVIDER_IDS as PROVIDERS
from toollens.core.errors import ToolLensError, one_line
from toollens.core.metadata import MISSING
from toollens.core.report import ReportOptions, View, report
from toollens.core.schema.toolkit import shorten
from toollens.jupyter.live import defined_names


class _Failed(Exception):
    """A one-line problem to print instead of a traceback."""


@magics_class
class ToolSchemaMagics(Magics):
    """The ``%toolschema`` line and cell magic."""

    @magic_arguments()
    @argument(
        "target",
        nargs="*",
        help="Line magic: a name or expression in the user namespace (a function, a pydantic "
        "model, an output type or a JSON Schema dict). Cell magic: optionally, the name of the "
        "function in the cell to explore (default: the last one it defines).",
    )
    @argument(
        "--no-strict",
        dest="strict",
        action="store_false",
        help="Show the schema without strict conversion.",
    )
    @argument(
        "--provider",
        choices=tuple(PROVIDERS),
        default=None,
        help="Provider payload and findings to show.",
    )
    @argument(
        "--optional-defaults",
        dest="optional_defaults",
        choices=OPTIONAL_DEFAULTS,
        default=None,
        help="'nullable': parameters with a non-None default also accept null (strict mode).",
    )
    @argument(
        "--output-type", metavar="EXPR", default=None, help="Output type to show (an expression)."
    )
    @argument("--name", default=None, help="Tool name override.")
    @argument("--description", default=None, help='Tool description override (quote it: "...").')
    @argument("--style", choices=DOCSTRING_STYLES, default=None, help="Docstring style.")
    @argument(
        "--static", action="store_true", help="Display the static HTML report, not the widget."
    )
    @argument("--json", action="store_true", help="Return the provider payload as a dict.")
    @argument("--diff", metavar="OTHER", default=None, help="Open a schema diff against OTHER.")
    @argument(
        "--toolset",
        metavar="SOURCE",
        default=None,
        help="Show a whole toolset: an expression (a list, an agent, a module) or a quoted "
        'source string such as "myapp.tools".',
    )
    @argument(
        "--frameworks",
        action="store_true",
        help="Add the Frameworks view: what each installed framework sends, side by side.",
    )
    @line_cell_magic
    def toolschema(self, line: str, cell: str | None = None) -> object:
        """Explore the tool schema a model receives for a function.

        %toolschema get_weather --provider anthropic
        %toolschema get_weather --json          (returns the provider payload dict)
        %toolschema get_weather --diff get_weather_v2

        %%toolschema [options]   runs the cell, then explores the last function it defines,
                                 editing the cell's source.
        """
        args = parse_argstring(self.toolschema, line)
        try:
            if args.toolset is not None:
                return self._toolset(args)
            if cell is None:
                if not args.target:
                    raise _Failed("give a name or expression, e.g. %toolschema get_weather")
                expression = " ".join(args.target)
                return self._present(self._evaluate(expression), args)
            return self._cell(cell, args)
        except _Failed as exc:
            print(f"toolschema: {exc}", file=sys.stderr)
            return None

    # -- helpers ---------------------------------------------------------------------------

    @property
    def _ip(self) -> Any:
        if self.shell is None:  # registered magics always have a shell; keep mypy honest
            raise _Failed("no IPython shell")
        return self.shell

    def _evaluate(self, expression: str) -> Any:
        try:
            return self._ip.ev(expression)
        except NameError as exc:
            raise _Failed(f"{exc} in the notebook's namespace") from None
        except SyntaxError as exc:
            raise _Failed(f"{expression!r} is not a Python expression ({exc.msg})") from None
        except Exception as exc:  # the author's expression may raise anything: one line
            raise _Failed(f"evaluating {expression!r} raised {_named(exc)}") from None

    def _cell(self, cell: str, args: argparse.Namespace) -> object:
        result = self._ip.run_cell(cell, store_history=False)
        if not result.success:  # IPython has shown the author's own error, like any cell
            raise _Failed("the cell did not run, so there is nothing to explore")
        transformed = self._ip.transform_cell(cell)
        names = defined_names(transformed)
        wanted = " ".join(args.target) or (names[-1] if names else None)
        if wanted is None:
            raise _Failed("the cell defines no function or class to explore")
        if wanted not in self._ip.user_ns:
            raise _Failed(f"the cell does not define {wanted!r}")
        target = self._ip.user_ns[wanted]
        return self._present(target, args, source=cell)

    def _present(
        self, target: object, args: argparse.Namespace, source: str | None = None
    ) -> object:
        options = ReportOptions(
            strict=args.strict,
            provider=args.provider or DEFAULT_PROVIDER,
            docstring_style=args.style,
            optional_defaults=args.optional_defaults,
            name=_unquote(args.name),
            description=_unquote(args.description),
            output_type=(
                MISSING if args.output_type is None else self._evaluate(_unquote(args.output_type))
            ),
        )
        try:
            if args.json or args.static:
                # lazy: %load_ext imports this module; opening (~80 ms) waits for %toolschema
                from toollens.jupyter.opening import opened

                start = opened(target)  # a toolset's tool or a target string, as Explorer
                if start.options is not None:
                    named = options.name or start.options.name
                    options = dataclasses.replace(options, name=named)
                return self._report_view(start.target, options, as_json=args.json)
            if args.diff is not None:
                # lazy: the widgets (ipywidgets, anywidget; ~120 ms) are not loaded by %load_ext
                from toollens.jupyter.diff_widget import DiffWidget

                other = self._evaluate(_unquote(args.diff))
                display(DiffWidget(target, other, options, provider=args.provider))
                return None
            # lazy: the widgets (ipywidgets, anywidget; ~200 ms) are not loaded by %load_ext
            from toollens.jupyter.explorer import Explorer

            explorer = Explorer(
                target,
                options,
                namespace=self._ip.user_ns,  # Apply binds here; edits use the target's module
                source=source,
                source_transform=self._ip.transform_cell if source is not None else None,
                frameworks=args.frameworks,
            )
        except _Failed:
            raise
        except ToolLensError as exc:
            raise _Failed(str(exc)) from None
        except Exception as exc:  # an object toollens cannot inspect must not print a traceback
            raise _Failed(f"cannot explore {_short(target)}: {_named(exc)}") from None
        display(explorer)
        return None

    def _toolset(self, args: argparse.Namespace) -> Any:
        # lazy: the widgets (ipywidgets, anywidget; ~200 ms) are not loaded by %load_ext
        from toollens.jupyter.toolset_widget import ToolsetView

        text = _unquote(args.toolset)
        # A quoted string is a source ("myapp.tools", "tools.json"); else an expression.
        source = text if text != args.toolset else self._evaluate(text)
        options = ReportOptions(strict=args.strict, provider=args.provider or DEFAULT_PROVIDER)

        try:
            view = ToolsetView(source, options, namespace=self._ip.user_ns)
        except ToolLensError as exc:  # a source that cannot be read: one line, no traceback
            raise _Failed(str(exc)) from None
        if args.static:
            display(view.toolset)
        else:
            display(view)
        return None

    def _report_view(self, target: Any, options: ReportOptions, *, as_json: bool) -> Any:
        rep = report(target, options)
        if not as_json:
            display(rep)
            return None
        if rep.provider_payload is None:
            why = rep.view_errors.get(View.PROVIDER) or rep.view_errors.get(View.STRICT)
            raise _Failed(
                f"no provider payload for {rep.title!r}"
                + (f": {why}" if why else f" (a {rep.target_kind} target has none)")
            )
        return rep.provider_payload


def _unquote(text: str | None) -> Any:
    """IPython keeps quotes around option values (``--name "my tool"``); drop them."""
    if text is not None and len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _named(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {one_line(exc)}"


def _short(value: Any) -> str:
    return shorten(repr(value))
