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

// loadPyodide's options for a start from these pages. Pyodide gets only the snapshot's header
// (it checks the magic number and the build, reads the config and copies nothing), and the
// shipped pages go into the instance's memory itself as Pyodide restores the snapshot: the other
// pages are the fresh instance's own (tools/build.py ships every page a start writes before then).
// No 31 MB snapshot is put together, nor copied into the memory.
export function restoring(pages, createPyodideModule) {
  const header = new DataView(pages.pages.buffer, pages.pages.byteOffset, 8).getUint32(4, true);
  if (header > Math.min(pages.size, pages.length) || header % 4) throw new Error("Python's snapshot has no header");
  return {
    _loadSnapshot: pages.pages.slice(0, header),
    createPyodideModule: (settings) => createPyodideModule(settings).then((module) => {
      const { API } = module;
      const { restoreSnapshot } = API;
      API.restoreSnapshot = (snapshot) => {
        API.restoreSnapshot = restoreSnapshot;
        const config = restoreSnapshot(snapshot);
        write(pages, header, module.HEAPU8);
        return config;
      };
      return module;
    }),
  };
}
