// The app shell before Python can speak for itself: starts the big downloads,
// shows PyScript's loading progress and, if loading fails, a plain message with a
// Retry button (data-app-state="error"). Python sets data-app-state="ready".
// A classic script, first in <head>, so its downloads are known at once and its
// listeners exist before anything can fail; it touches the DOM only once the
// shell is parsed.
(() => {
  const root = document.documentElement;
  const stillLoading = () => root.dataset.appState === "loading";
  const byId = (id) => document.getElementById(id);

  // PyScript reports its steps as py:progress events; the wording the user sees.
  const STEPS = {
    "Loading Pyodide": "Downloading Python…",
    "Loading Storage": "Downloading Python…",
    "Loading interpreter": "Starting Python…",
    "Loaded interpreter": "Unpacking the rules…",
    "Loaded Pyodide": "Setting the table…",
  };
  const ORDER = Object.keys(STEPS);
  // Pyodide waits forever (with only a console warning) when its wasm cannot be
  // compiled; give up after this long without any sign of progress.
  const STALL_MS = 90_000;

  const COULD_NOT_DOWNLOAD = "A file the app needs could not be downloaded. Check the connection and retry.";
  const COULD_NOT_START = "Python could not be started on this device. Retry, or try another browser.";

  let failure = null;
  let stallTimer = 0;

  function showFailure() { // once the shell is parsed: the wasm's compile can fail before that
    if (!failure || document.readyState === "loading") return;
    const loading = byId("boot-loading"); // gone when regions.js painted the last table
    if (loading) loading.hidden = true;
    byId("boot-error").hidden = false;
    byId("boot-error-message").textContent = failure;
  }

  function fail(reason) {
    if (!stillLoading()) return;
    failure = reason;
    root.dataset.appState = "error";
    console.error("Tableside failed to start:", reason);
    showFailure();
  }

  function expectProgress() {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(() => fail("Loading stopped before the app was ready. Check the connection and retry."), STALL_MS);
  }

  addEventListener("py:progress", ({ detail }) => {
    performance.mark(`py:${detail}`); // bench/bench_boot.py's phases
    expectProgress();
    if (!(detail in STEPS) || !stillLoading() || !byId("boot-message")) return;
    byId("boot-message").textContent = STEPS[detail];
    byId("boot-progress").value = Math.round(((ORDER.indexOf(detail) + 1) / (ORDER.length + 1)) * 100);
  });

  // Every file Pyodide and PyScript fetch() at start-up (the stdlib, the config, the Python
  // zips: data-fetch-early, written by tools/build.py) downloads early, once: their first
  // fetch() of it is answered with this download.
  // <link rel=preload as=fetch> would do the same in Chromium and Firefox, but WebKit's
  // fetch() never reuses a preload and downloads the file again.
  // The wasm (data-compile-early) is compiled as it downloads, on the engine's own threads while
  // the page and PyScript load. Python's memory snapshot (data-snapshot; sw.js keeps it inflated)
  // is read when a service worker controls the page (it has every file cached): on a first visit
  // its download would only delay the first start. static/python.mjs takes both
  // (tableside.compiled(), tableside.snapshot()) and starts Python without a snapshot that
  // is not there, is not this build's (data-snapshot-bytes long) or is refused.
  // The wasm's fetch and compile begin as this script runs, except in Chromium (below):
  // WebKit and Firefox wait for that compile longest. The other downloads begin once the first frame is drawn
  // (static/regions.js calls tableside.startDownloads() then; DOMContentLoaded if no frame
  // came first, e.g. in a hidden tab): each fetch() costs the main thread 3-4 ms (4x that on
  // a mid-range phone), which would hold back the first frame of a warm start, the last
  // table. PyScript starts only after the whole document, so nothing waits for them on a
  // warm start, and on a first visit that frame comes a moment after this script.
  const early = new Map();
  const networkFetch = window.fetch.bind(window);
  const script = document.currentScript.dataset;
  const urls = (list = "") => list.split(/\s+/).filter(Boolean).map((href) => new URL(href, document.baseURI).href);
  const waiting = new Set(urls(script.fetchEarly));
  const [wasm] = urls(script.compileEarly);
  const [snapshotURL] = urls(script.snapshot);
  let compiled = null;
  let snapshot = null; // until static/python.mjs takes it
  let snapshotRead = false;
  let snapshotTaken = false;

  function download(url) {
    const response = networkFetch(url, { credentials: "same-origin" });
    response.then((answer) => answer.ok || fail(COULD_NOT_DOWNLOAD), () => fail(COULD_NOT_DOWNLOAD));
    return response;
  }

  function marked(promise, start, end) { // bench/bench_boot.py's phases
    performance.mark(start);
    promise.then(() => performance.mark(end), () => {});
    return promise;
  }

  // Read from the worker's cache itself, not through the worker (three times as fast in
  // WebKit and Firefox), as sw.js keeps it: inflated (static/snapshot_pages.mjs says the rest).
  async function readSnapshot() {
    const packed = await (await caches.match(snapshotURL))?.arrayBuffer();
    if (!packed) throw new Error(`${snapshotURL} is not cached`);
    return { packed, length: Number(script.snapshotBytes) };
  }

  // A start from the snapshot that failed after it was taken (Python's start, our imports)
  // leaves this note: the next starts of this version start Python plainly.
  const SNAPSHOT_FAILED = "tableside.python-snapshot-failed";
  const snapshotFailed = () => {
    try {
      return localStorage.getItem(SNAPSHOT_FAILED) === snapshotURL;
    } catch {
      return false;
    }
  };
  new MutationObserver(() => {
    if (root.dataset.appState !== "error" || !snapshotTaken) return;
    try {
      localStorage.setItem(SNAPSHOT_FAILED, snapshotURL);
    } catch {
      // storage refused: the next start tries the snapshot again
    }
  }).observe(root, { attributes: true, attributeFilter: ["data-app-state"] });

  function startCompile() {
    if (!wasm || compiled) return;
    compiled = marked(WebAssembly.compileStreaming(download(wasm)), "tableside-wasm-compiling",
                      "tableside-wasm-compiled");
    compiled.catch(() => fail(COULD_NOT_START));
  }

  function startDownloads() {
    startCompile(); // begun already, as this script ran
    for (const url of waiting) early.set(url, download(url));
    waiting.clear();
    if (snapshotURL && !snapshotRead && navigator.serviceWorker?.controller && !snapshotFailed()) {
      snapshotRead = true;
      snapshot = marked(readSnapshot(), "tableside-snapshot-reading", "tableside-snapshot-read");
      snapshot.catch(() => {}); // static/python.mjs starts Python without it
    }
  }
  const takeSnapshot = () => { // once: the page would otherwise keep its 12 MB
    const taken = snapshot;
    snapshotTaken = Boolean(taken);
    snapshot = null;
    return taken;
  };
  // py/ui/main.py calls this when our code arrived damaged (it cannot be unpacked).
  const couldNotDownload = () => fail(COULD_NOT_DOWNLOAD);
  window.tableside = {
    ...window.tableside, startDownloads, couldNotDownload, compiled: () => compiled, snapshot: takeSnapshot,
  };
  // The wasm's compile is what WebKit and Firefox wait for longest (they keep no compiled
  // code between starts): there it begins now, one fetch() before the first frame. Chromium
  // reads its compiled code from its cache: begun this early there, the first frame at 4x CPU
  // came later in bench-boot (median 0.43 against 0.33 s) and Python was ready no sooner,
  // so Chromium waits for that frame. navigator.userAgentData is Chromium's alone.
  if (!("userAgentData" in navigator)) startCompile();

  // Only a plain GET can take the early download (its credentials are the default ones).
  const plain = (options) => !options || Object.entries(options).every(
    ([key, value]) => (key === "credentials" && value === "same-origin") || (key === "method" && value === "GET"));
  window.fetch = (resource, options) => {
    const url = typeof resource === "string" || resource instanceof URL
      ? new URL(resource, document.baseURI).href : null;
    waiting.delete(url); // asked for before its early download began: fetched once, here
    const download = early.get(url);
    if (download && plain(options)) {
      early.delete(url); // a response is read once; any later fetch goes to the network
      return download;
    }
    return networkFetch(resource, options);
  };

  // A module or early download that cannot be fetched means Python will never start.
  addEventListener("error", (event) => {
    const element = event.target;
    if (element instanceof HTMLLinkElement || element instanceof HTMLScriptElement) {
      fail(COULD_NOT_DOWNLOAD);
    }
  }, true);
  addEventListener("unhandledrejection", () => fail(COULD_NOT_START));

  document.addEventListener("DOMContentLoaded", () => {
    startDownloads(); // if no frame came first (nothing twice: they begin once)
    expectProgress();
    showFailure();
    byId("boot-retry").addEventListener("click", () => location.reload());
  });
})();
