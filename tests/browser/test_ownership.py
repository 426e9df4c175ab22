"""Who may change what (issue 30, item 3), in the page, by links: the GM's phone and Ash's phone, each
with its own storage. Ash's phone draws no control of what it does not own (the session's name, players
and settings read as text; no one added or removed; Undo only for its own roll), before and after a
restart, while the GM's phone draws them all; what an altered page sends anyway waits on the GM's phone with every change listed, for
"Add"; Ash undoing Ash's own roll is said on the GM's phone with "Restore"."""
from __future__ import annotations

from session.links import v2 as link_v2
from session.ownership import BEYOND_ROLLS
from session.replica_check import check_replica
from conftest import BOOT_TIMEOUT_MS, DESKTOP, PHONE, READY
from test_sessions import log_a_success_with_ap, message, nav, party, stored_head

NOT_YOURS = "That is the GM's to change, on the GM's phone"


def shots(page, screenshot, name: str):
    """390x844, 320 px wide and 1280x800."""
    page.evaluate("window.scrollTo(0, 0)")  # the message and what waits are at the top
    for size in (PHONE["viewport"], {"width": 320, "height": 640}, DESKTOP["viewport"]):
        page.set_viewport_size(size)
        screenshot(page, name, full_page=False)
    page.set_viewport_size(PHONE["viewport"])


def player_shots(page, screenshot, name: str, locator=None):
    """A player's screen at 390x844 and 320 px wide, as on the phone: scrolled to `locator` if given."""
    for size in (PHONE["viewport"], {"width": 320, "height": 640}):
        page.set_viewport_size(size)
        if locator is not None:
            locator.evaluate("(element) => element.scrollIntoView({block: 'center'})")  # clear of the bottom bar
        else:
            page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, name, full_page=False)
    page.set_viewport_size(PHONE["viewport"])


def player_reads_only(page, screenshot=None, name: str = ""):
    """Ash's phone, as Ash sees it: no control of the session, of who is in the roster, or of Ash's name;
    the session's name, players and settings read as text; Ash's own numbers still editable."""
    nav(page, "Session")
    settings = page.locator("#session-settings")
    settings.get_by_text("The GM changes these on the GM's phone.").wait_for()
    assert "Friday at Kim's" in settings.inner_text() and "players" in settings.inner_text()
    assert page.get_by_role("button", name="Rename Friday at Kim's").count() == 0
    assert page.get_by_role("button", name="One more player").count() == 0
    assert page.locator("[data-action=session-setting]").count() == 0
    if screenshot:
        player_shots(page, screenshot, f"{name}-session", settings)
    nav(page, "Roster")
    page.get_by_text("The GM adds and removes people, on the GM's phone.").wait_for()
    assert page.locator("[data-action=roster-add]").count() == 0
    assert page.get_by_role("button", name="Edit Brin").count() == 0
    page.get_by_role("button", name="Edit Ash").tap()
    editor = page.get_by_test_id("sheet-editor")
    editor.get_by_text("Only the GM's phone renames or removes Ash").wait_for()
    assert editor.locator("#sheet-name").count() == 0 and editor.get_by_role("button", name="Delete…").count() == 0
    if screenshot:
        player_shots(page, screenshot, f"{name}-sheet")
    editor.get_by_role("button", name="Cancel").tap()


def gm_draws_everything(page, screenshot):
    nav(page, "Session")
    for name in ("Rename Friday at Kim's", "One more player"):
        assert page.get_by_role("button", name=name).count() == 1
    assert page.locator("[data-action=session-setting]").count() == 2
    page.set_viewport_size(DESKTOP["viewport"])
    page.locator("#session-settings").scroll_into_view_if_needed()
    screenshot(page, "owner-gm-session", full_page=False)
    nav(page, "Roster")
    assert page.locator("[data-action=roster-add]").count() == 2
    page.get_by_role("button", name="Edit Ash").tap()
    editor = page.get_by_test_id("sheet-editor")
    assert editor.locator("#sheet-name").count() == 1 and editor.get_by_role("button", name="Delete…").count() == 1
    screenshot(page, "owner-gm-sheet", full_page=False)
    editor.get_by_role("button", name="Cancel").tap()
    page.set_viewport_size(PHONE["viewport"])


def head_replica(page, session_id: str):
    """A session's stored head as a replica."""
    head = stored_head(page, session_id)
    return check_replica({key: value for key, value in head.items() if key not in ("logged", "saved", "recount")})


def restart(page):
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)


OPENED = """(before) => document.querySelector('[data-testid=join-prompt]')
    || (document.querySelector('.message p')?.textContent || '') !== before"""


def open_link(page, site: str, fragment: str):
    """Open a link and wait until the page has worked out what it changes (its prompt, or what it says)."""
    message = page.locator(".message p")
    before = message.inner_text() if page.url.startswith(site) and message.count() else ""
    page.goto(site + "#" + fragment)
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    page.wait_for_function(OPENED, arg=before)


def link_of(page) -> str:
    nav(page, "Session")
    return page.get_by_test_id("session-link").input_value().split("#", 1)[1]


def update(page):
    """"Update mine from the link", when the link changes something here."""
    prompt = page.get_by_test_id("join-prompt")
    if prompt.count():
        page.get_by_role("button", name="Update mine from the link").tap()
        prompt.wait_for(state="detached")
        page.locator(".message p", has_text="from the link").wait_for()  # merged: the next tap starts from it


RESTORED_STORED = """() => Object.keys(localStorage).some((key) => key.startsWith("tableside.head.")
    && (JSON.parse(localStorage.getItem(key)).logged || {}).conflict === 1)"""


def session_name(page) -> str:
    """The open session's name, as the session bar shows it."""
    return page.locator(".session-name").inner_text()


def test_a_player_changes_only_what_it_owns_and_the_gm_adds_or_restores_the_rest(
        browser, watch, site, screenshot):
    contexts = [browser.new_context(**PHONE) for _ in range(2)]
    for context in contexts:
        watch.attach(context)
    gm, ash = (context.new_page() for context in contexts)
    try:
        open_link(gm, site, link_v2.session_link(__import__("session.replica", fromlist=["Replica"])
                                                 .Replica.from_session(party())))
        gm.get_by_test_id("role-chooser").get_by_role("button", name="The GM").tap()
        open_link(ash, site, link_of(gm))
        ash.get_by_test_id("role-chooser").get_by_role("button", name="Ash").tap()
        open_link(gm, site, link_of(ash))  # Ash's claim: the GM's phone gives Ash to that phone
        update(gm)
        open_link(ash, site, link_of(gm))
        update(ash)

        # What Ash's phone may not change is not drawn there (read as text), and still not after a restart;
        # the GM's phone draws every control.
        player_reads_only(ash, screenshot, "owner-player")
        restart(ash)
        player_reads_only(ash)
        gm_draws_everything(gm, screenshot)

        # Ash rolls (its own: at once on the GM's phone), then undoes it: the GM's phone says so, with Restore.
        log_a_success_with_ap(ash, players_phone=True)
        open_link(gm, site, link_of(ash))
        update(gm)
        nav(gm, "Log")
        assert gm.get_by_test_id("log-entry").count() == 1
        nav(ash, "Log")
        ash.get_by_role("button", name="Undo last").tap()
        ash.get_by_role("button", name="Yes, undo it").tap()
        open_link(gm, site, link_of(ash))
        update(gm)
        notice = gm.get_by_test_id("undo-notice")
        notice.wait_for()
        assert "Ash undid Ash's roll Ash 1." in notice.inner_text().replace("\u2068", "").replace("\u2069", "")
        shots(gm, screenshot, "owner-gm-undo-notice")
        notice.get_by_role("button", name="Restore").tap()
        notice.wait_for(state="detached")
        gm.wait_for_function(RESTORED_STORED)  # a reload before the log store has it would start without it
        restart(gm)
        nav(gm, "Log")
        assert gm.get_by_test_id("log-entry").count() == 1 and "GM 1" in gm.get_by_test_id("log-entry").inner_text()
        assert gm.get_by_role("button", name="Undo last").count() == 1

        # The newest roll is the GM's now: Ash's phone draws no Undo for it, and says why.
        open_link(ash, site, link_of(gm))
        update(ash)
        nav(ash, "Log")
        ash.get_by_test_id("undo-not-yours").wait_for()
        assert ash.get_by_role("button", name="Undo last").count() == 0
        player_shots(ash, screenshot, "owner-player-log", ash.get_by_test_id("undo-not-yours"))

        # An altered page of Ash's phone sends a rename of the session and of Brin, and 80 Tension: they wait.
        session_id = link_v2.read(link_of(gm)).replica.id
        replica = head_replica(ash, session_id)
        device = next(device for devices in replica.holders.values() for device in devices
                      if device != replica.gm[0])
        before = replica.session()
        after = {**before, "name": "Taken over", "tension": before["tension"] + 80,
                 "roster": [{**entry, "name": "Bob"} if entry["name"] == "Brin" else entry
                            for entry in before["roster"]]}
        replica.absorb(before, after, device)
        open_link(gm, site, link_v2.session_link(replica))
        update(gm)
        held = gm.get_by_test_id("held")
        held.wait_for()
        listed = held.locator("li").all_inner_texts()
        assert [line.replace("\u2068", "").replace("\u2069", "") for line in listed] == [
            "Ash's phone: the session's name to “Taken over”", "Ash's phone: rename Brin to “Bob”",
            "Ash's phone: Tension +80, " + BEYOND_ROLLS]
        assert session_name(gm) == "Friday at Kim's"
        shots(gm, screenshot, "owner-gm-add-prompt")
        held.get_by_role("button", name="Add").tap()
        held.wait_for(state="detached")
        assert "Added:" in message(gm)
        restart(gm)
        assert session_name(gm) == "Taken over"
        # The +80 stays Ash's phone's own, vouched for by the GM's phone (stored, after a restart too), and
        # Ash's phone, which never made those steps, counts them like every other phone.
        gm_head = head_replica(gm, session_id)
        assert gm_head.session()["tension"] == after["tension"] and gm_head.tension[device] == replica.tension[device]
        assert gm_head.vouched[device]["tension"][:2] == replica.tension[device] 
        assert gm_head.tension.get(replica.gm[0]) == replica.tension.get(replica.gm[0])  # nothing of it is the GM's count
        open_link(ash, site, link_of(gm))
        update(ash)
        assert session_name(ash) == "Taken over"  # the GM's own change now: Ash's phone keeps it
        for _ in range(200):
            if head_replica(ash, session_id).session()["tension"] == after["tension"]:
                break
            ash.wait_for_timeout(25)
        assert head_replica(ash, session_id).session()["tension"] == after["tension"]

        # Ash starts a session of Ash's own: the list draws no Rename for the one Ash plays in (its name is
        # the GM's), and still not after a restart; Ash's own session is renamed beside its name, as ever.
        nav(ash, "Session")
        ash.get_by_role("button", name="Start a new session").tap()
        ash.get_by_role("button", name="Open Taken over").wait_for()
        for restarted in (False, True):
            if restarted:
                restart(ash)
                nav(ash, "Session")
            assert ash.get_by_role("button", name="Rename Taken over").count() == 0
            assert ash.get_by_role("button", name="Duplicate Taken over").count() == 1
        row = ash.get_by_test_id("session-row").filter(has_text="Taken over")
        player_shots(ash, screenshot, "owner-player-sessions", row)
        ash.set_viewport_size(DESKTOP["viewport"])
        row.evaluate("(element) => element.scrollIntoView({block: 'center'})")
        screenshot(ash, "owner-player-sessions", full_page=False)
    finally:
        for context in contexts:
            context.close()
    watch.check()
