#!/usr/bin/env bash
# `deno task bench`: every benchmark inside one headless desktop session.
set -euo pipefail
cd "$(dirname "$0")/.."
bash install/linux/deps.sh
DENO="${DENO:-$(command -v deno || true)}"
[ -n "$DENO" ] || { echo "bench: deno not found (npm i -g deno@2.9.6)" >&2; exit 1; }
exec bash install/linux/desktop-session.sh run -- "$DENO" run --allow-all bench/run.ts "$@"
