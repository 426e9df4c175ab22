"""Helpers shared by the offline, update and install tests: service worker
control, the precache list of a built folder, CSP violations."""
from __future__ import annotations

import re
from pathlib import Path

from conftest import READY, BOOT_TIMEOUT_MS

PRECACHE_ENTRY = re.compile(r'\["(\./[^"]*)", "(sha256-[^"]+)"\]')

WAIT_UNTIL_CONTROLLED = """async (timeoutMs) => {
  const controlled = (async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
    }
  })();
  const late = new Promise((_, reject) => setTimeout(
    () => reject(new Error("the service worker did not take control (did its install fail?)")), timeoutMs));
  await Promise.race([controlled, late]);
}"""

REPORT_CSP_VIOLATIONS = """addEventListener("securitypolicyviolation", (event) => {
  window.reportCspViolation(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`);
});"""


def precache_urls(folder: Path) -> dict[str, str]:
    """url -> integrity, as the build wrote them into folder/sw.js."""
    return dict(PRECACHE_ENTRY.findall((folder / "sw.js").read_text()))


def wait_until_controlled(page) -> None:
    """Wait until the service worker installed (everything precached) and controls the page."""
    page.evaluate(WAIT_UNTIL_CONTROLLED, BOOT_TIMEOUT_MS)


def wait_until_ready(page) -> None:
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)


def record_csp_violations(context) -> list[str]:
    """Every securitypolicyviolation event in any page of the context, across reloads."""
    violations: list[str] = []
    context.expose_function("reportCspViolation", lambda text: violations.append(text))
    context.add_init_script(script=REPORT_CSP_VIOLATIONS)
    return violations

