"""A renderer that ends says how (crashes.py): its status and signal, the machine's memory, and,
when it crashed, where (from its core)."""
import os
import re
import signal
import time
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
