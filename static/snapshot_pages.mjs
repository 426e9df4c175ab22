// Python's memory snapshot as tools/build.py ships it (snapshot_pages): only the 4 KiB pages
// that a fresh instance's memory does not already hold (most of the wasm's data, and zeros, are
// left out; page 0, with Pyodide's header, is always there), after a header [the snapshot's
// length, page size, page count] (little-endian u32) and their numbers. static/python.mjs writes
// them into Pyodide's memory as Pyodide restores the snapshot (tests/build too).

// The shipped pages, checked: an error unless they make a snapshot of `length` bytes.
export function pagesOf(packed, length) {
  const [total, size, count] = new Uint32Array(packed, 0, 3);
  const numbers = new Uint32Array(packed, 12, count);
  const pages = new Uint8Array(packed, 12 + 4 * count);
  let expected = 0;
  let previous = -1;
  for (const number of numbers) {
    if (number <= previous || number * size >= total) throw new Error("Python's snapshot has a page out of place");
    expected += Math.min(size, total - number * size);
    previous = number;
  }
  if (total !== length || numbers[0] !== 0 || expected !== pages.length) {
    throw new Error("Python's snapshot is not this build's");
  }
  return { length, size, numbers, pages };
}

// The shipped pages written into Pyodide's memory: each page's part past Pyodide's header (the
// first `header` bytes of the snapshot) at its place in the memory.
function write({ length, size, numbers, pages }, header, memory) {
  if (memory.length < length - header) throw new Error("Python's snapshot is larger than this wasm's memory");
  let read = 0;
  for (const number of numbers) {
    const start = number * size;
    const end = read + Math.min(size, length - start);
    const skipped = Math.max(0, header - start); // Pyodide's header, not memory
    memory.set(pages.subarray(read + skipped, end), start + skipped - header);
    read = end;
  }
}

// Emscripten lays the wasm's memory out as its data, then the stack (growing down from
// __stack_high), then the heap malloc takes from __heap_base; the wasm has no start function, so
// as instantiated the memory is that data and zeros (tests/build/test_snapshot.py). A start writes
// into it before Pyodide restores the snapshot: C's constructors, in the data, on the stack's top
// and on the heap's first 6 KiB (the same 13 pages in each engine, tests/browser/
// test_restored_memory.py). A page not shipped is the snapshot's only as instantiated, so wherever
// the start can have written is put back: the data from a copy taken at instantiation, the stack's
// top and the heap handed out as zeros (3-8 ms; the untouched memory is left alone).
const STACK_TOP = 64 * 1024; // put back; the 64 KiB under it must still be zeros
const WASM_PAGE = 64 * 1024;

// The fresh instance's data, and where its stack and heap are: an error unless Emscripten says.
function layoutOf(exports) {
  const [stackLow, stackHigh, heapBase] = ["__stack_low", "__stack_high", "__heap_base"].map((name) => exports[name]?.value);
  if (!(0 < stackLow && stackLow + 2 * STACK_TOP <= stackHigh && stackHigh <= heapBase)
      || typeof exports.__stack_pointer?.value !== "number"
      || typeof exports.emscripten_get_sbrk_ptr !== "function" || typeof exports.malloc_max_footprint !== "function") {
    throw new Error("Python's memory is not laid out as its snapshot expects");
  }
  const data = new Uint8Array(exports.memory.buffer, 0, stackLow).slice();
  return { data, stackHigh, heapBase, exports };
}

// The memory as instantiated wherever a start can have written before the restore: the data; the
// stack's top; the heap up to the highest malloc ever took it. A stack that went deeper than its
// top (or is not back up) puts the whole memory back instead, as copying the snapshot whole would.
function reset({ data, stackHigh, heapBase, exports }, memory, end) {
  const words = new Int32Array(memory.buffer);
  const heapTop = Math.max(words[exports.emscripten_get_sbrk_ptr() >> 2], heapBase + exports.malloc_max_footprint());
  let deeper = exports.__stack_pointer.value !== stackHigh ? 1 : 0;
  for (let word = (stackHigh - 2 * STACK_TOP) >> 2; word < (stackHigh - STACK_TOP) >> 2; word++) deeper |= words[word];
  memory.set(data, 0);
  if (deeper) {
    console.warn("Python's start went deeper into its stack than its snapshot expects: its whole memory is put back.");
    memory.fill(0, data.length, end);
  } else {
    memory.fill(0, stackHigh - STACK_TOP, Math.min(end, Math.ceil(heapTop / WASM_PAGE) * WASM_PAGE));
  }
}

// loadPyodide's options for a start from these pages. Pyodide gets only the snapshot's header
// (it checks the magic number and the build, reads the config and copies nothing), and the
// memory becomes the snapshot as Pyodide restores it: what the start wrote put back (reset), then
// the shipped pages written in. No 31 MB snapshot is put together, nor copied into the memory.
export function restoring(pages, createPyodideModule) {
  const header = new DataView(pages.pages.buffer, pages.pages.byteOffset, 8).getUint32(4, true);
  if (header > Math.min(pages.size, pages.length) || header % 4) throw new Error("Python's snapshot has no header");
  let layout = null;
  return {
    _loadSnapshot: pages.pages.slice(0, header),
    createPyodideModule(settings) {
      const { instantiateWasm } = settings;
      settings.instantiateWasm = (imports, instantiated) => instantiateWasm(imports, (instance, module) => {
        try {
          layout = layoutOf(instance.exports); // before any of the wasm's code runs
        } catch (error) {
          layout = error; // Pyodide's restore refuses, below: Python starts plainly
        }
        instantiated(instance, module);
      });
      return createPyodideModule(settings).then((module) => {
        const { API } = module;
        const { restoreSnapshot } = API;
        API.restoreSnapshot = (snapshot) => {
          API.restoreSnapshot = restoreSnapshot;
          if (!layout || layout instanceof Error) throw layout ?? new Error("Python's wasm was not instantiated");
          const config = restoreSnapshot(snapshot);
          const check = globalThis.tablesideRestoring; // tests only (tests/browser/test_restored_memory.py)
          check?.("started", module.HEAPU8);
          reset(layout, module.HEAPU8, pages.length - header);
          layout = null;
          write(pages, header, module.HEAPU8);
          check?.("restored", module.HEAPU8);
          return config;
        };
        return module;
      });
    },
  };
}
