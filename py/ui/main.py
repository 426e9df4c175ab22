"""The page's entry point: PyScript runs this file; everything else is imported."""
import lzma
import os
import sys

from js import performance  # marks for bench/bench_boot.py's phases

performance.mark("tableside-main")

# pyscript.toml's [files] writes our code as one xz stream around a zip of stored files (the
# start-up modules are bytecode, which compresses far better in one stream than file by file:
# tools/build.py): inflated here, then imported straight from the zip. Python restored from the
# build's memory snapshot (static/python.mjs, tools/snapshot.py) has the zip in place already and
# the first screen imported, ui.shell.app too. The page's packages (icepool, segno) are in the same zip,
# imported after the first screen.
if "tableside_snapshot" not in sys.modules:
    try:
        with open("py.zip.xz", "rb") as packed, open("py.zip", "wb") as unpacked:
            unpacked.write(lzma.decompress(packed.read()))
    except (OSError, lzma.LZMAError):  # damaged on the way: nothing of ours can be imported to say so
        from js import tableside

        tableside.couldNotDownload()
        raise
    sys.path.insert(0, os.path.abspath("py.zip"))
performance.mark("tableside-unpacked")

try:
    from ui.shell.app import start
except Exception as error:  # a broken module must still end in a plain message
    from ui.shell.boot import mark_failed

    mark_failed(error)
else:
    performance.mark("tableside-imported")
    start()
