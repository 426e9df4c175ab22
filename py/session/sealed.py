"""Sealed cards across phones: commit and reveal, so that neither side can change its card
after seeing the other's.

One exchange is one conflict (its id) of one kind:

- Test: the GM seals a Complication (`seal`: the commitment, and the difficulty, which the
  rules have the GM set openly); the player's phone answers with its locked Manner in plain
  (`lock`: the GM is already bound); the GM reveals (`reveal`: the card, the difficulty and
  the salt), which the player's phone checks against the seal.
- Confrontation: each side seals its side of the record (its Manner with the numbers that
  go with it), then each reveals it with its salt; both phones check both.

A commitment is SHA-256 over canonical JSON of [purpose, kind, card, difficulty, conflict id,
salt]: a list, so no two different inputs share an encoding, and the purpose tag keeps it from
meaning anything outside Tableside. The salt (128 bits from `secrets`) makes a sealed card
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

from .errors import checks
from .model import name_text

PURPOSE = "tableside-sealed-1"
TEST, CONFRONTATION = "test", "confrontation"
SEAL, LOCK, REVEAL = "seal", "lock", "reveal"
GM, PLAYER, OPPONENT = "gm", "player", "opponent"
SALT_BYTES = 16  # 128 bits
MAX_MESSAGES = 12  # per conflict: more than any honest exchange sends (four), few enough to read
HEX64 = re.compile(r"[0-9a-f]{64}")
SALT = re.compile(r"[0-9a-f]{32,64}")
ID = re.compile(r"[A-Za-z0-9_-]{1,24}")
MAX_TEXT = 60
WHO = {GM: "The GM", PLAYER: "The player", OPPONENT: "The opponent"}
# Who sends what, per kind: (step, side) pairs that exist.
STEPS = {TEST: {(SEAL, GM), (LOCK, PLAYER), (REVEAL, GM)},
         CONFRONTATION: {(SEAL, PLAYER), (SEAL, OPPONENT), (REVEAL, PLAYER), (REVEAL, OPPONENT)}}


def new_salt() -> str:
    return secrets.token_bytes(SALT_BYTES).hex()


def new_conflict_id() -> str:
    return "x" + secrets.token_hex(8)


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def commitment(card, difficulty, conflict_id: str, salt: str, kind: str = TEST) -> str:
    """The seal of one card: hex SHA-256 of an unambiguous encoding of everything it binds."""
    text = canonical([PURPOSE, kind, card, difficulty, conflict_id, salt])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def verify(sealed: str, card, difficulty, conflict_id: str, salt: str, kind: str = TEST) -> bool:
    return secrets.compare_digest(sealed, commitment(card, difficulty, conflict_id, salt, kind))


def digest(message: dict) -> str:
    """A message's key in the session: the same message is the same key on every phone."""
    return hashlib.sha256(canonical(message).encode("utf-8")).hexdigest()[:16]


# --- Making messages -------------------------------------------------------------------------------

def seal_test(conflict_id: str, complication: str, difficulty: int, salt: str) -> dict:
    return {"c": conflict_id, "k": TEST, "t": SEAL, "by": GM, "d": difficulty,
            "h": commitment(complication, difficulty, conflict_id, salt)}


def lock_test(conflict_id: str, side: dict) -> dict:
    return {"c": conflict_id, "k": TEST, "t": LOCK, "by": PLAYER, "side": side}


def reveal_test(conflict_id: str, complication: str, difficulty: int, salt: str) -> dict:
    return {"c": conflict_id, "k": TEST, "t": REVEAL, "by": GM, "card": complication, "d": difficulty, "salt": salt}


def seal_side(conflict_id: str, role: str, side: dict, salt: str) -> dict:
    return {"c": conflict_id, "k": CONFRONTATION, "t": SEAL, "by": role,
            "h": commitment(side, None, conflict_id, salt, CONFRONTATION)}


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
        expected = {"d", "h"}
    elif kind == TEST and step == LOCK:
        expected = {"side"}
    elif kind == TEST:
        expected = {"card", "d", "salt"}
    elif step == SEAL:
        expected = {"h"}
    else:
        expected = {"side", "salt"}
    need(set(value) == {"c", "k", "t", "by"} | expected, "This sealed-card message has other fields than expected.")
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

def new_secret(conflict_id: str, kind: str, role: str, card, difficulty=None) -> dict:
    return {"c": conflict_id, "k": kind, "by": role, "card": card, "d": difficulty, "salt": new_salt()}


def check_secret(value, conflict_id: str) -> dict:
    """A stored secret read back (untrusted), or SessionError."""
    need(isinstance(value, dict) and set(value) == {"c", "k", "by", "card", "d", "salt"},
         "This phone's sealed card could not be read.")
    kind, role = (item if isinstance(item, str) else "" for item in (value["k"], value["by"]))
    need(value["c"] == conflict_id and kind in STEPS and (SEAL, role) in STEPS[kind],
         "This phone's sealed card could not be read.")
    need(isinstance(value["salt"], str) and SALT.fullmatch(value["salt"]) is not None)
    if kind == TEST:
        need(value["card"] in rules.COMPLICATIONS)
        whole(value["d"], 1, rules.LIMITS["manners_difficulty"])
    else:
        need(value["d"] is None)
        value = {**value, "card": check_side(value["card"])}
    return value


def seal_of(secret: dict) -> dict:
    """The seal message of a secret."""
    if secret["k"] == TEST:
        return seal_test(secret["c"], secret["card"], secret["d"], secret["salt"])
    return seal_side(secret["c"], secret["by"], secret["card"], secret["salt"])


def reveal_of(secret: dict) -> dict:
    if secret["k"] == TEST:
        return reveal_test(secret["c"], secret["card"], secret["d"], secret["salt"])
    return reveal_side(secret["c"], secret["by"], secret["card"], secret["salt"])


# --- Where one exchange stands ---------------------------------------------------------------------------

@dataclass
class Settled:
    kind: str
    sealed: dict = field(default_factory=dict)  # side -> its seal message
    locked: dict | None = None  # Test: the player's side, in plain
    revealed: dict = field(default_factory=dict)  # side -> its reveal message, checked against its seal
    difficulty: int | None = None  # Test: the difficulty the GM sealed
    problems: list = field(default_factory=list)  # sentences: a reveal that fails its seal, two different seals
    record: dict | None = None  # resolved, once every card is turned over and nothing is wrong


def one_each(messages: list[dict], problems: list, words: str) -> dict:
    """side -> its message of one step; two different ones from one side is a problem."""
    found = {}
    for message in sorted(messages, key=canonical):
        if message["by"] in found and found[message["by"]] != message:
            problems.append(words.format(who=WHO[message["by"]]))
            continue
        found.setdefault(message["by"], message)
    return found


def matches(seal: dict, reveal: dict, conflict: str) -> bool:
    if reveal["k"] == TEST:
        return reveal["d"] == seal["d"] and verify(seal["h"], reveal["card"], reveal["d"], conflict, reveal["salt"])
    return verify(seal["h"], reveal["side"], None, conflict, reveal["salt"], CONFRONTATION)


def settle(messages: dict) -> Settled:
    """Where the exchange of these messages ({digest: message}, one conflict) stands."""
    listed = list(messages.values())
    kind = listed[0]["k"] if listed else TEST
    conflict = listed[0]["c"] if listed else ""
    settled = Settled(kind)
    problems = settled.problems
    steps = {step: [message for message in listed if message["t"] == step] for step in (SEAL, LOCK, REVEAL)}
    settled.sealed = one_each(steps[SEAL], problems, "{who} sealed two different cards for this conflict.")
    locks = one_each(steps[LOCK], problems, "{who} sent two different Manners for this conflict.")
    if PLAYER in locks:
        settled.locked = locks[PLAYER]["side"]
    if GM in settled.sealed:
        settled.difficulty = settled.sealed[GM]["d"]
    good = []
    for reveal in sorted(steps[REVEAL], key=canonical):  # every reveal is checked, not one per side
        side = reveal["by"]
        seal = settled.sealed.get(side)
        if seal is None:
            problems.append(f"{WHO[side]}'s reveal arrived without a sealed card to check it against.")
        elif matches(seal, reveal, conflict):
            good.append(reveal)
        else:
            problems.append(f"{WHO[side]}'s reveal does not match the card they sealed: it was changed after "
                            "the seal, or the link was damaged. This result can't be logged as valid.")
    settled.revealed = one_each(good, problems, "{who} revealed two different cards for this conflict.")
    if problems:
        return settled
    if kind == TEST and settled.locked is not None and GM in settled.revealed:
        gm = settled.revealed[GM]
        record = {"v": rules.VERSION, "system": "manners", "kind": TEST, "player": settled.locked,
                  "difficulty": gm["d"], "complication": gm["card"]}
    elif kind == CONFRONTATION and {PLAYER, OPPONENT} <= settled.revealed.keys():
        record = {"v": rules.VERSION, "system": "manners", "kind": CONFRONTATION,
                  "player": settled.revealed[PLAYER]["side"], "opponent": settled.revealed[OPPONENT]["side"]}
    else:
        return settled
    try:
        settled.record = rules.resolve(record, source=rules.NoDice())
    except rules.RuleError as error:
        problems.append(f"The revealed cards don't make a conflict the rules accept: {error}")
    return settled
