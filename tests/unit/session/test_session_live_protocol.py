"""A live table's messages (session.live.protocol) and its catch-up walk (session.live.catchup):
every kind round-trips; any text, mutated or hostile, is refused with a sentence or read into a
checked message; and two phones' logs, however they differ, end the same above the horizon
after the walk, with every page bounded."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session.live import catchup as live_catchup
from session.live import protocol as live_protocol
from session.live.catchup import Holdings, Other, Page, Unread, answer, first_page, log_print, wanted
from session.live.protocol import LiveMessageError, read, write

from hostile import any_unicode, nested_json

FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
LINK = "S2.ABCDEFGHIJ"
KEY = [3, "ab12cd34", "0123456789ab"]
SAMPLES = [
    live_protocol.hello("ab12cd34", "gm", "", LINK, 3, "0" * 16, "0123456789ab"),
    live_protocol.hello("ab12cd34", "e1", "Ash", LINK, 0, "0" * 16, ""),
    write("who", role="e1", who="Ash"),
    live_protocol.link("R2.ABC", "c1"),
    live_protocol.link("C2.ABC"),
    live_protocol.have(None, [KEY, [2, "ab12cd34", "x"]], True, "00000000000000ff"),
    write("want", ids=["0123456789ab"]),
    write("ack", ids=["0123456789ab", "x"]),
    write("call", id="c1", system="anomaly", kind="check", difficulty=6, title="Climb the wall",
          stakes="The guards hear you", to=["e1", "e2"]),
    write("call", id="c2", system="tension", kind="environment", title="Run", to=["e1"]),
    write("end", id="c1"),
    write("table", phones=[{"who": "Ash", "role": "e1", "since": "20:14"}]),
    write("unsent"),
]


@pytest.mark.parametrize("text", SAMPLES)
def test_every_kind_round_trips(text):
    message = read(text)
    sent = json.loads(text)
    assert message.kind == sent["k"]
    for field, value in message.data.items():
        if field in sent:
            assert json.loads(json.dumps(value)) == sent[field], field


@pytest.mark.parametrize("text, words", [
    ('{"live": 3, "k": "hello"}', "newer Tableside"), ('{"live": 1, "k": "hello"}', "older Tableside"),
    ('{"live": 2, "k": "shout", "text": "hi"}', "damaged"),
    ('{"live": 2, "k": "end", "id": "c1", "extra": 1}', "damaged"),
    ('{"live": 2, "k": "end"}', "damaged"),
    ('{"live": 2, "k": "unsent", "session": "S2.ABC"}', "damaged"),
    ('{"live": 2, "k": "link", "link": "https://example.com"}', "damaged"),
    ('{"live": 2, "k": "call", "id": "c", "system": "tension", "kind": "opposed", "title": "x", "to": ["a"]}',
     "damaged"),
    ('{"live": 2, "k": "call", "id": "c", "system": "tension", "kind": "environment", "title": "x", "to": []}',
     "damaged"),
    ('{"live": 2, "k": "have", "to": null, "keys": [[1, "ab", "x"], [2, "ab", "y"]], "more": false, '
     '"rest": "0000000000000000"}', "damaged"),  # not newest first
    ('{"live": 2, "k": "have", "to": [1, "ab", "a"], "keys": [[2, "ab", "y"]], "more": false, '
     '"rest": "0000000000000000"}', "damaged"),  # a key above `to`
    ('{"live": 2, "k": "who", "role": "gm", "who": "\\u200b\\u200b"}', None),  # shows nothing: stands for no name
    ('{"live": 2, "k": "who", "role": "<script>", "who": ""}', "damaged"),
    ('{"live": 2, "k": "ack", "ids": ["a b"]}', "damaged"),
    ('{"live": 2, "k": "ack", "ids": ' + json.dumps(["x"] * (live_protocol.PAGE + 1)) + "}", "damaged"),
    ('{"live": 2, "k": "table", "phones": [{"who": "\\ud800", "role": "", "since": ""}]}', "damaged"),
    ("[" * 50_000, "damaged"),
    ("x" * (live_protocol.MAX_MESSAGE + 1), "larger than this version of Tableside opens"),
])
def test_what_a_phone_never_sends_is_refused_with_a_sentence(text, words):
    if words is None:
        assert read(text)["who"] == ""
        return
    with pytest.raises(LiveMessageError, match=words) as refused:
        read(text)
    assert str(refused.value).endswith(".")


def test_a_message_past_the_limits_is_said_as_too_large_not_as_damaged(monkeypatch):
    """Issue 30: a session this version keeps may outgrow what a message carries (a newer version may carry
    more): the receiving phone says so, with what to do, never "damaged"."""
    fragment = "S2." + "A" * 64
    assert read(live_protocol.link(fragment))["link"] == fragment
    monkeypatch.setattr(live_protocol, "MAX_FRAGMENT", len(fragment) - 1)
    for text in (json.dumps({"live": 2, "k": "link", "link": fragment}),
                 json.dumps({"live": 2, "k": "hello", "device": "ab", "role": "gm", "who": "", "session": fragment,
                             "n": 0, "print": "0" * 16, "oldest": ""}),
                 "x" * (live_protocol.MAX_MESSAGE + 1)):
        with pytest.raises(LiveMessageError) as refused:
            read(text)
        assert refused.value.sentence == live_protocol.TOO_LARGE
        assert str(refused.value) == live_protocol.naming(live_protocol.TOO_LARGE, "the other phone")
        assert "damaged" not in str(refused.value) and "update this one" in str(refused.value)
    with pytest.raises(LiveMessageError, match="damaged"):  # not a link at all, however long: damaged
        read(json.dumps({"live": 2, "k": "link", "link": "x" * len(fragment)}))


@pytest.mark.parametrize("sentence", [live_protocol.DAMAGED, live_protocol.TOO_LARGE, live_protocol.NEWER,
                                      live_protocol.OLDER, live_protocol.NOT_USED + "A name is too long."])
def test_a_refusal_names_the_phone_that_sent_it_once(sentence):
    """Issue 30: the page names the sender in the sentence itself ("A message from Ash's phone is larger…"),
    not in front of one that says "the other phone" again."""
    for phone in ("Ash's phone", "the GM's phone", "the other phone"):
        said = LiveMessageError(sentence).naming(phone)
        assert said.lower().count(phone.lower()) == 1 and "{" not in said and said[0].isupper(), said
        assert phone == "the other phone" or "other phone" not in said, said
    assert str(LiveMessageError(sentence)) == live_protocol.naming(sentence, "the other phone")


def test_a_phone_before_unsent_says_damaged_for_it_and_reads_on(monkeypatch):
    """The `unsent` kind is new in this version: a phone of this version before it refuses it as damaged,
    as any kind it does not know (one sentence; the channel stays open and later messages are read), never
    as "newer" (that would stop it reading everything else the GM's phone sends)."""
    text = write("unsent")
    monkeypatch.delitem(live_protocol.FIELDS, live_protocol.UNSENT)
    with pytest.raises(LiveMessageError) as refused:
        read(text)
    assert refused.value.sentence == live_protocol.DAMAGED
    assert read(write("end", id="c1")).kind == "end"


def reads_cleanly_or_refuses(text):
    try:
        message = read(text)
    except LiveMessageError as error:
        assert str(error).endswith(".") and "\n" not in str(error)
        return
    assert message.kind in live_protocol.FIELDS
    json.dumps(message.data).encode("utf-8")  # whatever was read can be written again


@FUZZ
@given(st.one_of(any_unicode, nested_json()))
def test_any_text_is_refused_or_read_clean(text):
    reads_cleanly_or_refuses(text)


@FUZZ
@given(st.sampled_from(SAMPLES), st.lists(st.tuples(st.integers(0, 10_000), any_unicode), max_size=4))
def test_a_mutated_message_is_refused_or_read_clean(text, splices):
    for at, piece in splices:
        at %= len(text) + 1
        text = text[:at] + piece + text[at + len(piece) // 2:]
    reads_cleanly_or_refuses(text)


@FUZZ
@given(st.sampled_from(SAMPLES), st.sampled_from([None, True, -1, 2 ** 60, "", "x" * 300, [], {}, [[]], 1.5]))
def test_any_field_replaced_is_refused_or_read_clean(text, value):
    message = json.loads(text)
    for field in list(message):
        reads_cleanly_or_refuses(json.dumps({**message, field: value}))


# --- The catch-up walk ------------------------------------------------------------------------------

class Reader:
    """One phone's side of a walk, read as ui.arrivals.catchup reads its log store: from the top, a page
    at a time, each once (keys the phone gains above where it has read are seen at once)."""

    def __init__(self, keys: set):
        self.keys = keys  # the phone's log: it grows as the walk brings entries
        self.floor = None  # the oldest key read
        self.complete = False
        self.reads = 0

    def holdings(self) -> Holdings:
        ordered = sorted(self.keys, reverse=True)
        read = ordered if self.complete else [key for key in ordered if self.floor is not None and key >= self.floor]
        return Holdings(read, self.complete, log_print(key[2] for key in ordered))

    def read_page(self):
        below = [key for key in sorted(self.keys, reverse=True) if self.floor is None or key < self.floor]
        below = below[:live_catchup.PAGE]
        self.reads += len(below)
        self.complete = len(below) < live_catchup.PAGE
        self.floor = below[-1] if below else self.floor

    def attempt(self, work):
        """work(holdings), reading the next page while it says it needs more."""
        while True:
            mine = self.holdings()
            try:
                return work(mine)
            except Unread:
                assert not mine.complete and not mine.exhausted
                self.read_page()


def other(their: set, mine: set) -> Other:
    """The other phone as its hello shows it to this one."""
    oldest = min(their)[2] if their else ""
    return Other(oldest, oldest in {key[2] for key in mine})


def walk(gm: set, player: set) -> dict:
    """Two phones meet (each told the other its oldest entry in its hello); returns the traffic and
    the entries each phone read for each message it answered."""
    traffic = {"pages": 0, "sent": 0, "wanted": 0, "reads": []}
    if log_print(key[2] for key in gm) == log_print(key[2] for key in player):
        return traffic
    sides = {"gm": gm, "player": player}
    readers = {name: Reader(keys) for name, keys in sides.items()}
    opposite = {"gm": "player", "player": "gm"}
    seen = {"gm": other(player, gm), "player": other(gm, player)}  # what each phone's hello told the other
    page = readers["gm"].attempt(first_page)
    sent = {"gm": 1, "player": 0}
    queue = [("player", page)]
    while queue:
        to, page = queue.pop(0)
        traffic["pages"] += 1
        assert len(page.keys) <= live_catchup.PAGE
        sender = opposite[to]
        before = readers[to].reads
        result = readers[to].attempt(lambda mine: answer(page, mine, seen[to], sent[to]))
        traffic["reads"].append(readers[to].reads - before)
        traffic["sent"] += len(result.send)
        sides[sender] |= set(result.send)  # what this phone sends, the other now holds
        asked = result.want + [entry_id for entry_id in result.unsure if entry_id not in {key[2] for key in sides[to]}]
        given = wanted(asked, readers[sender].holdings(), seen[sender])
        traffic["wanted"] += len(given)
        sides[to] |= set(given)
        if result.next is not None:
            sent[to] += 1
            queue.append((sender, result.next))
    return traffic


entries = st.dictionaries(st.integers(0, 10_000).map(lambda number: f"e{number}"),
                          st.tuples(st.integers(0, 60), st.sampled_from(["aa", "bb", "cc"]),
                                    st.sampled_from(["both", "gm", "player"])), max_size=60)


def expected(mine: set, theirs: set) -> set:
    """What a phone holds after the walk: its own, and every entry of the other's it lacks, unless
    it keeps nothing (the hello brings the newest) or its log was cut from the other's (then only
    those from its oldest entry on)."""
    if not mine:
        return set()
    start = min(mine)
    cut = start[2] in {key[2] for key in theirs}
    return mine | {key for key in theirs if not cut or key >= start}


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(entries, st.integers(1, 6))
def test_after_the_walk_each_phone_holds_what_the_other_had_and_it_may_take(universe, page):
    """Each entry id has one key (its clock and device are fixed when it is logged); each phone
    holds some of them."""
    gm = {(clock, device, entry_id) for entry_id, (clock, device, where) in universe.items() if where != "player"}
    player = {(clock, device, entry_id) for entry_id, (clock, device, where) in universe.items() if where != "gm"}
    want_gm, want_player = expected(gm, player), expected(player, gm)
    saved = live_catchup.PAGE, live_catchup.MAX_PAGES
    live_catchup.PAGE, live_catchup.MAX_PAGES = page, 1_000  # pages of 1 key: many more than a table's
    try:
        walk(gm, player)
    finally:
        live_catchup.PAGE, live_catchup.MAX_PAGES = saved
    assert (gm, player) == (want_gm or gm, want_player or player)


def test_equal_logs_exchange_nothing_and_a_short_absence_one_page_each_way():
    rng = random.Random(7)
    evening = {(clock, rng.choice(["aa", "bb"]), f"e{clock}") for clock in range(1, 2_000)}
    assert walk(set(evening), set(evening)) == {"pages": 0, "sent": 0, "wanted": 0, "reads": []}
    away = {key for key in evening if key[0] < 1_990}
    traffic = walk(set(evening), away)
    assert traffic["pages"] == 1 and traffic["sent"] == 0 and traffic["wanted"] == 10
    both_ways = {key for key in evening if key[0] < 1_995} | {(1_999, "cc", "offline")}
    gm = set(evening)
    traffic = walk(gm, both_ways)
    assert traffic["pages"] == 1 and traffic["sent"] == 1 and traffic["wanted"] == 5
    assert gm == both_ways == evening | {(1_999, "cc", "offline")}


def test_an_archived_log_is_not_filled_again_from_the_other_phone():
    whole = {(clock, "aa", f"e{clock}") for clock in range(1, 600)}
    archived = {key for key in whole if key[0] >= 500}  # kept the newest 100
    gm, player = set(whole), set(archived)
    walk(gm, player)
    assert player == archived and gm == whole


def test_two_young_logs_that_started_apart_get_each_others_entries():
    gm = {(5, "bb", "g1"), (6, "bb", "g2")}  # the GM's first roll came after the player's, offline
    player = {(5, "aa", "p1")}
    walk(gm, player)
    assert gm == player == {(5, "bb", "g1"), (6, "bb", "g2"), (5, "aa", "p1")}


def test_a_walk_never_sends_deeper_than_max_depth():
    gm = {(clock, "aa", f"g{clock}") for clock in range(1, 3_001)}
    player = {(clock, "bb", f"p{clock}") for clock in range(1, 3_001, 100)}
    walk(gm, player)
    assert min(key for key in player if key[1] == "aa")[0] > 3_000 - live_catchup.MAX_DEPTH


def test_a_walk_stops_after_max_pages():
    live_catchup.PAGE, saved = 2, live_catchup.PAGE
    try:
        gm = {(clock, "aa", f"g{clock}") for clock in range(0, 100, 2)}
        player = {(clock, "bb", f"p{clock}") for clock in range(1, 100, 2)}
        traffic = walk(gm, player)
    finally:
        live_catchup.PAGE = saved
    assert traffic["pages"] <= 2 * live_catchup.MAX_PAGES + 1


def test_holdings_say_how_far_to_read():
    partial = Holdings([(9, "a", "x"), (8, "a", "y")], False, "0" * 16)
    with pytest.raises(Unread):
        partial.between((7, "a", "z"), None)
    assert Page(None, (), False, "0" * 16).keys == ()
    assert partial.between((8, "a", "y"), None) == [(9, "a", "x"), (8, "a", "y")]  # read down to it: known
    with pytest.raises(Unread):
        partial.print_below((5, "a", "z"))
    assert partial.deepest() is None and not partial.exhausted


def test_a_walk_reads_no_deeper_than_its_limit():
    """Past MAX_DEPTH + PAGE keys read, a phone reads no further: what lies deeper it can't send, a
    page's keys there are looked up by id, and it pages no further."""
    deep = [(clock, "a", f"e{clock}") for clock in range(5_000, 0, -1)]
    mine = Holdings(deep[:live_catchup.MAX_DEPTH + live_catchup.PAGE], False, log_print(key[2] for key in deep))
    assert mine.exhausted and mine.deepest() == deep[live_catchup.MAX_DEPTH - 1]
    assert mine.print_below((3, "a", "e3")) is None
    page = Page(None, ((3, "a", "e3"), (2, "b", "f2")), True, "0" * 16)
    result = answer(page, mine, Other("zz", False), 1)
    assert result.want == [] and result.unsure == ["e3", "f2"] and result.next is None
    assert len(result.send) == live_catchup.MAX_DEPTH  # all it may send: what the page says it lacks
    assert wanted(["e4000", "e2"], mine, Other("zz", False)) == [(4_000, "a", "e4000")]
