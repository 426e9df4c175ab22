"""The page's life cycle as seen by tests and monitoring: `data-app-state` on <html>.

"loading" is set by index.html, "ready" once Python has rendered the table,
"error" (with a plain message and Retry, never a traceback) if start-up fails.
"""
import traceback

from ui.shell.page_objects import document, is_none, window


def mark_ready():
    document.documentElement.dataset.appState = "ready"
    window.performance.mark("tableside-ready")  # the end of bench/bench_boot.py's phases


def mark_failed(error: BaseException):
    # The traceback goes to the console for developers; the player gets one sentence.
    print("".join(traceback.format_exception(error)))
    loading = document.getElementById("boot-loading")
    if not is_none(loading):
        loading.hidden = True
    document.getElementById("boot-error").hidden = False
    document.getElementById("boot-error-message").textContent = (
        "Something went wrong while setting up the table. Retry usually fixes it."
    )
    document.documentElement.dataset.appState = "error"
