"""Rejoining a live table with no scan (inside_live_rejoin.py), in Chromium browsers in a private
network namespace (tests/browser/netns.py) where every packet stays on this machine; skipped with
the reason where no namespace can be made."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import netns

HERE = Path(__file__).resolve().parent
TIMEOUT_S = 900  # about 7 minutes on this 2-core machine


def test_phones_rejoin_a_live_table_with_no_scan_in_a_private_network():
    reason = netns.unavailable()
    if reason:
        pytest.skip(reason)
    try:
        result = netns.run_pytest([str(HERE / "inside_live_rejoin.py"), str(HERE / "inside_live_reach.py")],
                                  timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as late:
        pytest.fail(f"inside the namespace, still running after {TIMEOUT_S} s:\n{late.output[-6000:]}\n"
                    f"{late.stderr[-3000:]}")
    print(result.stdout)
    assert result.returncode == 0, f"inside the namespace:\n{result.stdout[-8000:]}\n{result.stderr[-3000:]}"
