"""``toollens try`` and ``toollens fuzz``: outputs and exit codes, run in-process."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from toollens.cli import main

TOOLS = str(Path(__file__).parent / "roundtrip_tools.py")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("arguments", "code", "shown"),
    [
        ('{"total": 3, "parts": 2}', 0, "returned     1.5"),
        ('{"total": 3, "parts": 0}', 2, "raised       ZeroDivisionError: division by zero"),
        ('{"total": 3}', 1, "rejected     at /parts:"),
        ('{"total": 3, "parts": "x"}', 1, "Invalid JSON input for tool divide: 1 validation"),
        ("[3, 0]", 1, "Invalid JSON input for tool divide: expected a JSON object"),
    ],
    ids=["returned", "raised", "missing", "wrong-type", "not-an-object"],
)
def test_try_exit_codes(arguments: str, code: int, shown: str) -> None:
    got, out, err = run("try", f"{TOOLS}:divide", arguments)
    assert (got, err) == (code, "")
    assert shown in out


def test_try_shows_the_call_and_what_the_model_reads() -> None:
    _, out, _ = run("try", f"{TOOLS}:divide", '{"total": 3, "parts": 2}')
    assert "call         divide(total=3, parts=2)" in out
    assert "model reads  1.5" in out
    assert 'as JSON      {"response":1.5}' in out  # through the output schema (wrapped float)


def test_try_malformed_json_is_one_line() -> None:
    code, out, _ = run("try", f"{TOOLS}:divide", '{"total": 3,')
    assert code == 1
    assert out.count("\n") == 1
    assert out.startswith("rejected: arguments for tool 'divide' are not valid JSON at line 1")
    assert "Invalid JSON input for tool divide: {" in out


def test_try_timeout_and_dry_run() -> None:
    code, out, _ = run("try", f"{TOOLS}:hangs", '{"x": 1}', "--timeout", "0.1")
    assert code == 2
    assert "Tool 'hangs' timed out after 0.1 seconds." in out
    code, out, _ = run("try", f"{TOOLS}:divide", '{"total": 3, "parts": 0}', "--dry-run")
    assert code == 0
    assert "dry run" in out
    assert "raised" not in out


def test_try_json_format() -> None:
    code, out, _ = run("try", f"{TOOLS}:pairs", '{"count": 3}', "--format", "json")
    data: dict[str, Any] = json.loads(out)
    assert code == 1
    assert data["status"] == "rejected"
    assert data["pointer"] == "/count"
    assert data["model_text"] == "An error occurred while running the tool. Please try again."


@pytest.mark.parametrize(
    "argv",
    [
        ["try", "nowhere_at_all:divide", "{}"],
        ["try", f"{TOOLS}:missing", "{}"],
        ["fuzz", f"{TOOLS}:missing"],
        ["fuzz", f"{TOOLS}:divide", "-n", "0"],
        ["try", f"{TOOLS}:divide", "{}", "--timeout", "-1"],
    ],
    ids=["no-module", "no-attribute", "fuzz-no-attribute", "n-zero", "negative-timeout"],
)
def test_could_not_run_is_exit_3_in_one_line(argv: list[str]) -> None:
    code, out, err = run(*argv)
    assert code == 3
    assert out == ""
    assert (
        err.strip()
        .splitlines()[-1]
        .startswith(("toollens: error:", "toollens try: error:", "toollens fuzz: error:"))
    )


def test_fuzz_finds_and_exits_1() -> None:
    code, out, _ = run("fuzz", f"{TOOLS}:price", "-n", "10")
    assert code == 1
    assert "1 finding" in out
    assert 'arguments: {"size": "large"}' in out


def test_fuzz_clean_exits_0() -> None:
    code, out, _ = run("fuzz", f"{TOOLS}:forecast", "-n", "30", "--seed", "4")
    assert code == 0
    assert "no findings" in out


def test_fuzz_json_with_provider_and_invalid() -> None:
    code, out, _ = run(
        "fuzz",
        f"{TOOLS}:shares",
        "-n",
        "30",
        "--provider",
        "gemini-openapi",
        "--invalid",
        "--dry-run",
        "--format",
        "json",
    )
    data = json.loads(out)
    assert code == 1
    assert data["provider"] == "gemini-openapi"
    kinds = {f["kind"] for f in data["findings"]}
    assert {"disagreement", "accepts-invalid"} <= kinds
    assert all(f["call"]["status"] in ("rejected", "not-run") for f in data["findings"])
