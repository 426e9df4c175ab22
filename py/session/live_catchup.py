"""Catching up when two phones of a live table meet again: each gets the log entries the other
has and it lacks, and nothing is overwritten (entries only ever join a log: session.replica).

Everything but the log is small and travels whole in the `hello` (a session link's head: the
replica's registers, counts, roster, undo marks); merged, it is exact. The log can hold
thousands of entries, so the phones compare it, newest first, a page at a time:

1. Each `hello` says how many entries its log holds, their print (XOR of a hash of each id:
   equal prints, equal logs) and its oldest entry's key. Equal prints: nothing to do.
2. Otherwise the GM's phone sends the first `have`: every key it holds below `to` (the top,
   first), newest first, at most PAGE of them; `more` when it holds older ones above the
   horizon; `rest`, the print of every entry it holds below the page.
3. The other phone sends what it holds in the page's range that the page does not list,
   asks (`want`) for the listed entries it lacks, and, when `more` and its own print below
   the page differs from `rest`, answers with its next page below the range, and so on, each
   page's `to` lower than the last: the walk ends.

The horizon is the newer of the two phones' oldest entries: an entry older than everything the
other phone keeps is not sent (that phone joined the session later, or archived its old log; the
old log travels in a file, as before). MAX_PAGES bounds a walk. Pure Python: `Holdings` is
what one phone has read of its log so far; `answer` says what to send.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import reduce

PAGE = 200
MAX_PAGES = 10  # pages one phone sends in a walk: the newest 2,000 entries


def id_print(entry_id: str) -> int:
    return int.from_bytes(hashlib.sha256(entry_id.encode()).digest()[:8], "big")


def log_print(ids) -> str:
    """The print of a set of entry ids: XOR, so the print of a part is the whole's XOR the rest's."""
    return f"{reduce(lambda left, right: left ^ right, map(id_print, ids), 0):016x}"


def newer(first, second):
    """The horizon: the newer of two oldest keys (None: one phone keeps no entry)."""
    if first is None or second is None:
        return None
    return max(tuple(first), tuple(second))


class Unread(Exception):
    """`Holdings` has not read far enough down the log: read down to (or past) `below` and try again."""

    def __init__(self, below):
        super().__init__(below)
        self.below = below


@dataclass
class Holdings:
    """One phone's log as far as it has been read: `keys` newest first from the top, `complete`
    when they reach its oldest entry, and `print` of every id the log holds."""
    keys: list = field(default_factory=list)
    complete: bool = True
    print: str = "0" * 16

    def between(self, low, high) -> list[tuple]:
        """Keys in [low, high) (high None: the top; low None: the bottom), newest first."""
        if not self.complete and (low is None or not self.keys or self.keys[-1] >= low):
            raise Unread(low)
        return [key for key in self.keys if (high is None or key < high) and (low is None or key >= low)]

    def page(self, to, horizon) -> tuple[list[tuple], bool]:
        """The next page below `to`, down to the horizon: its keys and whether more follow."""
        taken = []
        for key in self.keys:
            if to is not None and key >= to:
                continue
            if horizon is not None and key < horizon:
                return taken, False
            if len(taken) == PAGE:
                return taken, True
            taken.append(key)
        if not self.complete:
            raise Unread(taken[-1] if taken else to)
        return taken, False

    def print_below(self, low) -> str:
        """The print of every id held below key `low`."""
        above = [key[2] for key in self.keys if key >= low]
        if not self.complete and (not self.keys or self.keys[-1] >= low):
            raise Unread(low)
        return f"{int(self.print, 16) ^ int(log_print(above), 16):016x}"


@dataclass(frozen=True)
class Page:
    to: tuple | None
    keys: tuple
    more: bool
    rest: str

    def low(self, horizon):
        """The bottom of the range this page lists completely."""
        return self.keys[-1] if self.more else horizon


@dataclass
class Answer:
    send: list = field(default_factory=list)  # keys of entries to send
    want: list = field(default_factory=list)  # ids to ask for
    next: Page | None = None  # the page to answer with, if the walk goes on


def first_page(mine: Holdings, horizon) -> Page:
    keys, more = mine.page(None, horizon)
    return Page(None, tuple(keys), more, mine.print_below(keys[-1]) if more else "0" * 16)


def answer(page: Page, mine: Holdings, horizon, pages_sent: int = 0) -> Answer:
    """What to do with the other phone's page: send what it lacks in the page's range, want what
    this phone lacks of it, and the next page when the logs below the range still differ."""
    low = page.low(horizon)
    listed = {key[2] for key in page.keys}
    held = mine.between(low, page.to)
    held_ids = {key[2] for key in held}
    result = Answer(send=[key for key in held if key[2] not in listed],
                    want=[key[2] for key in page.keys if key[2] not in held_ids])
    if page.more and pages_sent < MAX_PAGES and mine.print_below(low) != page.rest:
        keys, more = mine.page(low, horizon)
        result.next = Page(low, tuple(keys), more, mine.print_below(keys[-1]) if more else "0" * 16)
    return result
