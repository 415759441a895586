#!/usr/bin/env bash
# The Windows engine's tests with Windows Deno under Wine 10 (issue 23): the unit tests of
# ffi/windows and engines/uia (COM layer, UIA session, input planner, capture), then the
# integration tests against real Win32 windows (tests/wine/*.wine.ts: Notepad, a MessageBox).
#
# Needs a display (DISPLAY, as inside install/linux/desktop-session.sh) and root; builds the
# Wine environment first (tests/wine/env.sh, cached between runs). Extra args go to deno test.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -n "${DISPLAY:-}" ] || { echo "wine-tests: no DISPLAY (run inside desktop-session.sh)" >&2; exit 1; }
bash tests/wine/env.sh build
# The prefix's crash handler would wait on a debugger forever: a crash must fail the run.
# Each run also starts with no Wine process left from the last.
bash tests/wine/env.sh run -- bash -c '
  set -uo pipefail
  wineserver -k 2>/dev/null || true
  key="HKLM\\Software\\Microsoft\\Windows NT\\CurrentVersion\\AeDebug"
  wine reg add "$key" /v Auto /d 0 /f >/dev/null 2>&1
  wine reg add "$key" /v Debugger /d "" /f >/dev/null 2>&1
  # Under a wall-clock limit: a hung Wine process must not hold CI.
  timeout 600 wine /opt/deno/deno.exe test --allow-all --no-check \
    ffi/windows engines/uia tests/wine/win32_apps.wine.ts "$@"
  rc=$?
  wineserver -k 2>/dev/null || true
  # deno.exe leaves a copy of itself per DENO_DIR under node_compat_bin; 97 MB each run when
  # the copy cannot be a hard link.
  rm -rf /wine/deno-dir/node_compat_bin
  exit $rc
' bash "$@"
