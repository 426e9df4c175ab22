"""Rejoining a live table with no scan: the *standbys* two live phones keep for each other, the
ways back each stores, and the one-scan code where the browser refuses the quiet way.

While a channel is open, each phone (the *holder*) keeps standby connections for the other:
each waits with its offer set and its addresses gathered (static/live.js), and its offer goes
to the other phone as a code (session.live.signal's `O1.`, its offer id the standby's id) in a
`standby` message (session.live.protocol). The other phone stores it as a `Way` back, with, for
a *munge* standby, the ICE username and password it will use next (`new_credentials`), and
says so in an `armed` message with the fingerprint of its own key (a certificate kept in
IndexedDB): the holder sets the answer those make as the standby's remote description in advance.
After a reload the phone answers the stored offer with those credentials put into its own SDP,
with its key; the standby learns its new address from its first check, and the channel opens.
Both fingerprints are pinned: the stored offer names the holder's, the standby's answer the
phone's, so the stored values alone, without the phone's key, never get another phone in.

Browsers may refuse changed credentials (Chromium plans to): a once-per-start probe says so,
and then the phone answers a *scan* standby with its browser's own credentials and shows them
as a one-scan code (`J1.`, about 40 characters: the standby id, the ufrag and the pwd), which
the holder scans or pastes. A standby is single-use (one failed handshake burns it): a holder
keeps KEPT of them per phone, two munge and one scan, armed anew on every new channel; older
ones are dropped only once the new ones are armed.

What is stored (`Ways`, in the table in progress: ui.keeping.progress) is read back as untrusted:
anything wrong is a StandbyError with a sentence, and the phone joins with codes as before.
Pure Python.
"""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field

from .signal import (ICE_CHARACTERS, ICE_SET, OFFER, PWD_LENGTHS, UFRAG_LENGTHS, LiveCodeError, Reader, Signal,
                     from_base45, packed_text, read, to_base45, unpacked_text)
from ..errors import SessionError
from ..replica_check import DEVICE, ID
from ..model import MAX_NAME

MUNGE, SCAN = "munge", "scan"
KEPT = (MUNGE, MUNGE, SCAN)  # the standbys a holder keeps for each phone
MAX_ID = 2 ** 32 - 1
MAX_PEERS = 20  # phones a GM's phone keeps ways back to
MAX_WAYS = 2 * len(KEPT)  # ways back to one phone: the old set until the new one is armed
UFRAG_LENGTH, PWD_LENGTH = 8, 24
PRINT = re.compile(r"[0-9A-F]{2}(:[0-9A-F]{2}){31}")  # a SHA-256 fingerprint as SDP writes it
CODE = re.compile(r"J([0-9]{1,3})\.(.*)", re.DOTALL)
CODE_VERSION = 1
MAX_CODE = 120
PEER_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

UNREADABLE = ("This phone's way back to the live table could not be read ({why}), so it joins with a code as "
              "before. Nothing of the session is lost.")
NOT_A_CODE = "This is not a Tableside rejoin code."
DAMAGED = "This rejoin code is damaged: part of it is missing or changed. Scan it again."


class StandbyError(SessionError):
    """Stored ways back, or a one-scan code, that can't be used, and why, in a sentence."""


def new_id() -> int:
    return secrets.randbits(32)


def new_credentials() -> tuple[str, str]:
    """The ICE username fragment and password this phone will answer a munge standby with."""
    pick = lambda count: "".join(secrets.choice(ICE_CHARACTERS) for _ in range(count))  # noqa: E731
    return pick(UFRAG_LENGTH), pick(PWD_LENGTH)


def credentials_ok(ufrag, pwd) -> bool:
    return all(isinstance(text, str) and low <= len(text) <= high and set(text) <= ICE_SET
               for text, (low, high) in ((ufrag, UFRAG_LENGTHS), (pwd, PWD_LENGTHS)))


def print_bytes(text) -> bytes:
    """A fingerprint as SDP writes it ("AB:CD:…"), as bytes; StandbyError when it is not one."""
    if not isinstance(text, str) or PRINT.fullmatch(text.upper()) is None:
        raise StandbyError("The other phone's key is not one Tableside can pin.")
    return bytes.fromhex(text.replace(":", ""))


def print_text(data: bytes) -> str:
    return ":".join(f"{byte:02X}" for byte in data)


def answer_sdp(standby_id: int, ufrag: str, pwd: str, fingerprint: str) -> str:
    """The answer a holder sets on its standby: the other phone's credentials and its key's
    fingerprint, no address (the standby learns it from the first check)."""
    return Signal("answer", standby_id, ufrag, pwd, print_bytes(fingerprint), ()).sdp()


# --- The ways back this phone stores ------------------------------------------------------------

@dataclass(frozen=True)
class Way:
    """One standby of another phone, as this phone keeps it: its offer, and for a munge standby
    the credentials this phone answers it with."""
    id: int
    mode: str
    offer: Signal
    ufrag: str = ""
    pwd: str = ""

    def to_dict(self) -> dict:
        return {"id": self.id, "mode": self.mode, "offer": self.offer.code(), "ufrag": self.ufrag, "pwd": self.pwd}


@dataclass
class Back:
    """Another phone this one can rejoin: who it is (as its hello said) and its standbys' ways, newest last."""
    device: str = ""
    role: str = ""
    who: str = ""
    ways: list = field(default_factory=list)

    def take(self, mode: str) -> Way | None:
        """The newest way of `mode`, removed: single-use, tried once."""
        found = next((way for way in reversed(self.ways) if way.mode == mode), None)
        if found is not None:
            self.ways.remove(found)
        return found


@dataclass
class Ways:
    """Every way back this phone keeps for one session's live table: `hub` (this is the GM's
    phone) and, by peer id, the phones it can rejoin."""
    hub: bool
    peers: dict = field(default_factory=dict)  # peer id -> Back

    def add(self, peer_id: str, way: Way, keep: list[int]):
        """Store `way`; ways back to that phone its holder no longer keeps (not in `keep`) go."""
        back = self.peers.setdefault(peer_id, Back())
        back.ways = [old for old in back.ways if old.id in keep and old.id != way.id][-(MAX_WAYS - 1):] + [way]

    def drop(self, peer_id: str, ids):
        back = self.peers.get(peer_id)
        if back is not None:
            back.ways = [way for way in back.ways if way.id not in set(ids)]

    def to_dict(self) -> dict:
        return {"hub": self.hub, "peers": {peer_id: {"device": back.device, "role": back.role, "who": back.who,
                                                     "ways": [way.to_dict() for way in back.ways]}
                                           for peer_id, back in self.peers.items() if back.ways}}

    def empty(self) -> bool:
        return not any(back.ways for back in self.peers.values())


def read_ways(data) -> Ways:
    """Stored ways back, every value checked; StandbyError (with UNREADABLE's sentence) otherwise."""
    def need(condition: bool, why: str):
        if not condition:
            raise StandbyError(UNREADABLE.format(why=why))

    need(isinstance(data, dict) and set(data) == {"hub", "peers"} and isinstance(data["hub"], bool)
         and isinstance(data["peers"], dict) and len(data["peers"]) <= MAX_PEERS, "its shape is wrong")
    ways = Ways(data["hub"])
    for peer_id, back in data["peers"].items():
        need(isinstance(peer_id, str) and PEER_ID.fullmatch(peer_id) is not None, "a phone's id is wrong")
        need(isinstance(back, dict) and set(back) == {"device", "role", "who", "ways"}, "a phone's entry is wrong")
        need(back["device"] == "" or isinstance(back["device"], str) and DEVICE.fullmatch(back["device"]) is not None,
             "a phone's device id is wrong")
        need(isinstance(back["role"], str) and (back["role"] in ("", "gm") or ID.fullmatch(back["role"]) is not None),
             "whose phone it is is wrong")
        need(isinstance(back["who"], str) and len(back["who"]) <= MAX_NAME, "a name is too long")
        need(isinstance(back["ways"], list) and len(back["ways"]) <= MAX_WAYS, "a phone has too many ways back")
        ways.peers[peer_id] = Back(back["device"], back["role"], back["who"],
                                   [read_way(way, need) for way in back["ways"]])
    return ways


def read_way(data, need) -> Way:
    need(isinstance(data, dict) and set(data) == {"id", "mode", "offer", "ufrag", "pwd"}, "a way back is wrong")
    need(isinstance(data["id"], int) and not isinstance(data["id"], bool) and 0 <= data["id"] <= MAX_ID,
         "a standby's id is wrong")
    need(data["mode"] in (MUNGE, SCAN), "a standby's kind is wrong")
    try:
        offer = read(data["offer"])
    except LiveCodeError as error:
        raise StandbyError(UNREADABLE.format(why=f"a stored offer: {str(error).rstrip('.')}")) from None
    need(offer.kind == OFFER and offer.offer_id == data["id"], "a stored offer is not its standby's")
    if data["mode"] == MUNGE:
        need(credentials_ok(data["ufrag"], data["pwd"]), "the stored credentials are wrong")
    else:
        need(data["ufrag"] == data["pwd"] == "", "a scan standby holds credentials")
    return Way(data["id"], data["mode"], offer, data["ufrag"], data["pwd"])


# --- The one-scan code ---------------------------------------------------------------------------

def rejoin_code(standby_id: int, ufrag: str, pwd: str) -> str:
    """`J1.` and base45 of the standby's id (4 bytes), then the ufrag and pwd as signal.py packs them."""
    data = standby_id.to_bytes(4, "big") + packed_text(ufrag) + packed_text(pwd)
    return f"J{CODE_VERSION}.{to_base45(data)}"


def looks_like_rejoin_code(text) -> bool:
    return isinstance(text, str) and CODE.match(text.strip()) is not None


def read_rejoin_code(text) -> tuple[int, str, str]:
    """(standby id, ufrag, pwd) of a one-scan code; StandbyError with a sentence for anything else."""
    if not isinstance(text, str) or len(text) > MAX_CODE + 16:
        raise StandbyError(NOT_A_CODE)
    match = CODE.fullmatch(text.strip())
    if match is None:
        raise StandbyError(NOT_A_CODE)
    if int(match.group(1)) > CODE_VERSION:
        raise StandbyError("This rejoin code was made by a newer version of Tableside. Update the app (reload it "
                           "while online), then scan it again.")
    if int(match.group(1)) < 1 or len(match.group(2)) > MAX_CODE:
        raise StandbyError(NOT_A_CODE)
    try:
        reader = Reader(from_base45(match.group(2)))
        standby_id = int.from_bytes(reader.take(4), "big")
        ufrag, pwd = unpacked_text(reader), unpacked_text(reader)
    except LiveCodeError:
        raise StandbyError(DAMAGED) from None
    if reader.left() or not credentials_ok(ufrag, pwd):
        raise StandbyError(DAMAGED)
    return standby_id, ufrag, pwd
