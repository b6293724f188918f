"""What opening an explorer loads: only what its first render needs (issue 50's first paint).

The frameworks, the clients' renderers and the round trip (the Try-it view's SDK validation,
asyncio) load when they are first used, not when the explorer opens; displaying the records
they make still works, through renderers registered by name.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from toollens.core.display_hooks import mimebundle
from toollens.render import _RENDERED_BY_NAME

NOT_AT_OPEN = (
    "toollens.frameworks.compare",
    "toollens.roundtrip.calling",
    "toollens.render.clients_html",
    "toollens.render.toolset_html",
    "toollens.render.roundtrip_html",
    "toollens.toolsets",  # and the MCP client it imports: a target string or a pasted error
    "toollens.mcp",
)

OPEN = """
import sys
import toollens
from toollens.jupyter.explorer import Explorer
from toollens.examples import get_weather
explorer = Explorer(get_weather)
assert explorer.report is not None
print(" ".join(name for name in {names!r} if name in sys.modules))
"""


def test_opening_an_explorer_loads_no_framework_client_or_round_trip_module() -> None:
    code = OPEN.format(names=NOT_AT_OPEN)
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "", f"imported at open: {proc.stdout.strip()}"


@pytest.mark.parametrize("name", sorted(_RENDERED_BY_NAME))
def test_each_record_registered_by_name_names_a_real_class(name: str) -> None:
    module, _, qualname = name.rpartition(".")
    kind = getattr(importlib.import_module(module), qualname)
    assert f"{kind.__module__}.{kind.__qualname__}" == name


def test_a_record_registered_by_name_is_displayed_by_its_renderer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from toollens.core import display_hooks
    from toollens.tokens.result import TokenCount

    count = TokenCount.__new__(TokenCount)  # which renderer is asked, not what it renders
    seen: list[object] = []

    def render(value: object) -> dict[str, str]:
        seen.append(value)
        return {"text/plain": "counted", "text/html": "<b>counted</b>"}

    monkeypatch.setitem(display_hooks._renderers, "toollens.tokens.result.TokenCount", render)
    assert mimebundle(count, include=["text/plain"]) == {"text/plain": "counted"}
    assert seen == [count]
