#!/usr/bin/env bash
# Every test: unit tests and integration tests against real apps on a headless desktop.
# Installs missing Debian packages first (install/linux/deps.sh), then runs `deno test`
# inside one headless session (install/linux/desktop-session.sh). Extra args go to deno test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash install/linux/deps.sh
DENO="${DENO:-$(command -v deno || true)}"
[ -n "$DENO" ] || { echo "tests: deno not found (npm i -g deno@2.9.6)" >&2; exit 1; }
export ALLTERNIT_CHECK_RESULTS=1
exec bash install/linux/desktop-session.sh run -- "$DENO" test --allow-all "$@"
