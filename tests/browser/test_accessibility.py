"""Accessible names, labels and WCAG AA contrast on every screen, in the dark and the light theme.

axe-core (Deque's engine, pinned in package.json, never shipped to the page) is
evaluated through the DevTools protocol, which the page's CSP does not govern.
"""
import pytest

from conftest import PHONE, READY, ROOT

AXE = (ROOT / "node_modules" / "axe-core" / "axe.min.js").read_text()
SYSTEMS = ("Tension Engine", "Anomaly", "Manner Cards")
SCREENS = ("Roster", "Log", "Tables", "Session")


def violations(page) -> list[str]:
    page.evaluate(AXE)
    found = page.evaluate("""async () => {
      const results = await axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"]}});
      return results.violations.map(v => `${v.id}: ${v.nodes.map(n => n.target.join(" ")).slice(0, 5).join(", ")}`);
    }""")
    return found


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_every_screen_passes_axe(browser, site, watch, scheme):
    context = browser.new_context(**PHONE, color_scheme=scheme)
    watch.attach(context)
    page = context.new_page()
    page.goto(site)
    page.locator(READY).wait_for(state="attached", timeout=60_000)
    problems = {}
    for system in SYSTEMS:
        page.get_by_role("button", name=system, exact=True).tap()
        page.get_by_role("button", name="Conflict", exact=True).tap()
        problems[f"{system} conflict"] = violations(page)
    for screen in SCREENS:
        page.get_by_role("button", name=screen, exact=True).tap()
        problems[screen] = violations(page)
    context.close()
    assert {name: found for name, found in problems.items() if found} == {}


def test_the_pictures_and_the_screens_issue_32_changed_pass_axe(app):
    """The odds as bars and totals (Tension Engine before and after the GM's total, Anomaly against a
    difficulty), Health in the chips, Tension as a line on the Log, Rename beside the session's name."""
    import re

    from test_anomaly_flows import add_modifier
    from test_tension_flows import add_character, enter_dice

    page = app
    add_character(page, "Ash", 2, ("Grace", 3), ("Climb", 2))
    page.get_by_role("button", name="Conflict").tap()
    page.get_by_test_id("odds").locator("svg[role=img]").first.wait_for()
    problems = {"tension odds before the GM rolls": violations(page)}
    enter_dice(page.get_by_test_id("side-gm"), [6, 5, 2])
    page.get_by_text("Chance to beat the GM's 11").wait_for()
    problems["tension odds against the GM's total"] = violations(page)
    enter_dice(page.get_by_test_id("side-player"), [6, 4, 3, 1, 1])
    page.get_by_role("button", name="Log this result").tap()
    page.get_by_role("button", name="New conflict").first.tap()
    for side in ("side-gm", "side-player"):
        card = page.get_by_test_id(side)
        card.get_by_role("button", name="Roll here").tap()
        card.get_by_role("button", name=re.compile(r"^Roll \d+ dice")).tap()
    page.get_by_role("button", name="Log this result").tap()
    page.get_by_role("button", name="Log", exact=True).tap()
    page.locator(".line-chart").wait_for()
    problems["log with the Tension line"] = violations(page)
    page.get_by_role("button", name="Session", exact=True).tap()
    page.locator(".session-name-row").get_by_role("button", name=re.compile("^Rename")).tap()
    page.locator(".rename-form input").wait_for()
    problems["session renamed beside its name"] = violations(page)
    page.get_by_role("button", name="Anomaly", exact=True).tap()
    page.get_by_role("button", name="Conflict", exact=True).tap()
    card = page.get_by_test_id("side-actor")
    card.get_by_role("button", name="Good dice: one more").tap()
    card.get_by_role("button", name="Add a modifier").tap()
    add_modifier(card, 2)
    page.get_by_role("button", name="Difficulty 9").tap()
    card.get_by_test_id("chance-actor").wait_for()
    problems["anomaly odds against a difficulty"] = violations(page)
    for scheme in ("light",):
        page.emulate_media(color_scheme=scheme)
        problems[f"anomaly odds, {scheme}"] = violations(page)
        page.get_by_role("button", name="Tension Engine", exact=True).tap()
        problems[f"tension conflict, {scheme}"] = violations(page)
        page.get_by_role("button", name="Log", exact=True).tap()
        problems[f"log, {scheme}"] = violations(page)
    assert {name: found for name, found in problems.items() if found} == {}
