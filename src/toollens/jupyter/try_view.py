"""The explorer's Try-it view: arguments a model could send, checked live, called on request.

The view is folded until the author opens it, and costs nothing per edit until then. Open,
it holds a JSON editor (in the front end) prefilled with a readable example of the schema
the model sees; every keystroke there, and every edit of the function, re-checks the
arguments (:func:`~toollens.roundtrip.checking.check_arguments`) and marks each problem at
its pointer. An example that no longer fits an edited function is marked, never replaced.
The function runs only when the author presses Call; its result stays, marked stale once
the arguments or the function change.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

from toollens.core.errors import ToolLensError
from toollens.core.providers import provider_payload
from toollens.core.schema.types import JsonSchema

if TYPE_CHECKING:
    from toollens.core.report import Report
    from toollens.jupyter.explorer_state import ExplorerState
    from toollens.roundtrip.calling import PreparedTool
    from toollens.roundtrip.examples import ExampleSource
    from toollens.roundtrip.records import CallResult

__all__ = ["Caller", "TryView"]

Caller = Callable[[str], "CallResult"]
"""What Call does with the arguments' JSON text for a tool that is not a Python function
(an MCP server's tool: a real ``tools/call``)."""


class TryView:
    """The Try-it state of one explorer, kept in its ``try_*`` traits.

    Args:
        widget: the explorer whose traits show this view.
        lock: the explorer's render lock (a check must not interleave with a render).
        caller: what Call does for a tool without a Python function (an MCP tool).
    """

    def __init__(self, widget: ExplorerState, lock: threading.RLock, caller: Caller | None) -> None:
        self._widget, self._lock, self._caller = widget, lock, caller
        self._report: Report | None = None
        self._tool: PreparedTool | None = None
        self._schema: JsonSchema | None = None
        self._examples: ExampleSource | None = None
        self._generation = 0  # bumped on every new report: a result made before is stale
        self._result: CallResult | None = None
        self._result_generation = -1
        self._note: str | None = None
        self._prepared = False
        self._setting = False  # the view itself is writing try_arguments
        self._filled = False  # the first example was given (or the author's text was there)
        widget.observe(self._on_open, names="try_open")
        widget.observe(self._on_arguments, names="try_arguments")

    # -- what the explorer tells it -----------------------------------------------------------

    def show(self, rep: Report) -> None:
        """A new report (an edit, a toolbar change): re-check the arguments against it."""
        self._report, self._generation = rep, self._generation + 1
        self._prepared = False
        self._widget.try_available = rep.target_kind != "output-type"
        self._on_open(None)  # re-check; fill it if it opened while the source was broken

    def open_with(self, arguments: str | Mapping[str, object]) -> None:
        """Open the view on ``arguments`` (JSON text, or a mapping encoded as a provider would)."""
        # lazy: the round trip (~13 ms) loads when Try it is used, not with the Explorer (issue 50)
        from toollens.roundtrip.calling import encode_arguments

        self._widget.try_arguments = encode_arguments(arguments)
        self._widget.try_open = True

    def handle(self, action: object) -> None:
        """A button: ``"example"``, ``"edge"`` (the next edge case) or ``"call"``."""
        with self._lock, self._failures_shown():
            if not self._ready():
                return
            if action == "example":
                self._set_arguments(self._example_source().another(), None)
            elif action == "edge":
                edge = self._example_source().edge_case()
                if edge is None:
                    self._note = "This schema has no edge cases beyond the example."
                    self._refresh()
                else:
                    self._set_arguments(edge[1], f"Edge case: {edge[0]}")
            elif action == "call":
                self._call()

    # -- trait observers ----------------------------------------------------------------------

    def _on_open(self, _change: object) -> None:
        with self._lock, self._failures_shown():
            if self._widget.try_open and self._ready():
                if not self._filled and not self._widget.try_arguments:
                    self._set_arguments(self._example_source().first, None)
                else:
                    self._refresh()
                self._filled = True  # from now on the text is the author's: never refilled

    def _on_arguments(self, _change: object) -> None:
        with self._lock, self._failures_shown():
            self._note = None
            if not self._setting and self._widget.try_open and self._ready():
                self._refresh()

    # -- the work -----------------------------------------------------------------------------

    @contextlib.contextmanager
    def _failures_shown(self) -> Iterator[None]:
        """A schema the generator or the validator cannot use, or a bug here, shows as one
        line in the view instead of a traceback in the kernel's log."""
        try:
            yield
        except KeyboardInterrupt:
            raise
        except Exception as exc:
            # lazy: the round trip's views (~17 ms) load on first use, not with the Explorer
            from toollens.render.try_html import render_try_html

            why = (
                str(exc) if isinstance(exc, ToolLensError) else f"{type(exc).__name__} in toollens"
            )
            self._widget.try_html = render_try_html(
                None, checked_against="", note_text=f"Try it cannot go on: {why}"
            )

    def _ready(self) -> bool:
        """Whether there is a report to try; prepares its tool and schema on first use."""
        rep = self._report
        if rep is None or rep.target_kind == "output-type":
            return False
        if not self._prepared:
            self._tool, schema = _tool_and_schema(rep)
            if schema != self._schema:
                # lazy: the round trip (~14 ms) loads when Try it is used, not with the Explorer
                from toollens.roundtrip.generate import require_valid

                if schema is not None:
                    require_valid(schema)  # else jsonschema's own errors would surface
                self._schema, self._examples = schema, None  # new examples for a new schema
            self._prepared = True
            self._widget.try_can_call = self._tool is not None or self._caller is not None
        return True

    def _example_source(self) -> ExampleSource:
        # lazy: the round trip (~15 ms) loads when Try it is used, not with the Explorer (issue 50)
        from toollens.roundtrip.examples import ExampleSource

        if self._examples is None:
            self._examples = ExampleSource(self._schema or {"type": "object"})
        return self._examples

    def _set_arguments(self, arguments: object, note: str | None) -> None:
        import json

        text = json.dumps(arguments, indent=2, ensure_ascii=False)
        self._setting = True
        try:
            self._widget.try_arguments = text
        finally:
            self._setting = False
        self._note = note
        self._refresh()

    def _call(self) -> None:
        # lazy: the round trip (~13 ms) loads when Try it is used, not with the Explorer (issue 50)
        from toollens.roundtrip.calling import DEFAULT_TIMEOUT

        text = str(self._widget.try_arguments)
        if self._tool is not None:
            self._result = self._tool.call(text, timeout=DEFAULT_TIMEOUT)
        elif self._caller is not None:
            self._result = self._caller(text)
        else:
            return
        self._result_generation = self._generation
        self._refresh()

    def _refresh(self) -> None:
        # lazy: the round trip and its views (~17 ms) load on first use, not with the Explorer
        from toollens.render.try_html import render_try_html
        from toollens.roundtrip.checking import check_arguments

        text = str(self._widget.try_arguments)
        check = check_arguments(text, self._tool, self._schema)
        result = self._result
        stale = result is not None and (
            result.arguments != text or self._result_generation != self._generation
        )
        with self._widget.hold_sync():
            self._widget.try_marks = [mark.to_json() for mark in check.marks]
            self._widget.try_html = render_try_html(
                check,
                checked_against=self._against(),
                result=result,
                result_stale=stale,
                note_text=self._note or self._why_no_call(),
            )

    def _against(self) -> str:
        rep = self._report
        if rep is None:
            return ""
        strict = "strict " if rep.options.strict else ""
        return f"the {strict}schema {rep.provider} receives does not admit these values"

    def _why_no_call(self) -> str | None:
        if self._tool is not None or self._caller is not None:
            return None
        return "A JSON Schema has no function to call: the arguments are checked against it only."


def _tool_and_schema(rep: Report) -> tuple[PreparedTool | None, JsonSchema | None]:
    """The function to call (with its SDK validation) and the parameters schema the model
    sees for the report's provider (Gemini's OpenAPI schema read as JSON Schema)."""
    # lazy: the round trip (~13 ms) loads when Try it is used, not with the Explorer (issue 50)
    from toollens.roundtrip.calling import PreparedTool
    from toollens.roundtrip.generate import model_facing

    fs = rep.function
    tool = PreparedTool(fs, fs.callable_info.func) if fs is not None else None
    schema = rep.schema
    if fs is not None:
        try:
            schema = provider_payload(fs, rep.provider).schema
        except ToolLensError:  # the provider cannot take this tool: the report says why
            schema = rep.schema
    return tool, (model_facing(schema) if schema is not None else None)
