"""What a newcomer reads: a JSON file that is no tool is refused as such, hints name the
option of the front end in use, and no hint is said twice."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from toollens.cli import main
from toollens.core.schema.given import READ_SHAPES

EXIT_TARGET = 3

KWARGS_TOOL = '''
def anyargs(x: int, **extra: int) -> int:
    """Sum.

    Args:
        x: first.
        extra: more.
    """
    return x
'''

DEFAULTED = {
    "tools": [
        {
            "name": "browser_console_messages",
            "description": "Returns the page's console messages.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "level": {
                        "type": "string",
                        "enum": ["error", "info"],
                        "default": "info",
                        "description": "Level of the messages to return.",
                    }
                },
                "additionalProperties": False,
            },
        }
    ]
}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# (file content, what the one line says the file is not)
NOT_TOOLS = [
    ({"name": "Alice", "age": 30}, "its keys 'name', 'age' are no JSON Schema keywords"),
    ({"foo": 1}, "its key 'foo' is no JSON Schema keyword"),
    ({"tools": 5}, "'tools' holds int 5, not a list of tools"),
    ({"hello": "world", "items": [1, 2, 3]}, "its key 'hello' is no JSON Schema keyword"),
]


@pytest.mark.parametrize("command", ["show", "check"])
@pytest.mark.parametrize(("data", "said"), NOT_TOOLS, ids=["person", "foo", "tools-5", "hello"])
def test_a_json_file_that_is_no_tool_is_refused_in_one_line(
    tmp_path: Path, command: str, data: object, said: str
) -> None:
    file = tmp_path / "data.json"
    file.write_text(json.dumps(data))
    code, out, err = run(command, str(file))
    assert code == EXIT_TARGET
    assert out == ""
    assert err.count("\n") == 1
    assert said in err
    assert READ_SHAPES in err
    assert "root schema" not in err  # not judged as a schema


@pytest.mark.parametrize(
    "data",
    [
        {},  # the schema that accepts anything
        {"type": "object", "properties": {"a": {"type": "string"}}, "x-origin": "ours"},
        {"description": "anything", "nullable": True},  # annotations and OpenAPI's nullable
    ],
    ids=["empty", "extension-key", "annotations"],
)
def test_a_schema_with_only_keywords_is_still_read(tmp_path: Path, data: object) -> None:
    file = tmp_path / "schema.json"
    file.write_text(json.dumps(data))
    code, _, err = run("show", str(file), "--view", "raw")
    assert code == 0, err


@pytest.mark.parametrize(
    "argv",
    [
        ["show", "{file}:anyargs", "--view", "strict"],
        ["check", "{file}:anyargs"],
        ["fuzz", "{file}:anyargs", "-n", "3"],
    ],
    ids=["show", "check", "fuzz"],
)
def test_the_command_line_names_its_own_option_to_turn_strict_off(
    tmp_path: Path, argv: list[str]
) -> None:
    file = tmp_path / "kw.py"
    file.write_text(KWARGS_TOOL)
    _, out, err = run(*(a.format(file=file) for a in argv))
    text = out + err
    assert "--no-strict" in text
    assert "pass strict=False" not in text


def test_a_clients_provider_findings_name_no_python_option(tmp_path: Path) -> None:
    # An MCP server's author edits a schema; optional_defaults is a toollens Python option.
    file = tmp_path / "pw.tools.json"
    file.write_text(json.dumps(DEFAULTED))
    _, out, err = run("check", str(file), "--client", "openai-agents-strict", "--format", "json")
    assert "openai.default" in out  # the finding is there
    assert "optional_defaults" not in out + err
    assert 'add \\"null\\" to its type' in out


def test_the_tokens_extra_is_named_once_when_no_tokenizer_is_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "tiktoken", None)  # `import tiktoken` now fails
    file = tmp_path / "pw.tools.json"
    file.write_text(json.dumps(DEFAULTED))
    for fmt in ("text", "json"):
        _, out, err = run("check", str(file), "--client", "cursor", "--format", fmt)
        said = out + err
        assert "which is not installed" in said, fmt
        assert said.count("toollens[tokens]") == said.count("which is not installed"), fmt
