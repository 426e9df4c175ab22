"""Whether the phone that made an offer replies to the answering phone's connection checks before it
has the answer (session.live.signal.from_firefox): Chromium does, Firefox ESR does not, so
a player's phone says "the GM's phone does not answer this code" within seconds only to a Chromium (or
Safari) GM's phone. Run only inside a private network namespace, by test_live_rejoin.py."""
from __future__ import annotations

import time

import netns

netns.require_isolated()  # before anything opens a page: outside, a browser would reach the real network

from inside_live_channel import phones, playwright_instance  # noqa: E402,F401 (fixtures)
from inside_live_engines import firefox  # noqa: E402,F401 (fixture)
from session.live import signal as live_signal  # noqa: E402


def test_a_chromium_offer_replies_before_it_has_the_answer_and_a_firefox_offer_does_not(phones, firefox):
    hub, bea = phones("A", "B")
    for offering, name in ((hub, "A"), (firefox, "F")):
        offer = live_signal.read(live_signal.offer_code(offering.call("offer", "B"), 77))
        bea.call("answer", name, offer.sdp())
        time.sleep(6)  # live.js watches the checks for 4 s
        reached = [detail for event, detail in bea.events(name) if event == "reached"]
        # Firefox's offer names only mDNS names here: no check goes out, so no pair is counted and nothing is said
        assert reached == (["yes"] if name == "A" else []) or (name == "F" and reached == ["no"])
        assert live_signal.from_firefox(offer) == (name == "F")
    print("\n  before it has the answer, a Chromium offer replies to the checks, a Firefox ESR offer does not")
