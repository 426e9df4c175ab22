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
