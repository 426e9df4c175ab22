"""The app in each engine players use: Chromium, WebKit (Safari's engine: every
iPhone) and Firefox. Each test is a first visit to an origin of its own, in a fresh
profile at 390x844; it fails on a request off localhost or a console error
(engine_page's check)."""
import re
import shutil

from conftest import DIST, RecordingSite
from offline_helpers import WAIT_UNTIL_CONTROLLED
from test_update import NEW_VERSION_MARK, deploy_new_version

ROLL = re.compile(r"^Roll \d+ dic?e")
BANNER_SHOWN = "!document.getElementById('update-banner').hidden"
BOOT_ERROR_SHOWN = "!document.getElementById('boot-error').hidden"


def first_visit(page, site):
    page.goto(site.url)
    page.wait_until_ready()


def wait_until_controlled(page):
    page.evaluate(f"await ({WAIT_UNTIL_CONTROLLED})(input);", 120_000)


def log_the_result(page):
    page.tap("Log this result")
    page.wait_for("document.getElementById('app').innerText.includes('Result (logged)')")


def test_a_roll_in_each_system_reaches_the_log(engine_page, engine_site):
    page = engine_page
    first_visit(page, engine_site)

    page.tap(ROLL, within="[data-testid=side-gm]")
    page.tap(ROLL, within="[data-testid=side-player]")
    log_the_result(page)

    page.tap("Anomaly")
    page.tap("Difficulty 6")  # the GM sets the difficulty first, then the roll
    page.tap(ROLL, within="[data-testid=side-actor]")
    log_the_result(page)

    page.tap("Manner Cards")
    page.tap("GM says")
    page.tap("Difficulty 3")
    page.tap(re.compile(r"^Force, rating \d+$"), within="[data-testid=cards-player]")
    page.tap("Lock Manner for The player")
    page.tap("Time", within="[data-testid=side-gm]")
    log_the_result(page)
    page.screenshot("engines-manners-logged")

    page.tap("Log")
    page.wait_for("document.querySelectorAll('[data-testid=log-entry]').length === 3")
    page.screenshot("engines-log")
    page.resize(1280, 800)
    page.screenshot("engines-log")


def test_a_first_visit_downloads_each_file_once_and_the_worker_takes_control(engine_page, engine_site):
    page = engine_page
    first_visit(page, engine_site)
    wait_until_controlled(page)
    # Revalidations (304, a few hundred bytes) are fine: the worker's precache makes one per file.
    assert {path: count for path, count in engine_site.downloads().items() if count > 1} == {}
    unused_preloads = [message["text"] for message in page.console() if "preload" in message["text"]]
    assert unused_preloads == []
    assert not page.evaluate(f"return {BANNER_SHOWN};")


def test_after_one_visit_it_starts_and_rolls_with_the_site_gone(engine_page, engine_site):
    page = engine_page
    first_visit(page, engine_site)
    wait_until_controlled(page)
    engine_site.go_offline()
    page.reload()
    page.wait_until_ready()
    page.tap(ROLL, within="[data-testid=side-gm]")
    page.wait_for("document.querySelector('[data-testid=side-gm] [aria-label^=\"Die 1: \"]')")


RESTORED = "performance.getEntriesByName('tableside-snapshot-restored').length"
DAMAGE_CACHED_SNAPSHOT = """const [name] = (await caches.keys()).filter((key) => key.startsWith("tableside-"));
const url = document.querySelector("script[data-snapshot]").dataset.snapshot;
await (await caches.open(name)).put(new URL(url, document.baseURI).href, new Response("not a snapshot"));"""


def test_python_is_restored_from_its_snapshot_and_starts_plainly_when_that_is_damaged(engine_page, engine_site):
    """Pyodide's memory snapshot is an experimental API (static/python.mjs): each engine restores
    it once the worker has it, and a copy that cannot be used only means a plain start."""
    page = engine_page
    first_visit(page, engine_site)
    assert page.evaluate(f"return {RESTORED};") == 0  # a first visit does not wait for its download
    wait_until_controlled(page)
    for damaged, restored in ((False, 1), (True, 0)):
        if damaged:
            page.evaluate(DAMAGE_CACHED_SNAPSHOT)
        page.reload()
        page.wait_until_ready()
        assert page.evaluate(f"return {RESTORED};") == restored
        page.tap(ROLL, within="[data-testid=side-gm]")
        page.wait_for("document.querySelector('[data-testid=side-gm] [aria-label^=\"Die 1: \"]')")
        page.tap("New conflict")


SNAPSHOT_FAILED_NOTE = "localStorage.getItem('tableside.python-snapshot-failed')"  # static/boot.js's


def test_a_reload_right_after_a_start_comes_up_ready_from_the_snapshot(engine_page, engine_site):
    """A person who reloads as soon as the app is ready gets a start like any other, every time:
    ready, Python from its snapshot, no error on the page nor on the console, and the snapshot not
    given up for the next starts (a ready page has no download or module import left to cut)."""
    page = engine_page
    first_visit(page, engine_site)
    wait_until_controlled(page)
    for _ in range(3):
        page.reload()
        page.wait_until_ready()
        assert page.evaluate(f"return [{RESTORED}, {BOOT_ERROR_SHOWN}, {SNAPSHOT_FAILED_NOTE}];") == [1, False, None]


def test_no_update_is_offered_on_a_first_visit_while_the_page_is_busy(engine_page, engine_site):
    """Python keeps the main thread busy after start-up; the worker installs meanwhile."""
    page = engine_page
    first_visit(page, engine_site)
    page.evaluate("""const until = performance.now() + 6000;
const busy = () => { const end = performance.now() + 150; while (performance.now() < end); };
const timer = setInterval(() => (performance.now() > until ? clearInterval(timer) : busy()), 0);""")
    wait_until_controlled(page)
    page.evaluate("await new Promise((resolve) => setTimeout(resolve, 7000));")
    assert not page.evaluate(f"return {BANNER_SHOWN};")


def test_a_new_deploy_is_offered_and_taken_only_on_tap(engine_page, tmp_path):
    folder = tmp_path / "site"
    shutil.copytree(DIST, folder)
    site = RecordingSite(folder)
    try:
        page = engine_page
        first_visit(page, site)
        wait_until_controlled(page)
        deploy_new_version(folder)
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'));")  # the phone shows the app again
        page.wait_for(BANNER_SHOWN)
        assert page.evaluate(f"return !!document.querySelector('{NEW_VERSION_MARK}');") is False
        page.tap("Reload")
        page.wait_for(f"document.querySelector('{NEW_VERSION_MARK}')")
        page.wait_until_ready()
    finally:
        site.close()


TENSION = "document.querySelector('[data-testid=tension]')?.textContent.trim()"
# Kept, and drawn from the table in progress (the roll is in it), by py/ui/shell/paint_keeper.py.
SNAPSHOT_KEPT = """(JSON.parse(localStorage.getItem('tableside.snapshot')) || {stamps: []}).stamps
  .some(([key, stamp]) => key.startsWith('tableside.table.') && stamp !== null)"""


def test_the_next_start_paints_the_last_table_and_goes_live_on_it(engine_page, engine_site):
    """static/regions.js paints the snapshot before Python is ready (its performance mark says
    so), and Python takes that table over: the same Tension, live."""
    page = engine_page
    first_visit(page, engine_site)
    wait_until_controlled(page)  # a reload while the worker takes over may be cancelled (WebKit)
    page.tap("Raise Tension by 1")
    page.tap(ROLL, within="[data-testid=side-gm]")
    page.wait_for(SNAPSHOT_KEPT)
    tension = page.evaluate(f"return {TENSION};")

    page.reload()
    page.wait_until_ready()
    assert page.evaluate("return performance.getEntriesByName('tableside-painted').length;") == 1
    assert page.evaluate(f"""return [{TENSION}, document.getElementById('app').inert,
        document.getElementById('boot-starting').hidden, !!document.querySelector('#app .tray .die')];""") \
        == [tension, False, True, True]
    page.tap("Raise Tension by 1")
    page.wait_for(f"{TENSION} === '{int(tension) + 1}'")
    page.screenshot("engines-snapshot-live")


def test_a_wasm_that_cannot_be_downloaded_gives_a_plain_error(engine_page, tmp_path):
    """static/boot.js begins the wasm's download and compile as it runs in WebKit and Firefox,
    before the shell is parsed: a download that fails then still reaches the message once there
    is one."""
    folder = tmp_path / "site"
    shutil.copytree(DIST, folder)
    [wasm] = folder.glob("vendor/*/pyodide.asm.wasm")
    wasm.unlink()
    site = RecordingSite(folder)
    try:
        page = engine_page
        page.expected_errors += ["Tableside failed to start", "404", "Failed to load resource", "WebAssembly", "wasm"]
        page.goto(site.url)
        page.wait_for("document.documentElement.dataset.appState === 'error' && !document.getElementById('boot-error').hidden")
        message = "document.getElementById('boot-error-message').textContent"
        assert page.evaluate(f"return {message};") == \
            "A file the app needs could not be downloaded. Check the connection and retry."
        assert any(path.endswith("/pyodide.asm.wasm") and status == 404 for path, status in site.requests)
        page.wait_for("performance.getEntriesByName('py:Loading interpreter').length")  # as below
    finally:
        site.close()


def test_a_wasm_that_cannot_be_compiled_gives_a_plain_error(engine_page, tmp_path):
    """static/boot.js compiles the wasm as it runs in WebKit and Firefox, before the shell is
    parsed: its failure still reaches the message once there is one."""
    folder = tmp_path / "site"
    shutil.copytree(DIST, folder)
    [wasm] = folder.glob("vendor/*/pyodide.asm.wasm")
    wasm.write_bytes(b"\0asm not a module")
    site = RecordingSite(folder)
    try:
        page = engine_page
        page.expected_errors += ["Tableside failed to start", "WebAssembly", "wasm"]
        page.goto(site.url)
        page.wait_for("document.documentElement.dataset.appState === 'error' && !document.getElementById('boot-error').hidden")
        message = "document.getElementById('boot-error-message').textContent"
        assert page.evaluate(f"return {message};") == "Python could not be started on this device. Retry, or try another browser."
        # PyScript goes on loading its modules after the error: the site must not go away before
        # they are in (its plugins, imported before the interpreter). Cut short by the site closing,
        # they were logged by WebKit ("Importing a module script failed", twice) late enough to
        # land on the next test's console: the driver reads one stream for all its pages.
        page.wait_for("performance.getEntriesByName('py:Loading interpreter').length")
    finally:
        site.close()
