"""Rejoining a live table with no scan (inside_live_rejoin.py), in Chromium and Firefox in a private
network namespace (tests/browser/netns.py) where every packet stays on this machine; skipped with
the reason where no namespace can be made."""
from __future__ import annotations

from test_live_table import run_inside

TIMEOUT_S = 900  # about 7 minutes on this 2-core machine


def test_phones_rejoin_a_live_table_with_no_scan_in_a_private_network():
    run_inside("inside_live_rejoin.py", "inside_live_reach.py", timeout_s=TIMEOUT_S)
