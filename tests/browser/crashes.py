"""How a Chromium renderer ended, for a test that failed with Playwright's bare "Target crashed".

Chromium says it on its DevTools protocol (Target.targetCrashed): `status` ("crashed", "killed",
"oom") and `errorCode` (a signal: 9 is a SIGKILL, from the kernel's OOM killer or another
process; 5, SIGTRAP, a CHECK or V8's own out-of-memory; 11 a segfault). The machine's memory and
load at that moment are kept beside it: the crash seen while five phones booted (issue 31) was
never reproduced, so the next one has to say why by itself. Nothing here retries anything.

    crashes = RendererCrashes(browser)   # right after launch
    ...
    crashes.report()                     # "" when no renderer crashed
"""
from __future__ import annotations

import os
import time

MEMINFO = ("MemAvailable", "Committed_AS", "Shmem")


def machine() -> str:
    """Memory and load now, in one line."""
    with open("/proc/meminfo") as meminfo:
        fields = dict(line.split(":", 1) for line in meminfo)
    memory = ", ".join(f"{name} {int(fields[name].split()[0]) // 1024} MB" for name in MEMINFO if name in fields)
    return f"{memory}, load {os.getloadavg()[0]:.1f}"


class RendererCrashes:
    """Every renderer of `browser` (a Playwright Chromium Browser) that crashed or was killed."""

    def __init__(self, browser):
        self.seen: list[str] = []
        self.session = browser.new_browser_cdp_session()
        self.session.on("Target.targetCrashed", self.crashed)
        self.session.send("Target.setDiscoverTargets", {"discover": True})

    def crashed(self, event: dict):
        self.seen.append(f"{time.strftime('%H:%M:%S')} a renderer ended: status {event.get('status')}, "
                         f"code {event.get('errorCode')}; {machine()}")

    def report(self, since: int = 0) -> str:
        """The crashes after the first `since`, a line each."""
        return "\n".join(self.seen[since:])
