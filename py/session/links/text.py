"""What every Tableside link is, whatever its version: a URL fragment `<kind><version>.<data>`.

The kind is a letter (`s` a session, `r` one roll, `c` a step of a sealed-card exchange),
upper case from version 2 on; `data` is zlib-compressed JSON, base64url in version 1
(session.links.v1), base32 with a preset dictionary in version 2 (session.links.v2). Static
hosts never see a fragment. Reading never trusts its input: every problem is a LinkError whose
message is a sentence for players, and the unpacked size is capped before it is reached (a
decompression bomb stops at MAX_DECODED bytes).
"""
from __future__ import annotations

import base64
import binascii
import re
import zlib

from .. import untrusted
from ..errors import SessionError

SESSION, ROLL, SEALED = "s", "r", "c"  # "c": one message of a sealed-card exchange (version 2 only)
VERSION = 2  # the newest link version this app reads (session.links.v2)
# Both from the worst case the replica's caps allow (tests/unit/linksize.py builds it from the cap constants;
# tests/unit/session/test_session_link_size.py holds these to it; bench/bench_links.py measures it):
# - MAX_FRAGMENT: characters of a fragment we try to read at all. What a live table's message carries
#   (session.live.protocol.MAX_MESSAGE, 190,000, bound by the 262,144 bytes WebRTC phones announce) less its
#   envelope, so every link a phone opens also goes over the live table. The caps' worst case (64 phones'
#   counts drawn at random up to a billion steps, each vouched for) writes about 552,000: past it, a session
#   is kept whole and travels by export file (session.links.files); 63 phones with counts up to 10,000
#   steps each fit.
# - MAX_DECODED: bytes of JSON a link may unpack to: every session the caps allow, its numbers at their
#   widest (60 people with a sheet in each of 3 systems, 720 roster entries with removed ones, each held by
#   64 phones, with its undo marks: about 2.31 MB), and room for some of its newest log entries (a link
#   carries as many as fit). Read in about 0.4 s under CPython. (2,000,000 when the caps were 60 sheets.)
MAX_FRAGMENT = 189_000
MAX_DECODED = 2_500_000
MAX_DIGITS = 20  # digits in one JSON number; larger numbers are never a rating or a count

LINK = re.compile(r"([a-zA-Z])(\d{1,4})\.(.*)", re.DOTALL)  # version 2 is upper case: "S2.", "R2."
BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
BASE32 = re.compile(r"[A-Z2-7]*")
# Past either limit: said plainly, not as damage, because a session this version keeps may one day outgrow
# them (issue 30: a long campaign's counts on many phones) and a newer version may read more.
TOO_LARGE = ("This link {what} this version of Tableside opens, so it was not opened. "
             "If the other phone runs a newer Tableside, update this one (reload it while online) and open the link again.")
UNREADABLE = {
    untrusted.NOT_JSON: "This link is damaged: its contents are not readable.",
    untrusted.TOO_DEEP: "This link is damaged: its contents nest far deeper than any Tableside link, "
                        "so it was not opened.",
    untrusted.BROKEN_TEXT: "This link is damaged: its text holds a broken character (half of one), "
                           "so it was not opened.",
}


class LinkError(SessionError):
    """A share link that cannot be opened, and why, in a sentence for players."""


def looks_like_link(fragment: str) -> bool:
    """True when a URL fragment (without '#') is meant as a Tableside link: a kind
    letter, a version number and a dot. Other fragments (#app) are not ours."""
    match = LINK.match(fragment.strip()) if isinstance(fragment, str) else None
    return match is not None and match.group(1).lower() in (SESSION, ROLL, SEALED)


def share_url(base_url: str, fragment: str) -> str:
    """The link other phones open: the app's address with `fragment` after the '#'."""
    return f"{base_url.split('#')[0]}#{fragment}"


def whole_number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError("a number far too large")
    return int(text)


def unpack(data: str, version: int = 1, preset: bytes = b""):
    """The JSON a link's data holds: version 1 is base64url of zlib, version 2 base32 of zlib
    with a preset dictionary (session.links.v2). Every failure is a LinkError."""
    if len(data) > MAX_FRAGMENT:
        raise LinkError(TOO_LARGE.format(what=f"is longer than the {MAX_FRAGMENT:,} characters"))
    data = data.rstrip("=")
    if not (BASE64URL if version == 1 else BASE32).fullmatch(data):
        raise LinkError("This link is damaged: it holds characters a Tableside link never has. "
                        "Copy it again, whole.")
    if not data:
        raise LinkError("This link is empty after its first characters: it was cut short. Copy it again, whole.")
    try:
        if version == 1:
            packed = base64.b64decode(data + "=" * (-len(data) % 4), altchars=b"-_", validate=True)
        else:
            packed = base64.b32decode(data + "=" * (-len(data) % 8))
    except (binascii.Error, ValueError):
        raise LinkError("This link is incomplete: part of it is missing. Copy it again, whole.") from None
    return inflate(packed, preset)


def inflate(packed: bytes, preset: bytes = b""):
    """zlib -> UTF-8 -> JSON, at most MAX_DECODED bytes, with every failure as a LinkError."""
    unpacker = zlib.decompressobj(zdict=preset) if preset else zlib.decompressobj()
    try:
        raw = unpacker.decompress(packed, MAX_DECODED + 1)
    except zlib.error:
        raise LinkError("This link is damaged: its contents don't unpack. Copy it again, whole.") from None
    if len(raw) > MAX_DECODED or unpacker.unconsumed_tail:
        raise LinkError(TOO_LARGE.format(what=f"unpacks to more than the {MAX_DECODED:,} bytes"))
    if not unpacker.eof:
        raise LinkError("This link is incomplete: part of it is missing. Copy it again, whole.")
    if unpacker.unused_data:
        raise LinkError("This link is damaged: it has extra data at its end. Copy it again, whole.")
    try:
        return untrusted.parse(raw.decode("utf-8"), parse_int=whole_number)
    except UnicodeDecodeError:
        raise LinkError(UNREADABLE[untrusted.NOT_JSON]) from None
    except untrusted.BadJSON as error:
        raise LinkError(UNREADABLE[error.reason]) from None


def split(fragment) -> tuple[str, int, str]:
    if not isinstance(fragment, str):
        raise LinkError("This is not a Tableside link.")
    fragment = fragment.strip().removeprefix("#")
    match = LINK.match(fragment[:MAX_FRAGMENT + 16])
    if match is None or match.group(1).lower() not in (SESSION, ROLL, SEALED):
        raise LinkError("This is not a Tableside link, or its beginning was cut off.")
    kind, version = match.group(1).lower(), int(match.group(2))
    if kind == SEALED and version == 1:
        raise LinkError("This link's version (1) is not one Tableside can read.")
    if version > VERSION:
        raise LinkError(f"This link was made by a newer version of Tableside (link version {version}). "
                        "Update the app (reload it while online), then open the link again.")
    if version < 1:
        raise LinkError(f"This link's version ({version}) is not one Tableside can read.")
    return kind, version, fragment[match.start(3):]
