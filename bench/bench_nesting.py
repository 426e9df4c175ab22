"""Where deep nesting kills Python in this page (make bench-nesting), against the app's limit.

In Pyodide a recursive C walk (json.loads, str(), json.dumps) that nests deep enough
overflows the WebAssembly stack: a fatal error, not a RecursionError, and the
interpreter is gone. session.untrusted refuses JSON nested deeper than MAX_DEPTH
before parsing; this measures how far below the breaking point that is.

Serves dist/ like Netlify, opens the app in Debian's Chromium and, once it is ready,
runs one probe inside it (a <script type="py"> added to the page shares the app's
interpreter): json.loads of JSON nested N deep, or str(), json.dumps or copy.deepcopy of
the same value built without recursion, N arrays or objects deep. Each probe gets a fresh page, since
a fatal error ends the interpreter; N is bisected between LOW and HIGH. Reports, for
each walk and kind, the deepest N that survived and what happened just above it
(fatal, or a catchable RecursionError), and MAX_DEPTH. Numbers only; nothing here is a test.
"""
from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests" / "browser"), str(ROOT / "py")]
from conftest import BOOT_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS, PHONE, READY  # noqa: E402
from serve import make_server  # noqa: E402
from session.untrusted import MAX_DEPTH  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "bench_nesting.json"
LOW, HIGH = 100, 20_000
PRECISION = 10
# Each kind: JSON text nested n deep, and the same value built without recursion.
KINDS = {
    "arrays": ('"[" * n + "]" * n', "[]", "[value]"),
    "objects": ('"{\\"k\\":" * n + "0" + "}" * n', "0", '{"k": value}'),
}
WALKS = {"json.loads": "json.loads(text)", "str()": "str(value)", "json.dumps": "json.dumps(value)",
         "copy.deepcopy": "copy.deepcopy(value)"}
PROBE = """
import copy, json
from pyscript import document
n = {n}
text = {text}
value = {start}
for _ in range(n):
    value = {wrap}
try:
    {walk}
    document.documentElement.dataset.probe = "ok"
except RecursionError:
    document.documentElement.dataset.probe = "RecursionError"
"""
ADD_PROBE = """(code) => {
    const script = document.createElement("script");
    script.type = "py";
    script.textContent = code;
    document.body.append(script);
}"""


def probe(browser, site: str, walk: str, kind: tuple, n: int) -> str:
    """"ok", "RecursionError" or "fatal" for one walk of JSON nested n deep, in a fresh page."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    fatal = []
    page.on("console", lambda message: "fatal error" in message.text and fatal.append(message.text))
    try:
        page.goto(site)
        page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        text, start, wrap = kind
        page.evaluate(ADD_PROBE, PROBE.format(n=n, text=text, start=start, wrap=wrap, walk=walk))
        for _ in range(300):
            answer = page.evaluate("document.documentElement.dataset.probe")
            if answer or fatal:
                return answer or "fatal"
            page.wait_for_timeout(50)
        return "fatal" if fatal else "no answer"
    finally:
        context.close()


def breaking_point(browser, site: str, walk: str, kind: tuple) -> dict:
    assert probe(browser, site, walk, kind, LOW) == "ok", f"{walk} fails at {LOW}"
    above = probe(browser, site, walk, kind, HIGH)
    if above == "ok":
        return {"survives": HIGH, "above": "ok"}
    low, high = LOW, HIGH
    while high - low > PRECISION:
        middle = (low + high) // 2
        answer = probe(browser, site, walk, kind, middle)
        if answer == "ok":
            low = middle
        else:
            high, above = middle, answer
    return {"survives": low, "fails": high, "above": above}


def main():
    server = make_server(ROOT / "dist", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = f"http://localhost:{server.server_address[1]}/"
    started = time.monotonic()
    results = {"max_depth": MAX_DEPTH, "walks": {}}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        print(f"session.untrusted.MAX_DEPTH = {MAX_DEPTH}\n")
        print(f"{'walk':16} {'kind':8} {'survives':>9} {'fails at':>9}  above it")
        for name, walk in WALKS.items():
            for kind_name, kind in KINDS.items():
                found = breaking_point(browser, site, walk, kind)
                results["walks"][f"{name} / {kind_name}"] = found
                fails = f"{found['fails']:,}" if "fails" in found else "-"
                print(f"{name:16} {kind_name:8} {found['survives']:>9,} {fails:>9}  {found['above']}")
        browser.close()
    server.shutdown()
    deepest_safe = min(found["survives"] for found in results["walks"].values()
                       if found["above"] == "fatal")
    print(f"\nThe shallowest fatal walk survives {deepest_safe:,} levels: "
          f"{deepest_safe / MAX_DEPTH:.0f}x MAX_DEPTH ({time.monotonic() - started:.0f} s)")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
