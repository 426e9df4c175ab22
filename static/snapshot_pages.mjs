// Python's memory snapshot as tools/build.py ships it (snapshot_pages): only the 4 KiB pages
// that a fresh instance's memory does not already hold (most of the wasm's data, and zeros, are
// left out; page 0, with Pyodide's header, is always there), after a header [the snapshot's
// length, page size, page count] (little-endian u32) and their numbers. static/python.mjs puts
// the snapshot back together once Pyodide has instantiated its wasm (tests/build too).

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

// The snapshot whole, into `snapshot`: a fresh instance's `memory` after Pyodide's header, the
// shipped pages over it.
function fill(snapshot, { length, size, numbers, pages }, memory) {
  const header = new DataView(pages.buffer, pages.byteOffset, 8).getUint32(4, true);
  snapshot.set(new Uint8Array(memory.buffer, 0, length - header), header);
  let read = 0;
  for (const number of numbers) {
    const end = read + Math.min(size, length - number * size);
    snapshot.set(pages.subarray(read, end), number * size);
    read = end;
  }
}

// loadPyodide's options for a start from these pages: the snapshot (whole by the time Pyodide
// reads it) and a module factory that fills it in as soon as the wasm is instantiated.
export function restoring(pages, createPyodideModule) {
  const snapshot = new Uint8Array(pages.length);
  let filling = { snapshot, pages }; // let go once used: Emscripten keeps its settings for good
  return {
    _loadSnapshot: snapshot,
    createPyodideModule(settings) {
      const { instantiateWasm } = settings;
      settings.instantiateWasm = (imports, instantiated) => instantiateWasm(imports, (instance, module) => {
        try {
          fill(filling.snapshot, filling.pages, instance.exports.memory);
        } catch {
          filling.snapshot.fill(0, 0, 4); // no magic number: Pyodide refuses it, and Python starts plainly
        }
        filling = null;
        instantiated(instance, module);
      });
      return createPyodideModule(settings);
    },
  };
}
