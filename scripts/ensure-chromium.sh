#!/usr/bin/env bash
# The webchat's browser tests drive Debian's Chromium through playwright-core (never a browser
# download). Install it when it is missing and this machine can.
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "Installing Debian chromium for the browser tests…" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "error: the browser tests need Chromium at $browser; install it with: sudo apt-get install -y chromium" >&2
exit 1
