// Bundle src/index.js into the package's static/explorer.js (one ESM, minified), and
// src/toolset_page.js into render/static/toolset_page.js (one classic script the static
// `report --html` page inlines: the widget's table code, no module loader needed), and record
// the sources' hash in a banner of each, so a test can tell when a committed bundle is stale.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** sha256 over the sources, in the same way tests/jupyter/test_frontend_bundle.py computes it. */
export function sourcesHash() {
  const files = ["build.mjs", "package.json", "package-lock.json",
    ...readdirSync(join(here, "src")).filter((f) => /\.(js|ts)$/.test(f)).map((f) => `src/${f}`)].sort();
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(file + "\n");
    hash.update(readFileSync(join(here, file), "utf8").replace(/\r\n/g, "\n"));
    hash.update("\n");
  }
  return hash.digest("hex");
}

if (process.argv.includes("--hash")) {
  console.log(sourcesHash()); // what tests compare with their own computation
  process.exit(0);
}

const { build } = await import("esbuild");
await build({
  entryPoints: [join(here, "src/index.js")],
  outfile: join(here, "../static/explorer.js"),
  bundle: true,
  format: "esm",
  minify: true,
  target: "es2020",
  legalComments: "eof",
  banner: { js: `/* toollens explorer front end; sources sha256: ${sourcesHash()} */` },
  logLevel: "info",
});
await build({
  entryPoints: [join(here, "src/toolset_page.js")],
  outfile: join(here, "../../render/static/toolset_page.js"),
  bundle: true,
  format: "iife",
  minify: true,
  target: "es2020",
  legalComments: "eof",
  banner: { js: `/* toollens toolset page; sources sha256: ${sourcesHash()} */` },
  logLevel: "info",
});
