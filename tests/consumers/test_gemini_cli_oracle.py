"""Gemini CLI's own ``generateValidName`` and ``discoverTools`` type rewrite, run with node.

The package ``@google/gemini-cli-core`` is fetched with ``npm pack`` (one tarball, no install)
into the test's temporary directory; the two functions are taken from its ``dist`` files and
run on the same inputs as toollens' restatement. Skips when node or npm is absent or the
package cannot be fetched.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from toollens.consumers.clients import nullable_types
from toollens.consumers.names import gemini_cli_name

pytestmark = pytest.mark.slow

PACKAGE = "@google/gemini-cli-core@0.61.0"
NAMES = [
    ("srv", "tool"),
    ("my server", "get/item"),
    ("mcp", "x"),
    ("s", "é"),
    ("s", "\U0001f600"),
    ("s" * 40, "t" * 40),
    ("1st", "do-it.now:v2"),
]
SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": ["string", "null"]},
        "n": {"type": ["null", "integer"], "description": "count"},
        "three": {"type": ["string", "integer", "null"]},
        "list": {"type": "array", "items": {"type": ["number", "null"]}},
        "type": {"type": ["boolean", "null"]},
    },
}


def _package(tmp_path: Path) -> Path:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed to run Gemini CLI's own functions")
    try:
        done = subprocess.run(
            ["npm", "pack", PACKAGE, "--silent"],
            cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.skip("npm pack timed out")
    tarballs = list(tmp_path.glob("*.tgz"))
    if done.returncode != 0 or not tarballs:
        pytest.skip(f"cannot fetch {PACKAGE}: {done.stderr.strip()[:200]}")
    with tarfile.open(tarballs[0]) as tar:
        tar.extractall(tmp_path, filter="data")
    return tmp_path / "package" / "dist" / "src" / "tools"


def _function(source: str, header: str) -> str:
    start = source.index(header)
    end = source.index("\n}\n", start) + 3
    return source[start:end].replace("export function", "function")


def test_names_and_nullable_rewrite_match_gemini_cli(tmp_path: Path) -> None:
    tools = _package(tmp_path)
    naming = (tools / "mcp-tool.js").read_text(encoding="utf-8")
    limit = re.search(r"MAX_FUNCTION_NAME_LENGTH = (\d+)", naming)
    assert limit is not None
    client = (tools / "mcp-client.js").read_text(encoding="utf-8")
    start = client.index("const transform = (obj) => {")
    end = client.index("};", client.index("return res;", start)) + 2
    script = "\n".join(
        [
            "const debugLogger = { warn() {} };",
            f"const MAX_FUNCTION_NAME_LENGTH = {limit.group(1)};",
            _function(naming, "export function generateValidName"),
            client[start:end],
            f"const names = {json.dumps(NAMES)};",
            f"const schema = {json.dumps(SCHEMA)};",
            "console.log(JSON.stringify({names: names.map(([s, t]) => "
            "generateValidName(`${s}_${t}`)), schema: transform(schema)}));",
        ]
    )
    (tmp_path / "oracle.js").write_text(script, encoding="utf-8")
    out = subprocess.run(
        ["node", str(tmp_path / "oracle.js")],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    real = json.loads(out.stdout)
    assert real["names"] == [gemini_cli_name(s, t) for s, t in NAMES]
    assert real["schema"] == nullable_types(SCHEMA)[0]
