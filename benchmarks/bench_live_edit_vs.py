"""Live-edit latency of this tree against another git revision, interleaved, as ratios.

Each round measures both sides with ``bench_live_edit.measure_tool`` (the headless explorer,
debounce off, the same generated tools and edits), each in a fresh interpreter so that
nothing is cached across sides, alternating which side goes first. The other revision is
checked out in a temporary ``git worktree`` and imported from there, with the installed
dependencies of this environment. Per round the table gives each side's p50 and p95, and
the summary the median over rounds of the per-round ratio this / other: a ratio at or under
1.0 means this tree is no slower.

    python benchmarks/bench_live_edit_vs.py c856bd3              # 4 rounds
    python benchmarks/bench_live_edit_vs.py c856bd3 --rounds 8 --edits 60
    python benchmarks/bench_live_edit_vs.py HEAD --quick  # 3 and 20 parameters, 5 edits, 1 round
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SIZES = (3, 200)
QUICK_SIZES = (3, 20)


def _child(src: str, n_params: int, n_edits: int) -> None:
    sys.path.insert(0, src)  # this side's toollens, ahead of the installed one
    sys.path.insert(1, str(HERE))
    import bench_live_edit

    import toollens

    assert Path(toollens.__file__).resolve().is_relative_to(Path(src).resolve())
    result = bench_live_edit.measure_tool(n_params, n_edits)
    lat = [x * 1e3 for x in result["latencies"]]
    p50, p95 = bench_live_edit.percentile(lat, 50), bench_live_edit.percentile(lat, 95)
    print(json.dumps({"p50": p50, "p95": p95, "failures": len(result["failures"])}))


def _measure(src: Path, n_params: int, n_edits: int) -> dict[str, float]:
    command = [sys.executable, __file__, "--child", str(src), str(n_params), str(n_edits)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revision", help="the git revision to compare against")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--edits", type=int, default=40, help="edits per tool per side")
    parser.add_argument("--quick", action="store_true", help="small tools, 5 edits, 1 round")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.edits = 1, 5
    sys.path.insert(0, str(HERE))
    import corpus

    corpus.print_header(f"bench_live_edit_vs: this tree against {args.revision}")
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "other"
        git = ["git", "-C", str(ROOT)]
        subprocess.run(
            [*git, "worktree", "add", "--detach", "-q", str(other), args.revision], check=True
        )
        try:
            rows, ratios = _rounds(args, ROOT / "src", other / "src")
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(other)], check=False)
    headers = ["round", "tool", "this p50", "other p50", "this p95", "other p95"]
    print(corpus.format_table(headers, rows))
    print()
    summary = [
        [f"{n} params", f"{statistics.median(r['p50']):.2f}", f"{statistics.median(r['p95']):.2f}"]
        for n, r in ratios.items()
    ]
    print(corpus.format_table(["tool", "ratio p50 (median)", "ratio p95 (median)"], summary))
    print("\nratio = this / other per round; <= 1.0: this tree is no slower.")
    return 0


def _rounds(
    args: argparse.Namespace, this: Path, other: Path
) -> tuple[list[list[str]], dict[int, dict[str, list[float]]]]:
    sizes = QUICK_SIZES if args.quick else SIZES
    rows: list[list[str]] = []
    ratios: dict[int, dict[str, list[float]]] = {n: {"p50": [], "p95": []} for n in sizes}
    for round_index in range(args.rounds):
        for n_params in sizes:
            order = [("this", this), ("other", other)]
            if round_index % 2:
                order.reverse()
            measured = {name: _measure(src, n_params, args.edits) for name, src in order}
            mine, theirs = measured["this"], measured["other"]
            for key in ("p50", "p95"):
                ratios[n_params][key].append(mine[key] / theirs[key])
            rows.append(
                [
                    str(round_index + 1),
                    f"{n_params} params",
                    f"{mine['p50']:.1f}",
                    f"{theirs['p50']:.1f}",
                    f"{mine['p95']:.1f}",
                    f"{theirs['p95']:.1f}",
                ]
            )
    return rows, ratios


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        raise SystemExit(main())
