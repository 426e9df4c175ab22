"""Calls that settle the GM's side on the GM's phone first (the called environment roll, an attack
on a player's phone, an Anomaly defense, a difficulty above 12), on a live table of three phones
(inside_live_calls.py), and a character's attack rolled first on its own phone (inside_live_calls_first.py),
in a private network namespace (tests/browser/netns.py); skipped with the
reason where no namespace can be made."""
from __future__ import annotations

from test_live_table import run_inside


def test_calls_on_a_live_table_in_a_private_network():
    run_inside("inside_live_calls.py", timeout_s=360)


def test_a_characters_attack_rolls_first_on_its_own_phone_in_a_private_network():
    run_inside("inside_live_calls_first.py", timeout_s=240)
