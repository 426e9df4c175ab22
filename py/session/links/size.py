"""Whether a session link this phone made is one that phones of this version open.

A session grows (a long campaign's counts, stepped on many phones) and its link may pass the limits
every phone reads links with (session.links.text: MAX_FRAGMENT characters, MAX_DECODED bytes
unpacked), and so may a live table's message (session.live.protocol.MAX_MESSAGE). Such a session is
kept as it is; what still carries it is an export file (session.links.files), which has no such limit.
"""
from __future__ import annotations

import base64
import binascii
import zlib

from . import text
from .v2 import PRESET


def too_large(fragment: str) -> bool:
    """True when phones of this version would refuse `fragment` (a version 2 link, without '#') for
    its size: longer than text.MAX_FRAGMENT characters (the whole fragment, as a live table counts it,
    a little stricter than opening a link, which counts what follows "S2."), or unpacking to more than
    text.MAX_DECODED bytes (read from there when asked: a test that lowers a limit lowers it here too).
    Only zlib runs: nothing is parsed."""
    if len(fragment) > text.MAX_FRAGMENT:
        return True
    _, _, data = text.split(fragment)
    data = data.rstrip("=")
    try:
        packed = base64.b32decode(data + "=" * (-len(data) % 8))
        unpacker = zlib.decompressobj(zdict=PRESET)
        raw = unpacker.decompress(packed, text.MAX_DECODED + 1)
    except (binascii.Error, ValueError, zlib.error):
        return False  # not a size problem: reading it says what it is
    return len(raw) > text.MAX_DECODED or bool(unpacker.unconsumed_tail)
