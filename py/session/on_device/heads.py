"""The index and the session heads: which sessions this device holds, and each one without its log.

Owns two keys (session.on_device describes every key):

    tableside.index            which session was open, when each was saved: only a cache, rebuilt
                               from the heads when it is lost or can't be read
    tableside.head.<id>        one session without its log (session.replica, to_dict(log=False)),
                               its count of live entries of each kind and when it was saved

A head is rewritten only when its text changes, and its log entries go to the log store
(session.on_device.outbox); a head waits for them, so it never counts entries the log store
does not have.
"""
from __future__ import annotations

import json

from .. import untrusted
from ..errors import SessionError
from ..replica import Replica
from ..replica_check import check_replica
from .key_value import json_text, parse_stored

INDEX_KEY = "tableside.index"
HEAD_PREFIX = "tableside.head."
INDEX_VERSION = 1
MAX_COUNT = 10 ** 7
UNREADABLE_INDEX = {
    untrusted.NOT_JSON: "The list of sessions is not readable JSON.",
    untrusted.TOO_DEEP: "The list of sessions nests far deeper than Tableside ever writes it.",
    untrusted.BROKEN_TEXT: "The list of sessions holds a broken character.",
}


def head_key(session_id: str) -> str:
    return HEAD_PREFIX + session_id


def head_content(replica: Replica) -> str:
    """A head's text without its time: what decides whether it changed."""
    data = replica.to_dict(log=False)
    data["logged"] = replica.tally()
    return json_text(data)


def stamped(content: str, saved: str, recount: bool = False) -> str:
    """The head as stored: its content, when it was saved, and whether its counts need checking
    against the log store (entries it counts could not be stored)."""
    return content[:-1] + f',"saved":{json.dumps(saved)}' + (',"recount":true' if recount else "") + "}"


def parse_head(raw, session_id: str) -> tuple[Replica, int, str, bool]:
    """A stored head as a replica holding none of its log yet, how many broken characters were
    repaired in it, when it was saved and whether its counts need checking; SessionError."""
    data, repaired = parse_stored(raw, session_id)
    if not isinstance(data, dict) or "log" in data:
        raise SessionError("It is not in the form Tableside saves a session in.")
    replica = check_replica(data)
    if replica.id != session_id:
        raise SessionError("It is saved under another session's key.")
    logged = data.get("logged")
    if not isinstance(logged, dict) or set(logged) != {"conflict", "set-aside"} or not all(
            isinstance(count, int) and not isinstance(count, bool) and 0 <= count <= MAX_COUNT
            for count in logged.values()):
        raise SessionError("Its count of logged conflicts is damaged.")
    replica.complete, replica.fresh, replica.counted = False, [], dict(logged)
    saved = data.get("saved") if isinstance(data.get("saved"), str) else ""
    return replica, repaired, saved[:40], data.get("recount") is True


def summary(replica: Replica, saved: str) -> dict:
    """What the session list shows about a session without reading it again."""
    session = replica.session(log=False)
    return {"id": replica.id, "name": session["name"], "system": session["system"],
            "roster": len(session["roster"]), "log": replica.logged(), "saved": saved}


def parse_index(raw) -> dict:
    """{"active": id or None, "saved": {id: time}, "order": [id, ...]} from the index's raw text."""
    try:
        data = untrusted.parse(raw)
    except untrusted.BadJSON as error:
        raise SessionError(UNREADABLE_INDEX[error.reason]) from None
    if not isinstance(data, dict) or data.get("v") != INDEX_VERSION or not isinstance(data.get("sessions"), list):
        raise SessionError("The list of sessions is not in a form this version of Tableside reads.")
    saved, order = {}, []
    for item in data["sessions"]:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise SessionError("The list of sessions has an entry without an id.")
        order.append(item["id"])
        saved[item["id"]] = item["saved"] if isinstance(item.get("saved"), str) else ""
    active = data.get("active")
    return {"active": active if isinstance(active, str) else None, "saved": saved, "order": order}
