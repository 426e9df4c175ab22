"""ui.arrivals.catchup under CPython: what a live table's catch-up reads. Two phones with any logs
(cut by an archive or not) meet through the app's own walk (tests/unit/live_table.py plays
static/live.js) with log stores that count their reads (counting_log.py): each ends with what the
other had and it may take, each message reads at most the walk's pages and a lookup per key or id
it carries however long the log, and each phone reads its log's keys once."""
from __future__ import annotations

import asyncio
import json
from contextlib import contextmanager

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session import MemoryStore
from session.links import v2 as link_v2
from session.live import catchup as live_catchup
from session.live import protocol as live_protocol
from session.replica import Replica, entry_key
from ui.core import outgoing

from counting_log import CountingLog
from crowded import template_entry
from live_table import Table
from samples import party_of_five
from tapping import LOGS, library, start, tap

ENTRY = template_entry()  # a logged conflict, as log_conflict writes it
DEVICES = ["0000000a", "0000000b", "0000000c"]


def phone_with_log(session: dict, keys, keep: int | None = None):
    """A phone holding `session` with entries at these keys (its newest page in memory, as at
    start), all but the newest `keep` archived when given; its log store counts what it reads."""
    store = MemoryStore()
    LOGS[store] = CountingLog()
    replica = Replica.from_session(session)
    replica.log = {entry_id: {**ENTRY, "id": entry_id, "clock": clock, "device": device}
                   for clock, device, entry_id in keys}
    replica.clock = max([replica.clock, *(key[0] for key in keys)])
    replica.fresh, replica.counted = list(replica.log.values()), None
    shelf = library(store)
    shelf.keep_new_session(replica)
    shelf.save(replica)
    asyncio.run(shelf.flush())
    if keep is not None:
        asyncio.run(shelf.archive(replica, keep))
    state = start(store, "http://localhost:8000/")
    assert state.session["id"] == session["id"]
    return state


def held_keys(state) -> set:
    whole, _ = asyncio.run(state.library.everything(state.replica))
    return {entry_key(entry) for entry in whole.log.values()}


class CountingTable(Table):
    """A live table whose phones' log stores count what each message made them read (but the
    keys of the whole log, read once a page's life for its print: `session.logbook.Held`)."""

    def __init__(self, **phones):
        super().__init__(**phones)
        self.costs: list[tuple[str, dict, int]] = []  # (phone, message, entries read)

    def deliver(self, name: str, action: str, value: str | None = None, **data):
        log = self.phones[name].library.log
        before = log.reads - log.read_by["keys"]
        super().deliver(name, action, value, **data)
        if action == "live-message":
            self.costs.append((name, json.loads(value), log.reads - log.read_by["keys"] - before))


def most_read(message: dict) -> int:
    """What one message may make a phone read, however long its log: the walk's pages, down to
    MAX_DEPTH + PAGE entries a page at a time, and two lookups for each key, id or entry it
    carries (a link: CHUNK entries at most; a hello's link, LATEST)."""
    carried = len(message.get("keys", message.get("ids", [])))
    if message["k"] in (live_protocol.HELLO, live_protocol.LINK):
        carried = max(outgoing.CHUNK, link_v2.LATEST)
    return live_catchup.MAX_DEPTH + 2 * live_catchup.PAGE + 2 * carried


def caught_up(mine: set, theirs: set, hello: set = frozenset()) -> set:
    """What a phone holds after the walk: its own, the newest entries a hello brought (`hello`), and
    every entry of the other's it lacks, unless it kept none or its log was cut from the other's
    (joined later, archived: then only those from its oldest entry on)."""
    if not mine:
        return set(hello)
    start_key = min(mine)
    cut = start_key[2] in {key[2] for key in theirs}
    return mine | set(hello) | {key for key in theirs if not cut or key >= start_key}


def newest(keys: set, count: int = link_v2.LATEST) -> set:
    return set(sorted(keys, reverse=True)[:count])


@contextmanager
def walk_sizes(page: int, pages: int, depth: int):
    saved = live_catchup.PAGE, live_catchup.MAX_PAGES, live_catchup.MAX_DEPTH
    live_catchup.PAGE, live_catchup.MAX_PAGES, live_catchup.MAX_DEPTH = page, pages, depth
    try:
        yield
    finally:
        live_catchup.PAGE, live_catchup.MAX_PAGES, live_catchup.MAX_DEPTH = saved


def meet(gm_keys: set, player_keys: set, gm_keep=None, player_keep=None) -> tuple[CountingTable, set, set]:
    """The GM's phone and a player's holding one session with these logs (archived as given) meet on
    a live table by the two scans; the table and each phone's log before they met."""
    party = party_of_five()
    gm = phone_with_log(party, gm_keys, gm_keep)
    tap(gm, "role-pick", role="gm")
    table = CountingTable(gm=gm, ash=phone_with_log(party, player_keys, player_keep))
    before = held_keys(gm), held_keys(table.phones["ash"])
    table.join("gm", "ash")
    return table, *before


logs = st.dictionaries(st.integers(0, 500).map(lambda number: f"e{number}"),
                       st.tuples(st.integers(1, 40), st.sampled_from(DEVICES), st.sampled_from(["both", "gm", "player"])),
                       max_size=40)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(logs, st.integers(1, 4), st.one_of(st.none(), st.integers(1, 12)), st.one_of(st.none(), st.integers(1, 12)))
def test_after_catching_up_each_phone_holds_what_the_other_had_and_it_may_take(universe, page, gm_keep, player_keep):
    """Two phones with any logs (cut by an archive or not) meet: each gets what the other holds
    and it lacks, but older than where its log was cut, through the app's own walk, its pages of
    a few keys (many more pages than a table's) read from each phone's log store."""
    gm_keys = {(clock, device, entry_id) for entry_id, (clock, device, where) in universe.items() if where != "player"}
    player_keys = {(clock, device, entry_id) for entry_id, (clock, device, where) in universe.items() if where != "gm"}
    with walk_sizes(page, 1_000, live_catchup.MAX_DEPTH):
        table, gm_before, player_before = meet(gm_keys, player_keys, gm_keep, player_keep)
    gm, ash = table.phones["gm"], table.phones["ash"]
    assert held_keys(gm) == caught_up(gm_before, player_before)
    assert held_keys(ash) == caught_up(player_before, gm_before, newest(gm_before))


def hostile(draw, keys: list) -> str:
    """A `have` or a `want` a phone could send: any keys, of the other's log or not, any `to`."""
    made_up = [(clock, "0000000d", f"x{clock}") for clock in range(1, 600, 7)]
    pool = sorted(set(keys) | set(made_up))
    if draw(st.booleans()):
        ids = draw(st.lists(st.sampled_from(pool), max_size=live_protocol.PAGE))
        return live_protocol.write(live_protocol.WANT, ids=list(dict.fromkeys(key[2] for key in ids)))
    listed = sorted(set(draw(st.lists(st.sampled_from(pool), min_size=1, max_size=30))), reverse=True)
    to = draw(st.sampled_from([None] + [key for key in pool if key > listed[0]]))
    return live_protocol.have(to, listed, draw(st.booleans()), draw(st.sampled_from(["0" * 16, "f" * 16])))


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 400), st.integers(0, 4), st.integers(0, 4), st.one_of(st.none(), st.integers(10, 60)),
       st.data())
def test_each_message_of_a_walk_reads_what_it_asks_for_however_long_the_log(length, gm_own, player_own, keep, data):
    """However long the log, each message a phone answers (the walk's, and any `have` or `want`
    another phone could send) reads at most the walk's pages down to MAX_DEPTH + PAGE entries and a
    lookup per key or id it carries; each phone reads its log's keys once (its print). Phones away
    for a while (their new entries among the newest, the player's log cut by an archive or not)
    still end with what the other had and they may take."""
    base = {(clock, DEVICES[clock % 3], f"e{clock}") for clock in range(1, length + 1)}
    gm_keys = base | {(max(1, length - 2 + number), "0000000d", f"g{number}") for number in range(gm_own)}
    player_keys = base | {(max(1, length - 1 + number), "0000000e", f"p{number}") for number in range(player_own)}
    with walk_sizes(4, 5, 20):
        table, gm_before, player_before = meet(gm_keys, player_keys, player_keep=keep)
        gm, ash = table.phones["gm"], table.phones["ash"]
        assert held_keys(gm) == caught_up(gm_before, player_before)
        assert held_keys(ash) == caught_up(player_before, gm_before, newest(gm_before))
        peer = next(iter(gm.live.peers))
        for _ in range(data.draw(st.integers(1, 6))):
            table.deliver("gm", "live-message", hostile(data.draw, sorted(gm_keys)), peer=peer)
            table.deliver("ash", "live-message", hostile(data.draw, sorted(player_keys)), peer="gm")
            table.run()
        for name, message, read in table.costs:
            assert read <= most_read(message), (name, message["k"], read)
    assert all(phone.library.log.calls["keys"] <= 1 for phone in table.phones.values())
