"""WebKitGTK, the engine of Safari, for the browser tests (tests/browser/engines.py).

Runs under Debian's own python3, which has PyGObject (the virtualenv has not), and
speaks the drivers' protocol: one JSON command a line on stdin, one JSON answer a line
on stdout. WebKit writes the page's console to this process's stderr: it is read
back here and handed out by the "console" command.

Each "new_page" is a fresh browser profile (its own data and cache folders) in an
exact window, no bigger than asked; every host but localhost goes through `proxy`,
which refuses and records it.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("Gdk", "3.0")
gi.require_foreign("cairo")  # snapshots are cairo surfaces
gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gdk, GLib, Gtk, WebKit2  # noqa: E402

COMMAND_TIMEOUT_S = 180
CANCELLED_WAIT_S = 20  # after WebKit cancels a load: how long a load it goes on with may take to commit
# "file:///x.html:1:22: CONSOLE ERROR text", "CONSOLE SECURITY ERROR text", "CONSOLE JS ERROR text"
CONSOLE_LINE = re.compile(r"^(?:.*?: )?CONSOLE (?:[A-Z]+ )?(ERROR|WARN|LOG|DEBUG|INFO) (.*)$")
LEVELS = {"ERROR": "error", "WARN": "warning", "LOG": "log", "DEBUG": "debug", "INFO": "info"}


class Console:
    """The page's console, read back from stderr; other lines go on to the real stderr."""

    def __init__(self):
        read, write = os.pipe()
        self.stderr = os.dup(2)
        os.dup2(write, 2)  # the web processes started from now on inherit it
        os.close(write)
        self.pending = b""
        self.messages: list[dict] = []
        GLib.io_add_watch(read, GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, self.read)

    def read(self, fd, _condition):
        chunk = os.read(fd, 65536)
        *lines, self.pending = (self.pending + chunk).split(b"\n")
        for raw in lines:
            line = raw.decode("utf-8", "replace")
            match = CONSOLE_LINE.match(line)
            if match:
                self.messages.append({"level": LEVELS[match[1]], "text": match[2]})
            elif self.messages and line and not line.startswith("("):  # a message's next lines
                self.messages[-1]["text"] += "\n" + line
            elif line:
                os.write(self.stderr, raw + b"\n")
        return bool(chunk)

    def take(self) -> list[dict]:
        taken, self.messages = self.messages, []
        return taken


def run_until(done, timeout_s=COMMAND_TIMEOUT_S):
    """Run GLib's loop until done() is true."""
    context = GLib.MainContext.default()
    deadline = time.monotonic() + timeout_s
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError(f"no answer from WebKit within {timeout_s} s")
        context.iteration(True)


def pointer() -> list[str]:
    """Where the X server's pointer is: [x, y]."""
    shell = subprocess.run(["xdotool", "getmouselocation", "--shell"], check=True, timeout=10,
                           capture_output=True, text=True).stdout
    where = dict(line.split("=", 1) for line in shell.split())
    return [where["X"], where["Y"]]


def pause(seconds):
    fired = []
    GLib.timeout_add(int(seconds * 1000), lambda: fired.append(True) and False)
    run_until(lambda: fired)


class Page:
    """One window, one web view, one fresh profile."""

    def __init__(self, width, height, proxy):
        self.folder = tempfile.mkdtemp(prefix="tableside-webkit-")
        manager = WebKit2.WebsiteDataManager(base_data_directory=f"{self.folder}/data",
                                             base_cache_directory=f"{self.folder}/cache")
        manager.set_network_proxy_settings(
            WebKit2.NetworkProxyMode.CUSTOM,
            WebKit2.NetworkProxySettings.new(proxy, ["localhost", "127.0.0.1", "::1"]))
        self.context = WebKit2.WebContext.new_with_website_data_manager(manager)
        self.context.set_cache_model(WebKit2.CacheModel.WEB_BROWSER)
        self.scripts = WebKit2.UserContentManager()  # the profile's init scripts, in each of its tabs
        self.open_view(width, height)

    def open_view(self, width, height):
        """A window and web view of this profile (a tab)."""
        self.view = WebKit2.WebView(web_context=self.context, user_content_manager=self.scripts)
        self.view.get_settings().set_enable_write_console_messages_to_stdout(True)
        self.view.connect("load-changed", self.on_load_changed)
        self.view.connect("load-failed", self.on_load_failed)
        self.view.connect("web-process-terminated", self.on_web_process_terminated)
        self.window = Gtk.Window()
        self.window.add(self.view)
        self.resize(width, height)
        self.window.show_all()
        # Focused from the start, as a browser tab is: otherwise the first click focuses the
        # view, and WebKit scrolls the page's focused element into view between press and release.
        self.view.grab_focus()
        self.committed = False
        self.failure = self.cancelled = None

    def new_tab(self):
        """The page's tab closed and a new one opened on the same profile (its storage, caches
        and service worker), in a web process of its own, as a phone opens the app again."""
        width, height = self.window.get_size()
        self.window.destroy()
        self.open_view(width, height)

    def add_init_script(self, source):
        """JavaScript every page of this profile runs before its own, from the next load on."""
        self.scripts.add_script(WebKit2.UserScript.new(
            source, WebKit2.UserContentInjectedFrames.TOP_FRAME, WebKit2.UserScriptInjectionTime.START, None, None))

    def resize(self, width, height):
        self.window.resize(width, height)
        run_until(lambda: self.window.get_size() == (width, height), 10)

    def on_load_changed(self, _view, event):
        if event == WebKit2.LoadEvent.COMMITTED:
            self.committed = True

    def on_load_failed(self, _view, _event, uri, error):
        if error.matches(WebKit2.NetworkError.quark(), WebKit2.NetworkError.CANCELLED):
            # WebKit may cancel a main-frame load it then goes on with (seen once, under load, on a
            # fresh profile's first load): the page is there if it commits soon after; if not, say so.
            self.cancelled = f"{uri}: {error.message}"
        else:
            self.failure = f"{uri}: {error.message}"
        return False

    def on_web_process_terminated(self, _view, reason):
        """The page's process crashed or was killed: say so now, not after the command's timeout."""
        self.failure = f"the web process ended ({reason.value_nick})"

    def navigate(self, start):
        self.committed, self.failure, self.cancelled = False, None, None
        start()
        run_until(lambda: self.committed or self.failure or self.cancelled)
        if self.cancelled and not self.committed:
            cancelled_at = time.monotonic()
            run_until(lambda: self.committed or self.failure or time.monotonic() > cancelled_at + CANCELLED_WAIT_S)
            self.failure = self.failure or (None if self.committed else self.cancelled)
        if self.failure:
            raise RuntimeError(self.failure)

    def evaluate(self, body):
        """Run body as an async function; its value comes back through JSON."""
        box = {}

        def finished(view, result):
            try:
                value = view.call_async_javascript_function_finish(result)
                box["value"] = None if value.is_undefined() else json.loads(value.to_json(0) or "null")
            except GLib.Error as error:
                box["error"] = error.message

        self.view.call_async_javascript_function(body, -1, None, None, None, None, finished)
        run_until(lambda: box)
        if "error" in box:
            raise RuntimeError(box["error"])
        return box["value"]

    def click(self, x, y):
        """A real left click at (x, y) in the viewport, through the X server (xdotool), as a
        mouse makes it: GTK and WebKit see the same events as from a person's hand."""
        _, left, top = self.view.get_window().get_origin()
        target = [str(left + round(x)), str(top + round(y))]
        # `mousemove --sync` waits for the pointer to move: already there (the last test tapped the
        # same spot), it would wait forever. A pixel aside first.
        if pointer() == target:
            subprocess.run(["xdotool", "mousemove", "--sync", str(int(target[0]) + 1), target[1]],
                           check=True, timeout=10)
        subprocess.run(["xdotool", "mousemove", "--sync", *target, "click", "1"], check=True, timeout=10)
        pause(0.05)  # let GTK hand the events on before the next command

    def screenshot(self, path):
        """The whole page as WebKit draws it, saved as a PNG."""
        box = {}
        self.view.get_snapshot(WebKit2.SnapshotRegion.FULL_DOCUMENT, WebKit2.SnapshotOptions.NONE, None,
                               lambda view, result: box.update(surface=view.get_snapshot_finish(result)))
        run_until(lambda: box)
        box["surface"].write_to_png(path)

    def close(self):
        self.window.destroy()
        shutil.rmtree(self.folder, ignore_errors=True)


class Driver:
    def __init__(self):
        self.console = Console()
        self.page = None

    def new_page(self, width, height, proxy):
        if self.page:
            self.page.close()
        self.page = Page(width, height, proxy)
        self.console.take()

    def goto(self, url):
        self.page.navigate(lambda: self.page.view.load_uri(url))

    def reload(self):
        self.page.navigate(self.page.view.reload)

    def new_tab(self):
        self.page.new_tab()

    def add_init_script(self, source):
        self.page.add_init_script(source)

    def evaluate(self, body):
        return self.page.evaluate(body)

    def click(self, x, y):
        self.page.click(x, y)

    def resize(self, width, height):
        self.page.resize(width, height)

    def screenshot(self, path):
        self.page.screenshot(path)

    def console_messages(self):
        return self.console.take()

    def close_page(self):
        if self.page:
            self.page.close()
            self.page = None


def main():
    Gtk.init([])
    driver = Driver()
    commands = {"new_page": driver.new_page, "goto": driver.goto, "reload": driver.reload,
                "new_tab": driver.new_tab, "add_init_script": driver.add_init_script,
                "evaluate": driver.evaluate, "click": driver.click, "resize": driver.resize,
                "screenshot": driver.screenshot, "console": driver.console_messages,
                "close_page": driver.close_page}
    out = os.fdopen(os.dup(1), "w")
    print(json.dumps({"ready": f"WebKitGTK {WebKit2.get_major_version()}.{WebKit2.get_minor_version()}."
                               f"{WebKit2.get_micro_version()}"}), file=out, flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            answer = {"value": commands[request.pop("do")](**request)}
        except Exception as error:  # the test gets the message; the driver goes on
            answer = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps(answer), file=out, flush=True)
    driver.close_page()


if __name__ == "__main__":
    main()
