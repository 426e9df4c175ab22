"""Sealed cards across phones: commit and reveal, so that neither side can change its card
after seeing the other's.

One exchange is one conflict (its id) of one kind:

- Test: the GM seals a Complication for one character (`seal`: the commitment, the difficulty,
  which the rules have the GM set openly, and `for`: the character); that character's phone
  answers with its locked Manner in plain, naming the seal it answers (`lock`: the GM is
  already bound); the GM reveals (`reveal`: the card, the difficulty and the salt), which every
  phone checks against the seal. A GM who leaves the exchange once the Manner is here reveals
  anyway and says so (`left`, with the GM phone's clock and device: session.sealed.verdict flags
  an open Test logged instead).
- Confrontation: each side seals its side of the record (its Manner with the numbers that
  go with it), naming the character the conflict is for, then each reveals it with its salt;
  both phones check both.

Only evidence from the sides decides: a reveal that opens no seal is ignored (anyone can send
one), a lock from another character than the seal names is ignored; the exchange is broken only
when its own sides contradict themselves (two Manners locked by one character, two sealed cards
both answered).

A commitment is SHA-256 over canonical JSON of [purpose, kind, card, difficulty, session id,
conflict id, salt]: a list, so no two different inputs share an encoding, the purpose tag keeps
it from meaning anything outside Tableside, and the session id keeps a copy of a seal in another
session from matching there (seals made before the session was bound, without `for`, are read
with the first purpose and no session). The salt (128 bits from `secrets`) makes a sealed card
impossible to guess by trying the five. What a phone chose stays in its own storage until it
reveals; only messages (commitments and public steps) go into the session (replica.sealed,
merged as a grow-only set keyed by each message's digest) and into links.

Messages come from other phones: `check_message` reads them strictly (known fields only,
bounded sizes) and raises SessionError with a sentence. `settle` reads one conflict's messages
and says where it stands: who has sealed, what is revealed, the resolved record once every
card is turned over, and every way a reveal fails its seal. Pure Python.
"""
from __future__ import annotations

import hashlib
import json
import re
import secrets
from dataclasses import dataclass, field

import rules

from ..errors import checks
from ..model import name_text

PURPOSE = "tableside-sealed-1"  # seals without `for`: not bound to their session
BOUND = "tableside-sealed-2"  # seals that name their character: bound to session and conflict
TEST, CONFRONTATION = "test", "confrontation"
SEAL, LOCK, REVEAL, LEFT = "seal", "lock", "reveal", "left"
GM, PLAYER, OPPONENT = "gm", "player", "opponent"
SALT_BYTES = 16  # 128 bits
MAX_MESSAGES = 12  # per conflict: more than any honest exchange sends (four), few enough to read
HEX64 = re.compile(r"[0-9a-f]{64}")
SALT = re.compile(r"[0-9a-f]{32,64}")
ID = re.compile(r"[A-Za-z0-9_-]{1,24}")
MAX_TEXT = 60
WHO = {GM: "The GM", PLAYER: "The player", OPPONENT: "The opponent"}
# Who sends what, per kind: (step, side) pairs that exist.
STEPS = {TEST: {(SEAL, GM), (LOCK, PLAYER), (REVEAL, GM), (LEFT, GM)},
         CONFRONTATION: {(SEAL, PLAYER), (SEAL, OPPONENT), (REVEAL, PLAYER), (REVEAL, OPPONENT)}}


def new_salt() -> str:
    return secrets.token_bytes(SALT_BYTES).hex()


def new_conflict_id() -> str:
    return "x" + secrets.token_hex(8)


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def commitment(card, difficulty, conflict_id: str, salt: str, kind: str = TEST, session_id: str | None = None) -> str:
    """The seal of one card: hex SHA-256 of an unambiguous encoding of everything it binds (with
    `session_id`, its session too)."""
    bound = [PURPOSE, kind, card, difficulty, conflict_id, salt] if session_id is None else \
        [BOUND, kind, card, difficulty, session_id, conflict_id, salt]
    return hashlib.sha256(canonical(bound).encode("utf-8")).hexdigest()


def verify(sealed: str, card, difficulty, conflict_id: str, salt: str, kind: str = TEST,
           session_id: str | None = None) -> bool:
    return secrets.compare_digest(sealed, commitment(card, difficulty, conflict_id, salt, kind, session_id))


def identity(side: dict) -> str:
    """Whom a side is: its roster id, or its name when it has no sheet."""
    return side.get("id") or side["name"]


def digest(message: dict) -> str:
    """A message's key in the session: the same message is the same key on every phone."""
    return hashlib.sha256(canonical(message).encode("utf-8")).hexdigest()[:16]


# --- Making messages -------------------------------------------------------------------------------

def seal_test(conflict_id: str, complication: str, difficulty: int, salt: str, session_id: str | None = None,
              for_: str = "") -> dict:
    """The GM's seal; with `session_id`, bound to it and naming whom it is for (`for_`)."""
    seal = {"c": conflict_id, "k": TEST, "t": SEAL, "by": GM, "d": difficulty,
            "h": commitment(complication, difficulty, conflict_id, salt, TEST, session_id)}
    return seal if session_id is None else {**seal, "for": for_}


def lock_test(conflict_id: str, side: dict, seal: str | None = None) -> dict:
    """The player's Manner, answering the seal whose commitment is `seal`."""
    lock = {"c": conflict_id, "k": TEST, "t": LOCK, "by": PLAYER, "side": side}
    return lock if seal is None else {**lock, "h": seal}


def left_test(conflict_id: str, clock: int, device: str) -> dict:
    """The GM left the exchange once the Manner was here, at this stamp of the GM's phone."""
    return {"c": conflict_id, "k": TEST, "t": LEFT, "by": GM, "at": [clock, device]}


def reveal_test(conflict_id: str, complication: str, difficulty: int, salt: str) -> dict:
    return {"c": conflict_id, "k": TEST, "t": REVEAL, "by": GM, "card": complication, "d": difficulty, "salt": salt}


def seal_side(conflict_id: str, role: str, side: dict, salt: str, session_id: str | None = None,
              for_: str = "", vs: str = "") -> dict:
    """A Confrontation side's seal; bound, it names the player's character (`for_`) and, when the phone
    knows it, the opponent's (`vs`: the phone that holds that side answers it)."""
    seal = {"c": conflict_id, "k": CONFRONTATION, "t": SEAL, "by": role,
            "h": commitment(side, None, conflict_id, salt, CONFRONTATION, session_id)}
    if session_id is None:
        return seal
    return {**seal, "for": for_, **({"vs": vs} if vs else {})}


def reveal_side(conflict_id: str, role: str, side: dict, salt: str) -> dict:
    return {"c": conflict_id, "k": CONFRONTATION, "t": REVEAL, "by": role, "side": side, "salt": salt}


# --- Reading messages from another phone --------------------------------------------------------------

need, whole = checks("This sealed-card message is damaged.")


def check_side(value) -> dict:
    """One character side of a Manner Cards record, as a message carries it, its names with spaces
    normalised (idempotent: a side is checked before it is sealed, so the receiver's check of it
    changes nothing the seal covers)."""
    need(isinstance(value, dict) and len(value) <= 9)
    allowed = {"name", "id", "manner", "manner_rating", "skill", "skill_rating", "helpers", "helper_names",
               "descriptors"}
    need(set(value) <= allowed and {"name", "manner", "manner_rating", "skill_rating", "helpers",
                                    "descriptors"} <= set(value))
    need(value["manner"] in rules.MANNERS, "This sealed-card message names an unknown Manner.")
    side = {"name": name_text(value["name"], "A name in this sealed card", MAX_TEXT), "manner": value["manner"],
            "manner_rating": whole(value["manner_rating"], 0, rules.LIMITS["rating"]),
            "skill_rating": whole(value["skill_rating"], 0, rules.LIMITS["rating"]),
            "helpers": whole(value["helpers"], 0, rules.LIMITS["helpers"]),
            "descriptors": whole(value["descriptors"], 0, rules.LIMITS["descriptors"])}
    if "id" in value:
        need(isinstance(value["id"], str) and ID.fullmatch(value["id"]) is not None)
        side["id"] = value["id"]
    if "skill" in value:
        side["skill"] = name_text(value["skill"], "A Skill in this sealed card", MAX_TEXT, allow_empty=True)
    if "helper_names" in value:
        names = value["helper_names"]
        need(isinstance(names, list) and len(names) <= side["helpers"])
        side["helper_names"] = [name_text(name, "A helper in this sealed card", MAX_TEXT) for name in names]
    return side


def check_message(value) -> dict:
    """A message of an exchange from untrusted data, exactly as `seal_*`, `lock_*`, `reveal_*`
    make it, or SessionError."""
    need(isinstance(value, dict), "This is not a sealed-card message.")
    kind, step, by = (item if isinstance(item, str) else "" for item in (value.get("k"), value.get("t"), value.get("by")))
    need(kind in STEPS and (step, by) in STEPS[kind], "This sealed-card message is of a kind Tableside doesn't send.")
    conflict = value.get("c")
    need(isinstance(conflict, str) and ID.fullmatch(conflict) is not None, "This sealed-card message has a bad id.")
    clean = {"c": conflict, "k": kind, "t": step, "by": by}
    if kind == TEST and step == SEAL:
        expected = {"d", "h"} | ({"for"} & set(value))  # without `for`: sealed before seals were bound
    elif kind == TEST and step == LOCK:
        expected = {"side"} | ({"h"} & set(value))
    elif step == LEFT:
        expected = {"at"}
    elif kind == TEST:
        expected = {"card", "d", "salt"}
    elif step == SEAL:
        expected = {"h"} | ({"for"} & set(value)) | ({"vs"} & set(value) if "for" in value else set())
    else:
        expected = {"side", "salt"}
    need(set(value) == {"c", "k", "t", "by"} | expected, "This sealed-card message has other fields than expected.")
    if "for" in expected:
        clean["for"] = name_text(value["for"], "Whom a sealed card is for", MAX_TEXT)
    if "vs" in expected:
        clean["vs"] = name_text(value["vs"], "Whom a sealed card is against", MAX_TEXT)
    if "at" in expected:
        stamp = value["at"]
        need(isinstance(stamp, list) and len(stamp) == 2 and isinstance(stamp[1], str)
             and re.fullmatch(r"[0-9a-f]{0,16}", stamp[1]) is not None)
        clean["at"] = [whole(stamp[0], 0, 2 ** 53), stamp[1]]
    if "h" in expected:
        need(isinstance(value["h"], str) and HEX64.fullmatch(value["h"]) is not None,
             "This sealed card's seal is damaged.")
        clean["h"] = value["h"]
    if "d" in expected:
        clean["d"] = whole(value["d"], 1, rules.LIMITS["manners_difficulty"])
    if "card" in expected:
        need(value["card"] in rules.COMPLICATIONS, "This reveal names an unknown Complication.")
        clean["card"] = value["card"]
    if "salt" in expected:
        need(isinstance(value["salt"], str) and SALT.fullmatch(value["salt"]) is not None,
             "This reveal's salt is damaged.")
        clean["salt"] = value["salt"]
    if "side" in expected:
        clean["side"] = check_side(value["side"])
    return clean


def check_messages(value) -> dict:
    """One conflict's messages as the session keeps them: {digest: message}."""
    need(isinstance(value, dict) and 0 < len(value) <= MAX_MESSAGES, "A sealed card in the session is damaged.")
    messages = {}
    conflicts = set()
    for key, item in value.items():
        message = check_message(item)
        need(key == digest(message), "A sealed card in the session is damaged.")
        messages[key] = message
        conflicts.add((message["c"], message["k"]))
    need(len(conflicts) == 1, "A sealed card in the session is damaged.")
    return messages


# --- This phone's own secret (kept apart from the session: session.on_device.own_keys) --------------

def new_secret(session_id: str, conflict_id: str, kind: str, role: str, card, difficulty=None, for_: str = "") -> dict:
    """What this phone seals, bound to its session and conflict (and whom the conflict is for)."""
    return {"s": session_id, "c": conflict_id, "k": kind, "by": role, "card": card, "d": difficulty, "for": for_,
            "salt": new_salt()}


def check_secret(value, session_id: str, conflict_id: str) -> dict:
    """A stored secret read back (untrusted), or SessionError: only one made for this very session and
    conflict (a copy of its seal in another session never makes this phone reveal it)."""
    need(isinstance(value, dict) and set(value) == {"s", "c", "k", "by", "card", "d", "for", "salt"},
         "This phone's sealed card could not be read.")
    kind, role = (item if isinstance(item, str) else "" for item in (value["k"], value["by"]))
    need(value["s"] == session_id and value["c"] == conflict_id and kind in STEPS and (SEAL, role) in STEPS[kind],
         "This phone's sealed card could not be read.")
    need(isinstance(value["salt"], str) and SALT.fullmatch(value["salt"]) is not None)
    need(isinstance(value["for"], str) and len(value["for"]) <= MAX_TEXT)
    if kind == TEST:
        need(value["card"] in rules.COMPLICATIONS)
        whole(value["d"], 1, rules.LIMITS["manners_difficulty"])
    else:
        need(value["d"] is None)
        value = {**value, "card": check_side(value["card"])}
    return value


def seal_of(secret: dict, vs: str = "") -> dict:
    """The seal message of a secret (`vs`: a Confrontation's opponent, when this phone knows it)."""
    if secret["k"] == TEST:
        return seal_test(secret["c"], secret["card"], secret["d"], secret["salt"], secret["s"], secret["for"])
    return seal_side(secret["c"], secret["by"], secret["card"], secret["salt"], secret["s"], secret["for"], vs)


def reveal_of(secret: dict) -> dict:
    if secret["k"] == TEST:
        return reveal_test(secret["c"], secret["card"], secret["d"], secret["salt"])
    return reveal_side(secret["c"], secret["by"], secret["card"], secret["salt"])


# --- Where one exchange stands ---------------------------------------------------------------------------

@dataclass
class Settled:
    kind: str
    sealed: dict = field(default_factory=dict)  # side -> its seal message (the one the exchange goes by)
    locked: dict | None = None  # Test: the player's side, in plain, answering the GM's seal
    revealed: dict = field(default_factory=dict)  # side -> its reveal message, checked against its seal
    difficulty: int | None = None  # Test: the difficulty the GM sealed
    problems: list = field(default_factory=list)  # sentences: the sides contradict themselves
    record: dict | None = None  # resolved, once every card is turned over and nothing is wrong
    target: str | None = None  # whom the conflict is for (identity, above), when its seals say
    left: dict | None = None  # Test: the GM left the exchange once the Manner was here (its `left` message)
    proof: list = field(default_factory=list)  # the messages the record follows from: what its log entry carries


def opens(seal: dict, reveal: dict, conflict: str, session_id: str) -> bool:
    """The reveal opens this seal (a bound seal, naming whom it is for, with its session)."""
    session = session_id if "for" in seal else None
    if reveal["k"] == TEST:
        return reveal["d"] == seal["d"] and verify(seal["h"], reveal["card"], reveal["d"], conflict, reveal["salt"],
                                                   TEST, session)
    return verify(seal["h"], reveal["side"], None, conflict, reveal["salt"], CONFRONTATION, session)


def answers(seal: dict, lock: dict) -> bool:
    """A lock answers a seal when it names it and comes from the character the seal is for (a lock
    from before seals were bound names no seal, and such a seal names nobody)."""
    return lock.get("h", seal["h"]) == seal["h"] and seal.get("for", identity(lock["side"])) == identity(lock["side"])


def settle(messages: dict, session_id: str = "") -> Settled:
    """Where the exchange of these messages ({digest: message}, one conflict of session `session_id`) stands."""
    listed = sorted(messages.values(), key=canonical)
    kind = listed[0]["k"] if listed else TEST
    conflict = listed[0]["c"] if listed else ""
    steps = {step: [message for message in listed if message["t"] == step] for step in (SEAL, LOCK, REVEAL, LEFT)}
    opened = {}  # seal digest -> the reveal that opens it; a reveal that opens no seal is nobody's evidence
    for reveal in steps[REVEAL]:
        for seal in steps[SEAL]:
            if seal["by"] == reveal["by"] and opens(seal, reveal, conflict, session_id):
                opened.setdefault(digest(seal), reveal)
    settled = Settled(kind)
    if kind == TEST:
        settle_test(settled, steps, opened)
    else:
        settle_confrontation(settled, steps, opened)
    if settled.problems or settled.record is None:
        return settled
    try:
        settled.record = rules.resolve(settled.record, source=rules.NoDice())
    except rules.RuleError as error:
        settled.problems.append(f"The revealed cards don't make a conflict the rules accept: {error}")
        settled.record = None
    return settled


def settle_test(settled: Settled, steps: dict, opened: dict):
    seals = [seal for seal in steps[SEAL] if seal["by"] == GM]
    pairs = [(seal, lock) for lock in steps[LOCK] for seal in seals if answers(seal, lock)]
    if len({digest(seal) for seal, _ in pairs}) > 1:
        settled.problems.append("Two different sealed cards were each answered with a Manner in this conflict.")
    if len({canonical(lock["side"]) for _, lock in pairs}) > 1:
        settled.problems.append(f"{pairs[0][1]['side']['name']} sent two different Manners for this conflict.")
    if settled.problems:
        return
    seal = pairs[0][0] if pairs else (seals[0] if seals else None)
    if seal is None:
        return
    settled.sealed[GM], settled.difficulty, settled.target = seal, seal["d"], seal.get("for")
    if not pairs:
        return
    lock = pairs[0][1]
    settled.locked = lock["side"]
    settled.left = steps[LEFT][0] if steps[LEFT] else None
    reveal = opened.get(digest(seal))
    if reveal is not None:
        settled.revealed[GM] = reveal
        settled.proof = [seal, lock, reveal]
        settled.record = {"v": rules.VERSION, "system": "manners", "kind": TEST, "player": lock["side"],
                          "difficulty": reveal["d"], "complication": reveal["card"]}


def settle_confrontation(settled: Settled, steps: dict, opened: dict):
    """Both sides seal for one character (the opponent's seal names it); seals for another are not this
    exchange's."""
    aimed = [seal.get("for") for seal in steps[SEAL] if seal["by"] == OPPONENT] or \
        [seal.get("for") for seal in steps[SEAL]]
    settled.target = aimed[0] if aimed else None
    seals = [seal for seal in steps[SEAL] if seal.get("for") == settled.target]
    settled.sealed = one_each(seals, settled.problems, "{who} sealed two different cards for this conflict.")
    for role, seal in settled.sealed.items():
        reveal = opened.get(digest(seal))
        if reveal is not None and (role == OPPONENT or seal.get("for", identity(reveal["side"])) ==
                                   identity(reveal["side"])):
            settled.revealed[role] = reveal
    if settled.problems or {PLAYER, OPPONENT} - settled.revealed.keys():
        return
    settled.proof = [*settled.sealed.values(), *settled.revealed.values()]
    settled.record = {"v": rules.VERSION, "system": "manners", "kind": CONFRONTATION,
                      "player": settled.revealed[PLAYER]["side"], "opponent": settled.revealed[OPPONENT]["side"]}


def one_each(messages: list[dict], problems: list, words: str) -> dict:
    """side -> its message of one step; two different ones from one side is a problem."""
    found = {}
    for message in sorted(messages, key=canonical):
        if message["by"] in found and found[message["by"]] != message:
            problems.append(words.format(who=WHO[message["by"]]))
            continue
        found.setdefault(message["by"], message)
    return found
