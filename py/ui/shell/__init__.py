"""The browser shell, the only code that uses pyscript, js or pyodide (through `page_objects`, at
call time, so that the build can import it into Python's memory snapshot): start-up and the event
loop (`app`: DOM event -> ui.core.step -> commands -> patch), DOM patching (`dom`), the command
table and the runners only a browser has (`commands`, `browser`, `channels`, `scanner`,
`scripts`, `background`), the browser's stores (`storage`), the address bar (`address`), the
first paint's snapshot (`paint_keeper`), `offline` and the page's life cycle (`boot`)."""
