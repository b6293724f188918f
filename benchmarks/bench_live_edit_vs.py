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
    python benchmarks/bench_live_edit_vs.py c856bd3 --instructions  # CPU instructions (valgrind)

Wall-clock ratios on a shared machine move by 10% from run to run. ``--instructions``
counts instead the CPU instructions an edit executes on each side, under valgrind's
callgrind: each side runs twice in a fresh interpreter, opening the explorer and making no
edit, then the same plus the edits, and the difference divided by the edits is the count
per edit. Deterministic to about 0.3%, and blind to cache misses, so it complements the
timing rather than replacing it. A minute or two per tool size.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
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


def _count_child(src: str, n_params: int, n_edits: int, made: int) -> None:
    """Open the explorer on the tool and make the first ``made`` of its edits, untimed."""
    sys.path.insert(0, src)
    sys.path.insert(1, str(HERE))
    import corpus

    from toollens.jupyter.explorer import Explorer

    explorer = Explorer(corpus.load_tool(n_params), debounce=0)
    texts = [text for _, text in corpus.edits(explorer.editor.value, n_params, n_edits)]
    for text in texts[:2]:  # what measure_tool warms too
        explorer.editor.value = text
        explorer.flush()
    for text in texts[:made]:
        explorer.editor.value = text
        explorer.flush()


def _instructions(src: Path, n_params: int, n_edits: int, made: int) -> int:
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--count",
        str(src),
        str(n_params),
        str(n_edits),
        str(made),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError("callgrind printed no instruction count:\n" + done.stderr[-2000:])
    return int(found.group(1))


def _instructions_per_edit(src: Path, n_params: int, n_edits: int) -> float:
    opened = _instructions(src, n_params, n_edits, 0)
    return (_instructions(src, n_params, n_edits, n_edits) - opened) / n_edits


def _sizes(args: argparse.Namespace) -> tuple[int, ...]:
    return tuple(args.sizes) if args.sizes else QUICK_SIZES if args.quick else SIZES


def _count_instructions(args: argparse.Namespace, this: Path, other: Path) -> None:
    sizes = _sizes(args)
    rows = []
    for n_params in sizes:
        edits = args.edits if n_params < 100 else max(5, args.edits // 5)
        mine = _instructions_per_edit(this, n_params, edits)
        theirs = _instructions_per_edit(other, n_params, edits)
        rows.append(
            [
                f"{n_params} params",
                str(edits),
                f"{mine / 1e6:.2f}",
                f"{theirs / 1e6:.2f}",
                f"{mine / theirs:.3f}",
            ]
        )
    headers = ["tool", "edits", "this M instr/edit", "other M instr/edit", "ratio"]
    import corpus

    print(corpus.format_table(headers, rows))
    print("\nratio = this / other; <= 1.0: this tree executes no more instructions per edit.")


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
    parser.add_argument(
        "--sizes", type=int, nargs="+", metavar="N", help="tool sizes (parameters) to measure"
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count CPU instructions per edit under valgrind instead of timing",
    )
    args = parser.parse_args(argv)
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind on PATH")
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
            if args.instructions:
                _count_instructions(args, ROOT / "src", other / "src")
                return 0
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
    sizes = _sizes(args)
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
    elif sys.argv[1:2] == ["--count"]:
        _count_child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    else:
        raise SystemExit(main())
