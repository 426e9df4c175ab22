// Python's memory after start-up and the first screen's imports, saved at build time with
// Pyodide's memory snapshot (experimental: loadPyodide's _makeSnapshot, makeMemorySnapshot;
// static/python.mjs restores it with _loadSnapshot); tools/build.py ships it.
// Usage: node tools/snapshot.mjs <pyodide folder> <@pyscript/core folder> <our code: py.zip>
//        <modules.json: ours to import> <out>
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [folder, pyscript, bundle, modules, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node tools/snapshot.mjs <pyodide folder> <@pyscript/core> <py.zip> <modules.json> <out>");
  process.exit(2);
}
// The page's own Pyodide (the same build id), its stdlib and the options PyScript passes.
const { loadPyodide } = await import(pathToFileURL(join(folder, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: `${folder}/`, _makeSnapshot: true });
// PyScript's own Python package, as its core writes it into the page's Python on every start.
const { default: tree } = await import(pathToFileURL(join(pyscript, "src", "stdlib", "pyscript.js")).href);
const files = (folder, entries) => Object.entries(entries).flatMap(([name, value]) =>
  typeof value === "string" ? [[folder + name, value]] : files(`${folder}${name}/`, value));
pyodide.FS.writeFile("/home/pyodide/py.zip", readFileSync(bundle));
pyodide.globals.set("source", readFileSync(join(here, "snapshot.py"), "utf8"));
pyodide.globals.set("arguments", JSON.stringify([readFileSync(modules, "utf8"), Object.fromEntries(files("", tree))]));
pyodide.runPython(`
import json, sys, types
module = types.ModuleType("tableside_snapshot")
exec(compile(source, "tools/snapshot.py", "exec"), module.__dict__)
sys.modules["tableside_snapshot"] = module
modules, pyscript = json.loads(arguments)
module.prepare(json.loads(modules), pyscript)
del json, types, module, source, arguments, modules, pyscript
`);
writeFileSync(out, pyodide.makeMemorySnapshot());
