"""A call whose called character rolls first on its own phone (issue 31, item 5), on a live table of
two phones (the GM's and Ash's) in a private network namespace (run by test_live_calls.py, never
collected on its own): the GM calls for Ash's attack on the Ghoul; Ash's phone rolls the attack and
sends it; the GM's phone opens on the conflict with Ash's side settled, rolls the Ghoul's defense and
logs it; both phones show the same result. Then Anomaly: the GM calls for Ash's defense against the
Ghoul; Ash's phone rolls it first and sends its total; the GM's phone rolls the Ghoul's attack against
it. And an attack sent while the channel is down (the GM's phone closed): it waits to reach the GM's
phone and goes, with no tap, once the GM's phone is open again. Screenshots at 390x844, 320 px and
1280x800.
"""
from __future__ import annotations

import time

import netns

netns.require_isolated()  # before anything opens a page

from inside_live_calls import all_agree, call_to, end_round, live_screen, party, pictures  # noqa: E402
from conftest import BOOT_TIMEOUT_MS  # noqa: E402
from inside_live_table import AGREE_MS, ROLL, armed, join, live_again, playwright_instance, table  # noqa: E402,F401
from test_accessibility import violations  # noqa: E402
from test_sessions import nav  # noqa: E402


def seen(locator) -> str:
    return locator.inner_text().replace("\u2068", "").replace("\u2069", "")


def live_with_ash(table):
    """The GM's phone and Ash's, joined live by scanning."""
    gm, [ash] = table(names=("Ash",), session=party())
    nav(gm.page, "Session")
    gm.button("Make this table live", "setup")
    join(gm, ash)
    return gm, ash


def test_a_characters_attack_rolls_first_on_its_phone_then_the_gm_defends(table, screenshot):
    gm, ash = live_with_ash(table)
    problems = {}

    form = live_screen(gm)
    form.get_by_label("Kind of roll").select_option("attack")
    gm.taps["call"] += 1
    gm.tap(form.get_by_label("Combat (the difference is damage)"), "call")
    defense = form.get_by_test_id("side-defender")
    assert "Ghoul" in defense.inner_text()
    assert "Ash rolls first: the defender rolls once" in seen(defense)  # the one phone called, not "Player"
    pictures(gm.page, screenshot, "call-first-gm-form", form)
    problems["gm form"] = violations(gm.page)
    before = dict(gm.taps)
    started = time.perf_counter()
    call_to(gm, form, "Ash strikes the Ghoul")

    ash.page.get_by_test_id("live-call-banner").wait_for(timeout=AGREE_MS)
    assert "rolls this once your attack reaches it" in seen(ash.page.get_by_test_id("side-defender"))
    assert ash.page.get_by_test_id("side-defender").get_by_role("button", name=ROLL).count() == 0
    ash.tap(ash.page.get_by_test_id("side-initiator-0").get_by_role("button", name=ROLL), "roll")
    pictures(ash.page, screenshot, "call-first-player-rolled")
    problems["player rolled"] = violations(ash.page)
    ash.button("Send to the GM", "roll", exact=True)
    ash.page.get_by_test_id("side-initiator-0").get_by_text("Sent to the GM's phone").wait_for(timeout=AGREE_MS)
    pictures(ash.page, screenshot, "call-first-player-sent")

    attack = gm.page.get_by_test_id("side-initiator-0")
    attack.get_by_text("Settled on Ash's phone").wait_for(timeout=AGREE_MS)
    assert gm.page.get_by_test_id("live-round").count() == 0  # the Live table screen's regions left with it
    pictures(gm.page, screenshot, "call-first-gm-defends")
    problems["gm defends"] = violations(gm.page)
    gm.tap(gm.page.get_by_test_id("side-defender").get_by_role("button", name=ROLL), "defend")
    gm.button("Log this result", "defend")

    ash.page.get_by_text("Result (logged)").wait_for(timeout=AGREE_MS)
    settled = time.perf_counter() - started
    seen_by = all_agree([gm, ash])
    assert any("Ghoul" in line for line in seen_by["log"]), seen_by["log"]
    nav(gm.page, "Conflict")
    nav(ash.page, "Conflict")
    results = [seen(phone.page.locator("#tension-result-bar .result-bar-summary")) for phone in (gm, ash)]
    assert results[0] == results[1] and "vs" in results[0], results
    outcomes = [seen(phone.page.get_by_test_id("result").locator(".outcome").first) for phone in (gm, ash)]
    assert outcomes[0] == outcomes[1], outcomes
    pictures(ash.page, screenshot, "call-first-player-result")
    pictures(gm.page, screenshot, "call-first-gm-result")
    problems["player result"] = violations(ash.page)
    print(f"\n  a character's attack across two phones: the GM {sum(gm.taps.values()) - sum(before.values())} taps "
          f"(words, Call, Roll, Log), Ash {ash.taps['roll']} (Roll, Send); call to both phones showing the result "
          f"{settled:.2f} s; both: {results[0]}")

    # Anomaly: Ash's defense first, on Ash's phone; the Ghoul's attack after it, on the GM's.
    end_round(gm)
    form = live_screen(gm)
    form.get_by_label("Rule system").select_option("anomaly")
    form = live_screen(gm)
    form.get_by_label("Kind of roll").select_option("defense")
    assert "Ghoul" in form.get_by_test_id("side-actor").inner_text()
    call_to(gm, form, "The Ghoul claws Ash")
    ash.page.get_by_test_id("live-call-banner").wait_for(timeout=AGREE_MS)
    assert "rolls this once your defense reaches it" in seen(ash.page.get_by_test_id("side-actor"))
    assert "Ash" in seen(ash.page.get_by_test_id("side-defender"))  # Ash's blank Anomaly sheet, not "Defender"
    assert "Player" not in seen(ash.page.get_by_test_id("side-actor"))  # the Ghoul's attack, not a player's
    ash.tap(ash.page.get_by_test_id("side-defender").get_by_role("button", name=ROLL), "roll")
    ash.button("Send to the GM", "roll", exact=True)
    ash.page.get_by_test_id("side-defender").get_by_text("Sent to the GM's phone").wait_for(timeout=AGREE_MS)
    pictures(ash.page, screenshot, "call-first-player-defense-sent")
    problems["player defense sent"] = violations(ash.page)
    gm.page.get_by_test_id("side-defender").get_by_text("Settled on the defender's phone").wait_for(timeout=AGREE_MS)
    assert "Ash" in seen(gm.page.get_by_test_id("side-defender"))  # Ash's Anomaly sheet: the phone is held as Ash
    pictures(gm.page, screenshot, "call-first-gm-attacks")
    gm.tap(gm.page.get_by_test_id("side-actor").get_by_role("button", name=ROLL), "attack")
    gm.button("Log this result", "attack")
    ash.page.get_by_text("Result (logged)").wait_for(timeout=AGREE_MS)
    all_agree([gm, ash])
    nav(gm.page, "Conflict")
    nav(ash.page, "Conflict")
    results = [seen(phone.page.locator("#anomaly-result-bar .result-bar-summary")) for phone in (gm, ash)]
    assert results[0] == results[1] and "vs" in results[0], results
    pictures(ash.page, screenshot, "call-first-player-defense-result")
    print(f"  an Anomaly defense across two phones: both: {results[0]}")
    assert {name: found for name, found in problems.items() if found} == {}


def test_an_attack_sent_while_the_channel_is_down_goes_once_the_gms_phone_is_back(table, screenshot):
    gm, ash = live_with_ash(table)
    armed(gm, 1)
    armed(ash, 1)
    form = live_screen(gm)
    form.get_by_label("Kind of roll").select_option("attack")
    call_to(gm, form, "Ash strikes the Ghoul")
    ash.page.get_by_test_id("live-call-banner").wait_for(timeout=AGREE_MS)
    ash.tap(ash.page.get_by_test_id("side-initiator-0").get_by_role("button", name=ROLL), "roll")
    nav(gm.page, "Conflict")  # the GM's conflict waits for the attack: New conflict says so before it drops it
    gm.page.locator("#tension-new-hint").get_by_text("Ash's attack is still on its way").wait_for(timeout=AGREE_MS)
    gm.tap(gm.page.locator("#tension-new"), "new")
    gm.page.get_by_text("Tap it again to stop waiting").wait_for(timeout=AGREE_MS)
    pictures(gm.page, screenshot, "call-first-gm-still-waiting")
    problems = {"gm still waiting": violations(gm.page)}

    url = gm.page.url.split("#")[0]
    gm.page.close()  # the GM's phone closed its page: the channel is down
    ash.page.get_by_test_id("live-line").get_by_text("Not live").wait_for(timeout=AGREE_MS)
    ash.button("Send to the GM", "roll", exact=True)
    bar = ash.page.locator("#tension-result-bar")
    bar.get_by_text("Waiting to reach the GM's phone").wait_for(timeout=AGREE_MS)
    pictures(ash.page, screenshot, "call-first-player-waiting", bar)
    problems["player waiting"] = violations(ash.page)

    gm.page = gm.context.new_page()  # the GM opens the app again: same storage; no tap on Ash's phone
    gm.page.goto(url, wait_until="commit")
    live_again(ash, BOOT_TIMEOUT_MS)
    gm.page.get_by_test_id("side-initiator-0").get_by_text("Settled on Ash's phone").wait_for(timeout=BOOT_TIMEOUT_MS)
    bar.get_by_text("On the GM's phone").wait_for(timeout=AGREE_MS)
    pictures(ash.page, screenshot, "call-first-player-on-the-gms-phone", bar)
    problems["player on the GM's phone"] = violations(ash.page)
    gm.tap(gm.page.get_by_test_id("side-defender").get_by_role("button", name=ROLL), "defend")
    gm.button("Log this result", "defend")
    ash.page.get_by_text("Result (logged)").wait_for(timeout=AGREE_MS)
    all_agree([gm, ash])
    assert {name: found for name, found in problems.items() if found} == {}
