#!/usr/bin/env bash
# Every test: unit tests and integration tests against real apps on a headless desktop.
# Installs missing Debian packages first (install/linux/deps.sh), then runs `deno test`
# inside one headless session (install/linux/desktop-session.sh), the desktop tests again in
# a session with a window manager, then the Windows engine's tests with Windows Deno under
# Wine 10 in another (tests/wine/run.sh). Extra args go to
# deno test and narrow the run to what they name: the Wine part runs only without them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash install/linux/deps.sh
DENO="${DENO:-$(command -v deno || true)}"
[ -n "$DENO" ] || { echo "tests: deno not found (npm i -g deno@2.9.6)" >&2; exit 1; }
export ALLTERNIT_CHECK_RESULTS=1
# What runs a second time under a window manager (see below).
WM_TESTS=(tests/real_desktop_test.ts tests/toolkit_matrix_test.ts tests/vision_stacking_test.ts
  tests/x_apps_test.ts tests/wm_bounds_test.ts tests/modal_web_office_test.ts tests/focus_test.ts
  tests/keys_families_test.ts tests/modal_native_test.ts tests/zoo_gtk3_test.ts tests/zoo_gtk4_test.ts
  tests/zoo_qt_test.ts tests/zoo_tk_test.ts tests/zoo_web_test.ts tests/window_ops_test.ts
  tests/app_control_test.ts tests/clipboard_ops_test.ts)
rc=0
bash install/linux/desktop-session.sh run --wm none -- "$DENO" test --allow-all "$@" || rc=$?
if [ $# -eq 0 ]; then
  # Guest desktops have a window manager; containers do not. The tests of whole desktops
  # (focus, stacking, dialogs, placement) and the toolkit matrix run again with one.
  echo "tests: again with a window manager (desktop-session.sh --wm openbox)"
  bash install/linux/desktop-session.sh run --wm openbox -- "$DENO" test --allow-all \
    "${WM_TESTS[@]}" || rc=$?
  echo "tests: the Windows engine under Wine 10 (tests/wine/run.sh)"
  bash install/linux/desktop-session.sh run -- bash tests/wine/run.sh || rc=$?
fi
exit "$rc"
