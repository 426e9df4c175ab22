"""The app can be installed to the home screen: Chromium parses the manifest
without errors, finds nothing missing for installation, and the service worker
controls the page after the first load."""
from conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from offline_helpers import wait_until_controlled, wait_until_ready


def test_chromium_finds_the_app_installable(browser, site, tmp_path, watch):
    # A persistent profile: Chromium never offers to install from an incognito one.
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS, **PHONE)
    watch.attach(context)
    try:
        page = context.pages[0]
        page.goto(site)
        wait_until_ready(page)
        wait_until_controlled(page)
        devtools = context.new_cdp_session(page)
        manifest = devtools.send("Page.getAppManifest")
        assert manifest["url"] == site + "manifest.webmanifest"
        assert manifest["errors"] == []
        assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()
    watch.check()


def test_the_worker_controls_the_page_after_the_first_load(page, site):
    page.goto(site)
    wait_until_ready(page)
    wait_until_controlled(page)
    script = page.evaluate("navigator.serviceWorker.controller.scriptURL")
    assert script == site + "sw.js"
    assert page.evaluate("navigator.serviceWorker.ready.then((registration) => registration.scope)") == site
