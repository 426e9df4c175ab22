"""Dice: the injectable random source, unbiased rolling, and faces typed in by hand."""

import collections

import pytest

import rules
from rules import DiceError, FixedDice, RuleError
from rules.dice import SecretsSource
from rules.words import isolate


class CountingSource:
    """Records every range asked for, answering with the top face."""

    def __init__(self):
        self.asked = []

    def randint(self, low, high):
        self.asked.append((low, high))
        return high


def test_default_source_draws_from_secrets(monkeypatch):
    calls = []

    def fake_randbelow(limit):
        calls.append(limit)
        return limit - 1

    monkeypatch.setattr("secrets.randbelow", fake_randbelow)
    assert rules.roll(3, 6) == [6, 6, 6]
    assert calls == [6, 6, 6]


def test_randbelow_has_no_modulo_bias():
    # randbelow(n) is uniform on 0..n-1 by rejection sampling; we only shift it.
    assert SecretsSource().randint(1, 1) == 1
    counts = collections.Counter(SecretsSource().randint(1, 6) for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}


def test_injected_source_is_used_for_every_die():
    source = CountingSource()
    resolved = rules.resolve({"v": 1, "system": "anomaly", "kind": "check", "difficulty": 3,
                              "actor": {"good": 2, "bad": 0, "dice": None, "modifiers": []}}, source)
    assert source.asked == [(1, 10)] * 3
    assert resolved["actor"]["dice"] == [10, 10, 10]


def test_fixed_dice_hand_out_faces_in_order():
    source = FixedDice([3, 1, 6])
    assert rules.roll(2, 6, source) == [3, 1]
    assert source.remaining == 1
    with pytest.raises(DiceError, match="ran out"):
        rules.roll(2, 6, source)


def test_fixed_dice_refuse_faces_out_of_range():
    with pytest.raises(DiceError, match="outside 1 to 6"):
        rules.roll(1, 6, FixedDice([7]))


def test_seeded_source_is_reproducible():
    assert rules.roll(10, 6, rules.SeededSource(5)) == rules.roll(10, 6, rules.SeededSource(5))


def test_a_broken_source_raises_rule_error():
    class Broken:
        def randint(self, low, high):
            return 0

    with pytest.raises(RuleError, match="random source gave 0"):
        rules.roll(1, 6, Broken())


def test_typed_faces_are_checked():
    assert rules.check_faces([1, 6, 3], 3, 6) == [1, 6, 3]
    with pytest.raises(DiceError, match="A d6 shows 1 to 6, not 7."):
        rules.check_faces([1, 7, 3], 3, 6)
    with pytest.raises(DiceError, match=f"{isolate('Ash')}'s roll has 3 dice, but 2 faces were given"):
        rules.check_faces([1, 3], 3, 6, "Ash")
    with pytest.raises(DiceError, match="not true"):
        rules.check_faces([True, 3, 3], 3, 6)
    with pytest.raises(DiceError, match=f"not '{isolate('4')}'"):
        rules.check_faces(["4", 3, 3], 3, 6)
    with pytest.raises(DiceError, match="must be a list"):
        rules.check_faces("6,3,1", 3, 6)


def test_typed_dice_resolve_exactly_as_rolled_ones():
    record = {"v": 1, "system": "tension", "kind": "environment", "tension": 3,
              "gm": {"dice": None}, "player": {"pool": 3, "dice": None}}
    rolled = rules.resolve(record, FixedDice([4, 2, 1, 6, 5, 1]))
    typed = rules.resolve({**record, "gm": {"dice": [4, 2, 1]}, "player": {"pool": 3, "dice": [6, 5, 1]}})
    assert rolled["result"] == typed["result"]
