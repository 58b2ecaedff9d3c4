#!/usr/bin/env bash
# The gateway's several-gateways test and the state layer's second backend start a throwaway
# PostgreSQL server themselves (initdb on a temp dir, a loopback port). They need the server
# binaries: Debian's postgresql package. Install it when it is missing and this machine can.
set -euo pipefail
have() {
  [ -n "${PG_BIN:-}" ] && [ -x "$PG_BIN/initdb" ] && return 0
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && return 0
  command -v initdb >/dev/null 2>&1
}
have && exit 0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "Installing Debian postgresql for the state layer's tests…" >&2
  apt-get update -qq
  # Only the binaries: the package's own cluster is not started or used.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  exit 0
fi
echo "error: the PostgreSQL tests need the server binaries (initdb, postgres); install them with: sudo apt-get install -y postgresql" >&2
exit 1
