"""A live table over WebRTC: the tests in inside_live_channel.py (Chromium) and
inside_live_engines.py (Firefox and WebKitGTK beside Chromium), each run in a
private network namespace (tests/browser/netns.py) where every packet stays on this machine,
skipped with the reason where no namespace can be made (not root, no unshare); and what a
test of joining by scanning codes will rely on in Chromium's fake camera."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

import netns
from conftest import BOOT_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS, PHONE, READY
from test_scan import qr_gray, write_y4m

HERE = Path(__file__).resolve().parent
TIMEOUT_S = 240  # each file takes 30-50 s on this 2-core machine


@pytest.mark.parametrize("inside", ["inside_live_channel.py", "inside_live_engines.py"])
def test_phones_join_a_live_table_in_a_private_network(inside):
    reason = netns.unavailable()
    if reason:
        pytest.skip(reason)
    try:
        result = netns.run_pytest([str(HERE / inside)], timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as late:
        pytest.fail(f"inside the namespace, still running after {TIMEOUT_S} s:\n{late.output[-6000:]}\n{late.stderr[-3000:]}")
    print(result.stdout)
    assert result.returncode == 0, f"inside the namespace:\n{result.stdout[-6000:]}\n{result.stderr[-3000:]}"


def test_the_private_network_holds_still_once_it_is_made():
    """Chromium takes any change of an address's flags for a new network and fails every
    request in flight with net::ERR_NETWORK_CHANGED (seen once in CI: a live test's teardown
    found it). Link-local addresses did that: "tentative" for a second or two after the links
    came up. Nothing about the network may change once a command runs inside it."""
    reason = netns.unavailable()
    if reason:
        pytest.skip(reason)
    seen = netns.run(["sh", "-c", "ip -6 addr show tentative; timeout 3 ip monitor address route link"], timeout=30)
    assert seen.stdout.strip() == "", f"the network changed after it was made:\n{seen.stdout}"

SCAN = """() => new Promise((resolve) => {
  if (!document.getElementById("camera-test")) {
    const video = Object.assign(document.createElement("video"), { id: "camera-test", muted: true, playsInline: true });
    document.body.prepend(video);
  }
  tablesideScanner.start("camera-test", (text) => resolve(text), (word) => resolve(`failed: ${word}`));
})"""


def test_the_fake_camera_shows_a_new_code_each_time_it_starts(browser, watch, site, tmp_path):
    """What a test of joining by scanning relies on: Chromium reads its fake camera's Y4M file
    again whenever the camera starts, so one browser can scan the GM's offer, then later a
    player's answer. Not while another stream of the camera is still live: stop it first.
    (No WebRTC here: this runs outside the namespace.)"""
    video = tmp_path / "camera.y4m"

    def show(text: str):
        write_y4m(tmp_path / "next.y4m", qr_gray(text))
        os.replace(tmp_path / "next.y4m", video)  # a whole new file: the camera never reads half of one

    show("O1.FIRST")
    phone = browser.browser_type.launch(executable_path=CHROMIUM, args=[
        *CHROMIUM_ARGS, "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={video}"])
    try:
        context = phone.new_context(**PHONE, permissions=["camera"])
        watch.attach(context)
        page = context.new_page()
        page.goto(site)
        page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        page.add_script_tag(url="./static/scan.js")
        assert page.evaluate(SCAN) == "O1.FIRST"
        show("A1.SECOND")
        assert page.evaluate(SCAN) == "A1.SECOND"
        page.evaluate("navigator.mediaDevices.getUserMedia({ video: true }).then((stream) => window.held = stream)")
        page.wait_for_function("window.held")
        show("O1.THIRD")
        assert page.evaluate(SCAN) == "A1.SECOND"  # the camera was still running: the old picture
        page.evaluate("window.held.getTracks().forEach((track) => track.stop())")
        assert page.evaluate(SCAN) == "O1.THIRD"
    finally:
        phone.close()
    watch.check()
