"""A private network for tests that open WebRTC: a command run inside `unshare -n`, in a
network namespace of its own with a veth pair, two addresses and a default route.

Why: Chromium gathers no ICE candidate on loopback alone, and outside a namespace it would
send mDNS multicast on this machine's real network. Inside, the only interfaces are `lo`
and the veth pair (both ends in the namespace), so every packet stays in it. Needs root
(CI runs as root); `unavailable()` says in a sentence why not, for pytest.skip.

    result = netns.run([sys.executable, "script.py"], timeout=120)
    netns.require_isolated()  # first thing inside: refuses to go on anywhere else
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARK = "TABLESIDE_NETNS"  # set inside; the namespace itself is checked by isolated()
INTERFACES = {"lo", "veth0", "veth1"}
ADDRESSES = ("10.77.0.2", "10.77.0.3")  # private: a code never names an address on the internet
IPV6_ADDRESSES = ("fd77::2", "fd77::3")  # unique local, so IPv6 candidates are gathered too
SETUP = f"""set -e
ip link set lo up
ip link add veth0 type veth peer name veth1
ip addr add {ADDRESSES[0]}/24 dev veth0
ip addr add {ADDRESSES[1]}/24 dev veth1
ip -6 addr add {IPV6_ADDRESSES[0]}/64 dev veth0 nodad 2>/dev/null || true
ip -6 addr add {IPV6_ADDRESSES[1]}/64 dev veth1 nodad 2>/dev/null || true
# No link-local addresses: theirs would leave "tentative" a second or two after the links
# come up, and Chromium takes that change of address for a new network and fails every
# request in flight with net::ERR_NETWORK_CHANGED.
ip link set veth0 addrgenmode none 2>/dev/null || true
ip link set veth1 addrgenmode none 2>/dev/null || true
ip link set veth0 up
ip link set veth1 up
# Without a default route Chromium offers no candidate unless the camera is open.
ip route add default via 10.77.0.1 dev veth0 onlink
ip -6 route add default via fd77::1 dev veth0 onlink 2>/dev/null || true
exec "$@"
"""


def unavailable() -> str | None:
    """Why a private network namespace cannot be made here, or None when it can."""
    if not sys.platform.startswith("linux"):
        return "WebRTC tests need a Linux network namespace, and this is not Linux."
    if os.geteuid() != 0:
        return "WebRTC tests run only as root (as in CI): they need a private network namespace (unshare -n)."
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            return f"WebRTC tests need `{tool}` (Debian: util-linux and iproute2) for a private network namespace."
    probe = subprocess.run(["unshare", "-n", "sh", "-c", SETUP, "sh", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        return f"A private network namespace could not be made here: {probe.stderr.strip() or probe.returncode}."
    return None


def run(argv: list[str], timeout: float, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run argv in a new network namespace and wait for it; stdout and stderr are captured as
    text. On timeout the whole process group is killed and TimeoutExpired raised."""
    process = subprocess.Popen(["unshare", "-n", "sh", "-c", SETUP, "sh", *argv], cwd=ROOT,
                               env={**os.environ, **(env or {}), MARK: "1"}, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)  # its own group: a timeout ends every browser in it
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        raise subprocess.TimeoutExpired(argv, timeout, out, err) from None
    return subprocess.CompletedProcess(argv, process.returncode, out, err)


def run_pytest(paths: list[str], timeout: float, *options: str) -> subprocess.CompletedProcess:
    """pytest on `paths` (files that call require_isolated()) inside a new namespace."""
    return run([sys.executable, "-m", "pytest", *paths, "-p", "no:cacheprovider", "-q", "-s", *options],
               timeout=timeout)


def interfaces() -> set[str]:
    """The network interfaces of this process's namespace (/proc/net follows the namespace;
    /sys/class/net would show the host's, as sysfs was mounted outside)."""
    lines = Path("/proc/self/net/dev").read_text().splitlines()[2:]
    return {line.split(":", 1)[0].strip() for line in lines}


def isolated() -> bool:
    """True inside a namespace made by run(): only lo and the veth pair exist."""
    return os.environ.get(MARK) == "1" and interfaces() == INTERFACES


def require_isolated() -> None:
    """Stop at once anywhere but inside run()'s namespace: a WebRTC page would reach the real network."""
    if not isolated():
        raise SystemExit(f"Refusing to open WebRTC outside a private network namespace (interfaces: "
                         f"{sorted(interfaces())}); run it through tests/browser/netns.py.")
