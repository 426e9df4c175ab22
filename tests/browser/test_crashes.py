"""A renderer that ends says how (crashes.py): its status and signal, and the machine's memory."""
import os
import re
import signal
import time

from conftest import CHROMIUM, CHROMIUM_ARGS
from crashes import CORE, RendererCrashes, where_it_crashed


def test_a_killed_renderer_is_reported_with_its_signal_and_the_machines_memory(browser):
    own = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)  # not the suite's
    try:
        crashes = RendererCrashes(own)
        page = own.new_page()
        page.set_content("<p>a page</p>")
        processes = crashes.session.send("SystemInfo.getProcessInfo")["processInfo"]
        with page.expect_event("crash"):
            for process in processes:
                if process["type"] == "renderer":  # this browser's own: it has no other page
                    os.kill(process["id"], signal.SIGKILL)
        deadline = time.monotonic() + 10
        while not crashes.seen and time.monotonic() < deadline:
            crashes.session.send("Target.getTargets")  # a round trip: the events before it arrive
        assert "status killed, code 9; MemAvailable" in crashes.report()
    finally:
        own.close()


def test_a_segfaulted_renderer_says_where_from_its_core(browser):
    own = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        crashes = RendererCrashes(own)
        page = own.new_page()
        page.set_content("<p>a page</p>")
        processes = crashes.session.send("SystemInfo.getProcessInfo")["processInfo"]
        with page.expect_event("crash"):
            for process in processes:
                if process["type"] == "renderer":
                    os.kill(process["id"], signal.SIGSEGV)
        where = where_it_crashed()
        assert where.startswith("its core: signal SIGSEGV"), where
        assert re.search(r"^#0 \S", where, re.M), where  # the crashed frame, named or placed
        assert not CORE.exists()
    finally:
        own.close()
