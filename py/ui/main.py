"""The page's entry point: PyScript runs this file; everything else is imported."""
try:
    from ui.app import start
except Exception as error:  # a broken module must still end in a plain message
    from ui.boot_state import mark_failed

    mark_failed(error)
else:
    start()
