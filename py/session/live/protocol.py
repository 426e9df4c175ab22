"""What the phones of a live table say to each other over their data channels: one JSON object
a message, written here and read back as untrusted input, like a link.

Every message is `{"live": 1, "k": kind, ...}` (`live` is this protocol's version), at most
MAX_MESSAGE characters, nested no deeper than session.untrusted allows, with exactly the
fields of its kind:

    hello  on every new channel, both ways: this phone's `device` id, who holds it (`role`:
           "gm", the character's roster id, or "" for a phone nobody said; `who`: a name), the
           session as a link carries it (`session`: an S2 link), and for catching up
           (session.live.catchup) how many entries its log holds (`n`), their `print` and
           the id of its `oldest` ("" when it keeps none)
    who    who holds this phone now (`role`, `who`), after the player said
    link   what a link carries (`link`: an S2 session, an R2 roll or a C2 sealed-card fragment),
           read by session.links.v2 like any link; a roll answering a call names it (`call`)
    have   a page of the catch-up walk: `to` (exclusive, null for the top), `keys`, `more`, `rest`
    want   log entry ids this phone lacks from the other's page
    ack    (the GM's phone to a player's) ids of the rolls it sent that are now in the GM's log
           store (or were there already): until then its phone says they are on their way; (either
           way) digests of the sealed-card steps it sent that are now saved on this phone
    call   the GM calls for a roll: `id`, `system`, `kind`, `difficulty` (Anomaly, or null),
           `title` (the conflict), `stakes`, `to` (the roster ids of the characters called), and
           the side the GM's phone settled first (`gm`, `combat`: below, "Sides settled on the
           GM's phone"), or the adversary its phone rolls after the called phone's side (`foe`:
           below, "A side rolled first on a player's phone")
    side   (a player's phone to the GM's) the side it rolled first for the call `call`: below
    end    the GM closed the call `id`
    again  (a player's phone to the GM's) the player tries a called environment roll again: `call` (its
           id); the GM's phone answers with the call again, `again` true and a new `gm` side rolled
           there, or (back, `answer`) "ended" (that call is over) or "declined" (the GM said no)
    table  (the GM's phone to each player's) who is live and since when: `phones`, a list of
           {"who", "role", "since"}
    unsent (the GM's phone to a player's) no fields: its session, even without its log entries, is past
           what phones of this version open, so it was not sent (in place of the hello or session it
           would have sent). A phone of this version before this kind says "damaged" on reading it,
           as it does for any kind it does not know: it is sent once until a session gets through.

Rejoining with no scan (session.live.standby, version 2):

    standby  (a holder to the other phone) one of its standbys: `id`, `mode` ("munge" or "scan"),
             `offer` (its offer's `O1.` code, offer id = `id`), `keep` (the ids of every standby it
             holds for that phone: ways back to others are dropped)
    armed    (back) the standby `id` is stored: the `ufrag` and `pwd` this phone will answer it
             with ("" for a scan standby) and its key's fingerprint (`print`, "AB:CD:…")
    drop     (a holder) the standbys `ids` are gone: their ways back are dropped

A key is where an entry sits in every phone's log: [clock, device, id] (session.replica.entry_key).
Reading checks sizes, types and every value's range; what a link holds is checked later by
session.links.v2, as for any link. Anything wrong is a LiveMessageError with a sentence; the
channel stays open. Pure Python.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import rules

from . import signal as live_signal
from . import standby as live_standby
from .. import untrusted
from ..errors import SessionError
from ..links.text import MAX_FRAGMENT, looks_like_link
from ..model import MAX_CALL_TITLE, MAX_NAME, SYSTEMS, name_text
from ..replica_check import DEVICE, ID, MAX_CLOCK

VERSION = 2  # 2: rejoining (standby, armed, drop); a phone of version 1 says "update" on reading one
MAX_MESSAGE = 190_000  # characters; static/live.js lets 200,000 UTF-8 bytes through
PAGE = 200  # keys in one page of the catch-up walk
MAX_CALLED = 20
MAX_LIVE = 20  # phones a table lists
MAX_TITLE, MAX_STAKES = MAX_CALL_TITLE, 160
GM = "gm"
HELLO, WHO, LINK, HAVE, WANT, ACK, CALL, END, TABLE, AGAIN = (
    "hello", "who", "link", "have", "want", "ack", "call", "end", "table", "again")
FIELDS = {
    HELLO: {"device", "role", "who", "session", "n", "print", "oldest"},
    WHO: {"role", "who"},
    LINK: {"link", "call"},
    HAVE: {"to", "keys", "more", "rest"},
    WANT: {"ids"},
    ACK: {"ids"},
    CALL: {"id", "system", "kind", "difficulty", "title", "stakes", "to", "gm", "combat", "foe", "again"},
    END: {"id"},
    TABLE: {"phones"},
    AGAIN: {"call", "answer"},
}
OPTIONAL = {LINK: {"call"}, CALL: {"difficulty", "stakes", "gm", "combat", "foe", "again"}, AGAIN: {"answer"}}
# The conflicts a call can open on a player's phone, by system: those one player rolls alone, (second)
# those whose other side the GM's phone settled first (`gm`, below), and (third) those whose called side
# rolls first and whose other side the GM's phone rolls after it (`foe`, below).
CALL_KINDS = {"tension": ("environment", "opposed", "attack"), "anomaly": ("check", "opposed", "defense"),
              "manners": ("test",)}
FIRST_KINDS = {"attack", "defense"}  # the called phone's side rolls first
ANSWERS = ("ended", "declined")  # why the GM's phone sends no new total for a try again
PRINT = 16  # hex digits of a log's fingerprint

# Sentences a reading phone says: "{phone}" ("{Phone}" to begin one) stands for the phone that sent the
# message, named by the page when it knows it ("Ash's phone", LiveMessageError.naming), else "the other
# phone" (the error's str).
OTHER_PHONE = "the other phone"
DAMAGED = "A message from {phone} was damaged, so it was not used."
# Past MAX_MESSAGE, or carrying a link past MAX_FRAGMENT: said plainly, not as damage (session.links.text's
# TOO_LARGE): a session this version keeps may outgrow them, and a newer version may carry more.
TOO_LARGE = ("A message from {phone} is larger than this version of Tableside opens, so it was not used. "
             "If that phone runs a newer Tableside, update this one (reload it while online) and join the "
             "live table again.")
NEWER = ("{Phone} runs a newer Tableside. Update this one (reload it while online) to stay live; links and QR codes "
         "still work.")
OLDER = ("{Phone} runs an older Tableside. Update it (reload it while online) to stay live; links and QR codes "
         "still work.")
NOT_USED = "A message from {phone} was not used: "  # and why, in the words of the session's checks


def naming(sentence: str, phone: str) -> str:
    """`sentence` (one of those above) about the phone `phone` ("Ash's phone", "the GM's phone")."""
    first = "The" + phone[3:] if phone.startswith("the ") else phone
    return sentence.replace("{Phone}", first).replace("{phone}", phone)


class LiveMessageError(SessionError):
    """A message from another phone that can't be used, and why, in a sentence (`sentence`, with "{phone}"
    where the sending phone is named: `naming`; its str says "the other phone")."""

    def __init__(self, sentence: str):
        super().__init__(naming(sentence, OTHER_PHONE))
        self.sentence = sentence

    def naming(self, phone: str) -> str:
        return naming(self.sentence, phone)


def need(condition: bool):
    if not condition:
        raise LiveMessageError(DAMAGED)


def whole(value, low: int, high: int) -> int:
    need(isinstance(value, int) and not isinstance(value, bool) and low <= value <= high)
    return value


@dataclass(frozen=True)
class Message:
    kind: str
    data: dict

    def __getitem__(self, field: str):
        return self.data[field]

    def get(self, field: str, default=None):
        return self.data.get(field, default)


# --- Writing -------------------------------------------------------------------------------------

def write(kind: str, /, **data) -> str:
    """The text of one message (checked as the other phone will read it: what we send is sound)."""
    text = json.dumps({"live": VERSION, "k": kind, **data}, separators=(",", ":"), ensure_ascii=False)
    read(text)
    return text


def hello(device: str, role: str, who: str, session: str, count: int, print_: str, oldest: str) -> str:
    return write(HELLO, device=device, role=role, who=who, session=session, n=count, print=print_, oldest=oldest)


def link(fragment: str, call: str = "") -> str:
    return write(LINK, link=fragment, **({"call": call} if call else {}))


def have(to, keys, more: bool, rest: str) -> str:
    return write(HAVE, to=list(to) if to else None, keys=[list(key) for key in keys], more=more, rest=rest)


# --- Reading -------------------------------------------------------------------------------------

def read(text) -> Message:
    """A message from another phone, every field checked; LiveMessageError otherwise."""
    if not isinstance(text, str) or len(text) > MAX_MESSAGE:
        raise LiveMessageError(TOO_LARGE)
    try:
        value = untrusted.parse(text, parse_int=small_number)
    except (untrusted.BadJSON, ValueError):
        raise LiveMessageError(DAMAGED) from None
    if not isinstance(value, dict) or not isinstance(value.get("live"), int) or isinstance(value["live"], bool):
        raise LiveMessageError(DAMAGED)
    if value["live"] > VERSION:
        raise LiveMessageError(NEWER)
    if 0 < value["live"] < VERSION:
        raise LiveMessageError(OLDER)
    need(value["live"] == VERSION and isinstance(value.get("k"), str) and value["k"] in FIELDS)
    kind = value["k"]
    data = {key: item for key, item in value.items() if key not in ("live", "k")}
    need(FIELDS[kind] - OPTIONAL.get(kind, set()) <= data.keys() <= FIELDS[kind])
    try:
        return Message(kind, READERS[kind](data))
    except LiveMessageError:
        raise
    except SessionError as error:
        raise LiveMessageError(NOT_USED + str(error)) from None


def small_number(text: str) -> int:
    if len(text.lstrip("-")) > 17:
        raise ValueError("a number far too large")
    return int(text)


def text_field(value, what: str, limit: int) -> str:
    return name_text(value, what, limit, allow_empty=True)


def key(value) -> tuple:
    need(isinstance(value, list) and len(value) == 3)
    clock, device, entry_id = value
    need(isinstance(device, str) and DEVICE.fullmatch(device) is not None)
    need(isinstance(entry_id, str) and ID.fullmatch(entry_id) is not None)
    return whole(clock, 0, MAX_CLOCK), device, entry_id


def optional_key(value):
    return None if value is None else key(value)


def fingerprint(value) -> str:
    need(isinstance(value, str) and len(value) == PRINT and all(c in "0123456789abcdef" for c in value))
    return value


def fragment(value) -> str:
    if isinstance(value, str) and len(value) > MAX_FRAGMENT and looks_like_link(value[:16]):
        raise LiveMessageError(TOO_LARGE)
    need(isinstance(value, str) and len(value) <= MAX_FRAGMENT and looks_like_link(value))
    return value


def identifier(value) -> str:
    need(isinstance(value, str) and ID.fullmatch(value) is not None)
    return value


def role(value) -> str:
    """Who holds a phone: "gm", a character's roster id, or "" (nobody said)."""
    need(isinstance(value, str) and (value in (GM, "") or ID.fullmatch(value) is not None))
    return value


def read_hello(data: dict) -> dict:
    need(isinstance(data["device"], str) and 0 < len(data["device"]) and DEVICE.fullmatch(data["device"]) is not None)
    return {"device": data["device"], "role": role(data["role"]), "who": text_field(data["who"], "A name", MAX_NAME),
            "session": fragment(data["session"]), "n": whole(data["n"], 0, MAX_CLOCK),
            "print": fingerprint(data["print"]),
            "oldest": "" if data["oldest"] == "" else identifier(data["oldest"])}


def read_who(data: dict) -> dict:
    return {"role": role(data["role"]), "who": text_field(data["who"], "A name", MAX_NAME)}


def read_link(data: dict) -> dict:
    return {"link": fragment(data["link"]), "call": identifier(data["call"]) if "call" in data else ""}


def read_have(data: dict) -> dict:
    keys = data["keys"]
    need(isinstance(keys, list) and len(keys) <= PAGE and isinstance(data["more"], bool))
    keys = [key(item) for item in keys]
    to = optional_key(data["to"])
    need(keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys))  # newest first, each once
    need(to is None or all(item < to for item in keys))
    need(bool(keys) or not data["more"])
    return {"to": to, "keys": keys, "more": data["more"], "rest": fingerprint(data["rest"])}


def read_ids(data: dict) -> dict:
    ids = data["ids"]
    need(isinstance(ids, list) and len(ids) <= PAGE)
    return {"ids": [identifier(item) for item in ids]}


def read_call(data: dict) -> dict:
    system = data["system"]
    need(isinstance(system, str) and system in SYSTEMS and isinstance(data["kind"], str)
         and data["kind"] in CALL_KINDS[system])
    difficulty = data.get("difficulty")
    difficulty = None if difficulty is None else whole(difficulty, 0, 99)
    called = data["to"]
    need(isinstance(called, list) and 0 < len(called) <= MAX_CALLED)
    call = {"id": identifier(data["id"]), "system": system, "kind": data["kind"], "difficulty": difficulty,
            "title": text_field(data["title"], "The conflict", MAX_TITLE),
            "stakes": text_field(data.get("stakes", ""), "What is at stake", MAX_STAKES),
            "to": list(dict.fromkeys(identifier(item) for item in called))}
    call = {**call, **read_settled_side(data, call), **read_foe(data, call)}
    need("again" not in data or (data["again"] is True and call["kind"] == "environment" and call["gm"] is not None))
    return {**call, "again": "again" in data}


# --- Sides settled on the GM's phone (issue 32: the called environment roll; issue 31, item 5) --------
#
# A call may carry the side the GM's phone rolled and settled first, in the seeds' order: the Tension
# Pool against the environment (the GM's boost or extra dice taken), an adversary's attack (Tension
# Engine: the initiator rolls first) or a defense (Anomaly: the defender's total is the difficulty).
# `gm` is {"name", "id" (its roster id, or ""), "total", "tension" (Tension as the GM rolled it),
# "words" (how it was made, e.g. "6 + 4 + 3 boost")}; `combat` (Tension Engine opposed) says the
# difference is damage. The called phone rolls its own side against that one total; the GM's side
# spends nothing there (RULES.md: a side given as a total), its spending stays on the GM's phone.
# An opposed call goes to one phone: the character it concerns.

MAX_WORDS = 120
MAX_SIDE_TOTAL = 999


def read_settled_side(data: dict, call: dict) -> dict:
    opposed = call["kind"] == "opposed" or call["kind"] in FIRST_KINDS
    need("gm" not in data or call["kind"] not in FIRST_KINDS)
    need("gm" in data or call["kind"] != "opposed")
    need(not opposed or len(call["to"]) == 1)
    need("combat" not in data or (call["system"] == "tension" and opposed and isinstance(data["combat"], bool)))
    if call["kind"] in FIRST_KINDS:
        return {"gm": None, "combat": data.get("combat", False)}
    if "gm" not in data:
        return {"gm": None, "combat": False}
    need(call["system"] == "tension" or (call["system"] == "anomaly" and opposed))
    side = data["gm"]
    need(isinstance(side, dict) and set(side) == {"name", "id", "total", "tension", "words"})
    return {"gm": {"name": text_field(side["name"], "A name", MAX_NAME),
                   "id": "" if side["id"] == "" else identifier(side["id"]),
                   "total": whole(side["total"], -MAX_SIDE_TOTAL, MAX_SIDE_TOTAL),
                   "tension": whole(side["tension"], 0, 999),
                   "words": text_field(side["words"], "How the total was made", MAX_WORDS)},
            "combat": data.get("combat", False)}


def read_again(data: dict) -> dict:
    need("answer" not in data or data["answer"] in ANSWERS)
    return {"call": identifier(data["call"]), "answer": data.get("answer", "")}


# --- A side rolled first on a player's phone (issue 31, item 5) ------------------------------------
#
# Where the seeds have the called character's side roll first (Tension Engine: a character's attack on
# an adversary, the initiator; Anomaly: a character's defense, whose total is the adversary's
# difficulty), the call names the adversary the GM's phone rolls after it (`foe`: {"name", "id" (its
# roster id, or "")}) and carries no `gm` side. The called phone rolls its side, settles it and sends
# it back as a `side`: `call` (the call's id), `entry` (the id the conflict is logged under, so the
# called phone knows its result when it arrives), who rolled (`name`, `id`), and `total` and `words`
# as the called phone showed them; a Tension Engine side also its dice as rolled (`from`: "app" or
# "typed"; `dice`, `keep`; `attribute`, `skill`): its AP and the 1s that feed Tension are counted by
# the GM's phone when it logs the conflict. An Anomaly defense goes as a total (RULES.md).

MAX_RATING_NAME = 60  # an Attribute or Skill's name (ui.systems.tension.draft)


def read_foe(data: dict, call: dict) -> dict:
    first = call["kind"] in FIRST_KINDS
    need(("foe" in data) == first)
    if not first:
        return {}
    foe = data["foe"]
    need(isinstance(foe, dict) and set(foe) == {"name", "id"})
    return {"foe": {"name": text_field(foe["name"], "A name", MAX_NAME),
                    "id": "" if foe["id"] == "" else identifier(foe["id"])}}


DICE_FIELDS = {"from", "attribute", "skill", "dice", "keep"}  # a Tension Engine side's: all, or none


def read_side(data: dict) -> dict:
    side = {"call": identifier(data["call"]), "entry": identifier(data["entry"]),
            "name": text_field(data["name"], "A name", MAX_NAME),
            "id": "" if data["id"] == "" else identifier(data["id"]),
            "total": whole(data["total"], -MAX_SIDE_TOTAL, MAX_SIDE_TOTAL),
            "words": text_field(data["words"], "How the total was made", MAX_WORDS)}
    if not DICE_FIELDS & data.keys():
        return side
    need(DICE_FIELDS <= data.keys())
    dice, keep = data["dice"], data["keep"]
    need(isinstance(dice, list) and 0 < len(dice) <= rules.LIMITS["pool"])
    dice = [whole(face, 1, 6) for face in dice]
    need(isinstance(keep, list) and len(keep) <= len(dice))
    keep = [whole(index, 0, len(dice) - 1) for index in keep]
    need(len(set(keep)) == len(keep) and data["from"] in ("app", "typed"))
    return {**side, "from": data["from"], "dice": dice, "keep": keep,
            "attribute": text_field(data["attribute"], "An Attribute", MAX_RATING_NAME),
            "skill": text_field(data["skill"], "A Skill", MAX_RATING_NAME)}


def read_end(data: dict) -> dict:
    return {"id": identifier(data["id"])}


def read_table(data: dict) -> dict:
    listed = data["phones"]
    need(isinstance(listed, list) and len(listed) <= MAX_LIVE)
    phones = []
    for phone in listed:
        need(isinstance(phone, dict) and set(phone) == {"who", "role", "since"})
        phones.append({"who": text_field(phone["who"], "A name", MAX_NAME), "role": role(phone["role"]),
                       "since": text_field(phone["since"], "A time", 40)})
    return {"phones": phones}


READERS = {HELLO: read_hello, WHO: read_who, LINK: read_link, HAVE: read_have, WANT: read_ids, ACK: read_ids,
           CALL: read_call, END: read_end, TABLE: read_table, AGAIN: read_again}
SIDE = "side"
FIELDS[SIDE] = {"call", "entry", "name", "id", "total", "words", *DICE_FIELDS}
OPTIONAL[SIDE] = DICE_FIELDS
READERS[SIDE] = read_side


UNSENT = "unsent"
FIELDS[UNSENT] = set()
READERS[UNSENT] = lambda data: {}


# --- Rejoining with no scan (session.live.standby) ------------------------------------------------

STANDBY, ARMED, DROP = "standby", "armed", "drop"
FIELDS.update({STANDBY: {"id", "mode", "offer", "keep"}, ARMED: {"id", "ufrag", "pwd", "print"}, DROP: {"ids"}})


def standby_id(value) -> int:
    return whole(value, 0, live_standby.MAX_ID)


def standby_ids(value) -> list[int]:
    need(isinstance(value, list) and len(value) <= live_standby.MAX_WAYS)
    return [standby_id(item) for item in value]


def read_standby(data: dict) -> dict:
    need(data["mode"] in (live_standby.MUNGE, live_standby.SCAN) and isinstance(data["offer"], str))
    try:
        offer = live_signal.read(data["offer"])
    except live_signal.LiveCodeError:
        raise LiveMessageError(DAMAGED) from None
    need(offer.kind == live_signal.OFFER and offer.offer_id == standby_id(data["id"]))
    return {"id": data["id"], "mode": data["mode"], "offer": offer, "keep": standby_ids(data["keep"])}


def read_armed(data: dict) -> dict:
    scan = data["ufrag"] == data["pwd"] == ""
    need(scan or live_standby.credentials_ok(data["ufrag"], data["pwd"]))
    try:
        live_standby.print_bytes(data["print"])
    except live_standby.StandbyError:
        raise LiveMessageError(DAMAGED) from None
    return {"id": standby_id(data["id"]), "ufrag": data["ufrag"], "pwd": data["pwd"], "print": data["print"].upper()}


def read_drop(data: dict) -> dict:
    return {"ids": standby_ids(data["ids"])}


READERS.update({STANDBY: read_standby, ARMED: read_armed, DROP: read_drop})
