"""Tension Engine (d6): conflicts versus the environment and versus adversaries.

Every side keeps two dice; a character buys extra kept dice with AP, the GM
pays Tension for one option per roll (boost, or extra dice), never below 2.
Tension is followed step by step so the log can print every change.
"""

from .dice import check_faces, is_whole_number, roll
from .errors import RecordError, SpendingError
from .record import (check_integer, path, read_boolean, read_choice, read_dice_from, read_integer,
                     read_mapping, read_name, read_optional_list)
from .words import capitalize, plural, possessive, show
from .tension_pool import count_ones, explosions_between, read_settings

SIDES = 6
BASE_KEEP = 2
TENSION_FLOOR = 2
BOOST_COST = 1
MAX_TENSION = 99
MAX_POOL = 40
MAX_TOTAL = 999
MAX_INITIATORS = 12

GM, CHARACTER, ADVERSARY = "gm", "character", "adversary"
SIDE_CHOICES = (CHARACTER, ADVERSARY)
WIN, TIE = "win", "tie"


# --- Keeping dice and paying for them ------------------------------------------------

def best_keep(dice, count) -> list[int]:
    """Positions of the `count` highest dice (earlier dice first among equals), in roll order:
    the selection the app offers before the user taps."""
    dice = check_table_dice(dice)
    count = check_integer(count, "The number of dice kept", 0, len(dice))
    return highest_positions(dice, count)


def highest_positions(dice: list[int], count: int) -> list[int]:
    order = sorted(range(len(dice)), key=lambda index: (-dice[index], index))
    return sorted(order[:count])


def kept_count(pool, paid=0) -> int:
    """Dice kept: two, plus one per AP or Tension paid; a side with fewer keeps what it has."""
    return min(pool, BASE_KEEP + paid)


def most_paid_dice(pool: int) -> int:
    """The most extra dice a pool can keep (each beyond the first two)."""
    return max(0, pool - BASE_KEEP)


def most_extra(tension: int, pool: int) -> int:
    """The most the GM can pay for extra dice without spending Tension below 2."""
    return min(max(0, tension - TENSION_FLOOR), most_paid_dice(pool))


def can_boost(tension: int) -> bool:
    return tension - BOOST_COST >= TENSION_FLOOR


def gm_options(tension, pool) -> list[dict]:
    """Every option the GM has for one roll: none, boost (if affordable), extra 1..N."""
    tension = check_integer(tension, "Tension", 0, MAX_TENSION + 1)
    pool = check_integer(pool, "The pool", 0, MAX_TENSION + 1)
    options = [{"boost": False, "extra": 0, "cost": 0, "bonus": 0, "keep": kept_count(pool)}]
    if can_boost(tension):
        options.append({"boost": True, "extra": 0, "cost": BOOST_COST,
                        "bonus": tension - BOOST_COST, "keep": kept_count(pool)})
    for extra in range(1, most_extra(tension, pool) + 1):
        options.append({"boost": False, "extra": extra, "cost": extra, "bonus": 0,
                        "keep": kept_count(pool, extra)})
    return options


def check_boost(tension: int, where: str | None = None) -> None:
    if not can_boost(tension):
        raise SpendingError(
            "Tension can't be spent below 2: boosting costs 1, so it needs at least 3 Tension "
            f"(there is {tension}).", where)


def check_extra(tension: int, extra: int, pool: int, who: str, where: str | None = None) -> None:
    if extra > tension - TENSION_FLOOR:
        raise SpendingError(
            f"Tension can't be spent below 2: with {tension} Tension the GM can pay at most "
            f"{max(0, tension - TENSION_FLOOR)} for extra dice.", where)
    if extra > most_paid_dice(pool):
        raise SpendingError(
            f"{who} rolls {pool} {plural(pool, 'die', 'dice')}, so the GM can pay for at most "
            f"{most_paid_dice(pool)} extra {plural(most_paid_dice(pool), 'die', 'dice')}.", where)


def check_ap(ap: int, pool: int, who: str, where: str | None = None) -> None:
    if ap > most_paid_dice(pool):
        if pool <= BASE_KEEP:
            raise SpendingError(
                f"{who} rolls only {pool} {plural(pool, 'die', 'dice')} and keeps them all: "
                "there is nothing to spend AP on.", where)
        raise SpendingError(
            f"{who} rolls {pool} dice, so at most {most_paid_dice(pool)} AP can buy extra kept dice.", where)


# --- Reading a side ----------------------------------------------------------------

class Side:
    """One side's roll as the record states it, checked but not yet settled."""

    __slots__ = ("who", "role", "where", "pool", "dice", "keep", "ap", "boost", "extra", "given_total")

    def __init__(self, who: str, role: str | None, where: str | None, pool: int = 0, dice: list | None = None,
                 keep: list | None = None, ap: int = 0, boost: bool = False, extra: int = 0,
                 given_total: int | None = None):
        self.who, self.role, self.where, self.pool = who, role, where, pool
        self.dice, self.keep, self.ap, self.boost, self.extra = dice, keep, ap, boost, extra
        self.given_total = given_total


def read_side(side: dict, role: str, where: str, default_name: str, gm_pool: int | None = None) -> Side:
    """Check one side of a Tension record. `role` is gm, character or adversary."""
    who = read_name(side, default_name, where)
    read_dice_from(side, who, where, side.get("dice") is not None, side.get("total") is not None)
    if side.get("total") is not None:
        return read_given_total(side, role, where, who)
    if role == GM:
        pool = gm_pool
        stated = side.get("pool")
        if stated is not None and (not is_whole_number(stated) or stated != pool):
            raise RecordError(f"The GM rolls as many dice as the Tension ({pool}), not {show(stated)}.",
                              path(where, "pool"))
    else:
        pool = read_integer(side, "pool", f"{capitalize(possessive(who))} pool", 0, MAX_POOL, where)
    if role == CHARACTER:
        ap = read_integer(side, "ap", f"{capitalize(possessive(who))} AP", 0, MAX_POOL, where, default=0)
        if read_boolean(side, "boost", "Boost", where) or read_integer(side, "extra", "Extra dice", 0, MAX_TENSION, where, default=0):
            raise SpendingError(f"{who} is a character: only the GM spends Tension, characters spend AP.", where)
        boost, extra = False, 0
    else:
        boost = read_boolean(side, "boost", "Boost", where)
        extra = read_integer(side, "extra", "The extra dice the GM pays for", 0, MAX_TENSION, where, default=0)
        ap = read_integer(side, "ap", "AP", 0, MAX_POOL, where, default=0)
        if ap:
            raise SpendingError(f"{who} is an adversary: adversaries don't have AP, the GM spends Tension instead.", where)
    dice = read_optional_list(side, "dice", f"{capitalize(possessive(who))} dice", where)
    if dice is not None:
        dice = check_faces(dice, pool, SIDES, who, path(where, "dice"))
    keep = read_optional_list(side, "keep", f"{capitalize(possessive(who))} kept dice", where)
    if keep is not None and dice is None:
        raise RecordError(f"{who} chose dice to keep before rolling: give the dice too, or leave the choice empty.",
                          path(where, "keep"))
    return Side(who=who, role=role, where=where, pool=pool, dice=dice, keep=keep, ap=ap, boost=boost, extra=extra)


def read_given_total(side: dict, role: str, where: str, who: str) -> Side:
    """A side settled elsewhere (another phone, real dice) and announced only as a total."""
    total = read_integer(side, "total", f"{capitalize(possessive(who))} total", 0, MAX_TOTAL, where)
    if side.get("dice") is not None or side.get("keep") is not None:
        raise RecordError(f"{capitalize(possessive(who))} dice and total were both given: give one or the other.", where)
    spends = (read_integer(side, "ap", "AP", 0, MAX_POOL, where, default=0)
              or read_integer(side, "extra", "Extra dice", 0, MAX_TENSION, where, default=0)
              or read_boolean(side, "boost", "Boost", where))
    if spends:
        raise SpendingError(f"{who} is given only as a total, so spends nothing here.", where)
    return Side(who=who, role=role, where=where, given_total=total)


def read_side_choice(side: dict, where: str, who: str) -> str | None:
    """Character or adversary; a side given only as a total may leave it out (None)."""
    if side.get("total") is not None and side.get("side") is None:
        return None
    return read_choice(side, "side", f"{capitalize(possessive(who))} side", SIDE_CHOICES, where, noun="side")


# --- Following Tension through a conflict ----------------------------------------------

class TensionLog:
    """Tension as it changes during one conflict, with a line per change for the log."""

    def __init__(self, tension: int):
        self.before = tension
        self.tension = tension
        self.changes: list[dict] = []
        self.explosions: list[int] = []

    def change(self, why: str, change: int, who: str) -> None:
        start = self.tension
        self.tension += change
        if change > 0:
            self.explosions += explosions_between(start, self.tension)
        self.changes.append({"why": why, "change": change, "after": self.tension, "who": who})

    @property
    def spent(self) -> int:
        return -sum(entry["change"] for entry in self.changes if entry["why"] in ("boost", "extra"))


def settle(side: Side, log: TensionLog, source) -> tuple[dict, dict]:
    """Spend, roll if needed, keep and total one side. Returns (filled side fields, result detail)."""
    if side.given_total is not None:
        return {}, detail(side, total=side.given_total, given=True)
    paid = pay(side, log)
    dice = side.dice if side.dice is not None else roll(side.pool, SIDES, source)
    count = kept_count(side.pool, paid)
    if side.keep is not None:
        check_keep(side, dice, count)
    keep = sorted(side.keep) if side.keep is not None else highest_positions(dice, count)
    kept = [dice[index] for index in keep]
    bonus = log.tension if side.boost else 0
    filled = {"dice": dice, "keep": side.keep if side.keep is not None else keep}
    return filled, detail(
        side, total=sum(kept) + bonus, keep=keep, kept=kept, bonus=bonus,
        ones=count_ones(dice) if side.role == CHARACTER else 0)


def pay(side: Side, log: TensionLog) -> int:
    """Check and apply this side's spending; returns how many extra dice it keeps."""
    if side.role == CHARACTER:
        check_ap(side.ap, side.pool, side.who, path(side.where, "ap"))
        return side.ap
    if side.boost and side.extra:
        raise SpendingError("The GM may boost or pay for extra dice on one roll, not both.", side.where)
    if side.boost:
        check_boost(log.tension, path(side.where, "boost"))
        log.change("boost", -BOOST_COST, side.who)
    if side.extra:
        check_extra(log.tension, side.extra, side.pool, side.who, path(side.where, "extra"))
        log.change("extra", -side.extra, side.who)
    return side.extra


def check_keep(side: Side, dice: list[int], count: int) -> None:
    where = path(side.where, "keep")
    for index in side.keep:
        if not is_whole_number(index):
            raise SpendingError(f"{capitalize(possessive(side.who))} kept dice must be positions in the roll, "
                                "like [0, 2] for the first and third die.", where)
        if not 0 <= index < len(dice):
            raise SpendingError(f"{side.who} can only keep dice from the {len(dice)} rolled.", where)
    if len(set(side.keep)) != len(side.keep):
        raise SpendingError(f"{side.who} kept the same die twice.", where)
    chosen = len(side.keep)
    if chosen == count:
        return
    if side.role == CHARACTER:
        if chosen > count:
            raise SpendingError(f"{side.who} can keep {count} dice, or {chosen} by spending "
                                f"{chosen - BASE_KEEP} AP.", where)
        paid = f": 2, plus {side.ap} bought with AP" if side.ap else ""
    else:
        if chosen > count:
            raise SpendingError(f"{side.who} can keep {count} dice, or {chosen} if the GM pays "
                                f"{chosen - BASE_KEEP} Tension for extra dice.", where)
        paid = f": 2, plus {side.extra} paid for with Tension" if side.extra else ""
    raise SpendingError(f"{side.who} must keep {count} {plural(count, 'die', 'dice')}{paid}.", where)


def detail(side: Side, total: int, given: bool = False, keep=(), kept=(), bonus: int = 0, ones: int = 0) -> dict:
    """One side's part of the result: what it kept, spent and totalled."""
    spent = 0 if given or side.role == CHARACTER else (BOOST_COST if side.boost else side.extra)
    return {
        "name": side.who, "side": side.role, "given_total": given,
        "total": total, "dice_total": total - bonus,
        "keep": list(keep), "kept": list(kept),
        "ap_spent": 0 if given else side.ap,
        "tension_spent": spent, "boost": bonus, "extra": 0 if given else side.extra,
        "ones": ones,
    }


def add_ones(log: TensionLog, details: list[dict], settings: dict) -> int:
    """Each 1 in a character's dice adds 1 Tension after the conflict (a setting)."""
    for side in details:
        if settings["ones_feed_tension"] and side["ones"]:
            log.change("ones", side["ones"], side["name"])
    return sum(side["ones"] for side in details)


def table_rolls(record: dict, explosions: list[int], source) -> list[int]:
    """One d6 on the Tension Table per explosion: as given in the record, else rolled."""
    given = read_optional_list(record, "table_rolls", "The Tension Table rolls")
    if given is None:
        return roll(len(explosions), SIDES, source)
    if len(given) != len(explosions):
        times = plural(len(explosions), "time", "times")
        raise RecordError(f"Tension exploded {len(explosions)} {times}, so the Tension Table needs "
                          f"{len(explosions)} {plural(len(explosions), 'roll', 'rolls')}, not {len(given)}.",
                          "table_rolls")
    return check_faces(given, len(explosions), SIDES, "The Tension Table", "table_rolls")


def finish(record: dict, log: TensionLog, settings: dict, source) -> dict:
    """The Tension part of a result, common to both kinds of conflict."""
    explosions = log.explosions if settings["tension_explodes"] else []
    rolls = table_rolls(record, explosions, source)
    record["table_rolls"] = rolls
    return {
        "tension_before": log.before, "tension_after": log.tension,
        "explosions": explosions, "table_rolls": rolls,
        "tension_changes": log.changes, "tension_spent": log.spent,
    }


def common_notes(log: TensionLog, sides: list[dict], explosions: list[int]) -> list[str]:
    notes = []
    if any(side["boost"] for side in sides):
        notes.append("tension-boost")
    if any(entry["why"] == "ones" for entry in log.changes):
        notes.append("tension-ones")
    if explosions:
        notes.append("tension-explosion")
    if any(side["given_total"] for side in sides):
        notes.append("tension-given-total")
    if any(not side["given_total"] and len(side["keep"]) < BASE_KEEP for side in sides):
        notes.append("tension-few-dice")
    return notes


# --- Versus the environment ----------------------------------------------------------

def resolve_environment(record: dict, source) -> dict:
    """The GM rolls Tension d6 against the player's Attribute + Skill; higher total wins."""
    settings = read_settings(record)
    log = TensionLog(read_integer(record, "tension", "Tension", 0, MAX_TENSION))
    retry = read_boolean(record, "retry", "Trying again")
    gm_fields = read_mapping(record, "gm", "The GM's roll")
    player_fields = read_mapping(record, "player", "The player's roll")
    player_name = read_name(player_fields, "The player", "player")
    if player_fields.get("total") is not None:
        raise RecordError("Give the player's pool (and dice, if rolled by hand): against the environment "
                          "only the GM's side can be given as a total.", "player.total")
    if retry:
        log.change("retry", 1, player_name)
    gm = read_side(gm_fields, GM, "gm", "The GM", gm_pool=log.tension)
    player = read_side(player_fields, CHARACTER, "player", "The player")
    gm_filled, gm_detail = settle(gm, log, source)
    player_filled, player_detail = settle(player, log, source)
    record["gm"].update(gm_filled)
    record["player"].update(player_filled)

    gm_total, player_total = gm_detail["total"], player_detail["total"]
    outcome = "success" if player_total > gm_total else "failure" if gm_total > player_total else "tie"
    if outcome == "failure":
        log.change("failure", 1, player.who)
    ones = add_ones(log, [player_detail], settings)
    result = {"gm_total": gm_total, "player_total": player_total, "outcome": outcome, "ones": ones}
    result.update(finish(record, log, settings, source))
    result.update({"ap_spent": player_detail["ap_spent"], "gm": gm_detail, "player": player_detail})
    notes = (["tension-retry"] if retry else []) + (["tension-tie"] if outcome == "tie" else [])
    result["notes"] = notes + common_notes(log, [gm_detail, player_detail], result["explosions"])
    record["result"] = result
    return record


# --- Versus an adversary ---------------------------------------------------------------

def resolve_opposed(record: dict, source) -> dict:
    """Initiators settle their totals, then the defender rolls once and answers each of them."""
    settings = read_settings(record)
    log = TensionLog(read_integer(record, "tension", "Tension", 0, MAX_TENSION))
    combat = read_boolean(record, "combat", "Combat")
    if read_boolean(record, "retry", "Trying again"):
        raise RecordError("Trying again for 1 Tension is for conflicts against the environment.", "retry")
    initiator_list = read_optional_list(record, "initiators", "The initiators")
    if not initiator_list:
        raise RecordError("An opposed conflict needs at least one initiator.", "initiators")
    if len(initiator_list) > MAX_INITIATORS:
        raise RecordError(f"At most {MAX_INITIATORS} initiators can share one defender's roll.", "initiators")
    initiators = []
    for number, fields in enumerate(initiator_list):
        where = path("initiators", number)
        if not isinstance(fields, dict):
            raise RecordError(f"Initiator {number + 1} must be a group of fields, not {show(fields)}.", where)
        who = read_name(fields, f"Initiator {number + 1}", where)
        initiators.append(read_side(fields, read_side_choice(fields, where, who), where, who))
    defender_fields = read_mapping(record, "defender", "The defender")
    defender_who = read_name(defender_fields, "The defender", "defender")
    defender = read_side(defender_fields, read_side_choice(defender_fields, "defender", defender_who),
                         "defender", "The defender")

    initiator_details = []
    for number, side in enumerate(initiators):
        filled, side_detail = settle(side, log, source)
        record["initiators"][number].update(filled)
        initiator_details.append(side_detail)
    filled, defender_detail = settle(defender, log, source)
    record["defender"].update(filled)

    defender_total = defender_detail["total"]
    answers = [dict(side_detail, **answer(side_detail["total"], defender_total, combat))
               for side_detail in initiator_details]
    ones = add_ones(log, initiator_details + [defender_detail], settings)
    result = {"defender_total": defender_total, "ones": ones}
    result.update(finish(record, log, settings, source))
    result.update({"combat": combat, "defender": defender_detail, "initiators": answers})
    result["notes"] = opposed_notes(answers, defender_detail) + common_notes(
        log, initiator_details + [defender_detail], result["explosions"])
    record["result"] = result
    return record


def answer(initiator_total: int, defender_total: int, combat: bool) -> dict:
    """One initiator against the defender's total: who succeeds, and damage in combat."""
    if initiator_total > defender_total:
        return {"outcome": "initiator", "damage": initiator_total - defender_total if combat else 0}
    if initiator_total < defender_total:
        return {"outcome": "defender", "damage": 0}
    return {"outcome": "tie", "damage": 0}


def opposed_notes(answers: list[dict], defender_detail: dict) -> list[str]:
    notes = []
    if any(entry["outcome"] == "tie" for entry in answers):
        notes.append("tension-opposed-tie")
    if len(answers) > 1:
        notes.append("tension-one-defender-roll")
    if defender_detail["ap_spent"] or defender_detail["tension_spent"]:
        notes.append("tension-defender-spends")
    return notes


# --- After a roll: what spending more would change ------------------------------------

def check_goal(goal) -> str:
    if goal not in (WIN, TIE):
        raise RecordError(f"The goal must be \"win\" or \"tie\", not {show(goal)}.")
    return goal


def reaches(total: int, other_total: int, goal: str) -> bool:
    return total > other_total if goal == WIN else total >= other_total


def check_table_dice(dice, limit: int = MAX_TENSION + 1) -> list[int]:
    if not isinstance(dice, list) or len(dice) > limit:
        raise RecordError(f"The dice on the table must be a list of at most {limit} faces.")
    return check_faces(dice, len(dice), SIDES, "The roll")


def fewest_ap(dice, other_total, goal: str = WIN) -> int | None:
    """The fewest AP that make a character's dice beat (goal "win") or at least equal
    (goal "tie") `other_total`, keeping the best dice; None if no amount of AP can."""
    dice = check_table_dice(dice, MAX_POOL)
    other_total = check_integer(other_total, "The other total", 0, MAX_TOTAL)
    goal = check_goal(goal)
    ordered = sorted(dice, reverse=True)
    for ap in range(most_paid_dice(len(dice)) + 1):
        if reaches(sum(ordered[:kept_count(len(dice), ap)]), other_total, goal):
            return ap
    return None


def fewest_tension(dice, tension, other_total, goal: str = WIN) -> dict | None:
    """The GM's cheapest option (boost or extra dice, never below 2 Tension) that makes its
    dice beat (goal "win") or equal (goal "tie") `other_total`; among equally cheap options the
    highest total, then boost before extra dice. None if no option can.
    Returns {"boost", "extra", "cost", "total"}."""
    dice = check_table_dice(dice)
    tension = check_integer(tension, "Tension", 0, MAX_TENSION + 1)
    other_total = check_integer(other_total, "The other total", 0, MAX_TOTAL)
    goal = check_goal(goal)
    ordered = sorted(dice, reverse=True)
    candidates = []
    for option in gm_options(tension, len(dice)):
        total = sum(ordered[:option["keep"]]) + option["bonus"]
        if reaches(total, other_total, goal):
            candidates.append({"boost": option["boost"], "extra": option["extra"],
                               "cost": option["cost"], "total": total})
    if not candidates:
        return None
    return min(candidates, key=lambda option: (option["cost"], -option["total"]))


def tension_side(side, role: str, tension, source=None) -> dict:
    """Settle one side on its own (e.g. to show the GM's total before the player rolls).
    Returns the side's result detail plus its "dice" and the "tension_after" its spending leaves."""
    if not isinstance(side, dict):
        raise RecordError("A side must be a group of fields.")
    role = read_choice({"role": role}, "role", "The role", (GM, CHARACTER, ADVERSARY), noun="role")
    tension = check_integer(tension, "Tension", 0, MAX_TENSION + 1)
    default_name = {GM: "The GM", CHARACTER: "The player", ADVERSARY: "The adversary"}[role]
    parsed = read_side(side, role, "side", default_name, gm_pool=tension)
    log = TensionLog(tension)
    filled, side_detail = settle(parsed, log, source)
    return dict(side_detail, dice=filled.get("dice", []), tension_after=log.tension)
