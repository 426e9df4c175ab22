"""The browser shell: start-up, the event loop (DOM event -> ui.core.step -> effects ->
patch), DOM patching, the browser's stores, links in the address bar, the browser's
effects, the first paint's snapshot, offline and the page's life cycle.
The only code that imports pyscript, js or pyodide; it may import everything in ui."""
