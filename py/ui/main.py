"""The page's entry point: PyScript runs this file; everything else is imported."""
import os
import sys

# pyscript.toml's [files] leaves the page's packages (icepool, segno) as zips in ./python/:
# they are imported after the first screen, straight from the zip.
sys.path += [os.path.abspath(os.path.join("python", name)) for name in sorted(os.listdir("python"))]

try:
    from ui.shell.app import start
except Exception as error:  # a broken module must still end in a plain message
    from ui.shell.boot import mark_failed

    mark_failed(error)
else:
    start()
