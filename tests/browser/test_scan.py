"""Scan a code and paste a link, like a player at the table: Chromium's fake camera shows the
GM phone's own QR code (a Y4M video made from its screenshot) and the player lands in that
session; a code or text that is no Tableside link changes nothing; without a camera the
paste field still opens links.

This headless Chromium on Linux has no BarcodeDetector, so scanning runs the vendored jsQR
(checked below: `tablesideScanner.reader`); the BarcodeDetector branch is checked with a
stand-in detector, which must be preferred and must leave jsQR unloaded."""
from __future__ import annotations

import pytest

import segno
from session.links import v2 as link_v2
from session.links.text import share_url
from session.links.v1 import encode_session
from conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, READY, BOOT_TIMEOUT_MS
from offline_helpers import record_csp_violations, wait_until_controlled
from test_sessions import both_sizes, message, nav, not_now, party, png_gray, roster_names, stored_data

WIDTH, HEIGHT = 1280, 960  # room for a session code of version 20 and more: about 7 pixels a module
CAMERA_PERMISSION = {"permissions": ["camera"]}
JSQR = "/vendor/jsqr-"


def write_y4m(path, gray, frames: int = 4):
    """A Y4M video (the fake camera's format) of grayscale `gray` (rows x columns, a memoryview)
    centred on white, scaled to fit: 4:2:0, so a Y plane then neutral U and V planes."""
    rows, columns = gray.shape
    pixels = gray.tobytes()
    side = min(WIDTH, HEIGHT) - 40
    left, top = (WIDTH - side) // 2, (HEIGHT - side) // 2
    luma = bytearray(b"\xff" * (WIDTH * HEIGHT))
    for y in range(side):
        source = (y * rows // side) * columns
        line = bytes(pixels[source + x * columns // side] for x in range(side))
        luma[(top + y) * WIDTH + left:(top + y) * WIDTH + left + side] = line
    chroma = b"\x80" * (WIDTH // 2 * HEIGHT // 2 * 2)
    with open(path, "wb") as video:
        video.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F10:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(frames):
            video.write(b"FRAME\n" + bytes(luma) + chroma)
    return path


def qr_gray(text: str):
    """A QR code of any text as grayscale rows (for codes the app would never draw)."""
    code = segno.make_qr(text, error="l")
    matrix = code.matrix
    scale, border = 8, 4
    size = (len(matrix) + 2 * border) * scale
    out = bytearray(b"\xff" * size * size)
    for row, modules in enumerate(matrix):
        for column, dark in enumerate(modules):
            if dark:
                for y in range((row + border) * scale, (row + border + 1) * scale):
                    start = y * size + (column + border) * scale
                    out[start:start + scale] = b"\x00" * scale
    return memoryview(bytes(out)).cast("B", (size, size))


@pytest.fixture
def camera(browser, watch):
    """Phones whose camera shows a video file (None: Chromium's own test pattern), each in a
    browser launched for it: the fake camera is chosen at launch."""
    launched = []

    def phone(video=None):
        args = [*CHROMIUM_ARGS, "--use-fake-device-for-media-stream"]
        if video is not None:
            args.append(f"--use-file-for-fake-video-capture={video}")
        launched.append(browser.browser_type.launch(executable_path=CHROMIUM, args=args))
        context = launched[-1].new_context(**PHONE, **CAMERA_PERMISSION)
        watch.attach(context)
        return context.new_page()

    yield phone
    for one in launched:
        one.close()


def boot(page, url: str):
    page.goto(url)
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    return page


def gm_link_and_code(page, open_app) -> tuple[str, memoryview]:
    """The GM's phone: a session with a roster, its share link and its on-screen QR code."""
    open_app(page, "#" + encode_session(party("Friday at Kim's")))
    not_now(page)
    nav(page, "Session")
    qr = page.get_by_test_id("qr")
    qr.evaluate("code => code.scrollIntoView({block: 'center'})")  # clear of the bottom navigation
    return page.get_by_test_id("session-link").input_value(), png_gray(qr.screenshot(scale="device"))


def test_scanning_the_gms_code_lands_in_that_session(app, open_app, camera, site, tmp_path):
    link, code = gm_link_and_code(app, open_app)
    session_id = link_v2.read(link.split("#", 1)[1]).replica.id
    player = camera(write_y4m(tmp_path / "gm-code.y4m", code))
    violations = record_csp_violations(player.context)
    requests = []
    player.on("request", lambda request: requests.append(request.url))
    boot(player, site)
    wait_until_controlled(player)  # everything precached: scanning must work in airplane mode
    assert not [url for url in requests if JSQR in url]  # not loaded at start
    player.context.set_offline(True)
    nav(player, "Session")
    player.get_by_role("button", name="Scan a code").tap()
    player.get_by_text("Joined “Friday at Kim's”").wait_for()
    not_now(player)
    assert player.evaluate("window.tablesideScanner.reader") == "jsqr"  # no BarcodeDetector here
    assert [url for url in requests if JSQR in url] and not player.evaluate("'BarcodeDetector' in self")
    assert roster_names(player) == ["Ash", "Brin"]
    assert any(session_id in key for key in stored_data(player))
    assert "#" not in player.url and violations == []
    nav(player, "Session")
    assert player.get_by_test_id("scanner").count() == 0  # the scanner closed with its camera


def test_the_scanner_shows_the_camera_and_stops_it_on_cancel_and_on_leaving(camera, site, screenshot):
    page = boot(camera(), site)  # Chromium's test pattern: a moving picture, no code in it
    nav(page, "Session")
    both_sizes(page, screenshot, "scan-paste-field", page.get_by_label("Or paste a link"))
    page.get_by_role("button", name="Scan a code").tap()
    scanner = page.get_by_test_id("scanner")
    scanner.wait_for()
    page.wait_for_function("document.getElementById('scan-video')?.videoWidth > 0")
    assert page.evaluate("document.getElementById('scan-video').srcObject.getVideoTracks()[0].readyState") == "live"
    assert page.get_by_role("button", name="Cancel").evaluate("button => button === document.activeElement")
    both_sizes(page, screenshot, "scanner", scanner)
    page.evaluate("window.track = document.getElementById('scan-video').srcObject.getVideoTracks()[0]")
    page.get_by_role("button", name="Cancel").tap()
    page.get_by_text("Scanning stopped; nothing changed.").wait_for()
    assert page.evaluate("window.track.readyState") == "ended" and scanner.count() == 0

    page.get_by_role("button", name="Scan a code").tap()
    page.wait_for_function("document.getElementById('scan-video')?.srcObject?.active")
    page.evaluate("window.track = document.getElementById('scan-video').srcObject.getVideoTracks()[0]")
    nav(page, "Roster")
    page.wait_for_function("window.track.readyState === 'ended'")
    nav(page, "Session")
    assert scanner.count() == 0 and page.get_by_role("button", name="Scan a code").is_enabled()


def test_a_code_that_is_no_tableside_link_changes_nothing(camera, site, tmp_path):
    page = boot(camera(write_y4m(tmp_path / "other.y4m", qr_gray("https://example.com/#s1.abc"))), site)
    nav(page, "Session")
    before = stored_data(page)
    page.get_by_role("button", name="Scan a code").tap()
    page.get_by_text("That code is not a Tableside link. Nothing changed.").wait_for()
    assert stored_data(page) == before and page.get_by_test_id("scanner").count() == 0
    assert page.get_by_role("button", name="Scan a code").is_enabled()


def session_link(site: str) -> str:
    """The link the GM's Session screen shows for party() (made by the same code)."""
    return share_url(site, encode_session(party("Friday at Kim's")))


def test_paste_a_link_opens_it_and_bad_text_only_gets_a_message(app, site, screenshot):
    link, page = session_link(site), app
    nav(page, "Session")
    before = stored_data(page)
    field, open_button = page.get_by_label("Or paste a link"), page.get_by_role("button", name="Open", exact=True)
    for text, words in (("hello", "That is not a Tableside link."),
                        ("https://example.com/#" + link.split("#")[1], "That is not a Tableside link."),
                        (link[:len(link) // 2], "incomplete")):
        field.fill(text)
        open_button.tap()
        page.locator(".message p").filter(has_text=words).wait_for()
        assert stored_data(page) == before and field.input_value() == text  # nothing is lost
        if words == "incomplete":
            both_sizes(page, screenshot, "paste-refused", field)
    field.fill(link)
    open_button.tap()
    page.get_by_text("Joined “Friday at Kim's”").wait_for()
    not_now(page)
    assert roster_names(page) == ["Ash", "Brin"]


def test_without_a_camera_the_paste_field_still_works(app, site, screenshot):
    link, page = session_link(site), app  # no fake camera, no permission: the browser says no
    nav(page, "Session")
    page.get_by_role("button", name="Scan a code").tap()
    page.locator(".message p").filter(has_text="Paste the link instead").wait_for()
    assert page.get_by_test_id("scanner").count() == 0
    assert page.get_by_label("Or paste a link").evaluate("field => field === document.activeElement")
    both_sizes(page, screenshot, "scan-no-camera", page.get_by_label("Or paste a link"))
    page.evaluate("""() => { navigator.mediaDevices.getUserMedia =
        () => Promise.reject(new DOMException("Permission denied", "NotAllowedError")); }""")
    page.get_by_role("button", name="Scan a code").tap()  # the player said no to the camera
    page.locator(".message p").filter(has_text="Tableside may not use the camera.").wait_for()
    assert page.get_by_test_id("scanner").count() == 0
    page.evaluate("() => { Object.defineProperty(navigator, 'mediaDevices', {value: undefined}); }")
    page.get_by_role("button", name="Scan a code").tap()  # no camera API (http:// on a phone)
    page.get_by_text("This browser can't use a camera here. Paste the link instead.").wait_for()
    page.get_by_label("Or paste a link").fill(link)
    page.get_by_role("button", name="Open", exact=True).tap()
    page.get_by_text("Joined “Friday at Kim's”").wait_for()


STAND_IN_DETECTOR = """(() => {
    self.BarcodeDetector = class {
        static async getSupportedFormats() { return ["qr_code", "ean_13"]; }
        constructor(options) { self.detectorFormats = options.formats; }
        async detect(video) { return video.videoWidth ? [{rawValue: self.codeText}] : []; }
    };
})();"""


def test_where_the_browser_reads_codes_itself_jsqr_is_never_loaded(camera, site):
    link = session_link(site)
    page = camera()
    page.context.add_init_script(f"self.codeText = {link!r};")
    page.context.add_init_script(STAND_IN_DETECTOR)
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    boot(page, site)
    nav(page, "Session")
    page.get_by_role("button", name="Scan a code").tap()
    page.get_by_text("Joined “Friday at Kim's”").wait_for()
    assert page.evaluate("[window.tablesideScanner.reader, self.detectorFormats]") == ["barcode-detector", ["qr_code"]]
    assert not [url for url in requests if JSQR in url]
