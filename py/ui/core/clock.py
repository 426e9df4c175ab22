"""The time a conflict is logged, as local ISO text (the browser's clock under Pyodide)."""
from datetime import datetime


def now_text() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")
