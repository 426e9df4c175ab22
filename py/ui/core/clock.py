"""The time a conflict is logged (or a session backed up), as local ISO text (the
browser's clock under Pyodide), and shown short: “1 Jun, 20:14”."""
from datetime import datetime

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def now_text() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


def short_text(at: str) -> str | None:
    """“1 Jun, 20:14”, or None when `at` is not a time."""
    try:
        moment = datetime.fromisoformat(at)
    except (TypeError, ValueError):
        return None
    return f"{moment.day} {MONTHS[moment.month - 1]}, {moment:%H:%M}"
