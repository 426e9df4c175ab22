"""The memory a start from the snapshot restores is the snapshot, byte for byte, in each engine.

static/snapshot_pages.mjs writes only the shipped pages into the wasm's memory and leaves the rest
as the fresh instance has it; what the start itself wrote before the restore it puts back (the
wasm's data, the stack's top, the heap handed out). Through the test-only hook
(globalThis.tablesideRestoring, set by an init script) the memory is hashed at the restore and
compared with the SHA-256 of the snapshot whole that tools/build.py kept (build/, not shipped), and
the pages the start wrote before the restore are listed against the regions put back. Pages
written before the restore on purpose show that the regions are put back, that a stack deeper than
expected puts the whole memory back, and that a page left out or written where nothing is put back
is caught."""
import base64
import gzip
import json
import struct

from conftest import DIST
from test_engines import first_visit, wait_until_controlled

BUILD = DIST.parent / "build"
RESTORED = "performance.getEntriesByName('tableside-snapshot-restored').length"
PUT_BACK = "its whole memory is put back"

# At instantiation: a copy of the fresh memory. At the restore ("started"): the pages the start
# wrote since, then the writes localStorage's `restoring.writes` asks for (a start that wrote
# more); once restored: the SHA-256 of Pyodide's header and the memory, i.e. of the snapshot whole.
HOOK = """(() => {
  const [HEADER, LENGTH] = [Uint8Array.from(atob("%s"), (c) => c.charCodeAt(0)), %d];
  const PAGE = 4096;
  const probe = window.tablesideProbe = {};
  const { instantiate } = WebAssembly;
  WebAssembly.instantiate = async function (...args) {
    const result = await instantiate.apply(WebAssembly, args);
    const { exports } = result instanceof WebAssembly.Instance ? result : result.instance;
    if (exports.__stack_high) {
      probe.fresh = new Uint8Array(exports.memory.buffer).slice();
      probe.layout = Object.fromEntries(["__stack_low", "__stack_high", "__heap_base"].map((name) => [name, exports[name].value]));
      probe.heapTop = () => new Int32Array(exports.memory.buffer)[exports.emscripten_get_sbrk_ptr() >> 2];
    }
    return result;
  };
  window.tablesideRestoring = (moment, memory) => {
    if (moment === "started") {
      probe.written = [];
      for (let page = 0; page * PAGE < memory.length; page++) {
        const now = new Int32Array(memory.buffer, page * PAGE, PAGE / 4), then = new Int32Array(probe.fresh.buffer, page * PAGE, PAGE / 4);
        for (let word = 0; word < PAGE / 4; word++) if (now[word] !== then[word]) { probe.written.push(page); break; }
      }
      probe.heapTopAtRestore = probe.heapTop();
      probe.fresh = null;
      for (const [address, value] of JSON.parse(localStorage.getItem("restoring.writes") || "[]")) memory[address] ^= value;
      return;
    }
    const whole = new Uint8Array(LENGTH);
    whole.set(HEADER);
    whole.set(memory.subarray(0, LENGTH - HEADER.length), HEADER.length);
    probe.digest = crypto.subtle.digest("SHA-256", whole)
      .then((digest) => [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join(""));
  };
})();"""

# The shipped snapshot in the worker's cache, without the page numbered input.
DROP_CACHED_PAGE = """const [name] = (await caches.keys()).filter((key) => key.startsWith("tableside-"));
const cache = await caches.open(name);
const href = new URL(document.querySelector("script[data-snapshot]").dataset.snapshot, document.baseURI).href;
const packed = new Uint8Array(await (await cache.match(href)).arrayBuffer());
const [length, size, count] = new Uint32Array(packed.buffer, 0, 3);
const numbers = [...new Uint32Array(packed.buffer, 12, count)];
const index = numbers.indexOf(input);
const pages = 12 + 4 * count;
const kept = new Uint8Array(packed.length - 4 - size);
new DataView(kept.buffer).setUint32(0, length, true);
new DataView(kept.buffer).setUint32(4, size, true);
new DataView(kept.buffer).setUint32(8, count - 1, true);
new Uint32Array(kept.buffer, 12, count - 1).set(numbers.filter((number) => number !== input));
kept.set(packed.subarray(pages, pages + index * size), 12 + 4 * (count - 1));
kept.set(packed.subarray(pages + (index + 1) * size), 12 + 4 * (count - 1) + index * size);
await cache.put(href, new Response(kept));"""


def shipped():
    """The shipped snapshot's page numbers, the snapshot's length and Pyodide's header (its first
    bytes), and the SHA-256 of the snapshot whole."""
    [snapshot] = DIST.glob("app/python-*.snapshot.gz")
    packed = gzip.decompress(snapshot.read_bytes())
    length, _, count = struct.unpack_from("<3I", packed)
    numbers = struct.unpack_from(f"<{count}I", packed, 12)
    first = 12 + 4 * count
    header = packed[first:first + struct.unpack_from("<I", packed, first + 4)[0]]
    return set(numbers), length, header, (BUILD / f"{snapshot.name}.sha256").read_text().strip()


def restart(page, site, writes=()) -> dict:
    """A start from the snapshot (the app opened again in a new tab; a reload right after a start
    is test_engines.py's) that flips the bits `writes` asks ([address, bits]) before the restore,
    as if it had written there; what the hook saw."""
    page.evaluate("localStorage.setItem('restoring.writes', JSON.stringify(input));", list(writes))
    page.new_tab()
    page.goto(site.url)
    page.wait_until_ready()
    assert page.evaluate(f"return {RESTORED};") == 1
    return page.evaluate("const { digest, written, layout, heapTopAtRestore } = window.tablesideProbe;"
                         "return { digest: await digest, written, layout, heapTopAtRestore };")


def put_back_warnings(page) -> list[str]:
    return [message["text"] for message in page.console() if PUT_BACK in message["text"]]


def test_the_restored_memory_is_the_snapshot_byte_for_byte(engine_page, engine_site):
    page = engine_page
    numbers, length, header, digest = shipped()
    memory_page = lambda number: number * 4096 - len(header)  # noqa: E731 (a snapshot page's place in the memory)
    first_visit(page, engine_site)
    wait_until_controlled(page)
    page.add_init_script(HOOK % (base64.b64encode(header).decode(), length))

    start = restart(page, engine_site)
    assert start["digest"] == digest
    layout = start["layout"]
    stack_top = layout["__stack_high"] - 64 * 1024
    put_back = lambda address: address < layout["__stack_low"] or stack_top <= address < start["heapTopAtRestore"]  # noqa: E731
    written = start["written"]
    print(f"{page.engine}: the memory's pages written before the restore {json.dumps(written)} (not under shipped "
          f"pages: {[p for p in written if not {p, p + 1} <= numbers]}), layout {layout}, heap top {start['heapTopAtRestore']}")
    assert written and all(put_back(number * 4096) and put_back(number * 4096 + 4095) for number in written)
    assert put_back_warnings(page) == []

    # Written before the restore where a start writes, on pages not shipped (snapshot pages, placed
    # in the memory): the wasm's data, the stack's top. Put back: the snapshot still.
    data = next(number for number in range(100, 900) if number not in numbers)
    stack = next(number for number in range(stack_top // 4096 + 1, layout["__stack_high"] // 4096) if number not in numbers)
    assert restart(page, engine_site, [[memory_page(data) + 100, 0xA5], [memory_page(stack) + 100, 0xA5]])["digest"] == digest
    assert put_back_warnings(page) == []
    # On the stack under its top: the whole memory is put back, and is the snapshot.
    assert restart(page, engine_site, [[stack_top - 1000, 0xA5]])["digest"] == digest
    assert put_back_warnings(page)

    # What the check catches: a page written where nothing is put back (past the heap's top) ...
    last = max(number for number in range(7000, 7600) if number not in numbers)
    assert restart(page, engine_site, [[memory_page(last) + 100, 0xA5]])["digest"] != digest
    # ... and a shipped page left out (the lowest of the stack's, under the stack pointer: unused).
    lowest_stack_page = min(number for number in numbers if memory_page(number) >= layout["__stack_low"])
    page.evaluate(DROP_CACHED_PAGE, lowest_stack_page)
    assert restart(page, engine_site)["digest"] != digest
