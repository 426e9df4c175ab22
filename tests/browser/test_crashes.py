"""A renderer that ends says how (crashes.py): its status and signal, the machine's memory, and,
when it crashed, where (from its core)."""
import os
import re
import signal
import time
from pathlib import Path
from contextlib import contextmanager

from conftest import CHROMIUM, CHROMIUM_ARGS
from crashes import CORE, RendererCrashes, browser_said, where_it_crashed


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
        assert re.search(r"^addresses into chromium on that stack: chromium\+0x", where, re.M), where
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


def test_what_a_browser_writes_to_stderr_reaches_the_tests_capture(browser, request):
    """Where a renderer's last words (V8's "# Fatal error") go: Playwright's driver repeats the
    browser's stderr into ours, and the test's capture keeps it for the crash report."""
    with a_renderer_ended_by(browser, signal.SIGKILL):
        pass
    _, captured = request.config.pluginmanager.getplugin("capturemanager").read_global_capture()
    assert re.search(r"pw:browser \[pid=\d+\]\[err\] ", captured), captured[-2000:]


def test_the_crash_report_keeps_only_what_says_why_a_process_died():
    captured = "\n".join([
        "2026-12-04T19:00:07.100Z pw:browser [pid=19780][err] [19780:19780:ERROR:dbus/bus.cc:408] Failed to connect to the bus",
        "2026-12-04T19:00:07.200Z pw:browser [pid=19780][err] #",
        "2026-12-04T19:00:07.201Z pw:browser [pid=19780][err] # Fatal error in ../../v8/src/wasm/stacks.cc, line 42",
        "2026-12-04T19:00:07.202Z pw:browser [pid=19780][err] # Check failed: stack->IsValid().",
        "2026-12-04T19:00:07.300Z pw:browser <launched> pid=19781",
    ])
    assert browser_said(captured) == ("# Fatal error in ../../v8/src/wasm/stacks.cc, line 42\n"
                                      "# Check failed: stack->IsValid().")
    assert browser_said("") == "nothing about a fatal error"
