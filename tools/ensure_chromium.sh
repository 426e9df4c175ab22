#!/bin/sh
# The browser tests drive Debian's Chromium (Playwright cannot download its own
# browser here). Install it when missing and we are root; otherwise say how.
set -eu
browser="${CHROMIUM:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
  exit 0
fi
cat >&2 <<MSG
The browser tests need Chromium at $browser and it is missing.
  Debian/Ubuntu:  sudo apt-get install chromium   (then run the tests again)
  Elsewhere:      set CHROMIUM=/path/to/chromium-or-chrome and run the tests again.
MSG
exit 1
