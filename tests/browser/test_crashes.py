"""A renderer that ends says how (crashes.py): its status and signal, the machine's memory, and,
when it crashed, where (from its core)."""
import os
import re
import signal
import time
from pathlib import Path
from contextlib import contextmanager

from conftest import CHROMIUM, CHROMIUM_ARGS
from crashes import CORE, RendererCrashes, where_it_crashed


@contextmanager
def a_renderer_ended_by(browser, number: int):
    """A browser of our own (not the suite's) whose only page's renderer got signal `number`."""
    own = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        crashes = RendererCrashes(own)
        page = own.new_page()
        page.set_content("<p>a page</p>")
        processes = crashes.session.send("SystemInfo.getProcessInfo")["processInfo"]
        with page.expect_event("crash"):
            for process in processes:
                if process["type"] == "renderer":  # this browser's own: it has no other page
                    os.kill(process["id"], number)
        yield crashes
    finally:
        own.close()


def test_a_killed_renderer_is_reported_with_its_signal_and_the_machines_memory(browser):
    with a_renderer_ended_by(browser, signal.SIGKILL) as crashes:
        deadline = time.monotonic() + 10
        while not crashes.seen and time.monotonic() < deadline:
            crashes.session.send("Target.getTargets")  # a round trip: the events before it arrive
        assert "status killed, code 9; MemAvailable" in crashes.report()


def test_a_segfaulted_renderer_says_where_from_its_core(browser):
    with a_renderer_ended_by(browser, signal.SIGSEGV):
        where = where_it_crashed()
        assert where.startswith("its core: signal SIGSEGV"), where
        assert re.search(r"^#0 \S", where, re.M), where  # the crashed frame, named or placed
        assert not CORE.exists()


def test_the_suites_renderers_run_without_chromiums_heap_profiler(browser):
    """conftest.CHROMIUM_ARGS turns the profiler off (it segfaults renderers running wasm on a JSPI
    stack) without dropping Playwright's own disabled features: Chromium keeps one --disable-features."""
    page = browser.new_page()
    try:
        page.set_content("<p>a page</p>")
        session = browser.new_browser_cdp_session()
        processes = session.send("SystemInfo.getProcessInfo")["processInfo"]
        renderers = [process["id"] for process in processes if process["type"] == "renderer"]
        assert renderers
        for pid in renderers:
            # a renderer rewrites its argv into one string: split it on blanks
            switches = Path(f"/proc/{pid}/cmdline").read_bytes().decode().replace("\0", " ").split()
            disabled = {feature for switch in switches if switch.startswith("--disable-features=")
                        for feature in switch.split("=", 1)[1].split(",")}
            assert {"HeapProfilerReporting", "PaintHolding", "HttpsUpgrades"} <= disabled, switches
    finally:
        page.close()
