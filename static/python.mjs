// The interpreter PyScript starts (pyscript.toml's `interpreter`): Pyodide's loadPyodide, with
// performance marks at the steps PyScript's progress events do not show (bench/bench_boot.py).
// tools/build.py writes the hashed Pyodide folder in place of the one below.
import * as pyodide from "../vendor/pyodide/pyodide.mjs";

export const version = pyodide.version;
const PYODIDE_FOLDER = new URL("../vendor/pyodide/", import.meta.url).href;

// Pyodide compiles and instantiates its wasm in one WebAssembly.instantiateStreaming call: the
// same two steps taken one after the other, for a mark between them, for that one call.
function markingWasmSteps() {
  const { instantiateStreaming } = WebAssembly;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    WebAssembly.instantiateStreaming = instantiateStreaming;
    performance.mark("tableside-wasm-compiling");
    const module = await WebAssembly.compileStreaming(source);
    performance.mark("tableside-wasm-compiled");
    const instance = await WebAssembly.instantiate(module, imports);
    performance.mark("tableside-wasm-instantiated");
    return { module, instance };
  };
}

export async function loadPyodide(options) {
  markingWasmSteps();
  return pyodide.loadPyodide({ ...options, indexURL: PYODIDE_FOLDER });
}
