"""Start-up: render the table into #app, wire events, then mark the page ready."""
from pyscript import document

from ui import boot_state


def start():
    try:
        document.getElementById("app").innerHTML = "<p>Python is here.</p>"
        boot_state.mark_ready()
    except Exception as error:
        boot_state.mark_failed(error)
