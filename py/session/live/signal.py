"""A live table's offers and answers as short codes for a QR code, and back: the signalling
of a WebRTC data channel between two phones with no server (static/live.js makes the SDP).

The browser's SDP (about 585 characters, QR version 16-19) is cut to what the connection
needs: the ICE username fragment and password, the DTLS certificate's SHA-256 fingerprint
and the host candidates (UDP, local addresses only). Everything else is the same for every
Tableside connection and written back by `Signal.sdp()`: one data channel (`mid` 0, SCTP
port 5000, 256 KiB messages), DTLS role `actpass` in an offer and `active` in an answer.

A code is `O1.` (an offer) or `A1.` (an answer), kind and version, then base45 (RFC 9285:
the QR code's alphanumeric characters, 1.5 characters a byte) of these bytes:

    offer id     4   random, chosen by the offering phone; an answer repeats its offer's
    ufrag        1 + ICE characters, 6 bits each ([A-Za-z0-9+/]), their count first; 4 bits
                     each when all are lower-case hex digits (Firefox's), the count's top bit set
    pwd          1 + the same
    fingerprint  32  SHA-256 of the DTLS certificate
    candidates   1 + their count first, then each: kind (0 IPv4, 1 IPv6, 2 an mDNS name
                     `<uuid>.local`), the address (4 or 16 bytes), the port (2)

An offer with one IPv4 candidate is 67 bytes, 104 characters, QR version 4.
Addresses outside the local network (a public IPv4, a global IPv6) never enter a code and
are refused in one: a scanned code never sends a phone's connection checks to the
internet. Reading never trusts its input: every problem is a LiveCodeError, whose message
is one sentence for players.
"""
from __future__ import annotations

import ipaddress
import re
import secrets
from dataclasses import dataclass

from ..errors import SessionError

OFFER, ANSWER = "offer", "answer"
VERSION = 1  # the newest code version this app reads
PREFIX = {OFFER: "O", ANSWER: "A"}
KINDS = {letter: kind for kind, letter in PREFIX.items()}
SETUP = {OFFER: "actpass", ANSWER: "active"}  # the DTLS roles: the answering phone starts the handshake
MAX_OFFER_ID = 2 ** 32 - 1
ICE_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
ICE_SET = frozenset(ICE_CHARACTERS)
HEX = "0123456789abcdef"
HEX_SET = frozenset(HEX)
HEXED = 0x80  # in a text's count: packed as hex digits
UFRAG_LENGTHS, PWD_LENGTHS = (4, 64), (22, 64)  # RFC 8839 allows 256; browsers use 4-8 and 22-32
FINGERPRINT_BYTES = 32
KEPT_CANDIDATES = 3  # written into a code: a phone with camera permission offers every interface
MAX_CANDIDATES = 6  # read from a code
MAX_CODE = 400  # characters; the largest valid code is 374
MAX_SDP = 20_000  # characters of a browser's SDP we read at all
SCTP_PORT = 5000
MAX_MESSAGE_SIZE = 262_144  # what Chromium and Safari announce; live.js caps messages lower
# Where a phone at the same table can be: private, shared (carrier-grade NAT) and link-local
# IPv4; unique-local and link-local IPv6.
LOCAL_NETWORKS = tuple(ipaddress.ip_network(net) for net in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16",
    "fc00::/7", "fe80::/10"))
IPV4, IPV6, MDNS = 0, 1, 2
ADDRESS_BYTES = {IPV4: 4, IPV6: 16, MDNS: 16}
MDNS_NAME = re.compile(r"([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local")
BASE45 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
BASE45_VALUES = {character: value for value, character in enumerate(BASE45)}
CODE = re.compile(r"([A-Z])(0|[1-9][0-9]{0,2})\.(.*)", re.DOTALL)
# An offer's code, for the scanner (a JavaScript RegExp too): the camera stays on while the phone that
# scanned it answers, so the answer names its real addresses (browsers hide them until the camera is on).
OFFER_PATTERN = r"^\s*O[1-9][0-9]{0,2}\."

DAMAGED = "This code is damaged: part of it is missing or changed. Scan it again."
SHORT = "This code is incomplete: it was cut short. Scan it again."


class LiveCodeError(SessionError):
    """A live table code that cannot be used, or a connection that cannot become one, and
    why, in a sentence for players."""


def refuse(condition: bool, message: str = DAMAGED) -> None:
    if condition:
        raise LiveCodeError(message)


@dataclass(frozen=True)
class Candidate:
    """Where a phone listens: an IPv4 or IPv6 address (as Python's ipaddress writes it) or an
    mDNS name `<uuid>.local`, and a UDP port."""
    address: str
    port: int

    def __post_init__(self):
        refuse(not isinstance(self.port, int) or isinstance(self.port, bool) or not 1 <= self.port <= 65535)
        refuse(candidate_kind(self.address) is None,
               "This code names an address outside the local network, so it was not used.")


@dataclass(frozen=True)
class Signal:
    """What one side of a connection tells the other: an offer (the hub's, one per player) or
    the answer to one, holding its offer's id. Made valid or not at all."""
    kind: str
    offer_id: int
    ufrag: str
    pwd: str
    fingerprint: bytes
    candidates: tuple[Candidate, ...]

    def __post_init__(self):
        refuse(self.kind not in PREFIX)
        refuse(not isinstance(self.offer_id, int) or isinstance(self.offer_id, bool)
               or not 0 <= self.offer_id <= MAX_OFFER_ID)
        for text, (low, high) in ((self.ufrag, UFRAG_LENGTHS), (self.pwd, PWD_LENGTHS)):
            refuse(not isinstance(text, str) or not low <= len(text) <= high or not set(text) <= ICE_SET)
        refuse(not isinstance(self.fingerprint, bytes) or len(self.fingerprint) != FINGERPRINT_BYTES)
        refuse(not isinstance(self.candidates, tuple) or len(self.candidates) > MAX_CANDIDATES
               or not all(isinstance(candidate, Candidate) for candidate in self.candidates)
               or len(set(self.candidates)) != len(self.candidates))
        refuse(self.kind == OFFER and not self.candidates,
               "This offer names no address to connect to: make a new one on a phone on the table's Wi-Fi.")

    def code(self) -> str:
        """The text of the QR code."""
        return f"{PREFIX[self.kind]}{VERSION}.{to_base45(self.packed())}"

    def packed(self) -> bytes:
        data = bytearray(self.offer_id.to_bytes(4, "big"))
        data += packed_text(self.ufrag) + packed_text(self.pwd)
        data += self.fingerprint + bytes([len(self.candidates)])
        for candidate in self.candidates:
            kind = candidate_kind(candidate.address)
            data.append(kind)
            data += address_bytes(kind, candidate.address) + candidate.port.to_bytes(2, "big")
        return bytes(data)

    def sdp(self) -> str:
        """A minimal SDP for RTCPeerConnection.setRemoteDescription on the other phone."""
        lines = ["v=0", f"o=- {self.offer_id} 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
                 "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0"]
        for index, candidate in enumerate(self.candidates):
            priority = (126 << 24) | ((65535 - index) << 8) | 255  # host, in the order kept, component 1
            lines.append(f"a=candidate:{index + 1} 1 udp {priority} {candidate.address} {candidate.port} typ host")
        fingerprint = ":".join(f"{byte:02X}" for byte in self.fingerprint)
        lines += ["a=end-of-candidates", f"a=ice-ufrag:{self.ufrag}", f"a=ice-pwd:{self.pwd}",
                  f"a=fingerprint:sha-256 {fingerprint}", f"a=setup:{SETUP[self.kind]}", "a=mid:0",
                  f"a=sctp-port:{SCTP_PORT}", f"a=max-message-size:{MAX_MESSAGE_SIZE}"]
        return "\r\n".join(lines) + "\r\n"


def from_firefox(signal: Signal) -> bool:
    """Whether Firefox made this offer (its ICE credentials are lower-case hex, 8 and 32 long). Two
    measured differences follow from it (tests/browser/inside_live_reach.py, inside_live_rejoin.py):
    Chromium (and so Safari's WebRTC) replies to the answering phone's checks before it has the
    answer, Firefox does not; and a Firefox connection whose answer is set before any check arrives
    gives up ("ICE failed") within seconds, where Chromium's waits."""
    return len(signal.ufrag) == 8 and len(signal.pwd) == 32 and set(signal.ufrag + signal.pwd) <= HEX_SET


def new_offer_id() -> int:
    return secrets.randbits(32)


def offer_code(sdp: str, offer_id: int) -> str:
    """The code of the browser's offer (after ICE gathering completed)."""
    return from_sdp(OFFER, sdp, offer_id).code()


def answer_code(sdp: str, offer_id: int) -> str:
    """The code of the browser's answer to the offer `offer_id`."""
    return from_sdp(ANSWER, sdp, offer_id).code()


def looks_like_code(text) -> bool:
    """True when scanned or pasted text is meant as a live table code (of any version)."""
    match = CODE.match(text.strip()) if isinstance(text, str) else None
    return match is not None and match.group(1) in KINDS


# --- Reading a code ------------------------------------------------------------------------------

def read(text) -> Signal:
    """The offer or answer a scanned code holds; LiveCodeError for anything else."""
    refuse(not isinstance(text, str), "This is not a Tableside live table code.")
    refuse(len(text) > MAX_CODE + 16, "This code is far too long to be a Tableside live table code.")
    match = CODE.fullmatch(text.strip())
    refuse(match is None or match.group(1) not in KINDS, "This is not a Tableside live table code.")
    version = int(match.group(2))
    refuse(version > VERSION, f"This code was made by a newer version of Tableside (live code version "
                              f"{version}). Update the app (reload it while online), then scan it again.")
    refuse(version < 1, f"This code's version ({version}) is not one Tableside can read.")
    refuse(len(match.group(3)) > MAX_CODE, "This code is far too long to be a Tableside live table code.")
    return unpacked(KINDS[match.group(1)], from_base45(match.group(3)))


def unpacked(kind: str, data: bytes) -> Signal:
    reader = Reader(data)
    offer_id = int.from_bytes(reader.take(4), "big")
    ufrag, pwd = unpacked_text(reader), unpacked_text(reader)
    fingerprint = reader.take(FINGERPRINT_BYTES)
    count = reader.take(1)[0]
    refuse(count > MAX_CANDIDATES)
    candidates = []
    for _ in range(count):
        kind_of_address = reader.take(1)[0]
        refuse(kind_of_address not in ADDRESS_BYTES)
        address = address_text(kind_of_address, reader.take(ADDRESS_BYTES[kind_of_address]))
        candidates.append(Candidate(address, int.from_bytes(reader.take(2), "big")))
    refuse(reader.left(), "This code is damaged: it has extra data at its end. Scan it again.")
    return Signal(kind, offer_id, ufrag, pwd, fingerprint, tuple(candidates))


class Reader:
    def __init__(self, data: bytes):
        self.data, self.at = data, 0

    def take(self, count: int) -> bytes:
        refuse(self.at + count > len(self.data), SHORT)
        self.at += count
        return self.data[self.at - count:self.at]

    def left(self) -> int:
        return len(self.data) - self.at


# --- Bytes <-> characters ------------------------------------------------------------------------

def to_base45(data: bytes) -> str:
    digits = []
    for at in range(0, len(data) - 1, 2):
        value = data[at] << 8 | data[at + 1]
        digits += (value % 45, value // 45 % 45, value // 2025)
    if len(data) % 2:
        digits += (data[-1] % 45, data[-1] // 45)
    return "".join(BASE45[digit] for digit in digits)


def from_base45(text: str) -> bytes:
    refuse(any(character not in BASE45_VALUES for character in text),
           "This code is damaged: it holds characters a Tableside code never has. Scan it again.")
    refuse(len(text) % 3 == 1, SHORT)
    data = bytearray()
    for at in range(0, len(text), 3):
        group = [BASE45_VALUES[character] for character in text[at:at + 3]]
        value = sum(digit * 45 ** place for place, digit in enumerate(group))
        refuse(value > (0xFFFF if len(group) == 3 else 0xFF))
        data += value.to_bytes(len(group) - 1, "big")
    return bytes(data)


def packed_text(text: str) -> bytes:
    """ICE characters, their count first: 4 bits each when all are lower-case hex digits (as
    Firefox writes them; the count's top bit says so), else 6 bits each; the last byte is
    padded with zero bits."""
    alphabet = HEX if set(text) <= HEX_SET else ICE_CHARACTERS
    bits = 4 if alphabet is HEX else 6
    value = 0
    for character in text:
        value = value << bits | alphabet.index(character)
    padding = -len(text) * bits % 8
    return bytes([len(text) | (HEXED if bits == 4 else 0)]) + (value << padding).to_bytes(
        (len(text) * bits + padding) // 8, "big")


def unpacked_text(reader: Reader) -> str:
    count = reader.take(1)[0]
    alphabet, count = (HEX, count & ~HEXED) if count & HEXED else (ICE_CHARACTERS, count)
    refuse(not UFRAG_LENGTHS[0] <= count <= PWD_LENGTHS[1])
    bits = 4 if alphabet is HEX else 6
    padding = -count * bits % 8
    value = int.from_bytes(reader.take((count * bits + padding) // 8), "big")
    refuse(value & ((1 << padding) - 1) != 0)  # one code, one text: padding bits are zero
    value >>= padding
    text = "".join(alphabet[value >> bits * (count - 1 - at) & (1 << bits) - 1] for at in range(count))
    refuse(alphabet is ICE_CHARACTERS and set(text) <= HEX_SET)  # hex is always packed as hex
    return text


def candidate_kind(address) -> int | None:
    """IPV4, IPV6 or MDNS for an address a code may carry, written the one way a code reads
    back; None for anything else (not an address, outside the local network)."""
    if not isinstance(address, str):
        return None
    if MDNS_NAME.fullmatch(address):
        return MDNS
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return None
    if "%" in address or str(parsed) != address or not any(parsed in network for network in LOCAL_NETWORKS):
        return None
    return IPV4 if parsed.version == 4 else IPV6


def address_bytes(kind: int, address: str) -> bytes:
    if kind == MDNS:
        return bytes.fromhex("".join(MDNS_NAME.fullmatch(address).groups()))
    return ipaddress.ip_address(address).packed


def address_text(kind: int, data: bytes) -> str:
    if kind == MDNS:
        digits = data.hex()
        return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}.local"
    return str(ipaddress.ip_address(data))


# --- Reading the browser's SDP -------------------------------------------------------------------

def from_sdp(kind: str, sdp: str, offer_id: int) -> Signal:
    """What of this browser's offer or answer (SDP after ICE gathering) goes into a code. The
    browser is ours but its SDP is checked all the same: anything a code cannot carry is a
    LiveCodeError that says what, rather than a code that would never connect."""
    def unusable(what: str):
        raise LiveCodeError(f"This browser described its connection in a way Tableside cannot send: {what}.")

    if kind not in PREFIX or not (isinstance(offer_id, int) and 0 <= offer_id <= MAX_OFFER_ID):
        raise ValueError(f"from_sdp({kind!r}, …, {offer_id!r}): not a kind of signal and an offer id")
    if not isinstance(sdp, str) or len(sdp) > MAX_SDP:
        unusable("its description is far too long")
    lines = [line.strip() for line in sdp.splitlines()]
    media = [line for line in lines if line.startswith("m=")]
    if len(media) != 1 or media[0].split()[:1] + media[0].split()[2:] != [
            "m=application", "UDP/DTLS/SCTP", "webrtc-datachannel"]:
        unusable("it is not one data channel")
    found = attributes(lines)
    fingerprints = [value.split() for value in found.get("fingerprint", [])]
    sha256 = [value[1] for value in fingerprints if len(value) == 2 and value[0].lower() == "sha-256"]
    if not sha256 or not re.fullmatch(r"([0-9A-Fa-f]{2}:){31}[0-9A-Fa-f]{2}", sha256[0]):
        unusable("no SHA-256 certificate fingerprint")
    if found.get("setup", [""])[0] != SETUP[kind]:
        unusable(f"its DTLS role is not {SETUP[kind]}")
    if found.get("sctp-port") != [str(SCTP_PORT)] or found.get("mid") != ["0"]:
        unusable(f"its data channel is not on SCTP port {SCTP_PORT}")
    candidates = kept_candidates(found.get("candidate", []))
    if kind == OFFER and not candidates:
        raise LiveCodeError("This phone found no local network to offer a connection on: "
                            "join the table's Wi-Fi, then try again.")
    try:
        return Signal(kind, offer_id, found.get("ice-ufrag", [""])[0], found.get("ice-pwd", [""])[0],
                      bytes.fromhex(sha256[0].replace(":", "")), candidates)
    except LiveCodeError:
        unusable("its ICE credentials are not ones a code can carry")


def attributes(lines: list[str]) -> dict[str, list[str]]:
    """`a=name:value` lines, session and media level alike, values in order."""
    found: dict[str, list[str]] = {}
    for line in lines:
        if line.startswith("a=") and ":" in line:
            name, value = line[2:].split(":", 1)
            found.setdefault(name, []).append(value.strip())
    return found


def kept_candidates(lines: list[str]) -> tuple[Candidate, ...]:
    """The UDP host candidates on a local network, cheapest network first (Chromium's
    network-cost: Wi-Fi and Ethernet before cellular), then IPv4, then mDNS names, then IPv6;
    at most KEPT_CANDIDATES."""
    ranked = []
    for order, line in enumerate(lines):
        fields = line.split()
        if len(fields) < 8 or fields[1] != "1" or fields[2].lower() != "udp" or fields[6:8] != ["typ", "host"]:
            continue
        extensions = dict(zip(fields[8::2], fields[9::2]))
        cost = int(extensions["network-cost"]) if extensions.get("network-cost", "").isdigit() else 0
        try:
            address = fields[4].lower() if fields[4].lower().endswith(".local") else str(ipaddress.ip_address(fields[4]))
            candidate = Candidate(address, int(fields[5]) if fields[5].isdigit() else 0)
        except (ValueError, LiveCodeError):  # not an address, or not one on a local network
            continue
        ranked.append(((cost, [IPV4, MDNS, IPV6].index(candidate_kind(address)), order), candidate))
    kept = []
    for _, candidate in sorted(ranked, key=lambda pair: pair[0]):
        if candidate not in kept and len(kept) < KEPT_CANDIDATES:
            kept.append(candidate)
    return tuple(kept)
