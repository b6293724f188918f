"""Print the README's framework table: per framework, functions accepted and materially
different from toollens' reference view, over the functions of
``tests/support/framework_functions``.

    python scripts/framework_table.py           # print it
    python scripts/framework_table.py --write   # refresh scripts/framework_table.md

The documentation site includes the committed ``framework_table.md`` (building the site
imports no framework and nothing from ``tests/``); ``tests/frameworks/
test_framework_table.py`` fails when a measurement no longer matches it.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support.framework_functions import FUNCTIONS
from toollens.frameworks import names, spec
from toollens.frameworks.compare import compare

TABLE = Path(__file__).resolve().with_suffix(".md")


def table() -> str:
    """The table as Markdown, measured now with the frameworks installed."""
    counts = {key: [0, 0, 0] for key in names()}
    versions: dict[str, str] = {}
    for func in FUNCTIONS:
        for entry in compare(func).entries:
            row = counts[entry.framework]
            row[0] += entry.result.accepted
            row[1] += entry.diff is not None
            row[2] += entry.materially_different
            versions[entry.framework] = entry.result.version or "not installed"
    lines = [
        "| framework (API) | version | functions accepted | materially different |",
        "| --- | --- | --- | --- |",
    ]
    for key, (accepted, compared, material) in counts.items():
        s = spec(key)
        lines.append(
            f"| {s.label} (`{s.api}`) | {versions[key]} | {accepted}/{len(FUNCTIONS)} "
            f"| {material}/{compared} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    measured = table()
    if "--write" in (sys.argv[1:] if argv is None else argv):
        TABLE.write_text(measured, encoding="utf-8")
    else:
        print(measured, end="")


if __name__ == "__main__":
    main()
