"""ui.screens.session under CPython: the Session screen (actions, view: the session list, settings,
sharing, storage, unreadable data); scanning a code or pasting a link (scan: a Tableside link
opens exactly as a followed link; anything else, or no camera, only gets a message and changes
nothing). What links do once opened is in test_ui_arrivals.py."""
import copy
import secrets

import pytest

from session import check_roster_entry, MemoryStore, new_session
from session.links import v2 as link_v2
from session.links.text import share_url
from session.links.v1 import encode_session
from session.live.signal import OFFER_PATTERN
from session.on_device import INDEX_KEY, session_key
from ui.arrivals import links
from ui.core import commands
from ui.kit.qr import qr
from ui.screens.log import actions as log_actions  # noqa: F401  (registers Undo)
from ui.screens.session import actions as session_actions  # noqa: F401  (registers the actions)
from ui.screens.session import scan, view
from ui.screens.session.sharing import VIDEO

from reading import markup, text
from samples import logged_party, party_of_five, seen
from tapping import BASE, lasting, open_link, phone, stored, tap


# --- The Session screen (actions, view) ---------------------------------------------------------------------

def test_starting_with_unreadable_data_says_so_and_keeps_it():
    party = party_of_five()
    store = MemoryStore({session_key("oops"): "{cut short", INDEX_KEY: "[[["})
    state = phone(party, store=store)
    assert state.session == party and state.message.tone == "error"
    assert "could not be read" in state.message.text and "Nothing was deleted" in state.message.text
    state.screen = "session"
    page = text(state)
    assert "Saved data that could not be read" in page and "Download a copy" in page
    tap(state, "unreadable-download", key=session_key("oops"))
    [(kind, data)] = state.commands
    assert kind == "download" and data["text"] == "{cut short" and data["name"].endswith(".txt")
    tap(state, "unreadable-remove", key=session_key("oops"))
    tap(state, "unreadable-remove-confirmed")
    assert store.get(session_key("oops")) is None


def test_switch_rename_duplicate_and_delete_with_confirmation():
    one, two = new_session("One"), new_session("Two")
    one["tension"] = 4
    two["tension"] = 6
    state = phone(one, two)
    state.screen = "session"
    assert state.session["id"] == two["id"]
    tap(state, "session-open", id=one["id"])
    assert state.session == one
    tap(state, "session-rename", id=two["id"])
    tap(state, "session-rename-text", value="  Second   night ")
    tap(state, "session-rename-save")
    assert stored(state, two["id"])["name"] == "Second night" and state.session["name"] == "One"
    tap(state, "session-duplicate", id=one["id"])
    names = sorted(entry["name"] for entry in state.library.listing())
    assert names == ["One", "One (copy)", "Second night"]
    tap(state, "session-delete", id=one["id"])
    assert "Delete “One” and its log" in text(state) and state.library.has(one["id"])
    tap(state, "session-delete-cancel")
    assert state.library.has(one["id"])
    tap(state, "session-delete", id=one["id"])
    tap(state, "session-delete-confirmed")
    assert not state.library.has(one["id"]) and state.session["id"] != one["id"]
    assert len(state.library.listing()) == 2


def test_players_and_tension_settings():
    state = phone()
    state.screen = "session"
    tap(state, "session-players", step=1)
    assert state.session["players"] == 4 and state.session["tension"] == 4  # nothing logged yet
    tap(state, "session-setting", setting="ones_feed_tension", checked=False)
    assert state.session["settings"] == {"ones_feed_tension": False, "tension_explodes": True}
    assert "1s feed Tension" in text(state) and "Tension explodes" in text(state)
    assert "CC BY 4.0 SRD (original design by Will Lentz and Brett Zeiler for Party First, published by " \
           "Gamenomicon)" in text(state)


def test_the_share_card_shows_the_link_and_its_qr_code():
    state = phone(party_of_five())
    state.screen = "session"
    page = markup(state)
    url = share_url(BASE, link_v2.session_link(state.replica))
    assert url in page and "#S2." in url and 'class="qr-code"' in page and "style=" not in page
    tap(state, "session-share")
    [(kind, data)] = state.commands
    assert kind == "share" and data["url"] == url
    assert link_v2.read(url.split("#", 1)[1]).replica.session() == state.session


def test_the_storage_card_promises_nothing_and_suggests_the_home_screen_in_safari():
    state = phone(logged_party())
    state.screen = "session"
    for persistence in ("kept", "not-kept", "unsupported", "unknown"):
        state.persistence = persistence
        assert " safe" not in text(state).lower()
    assert "add Tableside to the Home Screen" not in text(state)
    state.persistence = "not-kept"
    assert text(state).count("7 days without a visit") == 1  # said for Safari wherever it runs
    state.safari_tab = True
    assert "add Tableside to the Home Screen" in text(state) and text(state).count("7 days without a visit") == 1


# --- Scanning a code or pasting a link (scan) ---------------------------------------------------------------

def link(fragment: str, base: str = BASE) -> str:
    return share_url(base, fragment)


def test_a_scanned_session_link_opens_exactly_as_a_followed_link():
    party = party_of_five()
    followed, scanned = phone(), phone()
    open_link(followed, encode_session(party))
    tap(scanned, "scan-found", value=link(encode_session(party)))
    assert scanned.session == followed.session == {**party, "log": []}
    assert scanned.screen == followed.screen == "conflict"
    assert seen(scanned.message.text) == seen(followed.message.text)
    assert scanned.library.has(party["id"])


def test_a_scanned_roll_link_shows_the_roll_read_only():
    state = phone(logged_party())
    tap(state, "log-share", id=state.session["log"][0]["id"])
    url = state.commands.pop()[1]["url"]
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
    assert state.commands == [(commands.SCAN, {"video": VIDEO, "found": "scan-found", "failed": "scan-failed",
                                             "hold": OFFER_PATTERN})]  # a live table's offer keeps the camera on
    page = markup(state)
    assert f'<video id="{VIDEO}"' in page and "playsinline" in page and "muted" in page
    assert "Scanning…" in text(state) and state.focus == "scan-cancel"
    state.commands.clear()
    tap(state, "scan-cancel")
    assert state.commands == [(commands.STOP_SCAN, {})]
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
    before, opened = lasting(store), copy.deepcopy(state.session)
    tap(state, "link-paste-text", value=pasted)
    tap(state, "link-paste-open")
    assert state.message.tone == "error" and state.session == opened and lasting(store) == before
    if message:
        assert state.message.text == message
    if pasted.strip():
        assert f'value="{pasted}"' in markup(state)  # nothing the player pasted is lost


def test_a_session_whose_link_no_qr_code_holds_keeps_share_copy_and_export():
    session = party_of_five()
    session["roster"] = [check_roster_entry(
        {"system": "tension", "kind": "character", "name": secrets.token_hex(30), "ap": 3, "health": 10,
         "willpower": 10, "attributes": [{"name": secrets.token_hex(20), "rating": 3}], "skills": []})
        for _ in range(60)]
    state = phone(session)
    state.screen = "session"
    url = share_url(BASE, link_v2.session_link(state.replica))
    assert qr(url) is None
    page, words = markup(state), text(state)
    assert url in page and 'class="qr-code"' not in page
    assert "This session's link is too long for a QR code." in words
    assert f"{len(url):,} characters: too long for a QR code" in words
    assert "Share link" in words and "Export this session to a file" in words
    tap(state, "session-share")
    assert state.commands[0][0] == "share"


def test_the_open_session_is_renamed_beside_its_name_and_link_sizes_speak_no_qr_jargon():
    from ui.kit.qr import size_words

    state = phone(new_session("One"), new_session("Two"))
    state.screen = "session"
    settings = dict(router_page(state))["session-settings"]
    assert 'data-action="session-rename"' in settings and 'aria-label="Rename' in settings
    assert dict(router_page(state))["session-list"].count('data-action="session-rename"') == 1  # only "One"'s
    tap(state, "session-rename", id=state.session["id"])
    assert 'data-action="session-rename-text"' in dict(router_page(state))["session-settings"]
    tap(state, "session-rename-text", value="Friday at Zoë's")
    tap(state, "session-rename-save")
    assert state.session["name"] == "Friday at Zoë's"
    long_link = BASE + "#" + "A" * 3000
    assert "QR version" not in size_words(long_link) and "modules" not in size_words(long_link)
    assert size_words(long_link).endswith("a dense code, best scanned close up and steady")


def router_page(state):
    from ui import router

    return router.page(state)


def test_a_session_whose_link_phones_would_not_open_offers_the_file_and_loses_nothing(monkeypatch):
    """Issue 30: a long campaign's session may outgrow what a link carries (session.links.text's limits,
    lowered here below this session's link): the share card says so in one sentence and offers the file
    instead, "Share link" is refused with the same sentence, and the export still carries everything."""
    import base64
    import re
    import zlib

    from session.links import text as link_text
    from session.links.files import read_export
    from ui.screens.session.sharing import TOO_LARGE_TO_OPEN

    state = phone(logged_party())
    state.screen = "session"
    url = share_url(BASE, link_v2.session_link(state.replica))
    assert TOO_LARGE_TO_OPEN not in text(state) and markup(state).count('data-action="log-export"') == 1
    data = url.split("#", 1)[1].removeprefix("S2.")
    unpacked = zlib.decompressobj(zdict=link_v2.PRESET).decompress(base64.b32decode(data + "=" * (-len(data) % 8)))
    monkeypatch.setattr(link_text, "MAX_DECODED", len(unpacked) - 1)
    page, words = markup(state), text(state)
    assert TOO_LARGE_TO_OPEN in words and 'data-testid="link-too-large"' in page
    assert 'class="qr-code"' not in page and "Share link" not in words and "Scan it with" not in words
    assert re.search(r'<button[^>]*data-action="log-export"[^>]*button-primary|'
                     r'<button[^>]*button-primary[^>]*data-action="log-export"', page)
    # One export button, where the sentence says why: the share card's, not the storage card's as well.
    share = dict(view.regions(state))["session-share"]
    assert page.count('data-action="log-export"') == 1 and 'data-action="log-export"' in share
    assert share.index('data-testid="link-too-large"') < share.index('data-action="log-export"')
    assert view.EXPORT_ABOVE in words
    before = copy.deepcopy(state.session)
    tap(state, "session-share")
    assert not [command for command in state.commands if command[0] == "share"]
    assert state.message.text == TOO_LARGE_TO_OPEN and state.session == before
    tap(state, "log-export")
    [(_, data)] = [command for command in state.commands if command[0] == "download"]
    assert read_export(data["text"]).session() == state.session  # the file carries it all
