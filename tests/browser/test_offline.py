"""After one visit online the app boots and works with the network off: the service
worker precaches every file the page loads, under the strict CSP, and never
fetches from anywhere but localhost."""
import re
from urllib.parse import urlsplit

from conftest import DIST
from offline_helpers import precache_urls, record_csp_violations, wait_until_controlled, wait_until_ready


def roll_and_log(page):
    """A Tension Engine roll against the environment, rolled here, then logged."""
    page.get_by_test_id("side-gm").get_by_role("button", name=re.compile(r"^Roll \d+ dic?e")).tap()
    page.get_by_test_id("side-player").get_by_role("button", name=re.compile(r"^Roll \d+ dic?e")).tap()
    page.get_by_role("button", name="Log this result").tap()
    page.get_by_text("Result (logged)").wait_for()


def first_visit(page, site):
    page.goto(site)
    wait_until_ready(page)
    wait_until_controlled(page)


def as_precache_url(url: str) -> str:
    return "./" + urlsplit(url).path.lstrip("/")


def test_first_visit_precaches_every_file_the_page_loads_under_the_csp(context, page, site):
    violations = record_csp_violations(context)
    fetched_by_worker = []
    context.on("request", lambda request: request.service_worker and fetched_by_worker.append(request.url))
    page_requests = []
    page.on("request", lambda request: page_requests.append(request.url))
    response = page.goto(site)
    wait_until_ready(page)
    csp = response.headers["content-security-policy"]
    assert "'unsafe-inline'" not in csp and "connect-src 'self'" in csp
    wait_until_controlled(page)
    precached = precache_urls(DIST)
    assert {as_precache_url(url) for url in page_requests} <= set(precached)
    # The worker's own requests are seen too (so the harness would catch one off localhost).
    assert {as_precache_url(url) for url in fetched_by_worker} >= set(precached) - {"./"}
    assert violations == []


def test_after_one_visit_the_app_boots_offline_share_links_included(context, page, site):
    violations = record_csp_violations(context)
    first_visit(page, site)
    context.set_offline(True)
    response = page.reload()
    wait_until_ready(page)
    assert "wasm-unsafe-eval" in response.headers["content-security-policy"]  # served from the cache, CSP kept
    page.goto(site + "?session=demo#table")
    wait_until_ready(page)
    assert violations == []


def test_a_roll_works_offline_and_the_log_persists(context, page, site):
    first_visit(page, site)
    context.set_offline(True)
    page.reload()
    wait_until_ready(page)
    roll_and_log(page)
    page.get_by_role("button", name="Log", exact=True).tap()
    entries = page.get_by_test_id("log-entry")
    assert entries.count() == 1
    page.reload()
    wait_until_ready(page)
    page.get_by_role("button", name="Log", exact=True).tap()
    entries.first.wait_for()
    assert entries.count() == 1


def test_pyscript_still_needs_unsafe_eval(page, site, watch):
    """netlify.toml allows 'unsafe-eval' only because PyScript fails without it.
    When this test fails, PyScript stopped needing it: remove it from the CSP."""
    watch.expected_errors += ["Tableside failed to start", "'unsafe-eval' is not an allowed source of script"]
    violations = record_csp_violations(page.context)

    def without_unsafe_eval(route):
        response = route.fetch()
        headers = dict(response.headers)
        headers["content-security-policy"] = headers["content-security-policy"].replace("'unsafe-eval' ", "")
        route.fulfill(response=response, headers=headers)

    page.route(site, without_unsafe_eval)
    page.goto(site)
    page.locator("html[data-app-state=error]").wait_for(state="attached", timeout=60_000)
    assert any(violation.startswith("script-src blocked eval") for violation in violations), violations
