"""Tableside's rules engine: resolves conflicts for three tabletop rule systems.

Pure Python (stdlib; icepool for odds only), no browser imports. This file is
the API: every public name is re-exported here.

Conventions:

* A conflict is a plain JSON object, the **conflict record** (version 1, see
  RULES.md). `resolve(record)` returns a *new* record, never changing the one
  given: "result" filled, and every die rolled and every keep chosen written
  in, so resolving the returned record again gives the same result (that is
  how `verify` re-checks a shared roll link).
* Anything that breaks a rule raises `RuleError` (or a subclass), whose
  message is a sentence for players and whose `where` names the field.
  Nothing else escapes `resolve`, the odds or any helper here, whatever
  JSON-like input they get; `verify` never raises at all.
* Randomness comes from one injectable source (`randint(low, high)`); the
  default draws from `secrets`, crypto.getRandomValues in the browser.
* Exact odds live in `rules.odds` (Fractions), loaded on first use. Only the
  Anomaly odds import icepool; importing `rules`, resolving, and the Tension
  and Manner Cards helpers never do.
* Fields may be added to a record; resolving keeps every field it does not
  fill. One such field is checked: each side's `"dice_from"`, where its dice
  came from (`"app"`: rolled here, `"typed"`: real dice entered by hand,
  `"total"`: only a total announced). It must match what the side holds and
  never changes a result; the log, exports and roll links show it.
* Limits: every number a record may hold has a range (`LIMITS`), so no input
  can make the page hang.
"""

from .anomaly import (COMMON_KINDS, SUGGESTED_DIFFICULTIES, dice_count, net_dice,
                      select_modifiers)
from .conflict import resolve, verify, verify_dice
from .dice import (DEFAULT_SOURCE, FixedDice, NoDice, RandomSource, SecretsSource,
                   SeededSource, check_faces, roll)
from .errors import DiceError, RecordError, RuleError, SpendingError
from .manners import (COMPLICATIONS, CONFRONTATION_TABLE, MANNERS, STORY_MOVES, TEST_TABLE,
                      can_help, outcomes_for_confrontation, outcomes_for_test)
from .readings import READINGS
from .record import SYSTEMS, VERSION, plain_copy
from .tension import best_keep, fewest_ap, fewest_tension, gm_options, tension_side
from .words import show
from .tension_pool import (DEFAULT_SETTINGS, DEFAULT_TENSION_TABLE, check_tension_table,
                           explosions_between, starting_tension, tension_table_line)
from . import anomaly, manners, tension, tension_pool

LIMITS = {
    "tension": tension.MAX_TENSION,
    "pool": tension.MAX_POOL,
    "initiators": tension.MAX_INITIATORS,
    "tension_total": tension.MAX_TOTAL,
    "conditional_dice": anomaly.MAX_CONDITIONAL,
    "modifiers": anomaly.MAX_MODIFIERS,
    "modifier_value": anomaly.MAX_MODIFIER,
    "anomaly_difficulty": anomaly.MAX_DIFFICULTY,
    "anomaly_total": anomaly.MAX_TOTAL,
    "manners_difficulty": manners.MAX_DIFFICULTY,
    "rating": manners.MAX_RATING,
    "helpers": manners.MAX_HELPERS,
    "descriptors": manners.MAX_DESCRIPTORS,
}
"""Largest values a record may hold. The smallest are 0, except: a Manner Cards difficulty
starts at 1, and a modifier value or an Anomaly total given by hand may go as low as minus
its largest."""


def __getattr__(name):
    # `rules.odds` is imported on first use, keeping `import rules` light for the page.
    if name == "odds":
        import importlib
        return importlib.import_module(".odds", __name__)
    raise AttributeError(f"module 'rules' has no attribute {name!r}")


__all__ = [
    "resolve", "verify", "verify_dice",
    "RuleError", "RecordError", "DiceError", "SpendingError",
    "RandomSource", "SecretsSource", "SeededSource", "FixedDice", "NoDice", "DEFAULT_SOURCE",
    "roll", "check_faces",
    "VERSION", "SYSTEMS", "LIMITS", "READINGS", "plain_copy", "show",
    "best_keep", "gm_options", "fewest_ap", "fewest_tension", "tension_side",
    "DEFAULT_SETTINGS", "DEFAULT_TENSION_TABLE", "check_tension_table", "tension_table_line",
    "starting_tension", "explosions_between",
    "net_dice", "dice_count", "select_modifiers", "COMMON_KINDS", "SUGGESTED_DIFFICULTIES",
    "MANNERS", "COMPLICATIONS", "TEST_TABLE", "CONFRONTATION_TABLE", "STORY_MOVES", "can_help",
    "outcomes_for_test", "outcomes_for_confrontation",
    "odds", "anomaly", "manners", "tension", "tension_pool",
]
