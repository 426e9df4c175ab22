// Boot status of the app shell, before Python can speak for itself: shows
// PyScript's loading progress and, if loading fails, a plain message with a
// Retry button (data-app-state="error"). Python sets data-app-state="ready".
// A classic script, first in <head>, so its listeners exist before any preload
// can fail; it touches the DOM only once the shell is parsed.
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

  let failure = null;
  let stallTimer = 0;

  function showFailure() {
    if (!failure || !byId("boot-error")) return;
    byId("boot-loading").hidden = true;
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
    expectProgress();
    if (!(detail in STEPS) || !stillLoading()) return;
    byId("boot-message").textContent = STEPS[detail];
    byId("boot-progress").value = Math.round(((ORDER.indexOf(detail) + 1) / (ORDER.length + 1)) * 100);
  });

  // A preload or module that cannot be fetched means Python will never start.
  addEventListener("error", (event) => {
    const element = event.target;
    if (element instanceof HTMLLinkElement || element instanceof HTMLScriptElement) {
      fail("A file the app needs could not be downloaded. Check the connection and retry.");
    }
  }, true);
  addEventListener("unhandledrejection", () => {
    fail("Python could not be started on this device. Retry, or try another browser.");
  });

  document.addEventListener("DOMContentLoaded", () => {
    expectProgress();
    showFailure();
    byId("boot-retry").addEventListener("click", () => location.reload());
  });
})();
