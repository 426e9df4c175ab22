"""Which sheet each rule system brings to the roster (its KINDS, blank, summary, form), and
the sheet being edited as it is read back after a reload."""
from session import SYSTEMS

from ui.core import shapes
from ui.systems.anomaly import sheet as anomaly_sheet
from ui.systems.manners import sheet as manners_sheet
from ui.systems.tension import sheet as tension_sheet

SHEETS = {"tension": tension_sheet, "anomaly": anomaly_sheet, "manners": manners_sheet}


def sheet_module(system: str):
    return SHEETS[system]


def check_editing(data) -> dict:
    """A stored sheet being edited, as the editor wrote it (it may be half filled in: an empty
    name, a new blank line), or ShapeError. Its values are checked when it is saved."""
    shapes.need(isinstance(data, dict) and isinstance(data.get("entry"), dict), "no sheet being edited")
    shapes.need(set(data) <= {"entry", "is_new", "confirm_delete"}, "a sheet editor with other fields")
    entry = data["entry"]
    shapes.need(entry.get("system") in SYSTEMS and entry.get("kind") in ("character", "adversary"), "an unknown sheet")
    shapes.need(plain(entry, 0), "a sheet that is not plain numbers and names")
    return {"entry": entry, "is_new": shapes.flag(data.get("is_new", False)),
            **({"confirm_delete": shapes.flag(data["confirm_delete"])} if "confirm_delete" in data else {})}


def plain(value, depth: int) -> bool:
    """Only texts, whole numbers, true/false, and lists and groups of them, a few levels deep."""
    if isinstance(value, (str, bool)) or value is None:
        return not isinstance(value, str) or len(value) <= 200
    if isinstance(value, int):
        return abs(value) <= 10**6
    if depth >= 4:
        return False
    if isinstance(value, list):
        return len(value) <= 60 and all(plain(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return len(value) <= 30 and all(isinstance(key, str) and plain(item, depth + 1) for key, item in value.items())
    return False
