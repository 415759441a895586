#!/usr/bin/env bash
# Every test: unit tests and integration tests against real apps on a headless desktop.
# Installs missing Debian packages first (install/linux/deps.sh), then runs `deno test`
# inside one headless session (install/linux/desktop-session.sh), then the Windows engine's
# tests with Windows Deno under Wine 10 in another (tests/wine/run.sh). Extra args go to
# deno test and narrow the run to what they name: the Wine part runs only without them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash install/linux/deps.sh
DENO="${DENO:-$(command -v deno || true)}"
[ -n "$DENO" ] || { echo "tests: deno not found (npm i -g deno@2.9.6)" >&2; exit 1; }
export ALLTERNIT_CHECK_RESULTS=1
rc=0
bash install/linux/desktop-session.sh run -- "$DENO" test --allow-all "$@" || rc=$?
if [ $# -eq 0 ]; then
  echo "tests: the Windows engine under Wine 10 (tests/wine/run.sh)"
  bash install/linux/desktop-session.sh run -- bash tests/wine/run.sh || rc=$?
fi
exit "$rc"
