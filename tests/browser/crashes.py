"""How a Chromium renderer ended, for a test that failed with Playwright's bare "Target crashed".

Chromium says it on its DevTools protocol (Target.targetCrashed): `status` ("crashed", "killed",
"oom") and `errorCode` (a signal: 9 is a SIGKILL, from the kernel's OOM killer or another
process; 5, SIGTRAP, a CHECK or V8's own out-of-memory; 11 a segfault). The machine's memory and
load at that moment are kept beside it: the crash seen while five phones booted (issue 31) was
never reproduced, so the next one has to say why by itself. Nothing here retries anything.

A renderer that crashed also says where: browsers are launched after `keep_cores()`, so the
kernel writes a crashed renderer's core to our working directory (kernel.core_pattern is "core" on
these machines), and a test that failed by a crash gets the crashed thread's frames from it
(conftest.py), each as library+offset (Debian's chromium has no symbols; an address in no file is
code V8 compiled: JavaScript or wasm).

    keep_cores()                         # before launching a browser
    crashes = RendererCrashes(browser)   # right after launch
    ...
    crashes.report()                     # "" when no renderer crashed
    where_it_crashed()                   # the frames of the core left, which is then removed
"""
from __future__ import annotations

import os
import re
import resource
import subprocess
import time
from pathlib import Path

MEMINFO = ("MemAvailable", "Committed_AS", "Shmem")
CORE = Path("core")
RENDERER = "/usr/lib/chromium/chromium"
FRAMES = 12
STACK_WORDS = 2048  # 16 KB above the crashed stack pointer
CALLERS = 24
SAID = 40


def keep_cores():
    """Let this process's children (the browser and its renderers) leave a core file when they crash."""
    resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


def settled(path: Path, quiet_s: float = 1.0, within_s: float = 10.0) -> bool:
    """Whether `path` exists and stopped growing (the kernel may still be writing a core)."""
    deadline, size = time.monotonic() + within_s, -1
    while time.monotonic() < deadline:
        now = path.stat().st_size if path.exists() else -1
        if now == size and now > 0:
            return True
        size = now
        time.sleep(quiet_s)
    return False


def mapped_files(gdb_output: str) -> list[tuple[int, int, int, str]]:
    """`info proc mappings` in `gdb_output`: (start, end, file offset, file) for each file mapped."""
    return [(int(start, 16), int(end, 16), int(offset, 16), name.strip())
            for start, end, _, offset, name in re.findall(
                r"^\s*(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+(\S.*)$", gdb_output, re.M)]


def frames(gdb_output: str) -> list[str]:
    """The backtrace in `gdb_output` (bt, then info proc mappings), each address as file+offset."""
    mappings = mapped_files(gdb_output)

    def where(address: int) -> str:
        for start, end, offset, name in mappings:
            if start <= address < end:
                return f"{Path(name).name}+{address - start + offset:#x}"
        return "in no file: code V8 compiled (JavaScript or wasm), or past the frames gdb can walk"

    found = {}  # gdb names the crashed frame once before the backtrace too
    for number, address, symbol in re.findall(r"^#(\d+)\s+(?:(0x[0-9a-f]+) in )?(\S+)", gdb_output, re.M):
        place = symbol if symbol != "??" else where(int(address, 16))
        found.setdefault(number, f"#{number} {address + ' ' if address else ''}{place}")
    return list(found.values())


def executable_file_offsets() -> range:
    """The file offsets of chromium's machine code (its one executable LOAD segment)."""
    segments = subprocess.run(["readelf", "-lW", RENDERER], capture_output=True, text=True).stdout
    offset, size = re.search(r"^\s*LOAD\s+(0x[0-9a-f]+)\s+\S+\s+\S+\s+(0x[0-9a-f]+)\s+\S+\s+R E\s", segments, re.M).groups()
    return range(int(offset, 16), int(offset, 16) + int(size, 16))


def callers_on_the_stack(gdb_output: str) -> list[str]:
    """Which stack the crashed thread was on, and the addresses into Chromium's code found on it
    (return addresses, nearest first), for when gdb's backtrace stops at code V8 compiled: Debian's
    chromium has no symbols, and these name the C++ callers to look up in its machine code."""
    mappings = mapped_files(gdb_output)
    pointer = re.search(r"^\$1 = (0x[0-9a-f]+)$", gdb_output, re.M)
    if not pointer:
        return ["its stack pointer could not be read"]
    sp = int(pointer.group(1), 16)
    stack = next((name for start, end, _, name in mappings if start <= sp < end),
                 "no file's memory (a thread's own stack, or one V8 allocated for wasm)")
    code = [(start, end, offset) for start, end, offset, name in mappings if name == RENDERER]
    machine_code = executable_file_offsets()
    found = []
    for word in re.findall(r"0x[0-9a-f]{16}", "\n".join(
            line.split(":", 1)[1] for line in gdb_output.splitlines() if re.match(r"^0x[0-9a-f]+.*:\s", line))):
        value = int(word, 16)
        for start, end, offset in code:
            where = value - start + offset
            if start <= value < end and where in machine_code and (place := f"chromium+{where:#x}") not in found:
                found.append(place)
    return [f"its stack pointer {sp:#x} is in {stack}",
            f"addresses into chromium on that stack: {', '.join(found[:CALLERS]) or 'none'}"]


def where_it_crashed(core: Path = CORE) -> str:
    """The crashed thread's frames from a renderer's core in our working directory, then the core is
    removed; or why there are none."""
    pattern = Path("/proc/sys/kernel/core_pattern").read_text().strip()
    if not settled(core):
        return f"no core file in {Path.cwd()} (kernel.core_pattern {pattern!r}, core limit " \
               f"{resource.getrlimit(resource.RLIMIT_CORE)[0]})"
    try:
        gdb = subprocess.run(["gdb", "-q", "-batch", "-ex", f"bt {FRAMES}", "-ex", "info proc mappings",
                              "-ex", "p/x $sp", "-ex", f"x/{STACK_WORDS}gx $sp",
                              RENDERER, str(core)], capture_output=True, text=True, timeout=120)
        signal = re.search(r"^Program terminated with (.*)$", gdb.stdout, re.M)
        return "\n".join([f"its core: {signal.group(1) if signal else 'no signal named'}", *frames(gdb.stdout),
                          *callers_on_the_stack(gdb.stdout)])
    except (OSError, subprocess.TimeoutExpired) as failed:
        return f"its core could not be read: {failed}"
    finally:
        core.unlink(missing_ok=True)


def browser_said(captured: str) -> str:
    """From a test's captured stderr (Playwright's DEBUG=pw:browser log), the lines a browser wrote
    that say why a process died: V8's fatal errors and failed checks, Chromium's FATAL logs."""
    dying = re.compile(r"Fatal|[Cc]heck failed|FATAL|Received signal|[Oo]ut of memory|Failure|Trace/breakpoint")
    lines = [line.split("[err]", 1)[1].strip() for line in captured.splitlines()
             if "[err]" in line and dying.search(line)]
    return "\n".join(lines[-SAID:]) or "nothing about a fatal error"


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
