"""Every control a thumb can hit is at least 44x44 CSS pixels (WCAG 2.5.5, Apple's and Google's
guides), on every screen, at 390x844 and on a 320 px phone.

Controls: button, a link, input, select, textarea, summary, [role=button]; a checkbox, radio or
file input inside its label is measured by the label (the whole label takes the tap), and the
box itself must still be at least 24x24 (not squeezed by a long label). Only what can be tapped
is measured: visible, not inert, not off screen (the skip link waits off screen until a keyboard
focuses it: it is measured focused). Exempt, as WCAG 2.5.8 allows for inline targets: a link
inside a sentence, its height set by the line of text around it (the app has no such link today;
the rule is written down so the test says what it would let through).

Screens are reached by taps, as a person would, from a session opened by its link (the same
helpers as the other browser tests): the join dialog, each system's Conflict screen in its
common states, Roster with a sheet open in each system, Log, Tables, Session, the Live table
screen (the GM's, before any phone connects: connecting needs WebRTC, tested in a network
namespace by test_live_table.py), the update dialog of a link opened again, and a player's
phone with its "Show to the GM" dialog.
"""
from __future__ import annotations

import re

import pytest

from session.links.v1 import encode_session
from conftest import DESKTOP, PHONE, READY, BOOT_TIMEOUT_MS
from test_sessions import enter_dice, nav, not_now
from test_table_of_phones import ROLL, table

SIZES = ({"width": 390, "height": 844}, {"width": 320, "height": 568})
LEAST = 44

UNDERSIZED = """(least) => {
  const controls = 'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button]';
  const found = [];
  const seen = new Set();
  for (const control of document.querySelectorAll(controls)) {
    if (control.closest('[inert], [hidden]') || !control.checkVisibility({visibilityProperty: true})) {
      continue;
    }
    let target = control;
    if (control.matches('input[type=checkbox], input[type=radio], input[type=file]')) {
      const named = control.id && document.querySelector(`label[for="${control.id}"]`);
      target = control.closest('label') || named || control;
    }
    const own = control.getBoundingClientRect();
    const size = (box) => `${Math.round(box.width * 10) / 10}x${Math.round(box.height * 10) / 10}`;
    if (target !== control && control.type !== 'file' && own.width && (own.width < 24 || own.height < 24)) {
      found.push(`the box of ${control.type} "${control.id}" ${size(own)}, under 24x24`);
    }
    if (seen.has(target)) continue;
    seen.add(target);
    const box = target.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (box.right <= 0 || box.bottom + window.scrollY <= 0) continue;  // parked off screen until focused
    if (target.matches('a') && target.parentElement && [...target.parentElement.childNodes].some(
        node => node.nodeType === Node.TEXT_NODE && node.textContent.trim())) continue;  // a link in a sentence
    if (box.width < least - 0.01 || box.height < least - 0.01) {
      const name = (control.getAttribute('aria-label') || target.innerText || control.value || control.id || '')
        .trim().replace(/\\s+/g, ' ').slice(0, 40);
      const kind = control.tagName.toLowerCase() + (control.type ? `[${control.type}]` : '');
      found.push(`${kind} "${name}" ${size(box)}`);
    }
  }
  return found;
}"""


class Survey:
    """Every undersized control, by the state it was seen in and the width of the screen."""

    def __init__(self, page):
        self.page, self.found = page, {}

    def look(self, state: str):
        phone = self.page.viewport_size
        for size in SIZES:
            self.page.set_viewport_size(size)
            small = self.page.evaluate(UNDERSIZED, LEAST)
            if small:
                self.found[f"{state} at {size['width']}"] = small
        self.page.set_viewport_size(phone)

    def check(self):
        for state, small in self.found.items():
            print(f"\n{state}:", *small, sep="\n  ")
        assert self.found == {}


@pytest.fixture
def at_table(browser, watch, site):
    """A phone that opened the session's link (Ash and Brin, a sheet each in every system)."""
    context = browser.new_context(**PHONE)
    watch.attach(context)
    page = context.new_page()
    page.goto(site + "#" + encode_session(table()))
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    yield page
    context.close()


def shoot(page, screenshot, name: str, around=None):
    """The screen at 390x844, 320 px wide and 1280x800: its top, or around a locator."""
    for size in (PHONE["viewport"], SIZES[1], DESKTOP["viewport"]):
        page.set_viewport_size(size)
        if around is None:
            page.evaluate("window.scrollTo(0, 0)")
        else:
            around.evaluate("element => element.scrollIntoView({block: 'center'})")
        screenshot(page, name, full_page=False)
    page.set_viewport_size(PHONE["viewport"])


def conflict(page, system: str):
    page.get_by_role("navigation", name="Rule system").get_by_role("button", name=system).tap()
    nav(page, "Conflict")


def holder(page, who: str):
    """Say who holds this phone, from the session bar."""
    page.get_by_role("button", name=re.compile("^(Whose phone is this\\?|Change who holds this phone)$")).tap()
    chooser = page.get_by_test_id("role-chooser")
    chooser.get_by_role("button", name=who, exact=True).tap()
    chooser.wait_for(state="detached")


def test_tension_engine_conflicts(at_table, screenshot):
    page = at_table
    survey = Survey(page)
    not_now(page)
    survey.look("environment, before anyone rolls")
    gm, player = page.get_by_test_id("side-gm"), page.get_by_test_id("side-player")
    gm.get_by_role("button", name="Real dice").tap()
    survey.look("the GM entering real dice")
    gm.get_by_role("button", name="Total only").tap()
    survey.look("the GM's total only")
    gm.get_by_role("button", name="Roll here").tap()
    gm.get_by_role("button", name=ROLL).tap()
    survey.look("the GM rolled: boost or extra dice")
    page.get_by_role("button", name="New conflict").tap()
    enter_dice(gm, [6, 5, 2])
    enter_dice(player, [6, 4, 3, 1, 1])
    page.get_by_test_id("result-bar").wait_for()
    survey.look("environment rolled, AP to spend")
    page.get_by_role("button", name="Log this result").tap()
    page.get_by_text("Result (logged)").wait_for()
    survey.look("environment logged")
    page.get_by_role("group", name="Conflict against").get_by_role("button", name="An adversary").tap()
    page.get_by_role("checkbox", name=re.compile("^Combat")).wait_for()
    survey.look("against an adversary, combat")
    shoot(page, screenshot, "tap-targets-combat-checkbox", page.get_by_role("checkbox", name=re.compile("^Combat")))
    page.get_by_role("button", name="Add an initiator (same action)").tap()
    survey.look("two initiators")
    survey.check()


def test_anomaly_conflicts(at_table):
    page = at_table
    survey = Survey(page)
    not_now(page)
    conflict(page, "Anomaly")
    survey.look("a check, before the roll")
    actor = page.get_by_test_id("side-actor")
    actor.get_by_role("button", name="Add a modifier").tap()
    survey.look("a check, adding a modifier")
    actor.get_by_role("button", name=re.compile("^Add this modifier")).tap()
    page.get_by_role("button", name="Difficulty 9", exact=True).tap()
    actor.get_by_test_id("chance-actor").wait_for()
    survey.look("a check with modifiers and odds")
    enter_dice(actor, [7])
    page.get_by_test_id("result-bar").wait_for()
    survey.look("a check rolled")
    page.get_by_role("button", name="Log this result").tap()
    page.get_by_role("button", name="New roll").tap()
    page.get_by_role("group", name="Roll against").get_by_role("button", name="Opposed roll").tap()
    survey.look("an opposed roll")
    survey.check()


def test_manner_cards_conflicts(at_table):
    page = at_table
    survey = Survey(page)
    not_now(page)
    conflict(page, "Manner Cards")
    survey.look("a Test, nothing picked, helpers")
    page.get_by_role("group", name="Where the GM's card is").get_by_role("button", name="GM says").tap()
    survey.look("a Test, the GM says the card")
    page.get_by_role("group", name="Where the GM's card is").get_by_role("button", name="On this phone").tap()
    page.get_by_test_id("side-gm").get_by_role("button", name="Pick at random").tap()
    page.get_by_test_id("cards-player").get_by_role("button", name=re.compile("^Force, rating")).tap()
    survey.look("a Test, a Manner picked")
    page.get_by_role("button", name=re.compile("^Lock Manner for ")).tap()
    survey.look("a Test, both cards face down")
    page.get_by_role("button", name="Reveal the cards").tap()
    page.get_by_test_id("result").wait_for()
    survey.look("a Test revealed")
    page.get_by_role("button", name="Log this result").tap()
    page.get_by_role("button", name="New conflict").tap()
    page.get_by_role("group", name="Conflict kind").get_by_role("button", name="Confrontation").tap()
    survey.look("a Confrontation")
    survey.check()


def test_roster_log_tables_session_live_and_the_dialogs(at_table, site, screenshot):
    page = at_table
    survey = Survey(page)
    page.get_by_test_id("role-chooser").wait_for()
    survey.look("the join dialog")
    not_now(page)
    survey.look("nobody said who holds the phone")
    shoot(page, screenshot, "tap-targets-whose-phone")
    holder(page, "The GM")
    survey.look("the GM's phone")
    shoot(page, screenshot, "tap-targets-change")
    for system in ("Tension Engine", "Anomaly", "Manner Cards"):
        page.get_by_role("navigation", name="Rule system").get_by_role("button", name=system).tap()
        nav(page, "Roster")
        survey.look(f"{system} roster")
        page.get_by_role("button", name=re.compile("^Edit")).first.tap()
        page.get_by_test_id("sheet-editor").wait_for()
        survey.look(f"{system} sheet open")
        page.get_by_role("button", name="Cancel").tap()
    page.get_by_role("navigation", name="Rule system").get_by_role("button", name="Tension Engine").tap()
    nav(page, "Conflict")
    page.get_by_test_id("side-gm").get_by_role("button", name=ROLL).tap()
    page.get_by_test_id("side-player").get_by_role("button", name=ROLL).tap()
    page.get_by_role("button", name="Log this result").tap()
    nav(page, "Log")
    page.get_by_test_id("log-entry").first.wait_for()
    survey.look("Log")
    happened = page.get_by_text("What happened").first
    happened.tap()
    shoot(page, screenshot, "tap-targets-log-what-happened", happened)
    page.get_by_role("button", name="Undo last").tap()
    survey.look("Log, undo asked")
    nav(page, "Tables")
    survey.look("Tables")
    page.get_by_role("button", name="Edit the lines").tap()
    survey.look("Tables, editing the Tension Table")
    page.get_by_role("button", name="Cancel").tap()
    nav(page, "Session")
    survey.look("Session")
    page.get_by_role("button", name="Make this table live").tap()
    page.get_by_test_id("live-gm").wait_for()
    survey.look("Live table")
    changed = table()
    changed["tension"] = 9
    page.goto(site + "#" + encode_session(changed))
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    page.get_by_test_id("join-prompt").wait_for()
    survey.look("the update dialog")
    page.keyboard.press("Escape")
    page.get_by_test_id("join-prompt").wait_for(state="detached")
    holder(page, "Ash")
    nav(page, "Conflict")
    page.get_by_role("button", name="New conflict").tap()
    survey.look("Ash's phone")
    page.get_by_test_id("side-player").get_by_role("button", name=ROLL).tap()
    page.get_by_role("button", name="Log and show to the GM").tap()
    page.get_by_test_id("handoff").wait_for()
    survey.look("Show to the GM")
    page.goto(site)
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    survey.look("the skip link, focused by the keyboard")
    survey.check()
