"""Merging what another phone sent, closed: the result is what the next start loads, or nothing.

Each link, roll and message is checked alone when it is read (session.links.v2), but two valid
replicas can join into one that is not (devices, roster entries, undo marks past their limits,
a sheet turned into another system's). So every merge path (a session link's preview and update,
a roll added, a live table's messages) merges with `merge_checked`: the merged head goes through
the very check the next start runs on it (replica_check.check_replica, which
session.on_device.heads.parse_head runs on the stored head: here on the head in memory, not
written out and read back, which only text can get wrong), and when it would fail the merge is
refused with one sentence naming what it would break. Nothing is changed then.
"""
from __future__ import annotations

from rules.words import isolate

from .errors import Overfull, SessionError
from .inert import sift
from .logbook import Merged, merge_in
from .model import SYSTEMS
from .replica import Replica
from .replica_check import check_replica

REFUSED = "This link can't be merged:"


class MergeRefused(SessionError):
    """A merge whose result the next start would refuse; its sentence says what it would break."""


def merge_checked(mine: Replica, incoming: Replica, stored: dict[str, str],
                  held: dict[str, dict] | None = None) -> Merged:
    """session.logbook.merge_in of what someone can act on (session.inert: `ignored` says what was left
    out), then the start's check of the result; MergeRefused when it fails (`mine` and `incoming` are
    left as they were)."""
    incoming, ignored = sift(mine, incoming, stored)
    merged = merge_in(mine, incoming, stored, held)
    check_merged(mine, merged.replica)
    merged.ignored = ignored
    return merged


def check_merged(mine: Replica, merged: Replica):
    turned = turned_sheet(mine, merged)
    if turned:
        raise MergeRefused(f"{REFUSED} it would turn {turned}.")
    try:
        check_replica(merged.to_dict(log=False))
    except Overfull as error:
        raise MergeRefused(f"{REFUSED} the session would have {error.what}.") from None
    except SessionError as error:
        raise MergeRefused(f"{REFUSED} the session would not open again. {error}") from None


def turned_sheet(mine: Replica, merged: Replica) -> str:
    """"Ash's Tension Engine sheet into an Anomaly sheet" when the merge changes the rule system
    of a roster entry this phone has (an entry is one system's sheet for life); "" otherwise."""
    for entry_id, entry in mine.roster.items():
        was = entry["fields"].get("system", [None])[0]
        now = merged.roster[entry_id]["fields"].get("system", [None])[0]
        if was != now:
            name = entry["fields"].get("name", [""])[0]
            return f"{isolate(name)}'s {SYSTEMS.get(was, was)} sheet into {article(SYSTEMS.get(now, now))} sheet"
    return ""


def article(name) -> str:
    name = str(name)
    return f"{'an' if name[:1] in 'AEIOU' else 'a'} {name}"
