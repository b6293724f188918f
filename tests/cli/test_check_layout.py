"""``check --client all`` in a terminal: 120 columns at most, and no verdict lost.

Wider than that, the clients that agree on every tool share a column, named in a legend under
the table; still wider, the table is turned (a line per tool, a line per group of clients).
A tool whose strict conversion fails shows no ``ok`` in its provider's column.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from toollens.cli import main
from toollens.render.check_toolset import WIDTH

CASES = Path(__file__).resolve().parents[1] / "consumers" / "cases"


def run(*argv: str) -> str:
    out = io.StringIO()
    main(list(argv), stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.parametrize("case", ["root-anyof", "many-tools", "frameworks"])
def test_every_client_keeps_its_verdict_within_the_width(case: str) -> None:
    target = str(CASES / f"{case}.tools.json")
    text = run("check", target, "--client", "all")
    table = text.split("\nproviders:")[0].split("\nclients (")[0]
    assert all(len(line) <= WIDTH for line in table.splitlines()), table
    data = json.loads(run("check", target, "--client", "all", "--format", "json"))
    for tool in data["tools"]:
        for client in tool["clients"]:
            # the client is named in the legend, or has a column (or line) of its own
            assert client["client"] in table, client["client"]


def test_a_provider_with_no_payload_is_not_ok(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "opened.py").write_text(
        "from typing import Any\n\n\ndef free(data: dict[str, Any]) -> str:\n"
        "    '''Store data.\n\n    Args:\n        data: the data to store.\n    '''\n"
        "    return ''\n",
        "utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    text = run("check", "opened")
    row = next(line for line in text.splitlines() if line.startswith("free "))
    assert row.split()[1] != "ok"
    assert "no payload (strict failed)" in row
