"""A live table over WebRTC, in Chromium: the tests in inside_live_channel.py, run in a
private network namespace (tests/browser/netns.py) where every packet stays on this machine.
Skipped, with the reason, where no namespace can be made (not root, no unshare)."""
from __future__ import annotations

from pathlib import Path

import pytest

import netns

INSIDE = Path(__file__).resolve().parent / "inside_live_channel.py"
TIMEOUT_S = 400


def test_phones_join_a_live_table_and_talk_in_a_private_network():
    reason = netns.unavailable()
    if reason:
        pytest.skip(reason)
    result = netns.run_pytest([str(INSIDE)], timeout=TIMEOUT_S)
    print(result.stdout)
    assert result.returncode == 0, f"inside the namespace:\n{result.stdout[-6000:]}\n{result.stderr[-3000:]}"
