// The interpreter PyScript starts (pyscript.toml's `interpreter`): Pyodide's loadPyodide, from
// the memory snapshot the build made (tools/snapshot.mjs, an experimental Pyodide API: Python
// started, and the first screen's modules imported, all but PyScript's own) when static/boot.js could read it
// from the service worker's cache, else as a plain start. A snapshot that cannot be used (damaged,
// of another build, refused by the engine) is reported on the console and Python starts plainly.
// tools/build.py writes the hashed Pyodide folder in place of the one below.
import * as pyodide from "../vendor/pyodide/pyodide.mjs";
import createPyodideModule from "../vendor/pyodide/pyodide.asm.mjs";
import { pagesOf, restoring } from "./snapshot_pages.mjs";

// Python runs on the page's own stack, not on stacks of its own (JSPI, WebAssembly.Suspending),
// which Pyodide uses wherever an engine offers them. Nothing here needs them (no run_sync;
// WebKit offers none and runs every test without), and on them Chromium's frame-pointer walk (its
// sampling heap profiler, V8's fatal-error printer) reads past the stack's end and segfaults the
// renderer: the "Target crashed" of our test runs. Pyodide decides when it starts, below.
delete WebAssembly.Suspending;
delete WebAssembly.promising;

export const version = pyodide.version;
const PYODIDE_FOLDER = new URL("../vendor/pyodide/", import.meta.url).href;
const WASM = new URL("pyodide.asm.wasm", PYODIDE_FOLDER).href;

// static/boot.js compiled the wasm while the page loaded. Pyodide fetches it, then compiles and
// instantiates it in one WebAssembly.instantiateStreaming call: that fetch is answered with
// nothing and that call only instantiates. Both globals are themselves again after their one call.
function instantiatingCompiledWasm(compiled) {
  const { fetch } = window;
  const { instantiateStreaming } = WebAssembly;
  window.fetch = (resource, options) => {
    if (String(resource) !== WASM) return fetch(resource, options);
    window.fetch = fetch;
    return Promise.resolve(new Response()); // never read
  };
  WebAssembly.instantiateStreaming = async (_, imports) => {
    WebAssembly.instantiateStreaming = instantiateStreaming;
    const module = await compiled;
    const instance = await WebAssembly.instantiate(module, imports);
    performance.mark("tableside-wasm-instantiated"); // bench/bench_boot.py's phases
    return { module, instance };
  };
}

// read: static/boot.js's read of the snapshot's pages ({packed, length}). Pyodide waits for the
// snapshot only after it has fetched what it needs.
async function restore(options, read) {
  let start = null;
  const snapshot = read.then(({ packed, length }) => {
    start = restoring(pagesOf(packed, length), createPyodideModule);
    return start._loadSnapshot;
  });
  snapshot.catch(() => {}); // Pyodide awaits it a moment later: not "unhandled" before then
  const python = await pyodide.loadPyodide({
    ...options, _loadSnapshot: snapshot,
    // The mark: Emscripten's runtime is set up (bench/boot_phases.py's "runtime set-up": in a
    // start from the snapshot, Emscripten linking the wasm's 8,560 exports into the function table
    // and wrapping the 259 JavaScript functions taken by address; no other wasm is loaded).
    createPyodideModule: (settings) => start.createPyodideModule(settings)
      .then((module) => (performance.mark("tableside-runtime-ready"), module)),
  });
  performance.mark("tableside-memory-restored"); // the snapshot in memory, Pyodide's API set up
  start = null; // Pyodide keeps its options: not the snapshot's 12 MB of pages
  delete python._api.config._loadSnapshot;
  const fresh = python.pyimport("tableside_snapshot");
  fresh.restored();
  fresh.destroy();
  performance.mark("tableside-snapshot-restored"); // Python came from the snapshot (tests, bench)
  return python;
}

export async function loadPyodide(options) {
  const plain = { ...options, indexURL: PYODIDE_FOLDER, createPyodideModule };
  const compiled = window.tableside?.compiled();
  const snapshot = window.tableside?.snapshot();
  if (compiled) instantiatingCompiledWasm(compiled);
  if (snapshot) {
    try {
      return await restore(plain, snapshot);
    } catch (error) {
      console.warn("Python could not start from its snapshot; starting it afresh.", error);
      if (compiled) instantiatingCompiledWasm(compiled);
    }
  }
  return pyodide.loadPyodide(plain);
}
