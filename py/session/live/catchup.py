"""Catching up when two phones of a live table meet again: each gets the log entries the other
has and it lacks, and nothing is overwritten (entries only ever join a log: session.replica).

Everything but the log is small and travels whole in the `hello` (a session link's head: the
replica's registers, counts, roster, undo marks); merged, it is exact. The log can hold
thousands of entries, so the phones compare it, newest first, a page at a time:

1. Each `hello` says how many entries its log holds and their print (XOR of a hash of each id:
   equal prints, equal logs). Equal prints: nothing to do.
2. Otherwise the GM's phone sends the first `have`: every key it holds below `to` (the top,
   first), newest first, at most PAGE of them; `more` when it holds older ones; `rest`, the
   print of every entry it holds below the page.
3. The other phone sends what it holds in the page's range that the page does not list,
   asks (`want`) for the listed entries it lacks, and, when `more` and its own print below
   the page differs from `rest`, answers with its next page below the range, and so on, each
   page's `to` lower than the last: the walk ends.

Each hello also names the phone's oldest entry. When that entry is one the other phone holds,
the phone's log was cut (it joined the session later, or archived its old log): nothing older
than its oldest entry is sent to it; the old log travels in a file, as before. A phone that
keeps no entry gets the newest ones with the hello, as a link gives them. Otherwise every entry
it lacks is sent. The phone that sends decides (`Other`).

What a walk costs is bounded whatever the logs: a walk sends at most the newest MAX_DEPTH entries
of each phone and MAX_PAGES pages, and reads no deeper than MAX_DEPTH + PAGE entries of a phone's log
(a page at a time, each page once: `Holdings` grows as the walk reads). Below that, a phone sends
nothing (deeper than MAX_DEPTH) and pages no further; keys of the other's page that lie there
are `unsure`, for the caller to look up by id. A `want` is answered from what the walk has read:
the other phone asks only for keys of this phone's pages. Pure Python: `answer` and `wanted` say
what to send, or raise Unread when `Holdings` must read further.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce

from ..logbook import id_print

PAGE = 200
MAX_PAGES = 10  # pages one phone sends in a walk
MAX_DEPTH = 2_000  # entries from the newest down that a walk ever sends
NOTHING = "0" * 16


def log_print(ids) -> str:
    """The print of a set of entry ids: XOR, so the print of a part is the whole's XOR the rest's."""
    return print_text(reduce(lambda left, right: left ^ right, map(id_print, ids), 0))


def print_text(value: int) -> str:
    return f"{value:016x}"


class Unread(Exception):
    """`Holdings` has not read far enough down the log: read its next page and try again."""


@dataclass
class Holdings:
    """One phone's log as far as the walk has read it: `keys` newest first from the top, `complete`
    when they reach its oldest entry, and `print` of every id the log holds. Once MAX_DEPTH + PAGE
    keys are read without reaching the oldest (or `stopped`: a page could not be read), it is
    `exhausted`: the walk reads no further."""
    keys: list = field(default_factory=list)
    complete: bool = True
    print: str = NOTHING
    stopped: bool = False

    @property
    def exhausted(self) -> bool:
        return not self.complete and (self.stopped or len(self.keys) >= MAX_DEPTH + PAGE)

    def read_below(self, low) -> bool:
        """Every key at or above `low` is among `keys` (None: the whole log is)."""
        return self.complete or (low is not None and bool(self.keys) and self.keys[-1] <= low)

    def reach(self, low) -> bool:
        """Whether the walk knows the keys at and above `low` (all of them, or all it may read);
        Unread while it can read further to know them."""
        if self.read_below(low):
            return True
        if self.exhausted:
            return False
        raise Unread()

    def between(self, low, high) -> list[tuple]:
        """Keys in [low, high) (high None: the top; low None: the bottom), newest first: those read,
        when the range goes deeper than the walk reads."""
        self.reach(low)
        return [key for key in self.keys if (high is None or key < high) and (low is None or key >= low)]

    def page(self, to) -> tuple[list[tuple], bool]:
        """The next page below `to`: its keys and whether more follow (cut short where the walk
        stops reading: more follow, unread)."""
        taken = []
        for key in self.keys:
            if to is not None and key >= to:
                continue
            if len(taken) == PAGE:
                return taken, True
            taken.append(key)
        if not self.complete and not self.exhausted:
            raise Unread()
        return taken, not self.complete

    def deepest(self):
        """The oldest key a walk may send, the MAX_DEPTH-th from the top; None while fewer are read
        (every key read may be sent)."""
        return self.keys[MAX_DEPTH - 1] if len(self.keys) >= MAX_DEPTH else None

    def print_below(self, low) -> str | None:
        """The print of every id held below key `low`; None when that is deeper than the walk reads."""
        if not self.reach(low):
            return None
        above = [key[2] for key in self.keys if key >= low]
        return print_text(int(self.print, 16) ^ int(log_print(above), 16))


@dataclass(frozen=True)
class Page:
    to: tuple | None
    keys: tuple
    more: bool
    rest: str


@dataclass(frozen=True)
class Other:
    """The other phone, as its hello showed it: its oldest entry's id ("" when it keeps none), and
    whether this phone holds that entry (its log was cut from this one's)."""
    oldest: str
    holds_oldest: bool

    @property
    def cut(self) -> bool:
        return self.oldest == "" or self.holds_oldest


@dataclass
class Answer:
    send: list = field(default_factory=list)  # keys of entries to send
    want: list = field(default_factory=list)  # ids to ask for
    unsure: list = field(default_factory=list)  # ids of the page deeper than the walk reads: ask if not held
    next: Page | None = None  # the page to answer with, if the walk goes on


def page_below(mine: Holdings, to) -> Page | None:
    """This phone's page below `to`; None when the walk read nothing below it (more follow, unread)."""
    keys, more = mine.page(to)
    if more and not keys:
        return None
    return Page(to, tuple(keys), more, mine.print_below(keys[-1]) if more else NOTHING)


def first_page(mine: Holdings) -> Page:
    return page_below(mine, None)


def sendable(keys, mine: Holdings, other: Other) -> list[tuple]:
    """These keys (of those read), but those older than where the other phone's log starts when it
    was cut, and those deeper than MAX_DEPTH. A phone keeping nothing gets nothing here (the hello
    had the newest). The other's start, when not read, lies below every key read."""
    if other.oldest == "":
        return []
    deepest = mine.deepest()
    start = next((key for key in mine.keys if key[2] == other.oldest), None) if other.cut else None
    return [key for key in keys if (deepest is None or key >= deepest) and (start is None or key >= start)]


def answer(page: Page, mine: Holdings, other: Other, pages_sent: int = 0) -> Answer:
    """What to do with the other phone's page: send what it lacks in the page's range (and below,
    when its log ends there and was not cut), want what this phone lacks of it, and the next page
    when the logs below the range still differ."""
    low = page.keys[-1] if page.keys else page.to
    held = mine.between(low, page.to) if page.keys else []
    known = mine.read_below(low)
    listed = {key[2] for key in page.keys}
    held_ids = {key[2] for key in held}
    send = [key for key in held if key[2] not in listed]
    if not page.more and not other.cut:  # its log ends here: what this phone holds below, it lacks
        if not mine.complete and mine.deepest() is None:
            raise Unread()  # read down to MAX_DEPTH: it may send that deep
        deepest = mine.deepest()
        send += [key for key in mine.keys if (low is None or key < low) and (deepest is None or key >= deepest)]
    read = mine.keys[-1] if mine.keys and not mine.complete else None
    result = Answer(send=sendable(send, mine, other))
    for key in page.keys:
        if key[2] in held_ids:
            continue
        (result.want if known or read is None or key > read else result.unsure).append(key[2])
    if page.more and pages_sent < MAX_PAGES and known and mine.print_below(low) != page.rest:
        result.next = page_below(mine, low)
    return result


def wanted(ids, mine: Holdings, other: Other) -> list[tuple]:
    """The keys of the entries the other phone asked for that it may have, among those the walk
    read (it asks for keys of this phone's pages)."""
    asked = set(ids)
    return sendable([key for key in mine.keys if key[2] in asked], mine, other)
