"""A new deploy while the app is open (or at the next visit) is offered as
"Update available — reload"; it only takes over on a tap, and stored sessions
survive it. The deploy is simulated on a copy of dist/ with the build's own
service worker writer."""
import shutil

import pytest

from build import write_service_worker
from conftest import DIST, PHONE, serve_folder
from offline_helpers import wait_until_controlled, wait_until_ready

SESSION_KEY = "tableside.session.update-test"
SESSION = '{"system": "tension", "log": [1, 2, 3]}'
NEW_VERSION_MARK = "meta[name=test-deploy]"


@pytest.fixture
def deployed(browser, tmp_path, watch):
    """A copy of dist/ served on its own port, and a phone context that visited it once."""
    folder = tmp_path / "site"
    shutil.copytree(DIST, folder)
    server, url = serve_folder(folder)
    context = browser.new_context(**PHONE)
    watch.attach(context)
    page = context.new_page()
    page.goto(url)
    wait_until_ready(page)
    wait_until_controlled(page)
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [SESSION_KEY, SESSION])
    yield folder, page
    context.close()
    server.shutdown()
    watch.check()


def deploy_new_version(folder) -> str:
    """Change the shell and a stylesheet, then rewrite sw.js as the build does."""
    index = folder / "index.html"
    index.write_text(index.read_text().replace("</head>", '<meta name="test-deploy" content="2">\n</head>'))
    css = folder / "static" / "app.css"
    css.write_text(css.read_text() + "\n/* deploy 2 */\n")
    return write_service_worker(folder)


def banner(page):
    return page.get_by_role("status").filter(has_text="Update available")


def accept_update_and_check(page, version: str):
    page.evaluate("window.sameDocument = true")
    page.get_by_role("button", name="Reload").click()
    page.locator(NEW_VERSION_MARK).wait_for(state="attached")
    wait_until_ready(page)
    assert page.evaluate("window.sameDocument") is None, "the page should have reloaded once"
    assert page.evaluate("caches.keys()") == [f"tableside-{version}"]
    assert page.evaluate("(key) => localStorage.getItem(key)", SESSION_KEY) == SESSION


def test_a_deploy_while_the_app_is_open_is_offered_and_applied_only_on_tap(deployed):
    folder, page = deployed
    version = deploy_new_version(folder)
    page.evaluate("window.sameDocument = true")
    # The app checks for a new version whenever the phone shows it again.
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    banner(page).wait_for()
    page.wait_for_timeout(500)  # the new worker is waiting: nothing must switch by itself
    assert page.evaluate("window.sameDocument") is True
    assert page.locator(NEW_VERSION_MARK).count() == 0
    accept_update_and_check(page, version)


def test_a_deploy_found_at_the_next_visit_waits_for_the_tap(deployed):
    folder, page = deployed
    version = deploy_new_version(folder)
    page.reload()  # the browser checks sw.js on every visit; the old version still runs
    wait_until_ready(page)
    banner(page).wait_for()
    assert page.locator(NEW_VERSION_MARK).count() == 0
    accept_update_and_check(page, version)
