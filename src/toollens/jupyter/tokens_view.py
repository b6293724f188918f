"""The explorer's Tokens view: what the tool costs for the toolbar's provider, live.

Opt-in: ``add_tokens_view(Explorer(fn))``, or ``add_tokens_view(explorer, "gpt-4.1")``.
The count is recomputed on every render (a count takes well under a millisecond), so
the author sees a longer description cost tokens while typing. Without a model name,
the model follows the toolbar's provider (``toollens.tokens.models.PROVIDER_MODELS``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toollens.core.errors import ToolLensError
from toollens.jupyter.explorer_state import Panel
from toollens.render.markup import Markup, note, tag
from toollens.render.tokens import tokens_html
from toollens.tokens import tokens
from toollens.tokens.models import model_for_provider

if TYPE_CHECKING:
    from toollens.core.report import Report
    from toollens.jupyter.explorer import Explorer


def model_for(setting: bool | str, provider: str) -> str:
    """The model to count: the one given, else the provider's default."""
    if isinstance(setting, str) and setting:
        return setting
    return model_for_provider(provider)


def tokens_panel_html(report: Report, setting: bool | str) -> str:
    """The Tokens view of ``report``: a total and a bar per tool part, or why not."""
    model = model_for(setting, str(report.provider))
    try:
        counted = tokens(report, model)
    except ToolLensError as exc:  # no tokenizer installed, a model without a rule
        body: Markup = note(str(exc))
        subtitle = model
    else:
        body = tokens_html(counted)
        subtitle = f"{counted.total} · {model} ({counted.method})"
    title = tag(
        "div", "Tokens", tag("span", f" {subtitle}", class_="tl-muted"), class_="tl-panel-title"
    )
    return str(
        tag("section", title, Markup(body), class_="tl-panel tl-panel-tokens", data_view="tokens")
    )


def add_tokens_view(explorer: Explorer, model: bool | str = True) -> Explorer:
    """Add the Tokens view to an :class:`~toollens.jupyter.Explorer` and return it.

    Args:
        explorer: the explorer to extend.
        model: ``True`` counts for the toolbar's provider's default model; a model name
            (``"gpt-4.1"``, ``"claude-opus-4-1"``) counts for that model.
    """
    if "tokens" not in explorer.panel_order:
        # One more declared view, for this explorer only: it renders with the others on
        # every edit, toolbar change and layout switch, and travels as patches like them.
        panel = Panel("tokens", "below", render=lambda rep: tokens_panel_html(rep, model))
        explorer.declarations = (*explorer.declarations, panel)
        explorer.panel_order = [*explorer.panel_order, panel.key]
        explorer.panel_areas = {**explorer.panel_areas, panel.key: panel.area}
    explorer.render()
    return explorer
