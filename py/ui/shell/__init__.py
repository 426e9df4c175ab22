"""The browser shell: start-up, the event loop, DOM patching, storage, links in the
address bar, browser effects, offline and the page's life cycle.
The only code that imports pyscript, js or pyodide; it may import everything in ui."""
