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
counts instead, under valgrind's callgrind, what an edit costs on each side: the CPU
instructions it executes, and the misses of a simulated 1 MiB last-level cache (the
per-core L2 of the machines this was written on). Each edit runs after a garbage
collection, as in the timing, and callgrind counts only inside the edits (each one is
called through ``itertools.starmap``, which nothing on the edit path uses, and callgrind
collects only while that runs). Instructions are deterministic to about 0.3%; the misses
are what makes an edit that runs fewer instructions take longer when its code and data
are cold. A few minutes per tool size.
"""

from __future__ import annotations

import argparse
import gc
import itertools
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


def _use_tree(src: str) -> None:
    """Import toollens from ``src`` (this side's tree, ahead of the installed one)."""
    sys.path.insert(0, src)
    sys.path.insert(1, str(HERE))
    import toollens

    assert Path(toollens.__file__).resolve().is_relative_to(Path(src).resolve())


def _child(src: str, n_params: int, n_edits: int) -> None:
    _use_tree(src)
    import bench_live_edit

    result = bench_live_edit.measure_tool(n_params, n_edits)
    lat = [x * 1e3 for x in result["latencies"]]
    p50, p95 = bench_live_edit.percentile(lat, 50), bench_live_edit.percentile(lat, 95)
    print(json.dumps({"p50": p50, "p95": p95, "failures": len(result["failures"])}))


def _count_child(src: str, n_params: int, n_edits: int) -> None:
    """Open the explorer warmed as ``measure_tool`` does, then make the edits, each after a
    garbage collection and called through ``itertools.starmap`` (the function callgrind
    collects in)."""
    _use_tree(src)
    import bench_live_edit

    explorer, _func, texts = bench_live_edit.warm_explorer(n_params, n_edits)

    def edit(text: str) -> None:
        explorer.editor.value = text
        explorer.flush()

    for _label, text in texts:
        gc.collect()
        for _ in itertools.starmap(edit, [(text,)]):
            pass


# A 1 MiB last level, 32 KiB first-level caches: one core's caches on the machines this was
# written on (callgrind would otherwise simulate the whole shared L3, which a VM does not get).
_CACHES = ("--I1=32768,8,64", "--D1=32768,8,64", "--LL=1048576,16,64")


def _counts(src: Path, n_params: int, n_edits: int) -> dict[str, float]:
    """Instructions and simulated last-level cache misses per edit."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        "--cache-sim=yes",
        *_CACHES,
        "--collect-atstart=no",
        "--toggle-collect=*starmap_next*",
        sys.executable,
        __file__,
        "--count",
        str(src),
        str(n_params),
        str(n_edits),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    events = re.search(r"Events +: ([\w ]+)\n", done.stderr)
    totals = re.search(r"Collected : ([\d ]+)\n", done.stderr)
    if events is None or totals is None:
        raise RuntimeError("callgrind printed no counts:\n" + done.stderr[-2000:])
    counted = dict(zip(events.group(1).split(), map(int, totals.group(1).split()), strict=True))
    if not counted.get("Ir"):
        raise RuntimeError("callgrind counted nothing: is python built without symbols?")
    misses = counted["ILmr"] + counted["DLmr"] + counted["DLmw"]
    return {"instructions": counted["Ir"] / n_edits, "misses": misses / n_edits}


def _sizes(args: argparse.Namespace) -> tuple[int, ...]:
    return tuple(args.sizes) if args.sizes else QUICK_SIZES if args.quick else SIZES


def _count_instructions(args: argparse.Namespace, this: Path, other: Path) -> None:
    sizes = _sizes(args)
    rows = []
    for n_params in sizes:
        edits = args.edits if n_params < 100 else max(5, args.edits // 5)
        mine = _counts(this, n_params, edits)
        theirs = _counts(other, n_params, edits)
        rows.append(
            [
                f"{n_params} params",
                str(edits),
                f"{mine['instructions'] / 1e6:.2f}",
                f"{theirs['instructions'] / 1e6:.2f}",
                f"{mine['instructions'] / theirs['instructions']:.3f}",
                f"{mine['misses'] / 1e3:.1f}",
                f"{theirs['misses'] / 1e3:.1f}",
                f"{mine['misses'] / theirs['misses']:.3f}",
            ]
        )
    headers = [
        "tool",
        "edits",
        "this M instr/edit",
        "other M instr/edit",
        "ratio",
        "this K misses/edit",
        "other K misses/edit",
        "misses ratio",
    ]
    import corpus

    print(corpus.format_table(headers, rows))
    print(
        "\nratio = this / other; <= 1.0: this tree executes no more instructions per edit."
        "\nmisses: last-level cache misses (1 MiB simulated) per edit, garbage collected before"
        " each edit as in the timing."
    )


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
        help="count instructions and cache misses per edit under valgrind instead of timing",
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
        _count_child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        raise SystemExit(main())
