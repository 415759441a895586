#!/usr/bin/env bash
# The demo (`deno task demo`): installs missing Debian packages, starts a headless
# desktop, runs demo/demo.ts against real apps through the driver, stops everything.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash install/linux/deps.sh
DENO="${DENO:-$(command -v deno || true)}"
[ -n "$DENO" ] || { echo "demo: deno not found (npm i -g deno@2.9.6)" >&2; exit 1; }
# The desktop guests have: a window manager over the apps (desktop-session.sh --wm).
exec bash install/linux/desktop-session.sh run --wm openbox -- "$DENO" run --allow-all demo/demo.ts "$@"
