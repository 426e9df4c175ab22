"""Calls that settle the GM's side on the GM's phone first (the called environment roll, an attack
on a player's phone, an Anomaly defense, a difficulty above 12), on a live table of three phones
(inside_live_calls.py) in a private network namespace (tests/browser/netns.py); skipped with the
reason where no namespace can be made."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import netns

HERE = Path(__file__).resolve().parent
TIMEOUT_S = 360


def test_calls_on_a_live_table_in_a_private_network():
    reason = netns.unavailable()
    if reason:
        pytest.skip(reason)
    try:
        result = netns.run_pytest([str(HERE / "inside_live_calls.py")], timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as late:
        pytest.fail(f"inside the namespace, still running after {TIMEOUT_S} s:\n{late.output[-6000:]}\n"
                    f"{late.stderr[-3000:]}")
    print(result.stdout)
    assert result.returncode == 0, f"inside the namespace:\n{result.stdout[-8000:]}\n{result.stderr[-3000:]}"
