"""Print the README's framework table: per framework, functions accepted and materially
different from toollens' reference view, over the functions of
``tests/support/framework_functions``.

    python scripts/framework_table.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support.framework_functions import FUNCTIONS
from toollens.frameworks import names, spec
from toollens.frameworks.compare import compare


def main() -> None:
    counts = {key: [0, 0, 0] for key in names()}
    versions: dict[str, str] = {}
    for func in FUNCTIONS:
        for entry in compare(func).entries:
            row = counts[entry.framework]
            row[0] += entry.result.accepted
            row[1] += entry.diff is not None
            row[2] += entry.materially_different
            versions[entry.framework] = entry.result.version or "not installed"
    print("| framework (API) | version | functions accepted | materially different |")
    print("| --- | --- | --- | --- |")
    for key, (accepted, compared, material) in counts.items():
        s = spec(key)
        print(
            f"| {s.label} (`{s.api}`) | {versions[key]} | {accepted}/{len(FUNCTIONS)} "
            f"| {material}/{compared} |"
        )


if __name__ == "__main__":
    main()
