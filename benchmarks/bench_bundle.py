"""Size of the explorer's front-end bundle, the one file a browser loads per page.

Reports the committed ``toollens/jupyter/static/explorer.js`` (minified ESM built by
``frontend/build.mjs`` with esbuild): bytes as shipped, gzipped (what a server that
compresses sends), and, when node and the front end's ``node_modules`` are present, what
each npm package contributes (from an esbuild metafile of a throwaway build).

    python benchmarks/bench_bundle.py
    python benchmarks/bench_bundle.py --quick     # the same: nothing here is slow

Target: under 500 KB minified.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus

ROOT = Path(__file__).resolve().parent.parent
FRONTEND = ROOT / "src" / "toollens" / "jupyter" / "frontend"
BUNDLE = ROOT / "src" / "toollens" / "jupyter" / "static" / "explorer.js"
TARGET_KB = 500

# Builds the entry point again into a temp file with a metafile, and prints the bytes each
# package contributes to the output.
_METAFILE_JS = """
const { build } = await import(process.argv[2] + '/node_modules/esbuild/lib/main.js');
const r = await build({ entryPoints: [process.argv[2] + '/src/index.js'], bundle: true,
  format: 'esm', minify: true, target: 'es2020', outfile: process.argv[3], metafile: true,
  logLevel: 'silent' });
const by = {};
for (const out of Object.values(r.metafile.outputs)) {
  for (const [path, info] of Object.entries(out.inputs)) {
    const m = /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(path);
    const key = m ? m[1] : 'toollens (src/)';
    by[key] = (by[key] || 0) + info.bytesInOutput;
  }
}
console.log(JSON.stringify(by));
"""


def by_package() -> dict[str, int] | None:
    """Bytes of the minified output per npm package, or ``None`` without node/node_modules."""
    node = shutil.which("node")
    if node is None or not (FRONTEND / "node_modules" / "esbuild").is_dir():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "meta.mjs"
        script.write_text(_METAFILE_JS)
        proc = subprocess.run(
            [node, str(script), str(FRONTEND), str(Path(tmp) / "out.js")],
            capture_output=True,
            text=True,
            check=False,
        )
    if proc.returncode != 0:
        print(f"(per-package sizes unavailable: {proc.stderr.strip()[:200]})")
        return None
    return {k: int(v) for k, v in json.loads(proc.stdout).items()}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="accepted for symmetry; same run")
    parser.parse_args(argv)
    corpus.print_header("front-end bundle size")
    data = BUNDLE.read_bytes()
    raw_kb = len(data) / 1024
    gz_kb = len(gzip.compress(data, compresslevel=9)) / 1024
    verdict = "met" if raw_kb < TARGET_KB else "MISSED"
    rows = [
        ["explorer.js (minified)", f"{raw_kb:.1f}", f"< {TARGET_KB}", verdict],
        ["explorer.js (gzip -9)", f"{gz_kb:.1f}", "", ""],
    ]
    print(corpus.format_table(["file", "KB", "target", "verdict"], rows))
    packages = by_package()
    if packages:
        print()
        ordered = sorted(packages.items(), key=lambda kv: -kv[1])
        table = [[name, f"{size / 1024:.1f}"] for name, size in ordered]
        print(corpus.format_table(["package", "KB in bundle"], table))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
