// Compile zips of Python sources to bytecode with Pyodide's own Python (see pyc_zip.py).
// Usage: node tools/precompile.mjs <path-prefix> <in.zip> <out.zip> [<in.zip> <out.zip> ...]
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const here = dirname(fileURLToPath(import.meta.url));
const [pathPrefix, ...pairs] = process.argv.slice(2);
if (!pathPrefix || pairs.length === 0 || pairs.length % 2) {
  console.error("usage: node tools/precompile.mjs <path-prefix> <in.zip> <out.zip> ...");
  process.exit(2);
}
// Without column ranges (PYTHONNODEBUGRANGES): a quarter fewer bytes; tracebacks keep file and line.
const pyodide = await loadPyodide({ env: { PYTHONNODEBUGRANGES: "1" } });
for (const name of ["pyc_zip.py", "shipped_source.py"]) pyodide.FS.writeFile(`/${name}`, readFileSync(join(here, name)));
pyodide.runPython("import sys; sys.path.insert(0, '/')");
const rewrite = pyodide.pyimport("pyc_zip").rewrite;
for (let index = 0; index < pairs.length; index += 2) {
  pyodide.FS.writeFile("/in.zip", readFileSync(pairs[index]));
  const keptAsSource = rewrite("/in.zip", "/out.zip", pathPrefix).toJs();
  for (const name of keptAsSource) console.log(`kept as source: ${name}`);
  writeFileSync(pairs[index + 1], pyodide.FS.readFile("/out.zip"));
}
