"""The Tension Pool over a session: its start, the 1s that feed it, and explosions.

Each multiple of 10 that Tension climbs to "explodes": the GM rolls a d6 on a
six-line Tension Table. The lines are session data the GM rewrites; these are
the app's own examples.
"""

from .dice import check_faces, is_whole_number
from .errors import RecordError
from .words import show

EXPLOSION_STEP = 10
MAX_PLAYERS = 20
MAX_TABLE_LINE = 200

DEFAULT_SETTINGS = {"ones_feed_tension": True, "tension_explodes": True}

DEFAULT_TENSION_TABLE = (
    "The lights fail: every source of light in the scene gutters out at once.",
    "Reinforcements: someone the heroes hoped to avoid arrives, and not alone.",
    "The ground gives way: the scene itself shifts, splits or starts to burn.",
    "An old debt comes due: something from a past scene returns with a grudge.",
    "A clock starts ticking: name a deadline; when it runs out, things get worse.",
    "Everything at once: the GM picks two lines above and both happen.",
)


def starting_tension(players) -> int:
    """Tension at the start of a session: one per player."""
    if not is_whole_number(players) or not 1 <= players <= MAX_PLAYERS:
        raise RecordError(f"The number of players must be a whole number from 1 to {MAX_PLAYERS}, not {show(players)}.")
    return players


def count_ones(dice) -> int:
    return sum(1 for face in dice if face == 1)


def explosions_between(start: int, end: int) -> list[int]:
    """Each multiple of 10 that Tension climbs to going from `start` up to `end` (start excluded)."""
    if not is_whole_number(start) or not is_whole_number(end) or abs(start) > 10**6 or abs(end) > 10**6:
        raise RecordError("Tension values must be whole numbers.")
    first = (start // EXPLOSION_STEP + 1) * EXPLOSION_STEP
    return list(range(first, end + 1, EXPLOSION_STEP))


def read_settings(record: dict) -> dict:
    """The record's Tension settings, with the defaults for any left out."""
    settings = record.get("settings")
    if settings is None:
        return dict(DEFAULT_SETTINGS)
    if not isinstance(settings, dict):
        raise RecordError(f"Settings must be a group of fields, not {show(settings)}.", "settings")
    read = dict(DEFAULT_SETTINGS)
    for key in DEFAULT_SETTINGS:
        value = settings.get(key)
        if value is None:
            continue
        if not isinstance(value, bool):
            raise RecordError(f"The setting {key} must be true or false, not {show(value)}.", f"settings.{key}")
        read[key] = value
    return read


def check_tension_table(lines) -> list[str]:
    """A session's Tension Table: six lines of text, one per face of a d6."""
    if not isinstance(lines, (list, tuple)):
        raise RecordError("The Tension Table must be a list of six lines.")
    if len(lines) != 6:
        raise RecordError(f"The Tension Table needs six lines, one per face of a d6; this one has {len(lines)}.")
    for number, line in enumerate(lines, start=1):
        if not isinstance(line, str) or not line.strip():
            raise RecordError(f"Line {number} of the Tension Table is empty.")
        if len(line) > MAX_TABLE_LINE:
            raise RecordError(f"Line {number} of the Tension Table is too long: {MAX_TABLE_LINE} characters at most.")
    return [line.strip() for line in lines]


def tension_table_line(roll, table=DEFAULT_TENSION_TABLE) -> str:
    """The Tension Table line for a d6 roll."""
    [face] = check_faces([roll], 1, 6, "The Tension Table roll")
    return check_tension_table(table)[face - 1]
