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
// [entry, bundle, format, banner]: the widget's ESM and the static page's classic script.
const bundles = [
  ["src/index.js", "../static/explorer.js", "esm", "toollens explorer front end"],
  ["src/toolset_page.js", "../../render/static/toolset_page.js", "iife", "toollens toolset page"],
];
for (const [entry, outfile, format, banner] of bundles) {
  await build({
    entryPoints: [join(here, entry)],
    outfile: join(here, outfile),
    bundle: true,
    format,
    minify: true,
    target: "es2020",
    legalComments: "eof",
    banner: { js: `/* ${banner}; sources sha256: ${sourcesHash()} */` },
    logLevel: "info",
  });
}
