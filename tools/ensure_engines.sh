#!/bin/sh
# Beside Chromium (ensure_chromium.sh), the browser tests run in WebKitGTK (Safari's
# engine, driven through PyGObject on a virtual X display) and Firefox ESR (through
# WebDriver BiDi with puppeteer-core from npm). All come from Debian's packages: nothing
# downloads a browser build. Install what is missing when we are root; otherwise say how.
set -eu
firefox="${FIREFOX:-/usr/bin/firefox-esr}"
# WebKit2 4.1 through Debian's python3 (with cairo for screenshots), Xvfb for its windows,
# xdotool for real clicks through the X server.
packages="gir1.2-webkit2-4.1 python3-gi python3-gi-cairo xvfb xdotool firefox-esr"
missing=""
/usr/bin/python3 -c 'import gi; gi.require_version("WebKit2", "4.1"); gi.require_foreign("cairo"); from gi.repository import WebKit2' \
  >/dev/null 2>&1 || missing="yes"
for tool in Xvfb xdotool; do command -v "$tool" >/dev/null 2>&1 || missing="yes"; done
[ -x "$firefox" ] || missing="yes"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing WebKitGTK, Firefox ESR and Xvfb for the browser tests…"
  apt-get update -qq
  # Without recommended packages, as the tests were run with.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages >/dev/null
  exit 0
fi
cat >&2 <<MSG
The browser tests also run in WebKitGTK and Firefox ESR, and something is missing.
  Debian/Ubuntu:  sudo apt-get install --no-install-recommends $packages
                  (then run the tests again)
  Firefox elsewhere: set FIREFOX=/path/to/firefox and run the tests again.
MSG
exit 1
