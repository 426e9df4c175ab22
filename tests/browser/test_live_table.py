"""A live table in the app, in three Chromium browsers joined by scanning each other's codes
(inside_live_table.py), run in a private network namespace (tests/browser/netns.py) where every
packet stays on this machine; skipped with the reason where no namespace can be made."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import netns

HERE = Path(__file__).resolve().parent
TIMEOUT_S = 480


def run_inside(*names: str, timeout_s: float = TIMEOUT_S):
    """The tests of `names` (inside_*.py files beside this one) run in a private network namespace;
    this test fails with their output when they do."""
    reason = netns.unavailable()
    if reason:
        pytest.skip(reason)
    try:
        result = netns.run_pytest([str(HERE / name) for name in names], timeout=timeout_s)
    except subprocess.TimeoutExpired as late:
        pytest.fail(f"inside the namespace, still running after {timeout_s} s:\n{late.output[-6000:]}\n"
                    f"{late.stderr[-3000:]}")
    print(result.stdout)
    assert result.returncode == 0, f"inside the namespace:\n{result.stdout[-8000:]}\n{result.stderr[-3000:]}"


def test_a_live_table_in_a_private_network():
    run_inside("inside_live_table.py")


def test_who_may_change_what_on_a_live_table():
    run_inside("inside_live_ownership.py")  # issue 30, item 3


def test_a_session_too_large_to_travel_on_a_live_table():
    run_inside("inside_live_too_large.py")  # issue 30: said as too large on both sides, nothing sent, nothing lost
