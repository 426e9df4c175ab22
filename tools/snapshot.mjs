// Python's memory after start-up and the first screen's imports, saved at build time with
// Pyodide's memory snapshot (experimental: loadPyodide's _makeSnapshot, makeMemorySnapshot;
// static/python.mjs restores it with _loadSnapshot), and the memory of a fresh instance of the
// wasm, before Python starts (tools/build.py ships only the snapshot's pages that differ from it).
// Usage: node tools/snapshot.mjs <pyodide folder> <@pyscript/core folder> <our code: py.zip>
//        <modules.json: ours to import> <snapshot out> <fresh memory out>
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [folder, pyscript, bundle, modules, out, freshOut] = process.argv.slice(2);
if (!freshOut) {
  console.error("usage: node tools/snapshot.mjs <pyodide folder> <@pyscript/core> <py.zip> <modules.json> <out> <fresh out>");
  process.exit(2);
}
// The page's own Pyodide (the same build id), its stdlib and the options PyScript passes.
const { loadPyodide } = await import(pathToFileURL(join(folder, "pyodide.mjs")).href);
const { default: createPyodideModule } = await import(pathToFileURL(join(folder, "pyodide.asm.mjs")).href);
let fresh = null;
const pyodide = await loadPyodide({
  indexURL: `${folder}/`, _makeSnapshot: true,
  createPyodideModule(settings) { // the memory as instantiating the wasm leaves it
    const { instantiateWasm } = settings;
    settings.instantiateWasm = (imports, instantiated) => instantiateWasm(imports, (instance, module) => {
      fresh = new Uint8Array(instance.exports.memory.buffer).slice();
      instantiated(instance, module);
    });
    return createPyodideModule(settings);
  },
});
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
writeFileSync(freshOut, fresh);
