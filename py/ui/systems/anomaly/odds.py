"""Anomaly's odds for a side before it rolls: its chance (against the difficulty, or the
other side's total or roll), and what one more good or bad die would make it, as bars on one
scale; then the totals its d10 and modifiers may make, what it must beat marked (the difficulty,
or the other side's settled total). Markup only; the numbers come from rules.odds via the draft.
"""
from __future__ import annotations

import rules

from ui.core.state import AppState
from ui.kit.charts import chance_bars, totals_chart
from ui.kit.html import Markup, h, isolate
from ui.kit.percent import percent
from ui.systems.anomaly import draft as draft_model

EMPTY = Markup("")


def block(state: AppState, draft: dict, role: str, roller: dict) -> Markup:
    """Before this side rolls: its chance, and what one more good or bad die would make it."""
    if draft["logged"] is not None or draft_model.has_rolled(roller) or roller["mode"] == draft_model.TOTAL:
        return EMPTY
    if "anomaly" not in state.odds_ready:
        return h("div", h("p", "Working out the odds…", class_="hint"), class_="anomaly-odds", aria_busy="true")
    try:
        content = lines(state, draft, role, roller)
    except rules.RuleError as error:
        content = [h("p", str(error), class_="hint")]
    return h("div", *content, class_="anomaly-odds", data_testid=f"odds-{role}")


def lines(state: AppState, draft: dict, role: str, roller: dict) -> list[Markup]:
    odds = rules.odds
    mine = draft_model.odds_fields(state, roller, role)
    target = winning = None  # the total to beat, once it is a number (Anomaly: success only above it)
    if draft["kind"] == draft_model.CHECK:
        if draft["difficulty"] is None:
            return [h("p", "Pick a difficulty to see the chance of success.", class_="hint")]
        title = f"Chance of success against {draft['difficulty']}"
        target, winning = draft["difficulty"], f"beat {draft['difficulty']}"

        def chance(fields):
            return odds.anomaly_check(fields["good"], fields["bad"], fields["modifiers"],
                                      draft["difficulty"])["success"]
    else:
        other_role = "defender" if role == "actor" else "actor"
        other = draft_model.odds_fields(state, draft[other_role], other_role)
        if other is None:
            return [h("p", "The chance of success shows once the defender's total is in.", class_="hint")]
        other_name = isolate(draft_model.roller_name(state, draft[other_role], other_role))
        against = str(other["total"]) if "total" in other else f"{other_name}'s roll"
        if role == "actor":
            title = f"Chance to beat {against}"
            if "total" in other:
                target, winning = other["total"], f"beat {against}"

            def chance(fields):
                return odds.anomaly_opposed(fields, other)["success"]
        else:
            title = f"Chance to hold against {against}"
            if "total" in other:  # the defender holds on an equal total
                target, winning = other["total"] - 1, f"hold against {against}"

            def chance(fields):
                return odds.anomaly_opposed(other, fields)["failure"]
    now = chance(mine)
    rows = [("As it stands", now)]
    for which in ("good", "bad"):
        if mine[which] < rules.LIMITS["conditional_dice"]:
            rows.append((f"With 1 more {which} die", chance({**mine, which: mine[which] + 1})))
    name = isolate(draft_model.roller_name(state, roller, role))
    totals = odds.anomaly_total_distribution(mine["good"], mine["bad"], mine["modifiers"])
    return [h("p", h("span", title, class_="odds-label"), ": ",
              h("strong", percent(now), class_="odds-main", data_testid=f"chance-{role}"),
              class_="odds-headline"),
            chance_bars(rows, f"{title}, and with one more conditional die"),
            h("p", f"{name}'s total", class_="chart-caption", aria_hidden="true"),
            totals_chart(totals, f"{name}'s total", target, winning)]
