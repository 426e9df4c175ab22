"""Who may change what: the one rule every arrival (link, file, live message) goes through.

No phone signs what it writes (there are no keys), so a write's author is the device in its
stamp. What every phone can still check, from the replicas alone:

- The GM's phone is on record (`Replica.gm`, written when a phone takes the GM's role or opens
  a live table as the GM's). Once a phone knows it, a link that names another GM is refused,
  unless the GM on record wrote it (a hand-over).
- Who holds whom (`Replica.holders`): a player's phone *claims* its character (a record written by
  its own device); the GM's phone *grants* it (a record written by the GM's device). Only grants
  count, and they only grow.
- A write by the GM's device is the GM's: kept. A write by another device is kept when it is that
  device's own: its person's sheet (not the name or kind: who is who is the GM's) and counts, a
  sheet it adds for its person in another system (its person by the id it derives from, session.lineage,
  whatever it is named), the rolls it logged (labelled as its holder's,
  never "GM"), its undo of its own rolls, and the counts those rolls and undos moved (Tension,
  someone else's Health: no more than the effects of its rolls new to this phone account for;
  otherwise its rolls and their counts are held together, so they are always taken whole).
- Everything else is *held*: listed change by change for the GM's "Add" on the GM's phone, refused
  with one sentence on every other phone.
- Counts a phone moved beyond what its rolls account for, once the GM adds them, stay that phone's
  own, vouched for by the GM's phone; every phone allows a count up to what the GM vouched for as
  well as what its rolls account for (session.vouching).
- A write stamped with this phone's own device that this phone never made is forged: dropped. (But
  for `own`: a version-1 link carries no writer, so what it shows is written as this phone's change
  when the person here takes it, and judged as this phone's: kept on the GM's phone, on a player's
  only what that player may change.)

With no GM on record (a shared phone, an older session) every change is kept, as before.
Pure Python.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.words import isolate

from . import lineage
from .inert import known_counts, writers
from .replica import BASE, COUNT_NAMES, ENTRY_COUNTS, REMOVAL_FIELDS, Replica, effect_targets, later_write
from .vouching import Vouches

WHO_IS_WHO = ("name", "kind", "system")  # a sheet's fields that say who it is: the GM's to change
SESSION_WORDS = {"name": "the session's name", "system": "the session's rule system",
                 "players": "the number of players", "settings": "the session's settings",
                 "tension_table": "the Tension Table"}
ANOTHER_GM = "This link names another phone as the GM, so it was not used."
BEYOND_ROLLS = "more than its rolls here account for"
FORGED = "Changes written in this phone's name that it never made were ignored."


@dataclass
class Verdict:
    kept: Replica  # what merges now
    held: Replica  # what waits for the GM's "Add" (nothing of it merges otherwise)
    changes: list[str] = field(default_factory=list)  # the held changes, one line each
    forged: int = 0  # writes in this phone's name it never made, dropped
    refusal: str = ""  # the whole link was refused (another GM): nothing merges

    @property
    def holds(self) -> bool:
        return bool(self.changes)


def gm_of(replica: Replica) -> str | None:
    return replica.gm[0] if replica.gm is not None else None


def recorded_gm(mine: Replica, incoming: Replica) -> str | None:
    return gm_of(mine) if mine.gm is not None else gm_of(incoming)


def grants(replica: Replica, gm: str) -> dict[str, set]:
    """Roster id -> the devices the GM's phone gave it to."""
    return {entry_id: {device for device, record in devices.items() if record[1] == gm}
            for entry_id, devices in replica.holders.items()}


class Table:
    """Who is who, from this phone's replica and the incoming one: the GM's device, each roster
    entry's person (kind and name), who holds each person, and each device's holder's name."""

    def __init__(self, mine: Replica, incoming: Replica, gm: str):
        self.gm = gm
        self.names: dict[str, tuple[str, str]] = {}
        for replica in (incoming, mine):  # this phone's names win: an incoming rename may be held
            for entry_id, entry in replica.roster.items():
                kind, name = entry["fields"].get("kind", [None])[0], entry["fields"].get("name", [None])[0]
                if isinstance(name, str):
                    self.names[entry_id] = (kind or "character", name)
        for entry_id in self.names:  # a derived sheet is its typed sheet's person, whatever it is named
            typed = lineage.parent(entry_id, self.names)
            if typed is not None:
                self.names[entry_id] = self.names[typed]
        self.persons = {entry_id: (kind, folded(name)) for entry_id, (kind, name) in self.names.items()}
        self.holders: dict[tuple, set] = {}
        for replica in (mine, incoming):
            for entry_id, devices in grants(replica, gm).items():
                if entry_id in self.names:
                    self.holders.setdefault(self.person(entry_id), set()).update(devices)

    def person(self, entry_id: str) -> tuple:
        return self.persons.get(entry_id) or ("", folded(entry_id))

    def holds(self, device: str, entry_id: str) -> bool:
        return device == self.gm or device in self.holders.get(self.person(entry_id), set())

    def holds_person(self, device: str, kind: str, name: str) -> bool:
        return device in self.holders.get((kind, " ".join(str(name).split()).casefold()), set())

    def holds_added(self, device: str, entry_id: str, kind: str, name: str) -> bool:
        """`device` holds the person of a sheet it added: a derived sheet's by the typed sheet its id names
        (session.lineage), whatever it is named; another's by its kind and name."""
        typed = lineage.parent(entry_id, self.names)
        if typed is not None:
            return kind == self.names[typed][0] and self.holds(device, entry_id)
        return self.holds_person(device, kind, name)

    def name(self, entry_id) -> str:
        return isolate(self.names.get(entry_id, ("", "someone"))[1])

    def phone(self, device: str) -> str:
        """"Élodie's phone", "The GM's phone", "A phone"."""
        who = self.who(device)
        return "A phone" if who == "A phone" else f"{who}'s phone"

    def who(self, device: str) -> str:
        """"Élodie", "The GM", or "A phone" (nobody holds it)."""
        if device == self.gm:
            return "The GM"
        held = sorted(entry_id for entry_id in self.names if self.holds(device, entry_id))
        return self.name(held[0]) if held else "A phone"

    def label(self, device: str) -> str:
        """How the Log may label an entry that `device` logged: its holder's name, "GM", or ""."""
        if device == self.gm:
            return "GM"
        held = sorted(entry_id for entry_id in self.names if self.holds(device, entry_id))
        return self.names[held[0]][1] if held else ""


def origin(stamp: list) -> bool:
    """A stamp of what a version-1 session held when it became a replica (session.replica.BASE)."""
    return stamp[1] == BASE and stamp[0] <= 0


def folded(text) -> str:
    return " ".join(str(text).split()).casefold()


def roll_words(entry: dict, table: Table) -> str:
    """"Bo's roll GM 4": whose roll (its first character's, else its phone's holder's), and its label."""
    from .links.v2 import record_sides  # the links' code: loaded when a roll is worded, never at start-up

    names = [side.get("name") for side in record_sides(entry.get("record"))
             if side.get("id") in table.names and table.names[side["id"]][0] == "character"]
    owner = names[0] if names else table.label(entry["device"])
    owner = "the GM's" if owner == "GM" else f"{isolate(owner)}'s" if owner else "a"
    label = f"{entry.get('phone') or ''} {entry['n']}".strip() if "n" in entry else ""
    return f"{owner} roll{' ' + isolate(label) if label else ''}"


def judge(mine: Replica, incoming: Replica, here: str, known: dict | None = None, own: bool = False) -> Verdict:
    """Split what `incoming` brings to `mine` into what its writers may change (`kept`) and the
    rest (`held`, in words). `here`: this phone's device; `known`: log entries this phone holds
    outside memory that incoming names ({id: entry}, from the log store); `own`: `incoming` is a
    change made on this phone (an old link taken here), so its writes in this phone's name are not forged."""
    gm = recorded_gm(mine, incoming)
    empty = Replica(incoming.id, incoming.clock)
    if gm is None:
        return Verdict(incoming, empty)
    if mine.gm is not None and incoming.gm is not None and incoming.gm[0] != mine.gm[0] \
            and later_write(mine.gm, incoming.gm) is incoming.gm and incoming.gm[2] != mine.gm[0]:
        return Verdict(empty, empty, refusal=ANOTHER_GM)
    return Judging(mine, incoming, here, gm, known or {}, own).verdict()


class Judging:
    """One judgement: walks each part of the incoming replica once."""

    def __init__(self, mine: Replica, incoming: Replica, here: str, gm: str, known: dict, own: bool = False):
        self.mine, self.incoming, self.here, self.gm = mine, incoming, here, gm
        self.forgeable = None if own else here  # the device whose news is forged
        self.table = Table(mine, incoming, gm)
        self.known = {**known, **mine.log}
        self.kept = Replica(incoming.id, incoming.clock, sealed=incoming.sealed)
        self.held = Replica(incoming.id, incoming.clock)
        self.changes: list[str] = []
        self.forged = 0
        self.held_adds: set[str] = set()  # roster entries whose addition is held (or forged)
        self.vouches = Vouches(mine, incoming, gm, self.forgeable)
        self.forged += self.vouches.forged

    def verdict(self) -> Verdict:
        incoming = self.incoming
        self.kept.gm = incoming.gm if incoming.gm is None or incoming.gm[0] == self.gm else self.mine.gm
        self.kept.holders = {entry_id: {device: record for device, record in devices.items()
                                        if record[1] in (device, self.gm)}
                             for entry_id, devices in incoming.holders.items()}
        self.fields()
        self.roster()
        self.rolls()
        self.kept.vouched = self.vouches.kept(self.mine, self.kept)
        return Verdict(self.kept, self.held, self.changes, self.forged)

    def forged_write(self, device: str) -> bool:
        if device == self.forgeable:
            self.forged += 1
            return True
        return False

    def hold(self, words: str):
        if words not in self.changes:
            self.changes.append(words)

    # --- The session's fields ---------------------------------------------------------------------------

    def fields(self):
        for key, write in self.incoming.fields.items():
            kept = self.mine.fields.get(key)
            news = kept is None or later_write(kept, write) is not kept  # it changes something here
            if news and self.forged_write(write[2]):
                continue
            if write[2] == self.gm or origin(write[1:]) or not news and write[2] == self.here:
                self.kept.fields[key] = write
            else:
                self.held.fields[key] = write
                news and self.hold(f"{self.table.phone(write[2])}: {SESSION_WORDS.get(key, key)}"
                          + (f" to “{isolate(str(write[0]))}”" if key == "name" else ""))

    # --- Roster entries: added, removed, their fields and counts they own ---------------------------------

    def roster(self):
        for entry_id, entry in self.incoming.roster.items():
            was = self.mine.roster.get(entry_id)
            kept, held = {"added": None, "removed": None, "fields": {}, "counts": {}}, \
                {"added": None, "removed": None, "fields": {}, "counts": {}}
            added = entry.get("added")
            if added is not None:
                adder = added[1]
                news = was is None or was.get("added") != added
                at_add = {key: write for key, write in entry["fields"].items() if write[1:] == added}
                allowed = adder == self.gm or origin(added) or self.table.holds_added(
                    adder, entry_id, at_add.get("kind", ["character"])[0], at_add.get("name", [""])[0])
                if allowed and (adder != self.forgeable or not news):
                    kept["added"] = added
                elif not news:
                    self.held_adds.add(entry_id)
                elif not self.forged_write(adder):
                    held.update(added=added, fields=at_add, counts={key: {adder: counts[adder]} for key, counts
                                                                   in entry["counts"].items() if adder in counts})
                    self.held_adds.add(entry_id)
                    self.hold(f"{self.table.phone(adder)}: add {isolate(str(at_add.get('name', [''])[0]))}")
                else:
                    self.held_adds.add(entry_id)
            removed = entry.get("removed")
            news = removed is not None and (was is None or was.get("removed") != removed)
            if removed is not None:
                if news and self.forged_write(removed[1]):
                    pass
                elif removed[1] == self.gm or origin(removed) or not news and removed[1] == self.here:
                    kept["removed"] = removed
                else:
                    held["removed"] = removed
                    news and self.hold(f"{self.table.phone(removed[1])}: remove {self.table.name(entry_id)}")
            gone = removed_here(self.mine, entry_id)  # its sheet and counts were shed here: nothing of them is news
            for key, write in entry["fields"].items():
                mine_write = (was or {}).get("fields", {}).get(key)
                news = not (gone and key not in REMOVAL_FIELDS) and (
                    mine_write is None or later_write(mine_write, write) is not mine_write)
                writer = write[2]
                if entry_id in self.held_adds and write[1:] == added:
                    continue  # part of the addition held above
                at_add = added is not None and write[1:] == added and kept["added"] is not None
                if news and self.forged_write(writer):
                    continue
                if writer == self.gm or at_add or origin(write[1:]) or (key not in WHO_IS_WHO and self.table.holds(writer, entry_id)) \
                        or not news and writer == self.here:
                    kept["fields"][key] = write
                else:
                    held["fields"][key] = write
                    news and self.hold(f"{self.table.phone(writer)}: "
                              + (f"rename {self.table.name(entry_id)} to “{isolate(str(write[0]))}”" if key == "name"
                                 else f"change {self.table.name(entry_id)}'s {key.replace('_', ' ')}"))
            for key, counts in entry["counts"].items():
                for device, steps in counts.items():
                    if not self.table.holds(device, entry_id):
                        continue  # moved by rolls: `rolls`
                    if device == self.forgeable and not gone and self.increase(("entry", entry_id, key), device, steps) != (0, 0):
                        self.forged += 1
                    else:
                        kept["counts"].setdefault(key, {})[device] = steps
            self.kept.roster[entry_id] = kept
            if held["added"] or held["removed"] or held["fields"]:
                self.held.roster[entry_id] = held

    # --- Rolls: log entries, undo marks and the counts they moved, per device ------------------------------

    def rolls(self):
        """Each device's rolls, undo marks and the counts it moved of what it does not hold, in one pass."""
        self.found: dict[str, list] = {}  # device -> [(target, steps)]; not what nobody can act on (session.inert)
        known = writers(self.mine, self.incoming)
        for device, steps in known_counts(self.mine.tension, self.incoming.tension, known).items():
            self.found.setdefault(device, []).append((("tension",), steps))
        for entry_id, entry in self.incoming.roster.items():
            if entry_id in self.held_adds and entry_id not in self.mine.roster:
                continue
            for key, counts in entry["counts"].items():
                for device, steps in known_counts(mine_steps_of(self.mine, entry_id, key), counts, known).items():
                    if not self.table.holds(device, entry_id):
                        self.found.setdefault(device, []).append((("entry", entry_id, key), steps))
        devices = {entry["device"] for entry in self.incoming.log.values()}
        devices |= {device for mark in self.incoming.undone.values() for device in mark["by"]}
        for device in sorted(devices | self.found.keys()):
            self.rolls_of(device)

    def rolls_of(self, device: str):
        incoming, mine = self.incoming, self.mine
        entries = [entry for entry_id, entry in incoming.log.items()
                   if entry["device"] == device and entry_id not in self.known]
        marks = [entry_id for entry_id, mark in incoming.undone.items()
                 if device in mark["by"] and device not in mine.undone.get(entry_id, {}).get("by", {})]
        moves = self.moves(device)
        if not entries and not marks and not moves:
            self.take(device, [], [], [])
            return
        if device == self.forgeable:  # this phone has everything it wrote: more is forged (but what the GM vouched for)
            vouched, forged = self.vouches.own(lambda target: mine_steps(self.mine, target, device), device, moves)
            self.forged += forged + len(entries) + len(marks)
            self.take(device, [], [], vouched)
            return
        if device == self.gm:
            self.take(device, entries, marks, moves)
            return
        lines = []
        for entry in entries:
            if not self.own_label(device, entry.get("phone", "")):
                lines.append(f"a roll labelled “{isolate(entry['phone'])} {entry.get('n', '')}”".replace(" ”", "”"))
        for entry_id in marks:
            logged = incoming.log.get(entry_id) or self.known.get(entry_id)
            if logged is None:
                continue  # a mark of an entry nobody here has: it changes nothing
            if logged["device"] != device:
                lines.append(f"undid {roll_words(logged, self.table)}")
        marks = [entry_id for entry_id in marks if entry_id in incoming.log or entry_id in self.known]
        phone = self.table.phone(device)
        if not lines:  # its rolls merge; its counts as far as they account for, the rest waits
            clipped, excess = self.within(device, entries, marks, moves)
            self.take(device, entries, marks, clipped)
            if self.here == self.gm:  # what the GM's phone takes, it vouches for (session.vouching)
                self.vouches.take(device, clipped, self.mine.clock)
            if excess:
                for target, steps in moves:
                    put(self.held, target, device, steps)
                moved = ", ".join(move_words(self.table, target, delta) for target, delta in excess)
                self.hold(f"{phone}: {moved}, {BEYOND_ROLLS}")
            return
        self.take(device, [], [], [], held_out=True)  # a roll that is not its own: held whole, with its counts
        for entry in entries:
            self.held.log[entry["id"]] = entry
        for entry_id in marks:
            self.held.undone[entry_id] = {"by": {device: incoming.undone[entry_id]["by"][device]},
                                          "effects": incoming.undone[entry_id]["effects"]}
        for target, steps in moves:
            put(self.held, target, device, steps)
        moved = ", ".join(move_words(self.table, target, self.net(target, device, steps)) for target, steps in moves)
        for line in lines:
            self.hold(f"{phone}: {line}" + (f" ({moved})" if moved else ""))
            moved = ""

    def own_label(self, device: str, label: str) -> bool:
        """A player's phone labels its rolls with its holder's name (or none): never "GM". (Two phones may
        play one character, so a character's name is not checked against who holds it.)"""
        return folded(label) != "gm"

    def moves(self, device: str) -> list[tuple[tuple, list]]:
        """(target, steps) of `device`'s counts this phone does not have yet, for targets it does not
        hold: Tension, someone else's counts."""
        return [(target, steps) for target, steps in self.found.get(device, [])
                if self.increase(target, device, steps) != (0, 0)]

    def increase(self, target: tuple, device: str, steps: list) -> tuple[int, int]:
        up, down = mine_steps(self.mine, target, device)
        return max(0, steps[0] - up), max(0, steps[1] - down)

    def within(self, device: str, entries: list[dict], marks: list[str], moves):
        """`moves` kept within what these entries' effects and the undo of these marks account for, or
        the GM vouched for (what a count moved beyond both waits for the GM), and [(target, net move beyond)]."""
        if not moves:
            return [], []
        room: dict[tuple, list] = {}
        for effects, sign in [(entry.get("effects", []), 1) for entry in entries] + \
                             [(self.incoming.undone[entry_id]["effects"], -1) for entry_id in marks]:
            for target, delta in effect_targets(effects):
                allowed = room.setdefault(target, [0, 0])
                allowed[0 if sign * delta > 0 else 1] += abs(delta)
        clipped, excess = [], []
        for target, steps in moves:
            had, allowed, vouched = mine_steps(self.mine, target, device), room.get(target, [0, 0]), \
                self.vouches.allowed(target, device)
            increase = [max(0, steps[0] - had[0]), max(0, steps[1] - had[1])]
            kept = [max(had[side] + min(increase[side], allowed[side]), min(steps[side], vouched[side])) for side in (0, 1)]
            whole = [max(had[side], steps[side]) for side in (0, 1)]
            clipped.append((target, kept))
            if kept != whole:
                excess.append((target, (whole[0] - kept[0]) - (whole[1] - kept[1])))
        return clipped, excess

    def net(self, target: tuple, device: str, steps: list) -> int:
        up, down = self.increase(target, device, steps)
        return up - down

    def take(self, device: str, entries, marks, moves, held_out: bool = False):
        for entry in entries:
            self.kept.log[entry["id"]] = entry
        for entry_id, entry in self.incoming.log.items():
            if entry["device"] == device and entry_id in self.known and not held_out:
                self.kept.log[entry_id] = entry  # already here: it changes nothing
        for entry_id in marks:
            mark = self.kept.undone.setdefault(entry_id, {"by": {}, "effects": self.incoming.undone[entry_id]["effects"]})
            mark["by"][device] = self.incoming.undone[entry_id]["by"][device]
        for entry_id, mark in self.incoming.undone.items():  # marks this phone has already
            if device in mark["by"] and device in self.mine.undone.get(entry_id, {}).get("by", {}):
                kept = self.kept.undone.setdefault(entry_id, {"by": {}, "effects": mark["effects"]})
                kept["by"][device] = mark["by"][device]
        for target, steps in moves:
            put(self.kept, target, device, steps)



def removed_here(mine: Replica, entry_id: str) -> bool:
    """Is the roster entry removed on this phone (so the merge sheds its counts and sheet: replica.shed)?"""
    return (mine.roster.get(entry_id) or {}).get("removed") is not None


def put(replica: Replica, target: tuple, device: str, steps: list):
    if target == ("tension",):
        replica.tension[device] = steps
        return
    entry = replica.roster.setdefault(target[1], {"added": None, "removed": None, "fields": {}, "counts": {}})
    entry["counts"].setdefault(target[2], {})[device] = steps


def mine_steps(mine: Replica, target: tuple, device: str) -> list:
    if target == ("tension",):
        return mine.tension.get(device, [0, 0])
    return mine_steps_of(mine, target[1], target[2]).get(device, [0, 0])


def mine_steps_of(mine: Replica, entry_id: str, key: str) -> dict:
    """An entry's count here, by device."""
    return mine.roster.get(entry_id, {}).get("counts", {}).get(key, {})


def move_words(table: Table, target: tuple, delta: int) -> str:
    what = "Tension" if target == ("tension",) else f"{table.name(target[1])}'s {COUNT_NAMES[target[2]]}"
    return f"{what} {'+' if delta >= 0 else '−'}{abs(delta)}"


# --- Writing who is who (on the phone that says it) ------------------------------------------------------

def record_gm(replica: Replica, device: str) -> bool:
    """This phone is the GM's: on record once, when no GM is (True when it wrote it)."""
    if replica.gm is not None:
        return False
    replica.gm = [device, replica.tick(), device]
    return True


def claim(replica: Replica, entry_id: str, device: str):
    """This phone's player holds the character `entry_id` (a request: only the GM's grant counts).
    Stamped at the clock the replica has, not a new tick: the Log orders entries across phones by
    clock, and saying who holds this phone must not move this phone's next roll past what another
    phone logged meanwhile (a claim is compared only with the same device's other records)."""
    record = replica.holders.get(entry_id, {}).get(device)
    if record is None:
        replica.holders = {**replica.holders, entry_id: {**replica.holders.get(entry_id, {}),
                                                         device: [replica.clock, device]}}


def grant(replica: Replica, entry_id: str, device: str, gm: str):
    """(The GM's phone) `device` holds the character `entry_id`."""
    record = replica.holders.get(entry_id, {}).get(device)
    if record is None or record[1] != gm:
        replica.holders = {**replica.holders, entry_id: {**replica.holders.get(entry_id, {}),
                                                         device: [replica.tick(), gm]}}


def open_claims(mine: Replica, incoming: Replica) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(The GM's phone) Claims in `incoming` not granted here: ([(entry id, device)] of people nobody
    holds, [(entry id, device)] of people another phone holds)."""
    gm = gm_of(mine)
    if gm is None:
        return [], []
    table = Table(mine, incoming, gm)
    free, contested = [], []
    for entry_id, devices in sorted(incoming.holders.items()):
        for device, record in sorted(devices.items()):
            if record[1] != device or device == gm or table.holds(device, entry_id) or entry_id not in table.names:
                continue
            holders = table.holders.get(table.person(entry_id), set())
            (contested if holders else free).append((entry_id, device))
    return free, contested
