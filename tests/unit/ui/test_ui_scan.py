"""Scan a code, paste a link (ui.session_screen.scan) under CPython: a Tableside link opens exactly as
a followed link; anything else, or no camera, only gets a message and changes nothing."""
import copy

import pytest

from session import new_session
from session.link_text import share_url
from session.link_v1 import encode_session
from session import MemoryStore
from ui.core import effects
from ui.session_screen import links, scan
from ui.session_screen.draft import VIDEO

from samples import logged_party, party_of_five, seen
from test_ui_sessions import BASE, markup, open_link, phone, tap, text


def sessions_kept(store) -> dict:
    """What storage holds apart from the table in progress (which follows the open screen)."""
    return {key: text for key, text in store.items.items() if not key.startswith("tableside.table.")}


def link(fragment: str, base: str = BASE) -> str:
    return share_url(base, fragment)


@pytest.mark.parametrize("written, fragment", [
    (BASE + "#s1.abc", "s1.abc"),
    ("  HTTP://LOCALHOST:8000/#s1.abc\n", "s1.abc"),  # scheme and host in any case, spaces around
    ("http://localhost:8000/index.html#r1.xyz", "r1.xyz"),  # another page of the same origin
    ("http://localhost:8000/#s1.a%2Db", "s1.a-b"),  # read like the address bar
    ("s1.abc", "s1.abc"), ("#r1.abc", "r1.abc"),  # the link's fragment alone
    ("http://localhost:8000/#app", "app"),  # ours, but no link: the reader says what is wrong
])
def test_a_link_of_this_app_gives_its_fragment(written, fragment):
    assert scan.link_fragment(written, BASE) == fragment


@pytest.mark.parametrize("written", [
    "", "hello", "https://localhost:8000/#s1.abc", "http://localhost:9000/#s1.abc",
    "http://example.com/#s1.abc", "http://localhost:8000/", "javascript:alert(1)#s1.abc",
    "WIFI:S:home;T:WPA;P:secret;;", "http://[::1/#s1.abc", "//localhost:8000/#s1.abc",
])
def test_anything_else_is_not_a_tableside_link(written):
    assert scan.link_fragment(written, BASE) is None


def test_a_scanned_session_link_opens_exactly_as_a_followed_link():
    party = party_of_five()
    followed, scanned = phone(), phone()
    open_link(followed, encode_session(party))
    tap(scanned, "scan-found", value=link(encode_session(party)))
    assert scanned.session == followed.session == {**party, "log": []}
    assert scanned.screen == followed.screen == "roster"
    assert seen(scanned.message.text) == seen(followed.message.text)
    assert scanned.library.has(party["id"])


def test_a_scanned_roll_link_shows_the_roll_read_only():
    state = phone(logged_party())
    tap(state, "log-share", id=state.session["log"][0]["id"])
    url = state.effects.pop()[1]["url"]
    other = phone(new_session("Other"))
    before = copy.deepcopy(other.session)
    tap(other, "scan-found", value=url)
    assert other.screen == "log" and other.pending["kind"] == "roll" and other.session == before
    assert "A shared roll (read-only)" in text(other)


def test_scanning_shows_the_camera_and_cancel_stops_it():
    state = phone()
    state.screen = "session"
    assert "Scan a code" in text(state) and f'id="{VIDEO}"' not in markup(state)
    tap(state, "scan-start")
    assert state.effects == [(effects.SCAN, {"video": VIDEO, "found": "scan-found", "failed": "scan-failed"})]
    page = markup(state)
    assert f'<video id="{VIDEO}"' in page and "playsinline" in page and "muted" in page
    assert "Scanning…" in text(state) and state.focus == "scan-cancel"
    state.effects.clear()
    tap(state, "scan-cancel")
    assert state.effects == [(effects.STOP_SCAN, {})]
    assert f'id="{VIDEO}"' not in markup(state) and "Scan a code" in text(state)


@pytest.mark.parametrize("code", ["hello", "https://example.com/#s1.abc", "http://localhost:8000/"])
def test_a_code_that_is_no_tableside_link_changes_nothing(code):
    mine = logged_party()
    store = MemoryStore()
    state = phone(mine, store=store)
    before, opened = dict(store.items), copy.deepcopy(state.session)
    tap(state, "scan-start")
    tap(state, "scan-found", value=code)
    assert state.message.text == scan.NOT_A_CODE_LINK and state.message.tone == "error"
    assert state.session == opened and state.pending is None and store.items == before
    assert "scanning" not in state.view


def test_a_broken_tableside_code_gets_the_link_readers_message():
    state = phone(logged_party())
    tap(state, "scan-found", value=link("s1.!!!"))
    expected = phone(logged_party())
    links.open_link(expected, "s1.!!!")
    assert state.message.tone == "error" and state.message.text == expected.message.text


@pytest.mark.parametrize("why", sorted(scan.NO_CAMERA))
def test_no_camera_says_why_and_the_paste_field_stays(why):
    state = phone()
    state.screen = "session"
    tap(state, "scan-start")
    tap(state, "scan-failed", value=why)
    assert state.message.text == scan.NO_CAMERA[why] and state.message.tone == "error"
    assert "paste the link" in state.message.text.lower() and state.focus == "pasted-link"
    assert f'id="{VIDEO}"' not in markup(state) and 'id="pasted-link"' in markup(state)


def test_leaving_the_scanner_closes_it_quietly():
    state = phone()
    tap(state, "scan-start")
    state.message = None
    tap(state, "scan-failed", value="gone")  # static/scan.js: the <video> left the page
    assert state.message is None and "scanning" not in state.view
    tap(state, "scan-failed", value="denied")  # already closed (cancelled): nothing to say
    assert state.message is None


def test_a_pasted_link_opens_like_a_followed_one():
    party = party_of_five()
    state = phone(new_session("Mine"))
    state.screen = "session"
    tap(state, "link-paste-text", value=link(encode_session(party)))
    tap(state, "link-paste-open")
    assert state.pending["kind"] == "join" and "Join this session?" in text(state)
    assert 'id="pasted-link"' not in markup(state)  # one question at a time
    tap(state, "join-new")
    assert state.session["id"] == party["id"] and "pasted" not in state.view


@pytest.mark.parametrize("pasted, message", [
    ("not a link", scan.NOT_A_PASTED_LINK),
    ("https://example.com/#s1.abc", scan.NOT_A_PASTED_LINK),
    (BASE + "#s1.eJz", None),  # the link reader's own words
    ("   ", "Paste a Tableside link into the box first."),
])
def test_a_bad_paste_says_so_and_keeps_the_text(pasted, message):
    mine = logged_party()
    store = MemoryStore()
    state = phone(mine, store=store)
    state.screen = "session"  # the table in progress records the open screen on the next save
    before, opened = sessions_kept(store), copy.deepcopy(state.session)
    tap(state, "link-paste-text", value=pasted)
    tap(state, "link-paste-open")
    assert state.message.tone == "error" and state.session == opened and sessions_kept(store) == before
    if message:
        assert state.message.text == message
    if pasted.strip():
        assert f'value="{pasted}"' in markup(state)  # nothing the player pasted is lost
