"""The Tension Engine's odds for what is on screen: before anyone rolls, each side's chance;
once a side's total is settled, the other's chance against it; after a side rolled, exactly
what spending would change with its dice. Chances are drawn as bars on one scale, beside the
totals the side rolling next may make keeping 2 (what it must beat marked, once settled).
Markup only; the numbers come from rules.odds (and rules.gm_options, rules.fewest_ap) via the draft.
"""
from __future__ import annotations

import functools
from fractions import Fraction

import rules

from ui.core.state import AppState
from ui.kit.charts import chance_bars, totals_chart
from ui.kit.html import Markup, h, isolate
from ui.kit.percent import percent
from ui.systems import dice_entry
from ui.systems.tension import draft as draft_model


def pictured(title: str, drawn_bars: Markup, totals: Markup = Markup("")) -> list[Markup]:
    """The title, the chances as bars (`bars`: their numbers in the picture's text equivalent) and the totals."""
    return [h("p", title, class_="odds-title"),
            h("div", drawn_bars, totals, class_="odds-pictures", data_testid="odds")]


# A picture is a pure function of its numbers, and so are the chances: stepping a pool up and down
# works out and draws each once. Enough for every pool against every total the GM may roll.
KEPT = 256


@functools.lru_cache(maxsize=KEPT)
def bars(rows: tuple) -> Markup:
    return chance_bars(rows, "")


# Kept by the numbers they come from, not by their chances: hashing five Fractions costs more than
# looking up three small numbers, and the panel asks on every tap.
@functools.lru_cache(maxsize=KEPT)
def against_total_bars(pool: int, most_ap: int, gm_total: int) -> Markup:
    return chance_bars(against_total_rows(pool, most_ap, gm_total), "")


@functools.lru_cache(maxsize=KEPT)
def environment_bars(tension: int, pool: int, retry: bool) -> Markup:
    return chance_bars(environment_rows(tension, pool, retry), "")


def against_total_rows(pool: int, most_ap: int, gm_total: int) -> tuple:
    """(label, chance to beat `gm_total`) keeping 2, then spending each AP the player may (at most 4):
    rules.odds.tension_against_total's success, read from the chances above every total."""
    return tuple(("Keep 2" if ap == 0 else f"Spend {ap} AP", chance_above(chances_above(pool, ap), gm_total))
                 for ap in range(min(most_ap, 4) + 1))


@functools.lru_cache(maxsize=KEPT)
def chances_above(pool: int, ap: int) -> dict[int, Fraction]:
    """total -> the chance that a character rolling `pool` dice and spending `ap` makes more, from one
    below the lowest total to the highest; worked out once per pool and AP (the GM's total changes
    at every conflict, the player's dice do not)."""
    totals = rules.odds.tension_kept_totals(pool, ap)
    above, running = {}, Fraction(0)
    for total in range(max(totals), min(totals) - 2, -1):
        above[total] = running
        running += totals.get(total, 0)
    return above


def chance_above(above: dict[int, Fraction], total: int) -> Fraction:
    """`above`'s chance for any total: certain below its lowest, none past its highest."""
    return above[min(max(total, min(above)), max(above))]


def environment_rows(tension: int, pool: int, retry: bool) -> tuple:
    """(label, the player's chance) for each of the GM's options before the GM rolls (at most 2 extra dice)."""
    options = rules.odds.tension_environment_options(tension, pool, 0, retry)
    return tuple(("The GM keeps 2" if not row["boost"] and not row["extra"] else "The GM boosts" if row["boost"] else
                  f"The GM pays {row['extra']} for extra dice", row["success"])
                 for row in options if not row["extra"] or row["extra"] <= 2)


@functools.lru_cache(maxsize=KEPT)
def kept_totals(pool: int, who: str, target: int | None = None, winning: str | None = None) -> Markup:
    """The totals a side rolling `pool` dice makes keeping 2, the total it must beat marked; its
    caption is for the eye (the picture's own label says it to a screen reader)."""
    label = f"{isolate(who)}'s total keeping 2 of {pool} dice"
    return Markup(h("p", label, class_="chart-caption", aria_hidden="true")
                  + totals_chart(kept_distribution(pool), label, target, winning))


@functools.lru_cache(maxsize=32)
def kept_distribution(pool: int) -> dict:
    """One distribution per pool, so the chart draws its columns once (ui.kit.charts.columns_of)."""
    return rules.odds.tension_kept_totals(pool)


def after_roll_rows(state: AppState, draft: dict, side: dict) -> list[tuple[str, int]]:
    """(label, total) for what this side could still spend with the dice it rolled: AP for a
    character, the GM's options for an adversary; exact, from the dice on the table."""
    dice = side["dice"]
    ordered = sorted(dice, reverse=True)
    if side["role"] == "character":
        have = draft_model.available_ap(state, side)
        most = max(0, len(dice) - 2) if have is None else min(have, max(0, len(dice) - 2))
        return [("Keep 2" if ap == 0 else f"Spend {ap} AP", sum(ordered[:2 + ap])) for ap in range(min(most, 4) + 1)]
    rows = []
    for option in rules.gm_options(draft_model.conflict_tension(state, draft), len(dice))[:5]:
        label = ("Boost (1 Tension)" if option["boost"] else
                 f"{option['extra']} extra {'die' if option['extra'] == 1 else 'dice'} ({option['extra']} Tension)"
                 if option["extra"] else "Keep 2")
        rows.append((label, sum(ordered[:option["keep"]]) + option["bonus"]))
    return rows


def after_roll_odds(state: AppState, draft: dict, side: dict, targets: list[tuple[str, int]],
                    hold: bool) -> list[Markup]:
    """After this side rolled: what spending would change, exactly (its dice are known).
    `targets`: (name, total) it answers; `hold`: it only needs to equal them (a defender)."""
    rows = after_roll_rows(state, draft, side)
    if len(rows) < 2:
        return []  # nothing left to spend: the odds step aside
    name = isolate(draft_model.side_name(state, side))
    lines = []
    for label, total in rows:
        beaten = [who for who, other in targets if (total >= other if hold else total > other)]
        if len(targets) == 1:
            words = ("holds" if hold else "succeeds") if beaten else ("does not hold" if hold else "fails")
        else:
            words = f"holds against {len(beaten)} of {len(targets)}"
        lines.append(h("li", h("span", f"{label}:", class_="odds-label"), " ", h("strong", str(total)),
                       f" · {name} {words}"))
    against = " and ".join(f"{isolate(who)}'s {other}" for who, other in targets)
    return [h("p", f"With these dice against {against}, what spending would change:", class_="odds-title"),
            h("ul", *lines, class_="odds-list", data_testid="odds")]


def environment_odds(state: AppState, draft: dict) -> list[Markup]:
    player = draft["player"]
    pool = draft_model.pool(state, draft, player)
    gm_total = draft_model.settled_total(state, draft, draft["gm"])
    have = draft_model.available_ap(state, player)
    most_ap = max(0, pool - 2) if have is None else min(have, max(0, pool - 2))
    if player["mode"] == draft_model.TOTAL:
        return []
    if gm_total is not None and dice_entry.complete(player, pool):
        return after_roll_odds(state, draft, player, [(draft_model.side_name(state, draft["gm"]), gm_total)], False)
    name = draft_model.side_name(state, player)
    if gm_total is not None:  # the player's total must beat the GM's (RULES.md: equal is a tie, no success)
        return pictured(f"Chance to beat the GM's {gm_total} with {pool} dice:",
                        against_total_bars(pool, most_ap, gm_total),
                        kept_totals(pool, name, gm_total, f"beat the GM's {gm_total}"))
    if draft["gm"]["mode"] == draft_model.TOTAL:
        return []
    drawn = environment_bars(draft_model.conflict_tension(state, draft), pool, draft["retry"])
    return pictured(f"{isolate(name)}'s chance of success with {pool} dice, keeping 2, before the GM rolls, if:",
                    drawn, kept_totals(pool, name))


def opposed_side_fields(state: AppState, draft: dict, side: dict) -> dict:
    fields = draft_model.record_side(state, draft, side)
    fields.pop("dice", None)
    fields.pop("keep", None)
    fields.pop("id", None)
    fields.pop("dice_from", None)
    if side["role"] == "character":
        fields["ap"] = 0
    else:
        fields.update(boost=False, extra=0)
    return fields


def opposed_odds(state: AppState, draft: dict) -> list[Markup]:
    initiator_totals = [draft_model.settled_total(state, draft, side) for side in draft["initiators"]]
    if all(total is not None for total in initiator_totals):
        targets = [(draft_model.side_name(state, side), total)
                   for side, total in zip(draft["initiators"], initiator_totals)]
        return defender_odds(state, draft, targets)
    defender = opposed_side_fields(state, draft, draft["defender"])
    rows = []
    for side in draft["initiators"]:
        chances = rules.odds.tension_opposed(opposed_side_fields(state, draft, side), defender,
                                             state.session["tension"])
        rows.append((f"{isolate(draft_model.side_name(state, side))} succeeds (tie {percent(chances['tie'])})",
                     chances["initiator"]))
    first = draft["initiators"][0]
    totals = (kept_totals(draft_model.pool(state, draft, first), draft_model.side_name(state, first))
              if len(draft["initiators"]) == 1 else Markup(""))
    return pictured("Before anyone rolls, keeping 2 and spending nothing:", bars(tuple(rows)), totals)


def defender_odds(state: AppState, draft: dict, targets: list[tuple[str, int]]) -> list[Markup]:
    """Once the initiators have settled: the defender's chance to hold (equal is enough), or,
    after the defender rolled, what spending would change with its dice."""
    defender = draft["defender"]
    pool = draft_model.pool(state, draft, defender)
    if defender["mode"] == draft_model.TOTAL:
        return []
    if dice_entry.complete(defender, pool):
        return after_roll_odds(state, draft, defender, targets, True)
    name = draft_model.side_name(state, defender)
    rows = [(f"Holds against {isolate(who)}'s {total}",
             rules.odds.tension_against_total(pool, 0, max(0, total - 1))["success"]) for who, total in targets]
    # Holding needs an equal total: what must be beaten is one below the initiator's (one initiator: marked).
    totals = (kept_totals(pool, name, targets[0][1] - 1, f"hold against {isolate(targets[0][0])}'s {targets[0][1]}")
              if len(targets) == 1 else kept_totals(pool, name))
    return pictured(f"{isolate(name)}'s chance with {pool} dice, keeping 2:", bars(tuple(rows)), totals)


def panel(state: AppState, draft: dict) -> Markup:
    if draft["logged"] is not None:
        return Markup("")
    if "tension" not in state.odds_ready:
        return h("section", h("p", "Working out the odds…", class_="hint"), class_="card odds", aria_busy="true")
    try:
        content = environment_odds(state, draft) if draft["kind"] == "environment" else opposed_odds(state, draft)
    except rules.RuleError:
        content = []
    if not content:
        return Markup("")
    return h("section", h("h3", "Odds", class_="card-title"), *content, class_="card odds")
