"""The page boots Python from our own files, shows progress first, and fails plainly."""
import io
import lzma
import shutil
import zipfile

from conftest import DIST, READY, BOOT_TIMEOUT_MS, at_desktop_size, serve_folder


def test_page_reaches_ready_with_every_request_on_localhost(app, watch):
    assert app.locator("html").get_attribute("data-app-state") == "ready"
    fetched = " ".join(watch.requests)
    for needed in ("pyodide.asm.wasm", "python_stdlib.zip", "pyscript.toml", "/app/py-"):
        assert needed in fetched
    # watch.check() (after the test) fails on any request off localhost or console error.


def test_shell_paints_with_controls_disabled_before_python_is_ready(page, site):
    held = []
    page.route("**/*.wasm", lambda route: held.append(route))  # hold Python back
    page.goto(site)
    assert page.title() == "Tableside"
    for system in ("Tension Engine", "Anomaly", "Manner Cards"):
        tab = page.get_by_role("button", name=system)
        assert tab.is_visible() and tab.is_disabled()
    assert page.get_by_role("progressbar", name="Loading").is_visible()
    assert page.locator("html").get_attribute("data-app-state") == "loading"
    page.wait_for_timeout(100)
    for route in held:
        route.continue_()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)


def test_a_file_that_cannot_load_gives_a_plain_error_with_retry(page, site, watch):
    watch.expected_errors += ["Failed to load resource", "Tableside failed to start"]
    page.route("**/*.wasm", lambda route: route.abort())
    page.goto(site)
    page.locator("html[data-app-state=error]").wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    alert = page.get_by_role("alert")
    assert "could not start" in alert.inner_text()
    assert "Retrying does not touch the sessions saved in this browser." in alert.inner_text()  # no "safe"
    assert "Traceback" not in page.content()
    page.unroute("**/*.wasm")
    page.get_by_role("button", name="Retry").click()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)


def test_a_wasm_that_cannot_be_compiled_gives_a_plain_error(page, site, watch):
    """static/boot.js compiles the wasm as it runs, before the shell is parsed: its failure
    still reaches the message once there is one."""
    watch.expected_errors += ["Tableside failed to start", "WebAssembly"]
    page.route("**/*.wasm", lambda route: route.fulfill(body=b"\0asm not a module", content_type="application/wasm"))
    page.goto(site)
    page.locator("html[data-app-state=error]").wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    assert "Python could not be started on this device." in page.get_by_role("alert").inner_text()
    assert page.get_by_role("button", name="Retry").is_visible()


def crashing_app_bundle(original: bytes) -> bytes:
    """Our code (an xz stream around a zip) with ui/shell/app.pyc replaced by a source module
    that fails when imported."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(lzma.decompress(original))) as source, zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            if name != "ui/shell/app.pyc":
                target.writestr(name, source.read(name))
        target.writestr("ui/shell/app.py", "raise RuntimeError('simulated start-up crash')\n")
    return lzma.compress(out.getvalue())


def test_a_python_crash_at_start_up_gives_a_plain_error(page, site, watch):
    watch.expected_errors += ["simulated start-up crash", "Tableside failed to start"]
    [bundle] = DIST.glob("app/py-*.zip.xz")
    broken = crashing_app_bundle(bundle.read_bytes())
    page.route("**/app/py-*", lambda route: route.fulfill(body=broken, content_type="application/x-xz"))
    page.goto(site)
    page.locator("html[data-app-state=error]").wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    assert page.get_by_role("button", name="Retry").is_visible()
    assert "RuntimeError" not in page.get_by_role("alert").inner_text()


def test_a_damaged_download_of_our_code_gives_a_plain_error(page, site, watch, screenshot):
    watch.expected_errors += ["LZMAError", "Tableside failed to start"]
    page.route("**/app/py-*", lambda route: route.fulfill(body=b"not an xz stream", content_type="application/x-xz"))
    page.goto(site)
    page.locator("html[data-app-state=error]").wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    assert page.get_by_role("button", name="Retry").is_visible()
    assert "LZMAError" not in page.get_by_role("alert").inner_text()
    assert not page.get_by_role("button", name="Tension Engine").is_visible()  # the error alone
    screenshot(page, "boot-damaged-download", full_page=False)
    at_desktop_size(page, lambda: screenshot(page, "boot-damaged-download", full_page=False))


def test_the_deployable_folder_boots_by_itself(browser, tmp_path, watch):
    alone = tmp_path / "site"
    shutil.copytree(DIST, alone)
    server, url = serve_folder(alone)
    try:
        context = browser.new_context()
        watch.attach(context)
        page = context.new_page()
        page.goto(url)
        page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        context.close()
    finally:
        server.shutdown()
    watch.check()


def test_python_starts_without_stacks_of_its_own_where_chromium_offers_them(app, browser):
    """static/python.mjs takes JSPI away before Pyodide starts: on its stacks Chromium's frame-pointer
    walk segfaults the renderer (test_crashes.py), and the app needs nothing they give."""
    offered = browser.new_page()
    try:
        assert offered.evaluate("'Suspending' in WebAssembly")  # this Chromium offers JSPI...
    finally:
        offered.close()
    assert not app.evaluate("'Suspending' in WebAssembly || 'promising' in WebAssembly")  # ...not to Pyodide here
