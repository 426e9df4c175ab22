"""The three engines players use, behind one small interface: Chromium (Playwright),
WebKit (Safari's engine, on every iPhone) and Firefox.

WebKitGTK and Firefox ESR run in driver processes (tests/browser/drivers/): WebKitGTK
through PyGObject under Debian's python3, in an exact window on a virtual X display
(Xvfb); Firefox headless through WebDriver BiDi with puppeteer-core under Node. Both
speak one protocol: one JSON command a line on stdin ({"do": name, ...}), one JSON answer
a line on stdout ({"value": ...} or {"error": ...}). PlaywrightDriver answers the same
commands in this process, so a scenario in test_engines.py runs in all three.

Every request to a host other than localhost goes to a RefusingProxy, which refuses and
records it (a test fails on any), the way --host-resolver-rules does for the other
Chromium tests.
"""
from __future__ import annotations

import json
import os
import re
import select
import shutil
import socketserver
import subprocess
import threading
import time
from pathlib import Path

DRIVERS = Path(__file__).resolve().parent / "drivers"
SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's: it has PyGObject (python3-gi)
ENGINES = ("chromium", "webkit", "firefox")
COMMAND_TIMEOUT_S = 200  # a driver answers within its own timeouts (180 s); this is for a hung one

# What an engine logs as an error that the app decided to keep (each says why).
KNOWN_ENGINE_ERRORS = {
    # netlify.toml keeps manifest-src: with default-src 'none', dropping it would block the
    # manifest in Chromium and Firefox. WebKit does not know the directive and says so.
    "webkit": ["Unrecognized Content-Security-Policy directive 'manifest-src'"],
}


class EngineError(RuntimeError):
    pass


class DriverProcess:
    """A driver process (webkit.py or firefox.mjs) and its one-line-per-command protocol."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None):
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, env={**os.environ, **(env or {})})
        self.version = self.read()["ready"]

    def read(self) -> dict:
        ready, _, _ = select.select([self.process.stdout], [], [], COMMAND_TIMEOUT_S)
        line = self.process.stdout.readline() if ready else ""
        if not line:
            raise EngineError(f"{self.process.args[-1]} stopped answering (exit code {self.process.poll()})")
        return json.loads(line)

    def call(self, do: str, **args):
        self.process.stdin.write(json.dumps({"do": do, **args}) + "\n")
        self.process.stdin.flush()
        answer = self.read()
        if "error" in answer:
            raise EngineError(answer["error"])
        return answer["value"]

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class PlaywrightDriver:
    """The drivers' commands over a Playwright browser (Chromium), in this process."""

    def __init__(self, browser):
        self.browser = browser
        self.version = f"Chromium {browser.version}"
        self.context = self.page = None
        self.messages: list[dict] = []

    def call(self, do: str, **args):
        return getattr(self, do)(**args)

    def new_page(self, width, height, proxy):
        self.close_page()
        self.context = self.browser.new_context(viewport={"width": width, "height": height},
                                                proxy={"server": proxy, "bypass": "localhost,127.0.0.1"})
        self.open_tab()
        self.messages = []

    def open_tab(self):
        self.page = self.context.new_page()
        self.page.on("console", lambda message: self.messages.append(
            {"level": message.type, "text": message.text}))
        self.page.on("pageerror", lambda error: self.messages.append({"level": "error", "text": f"uncaught: {error}"}))

    def new_tab(self):
        self.page.close()
        self.open_tab()

    def add_init_script(self, source):
        self.context.add_init_script(source)

    def goto(self, url):
        self.page.goto(url, wait_until="commit")

    def reload(self):
        self.page.reload(wait_until="commit")

    def evaluate(self, body):
        return self.page.evaluate(f"(async () => {{ {body}\n}})()")

    def click(self, x, y):
        self.page.mouse.click(x, y)

    def resize(self, width, height):
        self.page.set_viewport_size({"width": width, "height": height})

    def screenshot(self, path):
        self.page.screenshot(path=path, full_page=True)

    def console(self):
        taken, self.messages = self.messages, []
        return taken

    def close_page(self):
        if self.context:
            self.context.close()
        self.context = self.page = None

    def close(self):
        self.close_page()


def start_webkit(display: str) -> DriverProcess:
    return DriverProcess([SYSTEM_PYTHON, str(DRIVERS / "webkit.py")], env={"DISPLAY": display})


def start_firefox() -> DriverProcess:
    return DriverProcess(["node", str(DRIVERS / "firefox.mjs")])


class VirtualDisplay:
    """Xvfb on a free display number, for WebKitGTK's windows (it has no headless mode)."""

    def __init__(self):
        if not shutil.which("Xvfb"):
            raise EngineError("Xvfb is missing: run the tests with `make test` (it installs it when root)")
        read, write = os.pipe()
        self.process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-nolisten", "tcp",
                                         "-screen", "0", "1600x1200x24"], pass_fds=(write,),
                                        stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as announced:
            self.name = ":" + announced.readline().strip()

    def close(self):
        self.process.terminate()
        self.process.wait()


class RefusingProxy:
    """An HTTP proxy on localhost that answers every request 403 and records its target."""

    def __init__(self):
        self.requests: list[str] = []
        proxy = self

        class Refuse(socketserver.StreamRequestHandler):
            def handle(self):
                line = self.rfile.readline(4096).decode("latin-1").strip()
                if line:
                    proxy.requests.append(line)
                self.wfile.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Refuse)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def take(self) -> list[str]:
        taken, self.requests = self.requests, []
        return taken

    def close(self):
        self.server.shutdown()
        self.server.server_close()


# The element a person would tap: found by role and accessible name, inside `within`
# when given; scrolled into view if it is not (or is covered); its centre must hit the element itself (nothing on
# top of it) and it must be enabled. Answers its centre, or why not yet; the tap waits
# until the page has handled the click (input waits while the page is busy, as Python
# keeps it after start-up).
FIND = r"""
const [role, name, pattern, within] = input;
const SELECTORS = {
  button: 'button, [role="button"], input[type="button"], input[type="submit"]',
  link: 'a[href], [role="link"]',
};
// Wait until the page has stopped changing (up to 10 s): a late render (the odds, say) can
// move the element between finding it and the click.
await new Promise((resolve) => {
  let timer = setTimeout(done, 300);
  const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, 300); });
  const give_up = setTimeout(done, 10_000);
  function done() { observer.disconnect(); clearTimeout(timer); clearTimeout(give_up); resolve(); }
  observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
});
const scope = within ? document.querySelector(within) : document;
if (!scope) return { why: `nothing matches ${within}` };
const textOf = (element) => {
  const labelledBy = element.getAttribute("aria-labelledby");
  const text = element.getAttribute("aria-label")
    ?? (labelledBy ? labelledBy.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? "").join(" ")
                   : element.textContent);
  return text.replace(/\s+/g, " ").trim();
};
const fits = pattern ? (text) => new RegExp(pattern).test(text) : (text) => text === name;
const found = [...scope.querySelectorAll(SELECTORS[role])]
  .filter((element) => element.checkVisibility() && fits(textOf(element)));
if (found.length !== 1) return { why: `${found.length} ${role}s named ${pattern ?? name}` };
const [element] = found;
if (element.disabled || element.getAttribute("aria-disabled") === "true") return { why: "disabled" };
const box = element.getBoundingClientRect();
if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) {
  element.scrollIntoView({ block: "center", inline: "center" });
  return { why: "not in view yet" };  // tap on the next try, once the scroll has been drawn
}
const x = box.left + box.width / 2, y = box.top + box.height / 2;
const hit = document.elementFromPoint(x, y);
if (!hit || !element.contains(hit)) {
  element.scrollIntoView({ block: "center", inline: "center" });  // e.g. under the bottom bar
  return { why: `covered by ${hit?.outerHTML.slice(0, 80)}` };
}
// Set when the page has handled the click (it may be busy): true, or "missed" when the
// click came down somewhere else (the page moved after all).
window.__tapped = false;
document.addEventListener("click", (event) => { window.__tapped = element.contains(event.target) || "missed"; },
                          { once: true, capture: true });
return { x, y };
"""


class EnginePage:
    """What a test does in any engine: open, wait, tap by role and name, look."""

    def __init__(self, engine: str, driver, proxy: RefusingProxy, screenshots: Path):
        self.engine, self.driver, self.proxy, self.screenshots = engine, driver, proxy, screenshots
        self.expected_errors = list(KNOWN_ENGINE_ERRORS.get(engine, []))
        self.messages: list[dict] = []
        self.size = (390, 844)
        driver.call("new_page", width=390, height=844, proxy=proxy.url)
        proxy.take()

    def goto(self, url: str):
        self.driver.call("goto", url=url)

    def reload(self):
        self.driver.call("reload")

    def new_tab(self):
        """Close the tab and open a new one on the same profile (storage, caches, service
        worker): the app opened again. goto() next."""
        self.driver.call("new_tab")

    def add_init_script(self, source: str):
        """JavaScript every page of this profile runs before its own, from the next page loaded on
        (a reload, a goto, a new tab)."""
        self.driver.call("add_init_script", source=source)

    def evaluate(self, body: str, value=None):
        """body: the body of an async function; `input` is value (anything JSON can carry)."""
        return self.driver.call("evaluate", body=f"const input = {json.dumps(value)};\n{body}")

    def wait_for(self, condition: str, timeout_s: float = 60):
        """Wait until the JavaScript expression condition is truthy (checked every 50 ms, in
        the page; a page that reloads meanwhile is asked again)."""
        body = f"""const deadline = performance.now() + input;
while (!({condition})) {{
  if (performance.now() > deadline) return false;
  await new Promise((resolve) => setTimeout(resolve, 50));
}}
return true;"""
        deadline, problem = time.monotonic() + timeout_s, None
        while (left := deadline - time.monotonic()) > 0:
            try:
                if self.evaluate(body, left * 1000):
                    return
            except Exception as error:  # e.g. the page was replaced while it was asked
                problem = error
                time.sleep(0.1)
                continue
            problem = None
        raise AssertionError(f"{self.engine}: still not true after {timeout_s} s: {condition}"
                             + (f" ({problem})" if problem else ""))

    def wait_until_ready(self, timeout_s: float = 120):
        self.wait_for("document.documentElement.dataset.appState === 'ready'", timeout_s)

    def tap(self, name: str | re.Pattern, role: str = "button", within: str | None = None,
            timeout_s: float = 30):
        """Tap the one visible, enabled element of role with this accessible name, once the
        page has stopped changing; again if the click came down elsewhere."""
        pattern = name.pattern if isinstance(name, re.Pattern) else None
        deadline = time.monotonic() + timeout_s
        while True:
            spot = self.evaluate(FIND, [role, None if pattern else name, pattern, within])
            if "x" in spot:
                self.driver.call("click", x=spot["x"], y=spot["y"])
                if self.handled(deadline) is not False:
                    return
                spot["why"] = "the click came down elsewhere"
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.engine}: cannot tap the {role} {name!r}: {spot['why']}")
            time.sleep(0.1)

    def handled(self, deadline: float) -> bool | None:
        """True once the page handled the tap, False if the click hit something else, None if
        the page went away (the tap loaded another page)."""
        while time.monotonic() < deadline:
            try:
                tapped = self.evaluate("return window.__tapped;")
            except Exception:  # the page was replaced while we asked: the tap did something
                return None
            if tapped is None:  # a new page, which never heard of the tap
                return None
            if tapped is not False:
                return tapped is True
            time.sleep(0.05)
        raise AssertionError(f"{self.engine}: the page did not handle the tap in time")

    def screenshot(self, name: str) -> Path:
        self.screenshots.mkdir(parents=True, exist_ok=True)
        width, height = self.size
        path = self.screenshots / f"{name}-{self.engine}-{width}x{height}.png"
        self.driver.call("screenshot", path=str(path))
        return path

    def resize(self, width: int, height: int):
        self.driver.call("resize", width=width, height=height)
        self.wait_for(f"innerWidth === {width} && innerHeight === {height}", 10)
        self.size = (width, height)

    def console(self) -> list[dict]:
        self.messages += self.driver.call("console")
        return self.messages

    def console_errors(self) -> list[str]:
        return [message["text"] for message in self.console() if message["level"] == "error"
                and not any(expected in message["text"] for expected in self.expected_errors)]

    def check(self):
        """What every test asserts at its end: nothing left localhost, no console error."""
        off_localhost = self.proxy.take()
        errors = self.console_errors()
        self.driver.call("close_page")
        assert off_localhost == [], f"{self.engine}: requests left localhost: {off_localhost}"
        assert errors == [], f"{self.engine}: the console logged errors: {errors}"
