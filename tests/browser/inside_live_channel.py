"""Three phones at a table, joined over WebRTC data channels with no server: run only inside a
private network namespace, by test_live_channel.py (never collected on its own: its name
is not test_*.py, and it refuses to start anywhere else).

Three Chromium processes (phones, 390x844) open the real app from dist/, open their camera
(so each offers its real addresses), load static/live.js under the app's CSP, and phones B
and C join hub A: each offer and answer travels as a code through session.live.signal, as
it will through a QR code. Then messages go both ways; join times and latencies are
printed, never asserted.
"""
from __future__ import annotations

import json
import statistics
import time

import pytest
from playwright.sync_api import sync_playwright

import netns

netns.require_isolated()  # before anything opens a page: outside, Chromium would reach the real network

from conftest import BOOT_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS, PHONE, READY  # noqa: E402
from offline_helpers import record_csp_violations  # noqa: E402
from session.live import signal as live_signal  # noqa: E402

CAMERA_ARGS = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]
OPEN_TIMEOUT_MS = 20_000
ROUNDS = 20  # messages each way for the latency figures

LISTEN = """() => {
  window.live = { events: [], arrived: [] };
  const now = () => performance.timeOrigin + performance.now();  // one clock for every process here
  tableside.live.listen((peer, event, detail) => {
    live.events.push([peer, event, event === "message" ? detail.length : detail]);
    if (event === "message") live.arrived.push([peer, detail, now()]);
  });
}"""
OPEN_CAMERA = """async () => {
  window.cameraStream = await navigator.mediaDevices.getUserMedia({ video: true, audio: false });
}"""
# A peer that is not live.js (a modified app, another program): it sends what live.js never would.
RAW_ANSWER = """async (offerSdp) => {
  const connection = new RTCPeerConnection({ iceServers: [] });
  window.raw = connection.createDataChannel("raw", { negotiated: true, id: 0 });
  await connection.setRemoteDescription({ type: "offer", sdp: offerSdp });
  await connection.setLocalDescription();
  while (connection.iceGatheringState !== "complete") await new Promise((resolve) => setTimeout(resolve, 20));
  return connection.localDescription.sdp;
}"""
SEND_STAMPED = """([peer, rounds]) => {
  for (let round = 0; round < rounds; round++) {
    const sent = performance.timeOrigin + performance.now();
    if (!tableside.live.send(peer, JSON.stringify({ round, sent }))) throw new Error("not sent");
  }
}"""


class Phone:
    """One phone: a browser process of its own with a fake camera, on the app's page."""

    def __init__(self, playwright, name: str, watch, camera: bool = True):
        self.name, self.camera = name, camera
        self.browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                                  args=[*CHROMIUM_ARGS, *(CAMERA_ARGS if camera else [])])
        self.context = self.browser.new_context(**PHONE, **({"permissions": ["camera"]} if camera else {}))
        watch.attach(self.context)
        self.csp_violations = record_csp_violations(self.context)
        self.page = self.context.new_page()

    def open(self, url: str):
        self.page.goto(url, wait_until="commit")

    def get_ready(self):
        self.page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        self.page.add_script_tag(url="./static/live.js")  # as the shell will: a <script> of our own origin
        self.page.evaluate(LISTEN)
        if self.camera:
            self.page.evaluate(OPEN_CAMERA)

    def call(self, function: str, *args):
        return self.page.evaluate(f"(args) => tableside.live.{function}(...args)", list(args))

    def wait_open(self, peer: str):
        self.page.wait_for_function("(peer) => tableside.live.state(peer) === 'open'", arg=peer,
                                    timeout=OPEN_TIMEOUT_MS)

    def arrived(self) -> list[list]:
        """[peer, text, when] of every message received."""
        return self.page.evaluate("live.arrived")

    def events(self, peer: str) -> list[list]:
        return [event[1:] for event in self.page.evaluate("live.events") if event[0] == peer]

    def close(self):
        self.browser.close()


@pytest.fixture
def phones(playwright_instance, site, watch):
    """phones("A", "B"): phones on the app, ready, live.js loaded, each camera open unless
    cameras={"A": False}; checked at the end like every page (nothing left localhost, no
    console error) and for CSP violations."""
    made = []

    def phones(*names: str, cameras=None):
        made.extend(Phone(playwright_instance, name, watch, (cameras or {}).get(name, True)) for name in names)
        for phone in made:  # all booting at once, then each waited for
            phone.open(site)
        for phone in made:
            phone.get_ready()
        return made

    yield phones
    for phone in made:
        phone.close()
    assert [phone.csp_violations for phone in made] == [[] for _ in made]  # connect-src 'self' leaves WebRTC alone
    watch.check()


@pytest.fixture(scope="session")
def playwright_instance():
    with sync_playwright() as playwright:
        yield playwright


def join(hub: Phone, player: Phone) -> dict[str, float]:
    """The player joins the hub as at the table: the hub's offer as a code, the player's answer
    as a code; seconds each step took (the scans themselves not included)."""
    started = time.perf_counter()
    offer_id = live_signal.new_offer_id()
    offer = live_signal.read(live_signal.offer_code(hub.call("offer", player.name), offer_id))
    offered = time.perf_counter()
    answer = live_signal.read(live_signal.answer_code(player.call("answer", hub.name, offer.sdp()), offer.offer_id))
    answered = time.perf_counter()
    assert answer.kind == live_signal.ANSWER and answer.offer_id == offer_id
    hub.call("accept", player.name, answer.sdp())
    hub.wait_open(player.name)
    player.wait_open(hub.name)
    opened = time.perf_counter()
    print(f"  {player.name} joined {hub.name} in {opened - started:.2f} s (offer {offered - started:.2f} s, "
          f"answer {answered - offered:.2f} s, open {opened - answered:.2f} s); codes {len(offer.code())} "
          f"and {len(answer.code())} characters, candidates {[c.address for c in offer.candidates]}")
    return {"join": opened - started}


def latencies(sender: Phone, receiver: Phone) -> list[float]:
    """Milliseconds from send to arrival of ROUNDS stamped messages, sender to receiver."""
    before = len(receiver.page.evaluate("live.arrived"))
    sender.page.evaluate(SEND_STAMPED, [receiver.name, ROUNDS])
    receiver.page.wait_for_function("(count) => live.arrived.length >= count", arg=before + ROUNDS)
    arrived = receiver.page.evaluate("live.arrived")[before:]
    assert [peer for peer, _, _ in arrived] == [sender.name] * ROUNDS
    assert [json.loads(text)["round"] for _, text, _ in arrived] == list(range(ROUNDS))  # in order
    return [at - json.loads(text)["sent"] for _, text, at in arrived]


def test_two_players_join_the_hub_through_codes_and_messages_go_both_ways(phones):
    hub, bea, cal = phones("A", "B", "C")
    print("\nlive table, three Chromium phones in a private network:")
    joins = [join(hub, bea), join(hub, cal)]
    assert hub.events("B")[:2] == [["connecting", "offer"], ["open", ""]]
    assert bea.events("A")[:2] == [["connecting", "answer"], ["open", ""]]

    for sender, receiver in ((hub, bea), (bea, hub), (hub, cal), (cal, hub)):
        figures = latencies(sender, receiver)
        print(f"  {sender.name} -> {receiver.name}: median {statistics.median(figures):.2f} ms, "
              f"max {max(figures):.2f} ms, {ROUNDS} messages sent at once")

    biggest = "x" * hub.page.evaluate("tableside.live.MAX_MESSAGE")
    assert hub.call("send", "B", biggest) and not hub.call("send", "B", biggest + "x")
    bea.page.wait_for_function("(size) => live.arrived.some(([, text]) => text.length === size)", arg=len(biggest))

    closing = time.perf_counter()
    hub.call("close", "C")
    cal.page.wait_for_function("tableside.live.state('A') !== 'open'", timeout=60_000)
    print(f"  C saw A close in {time.perf_counter() - closing:.2f} s: {cal.events('A')[-1]}")
    assert hub.events("C")[-1] == ["closed", "here"] and cal.events("A")[-1] == ["closed", "by-peer"]
    assert not hub.call("send", "C", "anyone there?") and hub.call("state", "C") == "none"
    assert hub.call("send", "B", "still here") and bea.page.wait_for_function(
        "live.arrived.some(([, text]) => text === 'still here')")
    print("  join times: " + ", ".join(f"{one['join']:.2f} s" for one in joins))



def test_the_hub_drops_what_live_js_would_never_send_and_keeps_the_channel(phones):
    hub, other = phones("A", "X")
    offer = live_signal.read(live_signal.offer_code(hub.call("offer", "X"), 1))
    answer = live_signal.read(live_signal.answer_code(other.page.evaluate(RAW_ANSWER, offer.sdp()), 1))
    hub.call("accept", "X", answer.sdp())
    hub.wait_open("X")
    other.page.wait_for_function("raw.readyState === 'open'")
    limit = hub.page.evaluate("tableside.live.MAX_MESSAGE")
    other.page.evaluate("(size) => { raw.send('é'.repeat(size)); raw.send(new Uint8Array([1, 2, 3])); raw.send('fine'); }",
                        limit // 2 + 1)  # é is 2 bytes in UTF-8: one byte over
    hub.page.wait_for_function("live.arrived.length === 1")
    assert hub.events("X")[-3:] == [["dropped", "too-large"], ["dropped", "not-text"], ["message", 4]]
    assert hub.call("state", "X") == "open"


def test_a_new_offer_replaces_the_last_one_and_bad_answers_are_refused(phones):
    [hub] = phones("A")
    first = hub.call("offer", "B")
    second = hub.call("offer", "B")
    assert hub.events("B") == [["connecting", "offer"], ["closed", "replaced"], ["connecting", "offer"]]
    assert first != second
    with pytest.raises(Exception, match="no-offer"):
        hub.call("accept", "C", second)
    with pytest.raises(Exception, match="refused"):
        hub.call("accept", "B", "v=0\r\nnot an answer\r\n")
    assert hub.call("state", "B") == "none" and hub.events("B")[-1] == ["closed", "here"]
    outcome = hub.page.evaluate("""async () => {
      const first = tableside.live.offer("D").then(() => "resolved", (error) => error.message);
      const second = await tableside.live.offer("D");
      const closing = tableside.live.offer("E").then(() => "resolved", (error) => error.message);
      tableside.live.close("E");
      return [await first, second.startsWith("v=0"), tableside.live.state("D"), await closing];
    }""")
    assert outcome == ["replaced", True, "connecting", "closed"]  # the newer offer stands, the older one says so
    # An answer to an offer replaced since is taken (its SDP is sound) and never connects: the
    # codes' offer id is how Python tells it apart before it gets here.

def test_an_offer_made_before_the_hubs_camera_opened_still_connects(phones):
    """Without camera permission the hub offers only mDNS names (which nothing resolves in
    this namespace); the player's camera is open, so its answer has real addresses, which
    the hub's checks reach: the player learns the hub's address from them."""
    hub, bea = phones("A", "B", cameras={"A": False})
    offer = live_signal.read(live_signal.offer_code(hub.call("offer", "B"), 1))
    assert all(c.address.endswith(".local") for c in offer.candidates)
    started = time.perf_counter()
    answer = live_signal.read(live_signal.answer_code(bea.call("answer", "A", offer.sdp()), 1))
    hub.call("accept", "B", answer.sdp())
    hub.wait_open("B")
    bea.wait_open("A")
    print(f"\n  an mDNS-only offer: open {time.perf_counter() - started:.2f} s after the answer was made")
