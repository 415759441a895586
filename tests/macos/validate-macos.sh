#!/usr/bin/env bash
# Validates the AX engine on a real Mac (issue 11). Written on Linux and NEVER RUN ON A MAC
# by its authors: this script is how a Mac owner finds out whether the engine works.
#
# Checks, through the CLI (`deno run -A main.ts ...`) against one `serve` process:
#   1. hello: the "ax" engine is listed and available (else: how to grant Accessibility)
#   2. read_ui of TextEdit and of Calculator: populated maps with the expected roles
#   3. the Calculator batch 7 + 8 = (run_batch by element id): the display shows 15
#   4. the design document's E4 live-map checks:
#      a. pixel_click on Calculator's "8" after "7": the next read_ui with `since` already
#         has the new version and the display's new value (78)
#      b. pixel_type_text into TextEdit: the next read_ui with `since` has the new text
#      c. act with the version from before the click: refused with stale_version + map
#      d. idle CPU of the driver over 30 s while it watches the windows
#      e. Calculator quit: read_ui says app_not_running; after relaunch it reads again
#
# Usage: bash tests/macos/validate-macos.sh        (from anywhere; needs deno 2.x)
# Env:   DENO (default: deno), OUT (default: a temp folder kept for the logs),
#        IDLE_SECONDS (default 30).
# Exit:  0 all checks passed, 1 a check failed, 2 not runnable here (not macOS, no
#        Accessibility permission, no deno).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

DENO="${DENO:-deno}"
OUT="${OUT:-$(mktemp -d -t allternit-ax-validate)}"
IDLE_SECONDS="${IDLE_SECONDS:-30}"
DATA="$OUT/data"
SOCK="$DATA/computer-use/allternit-driver.sock"
PASS=0
FAIL=0
SERVE_PID=""

say() { printf '%s\n' "$*"; }
ok() { PASS=$((PASS + 1)); say "  ok    $*"; }
bad() { FAIL=$((FAIL + 1)); say "  FAIL  $*"; }

[ "$(uname -s)" = "Darwin" ] || { say "This script validates the macOS engine: run it on a Mac." >&2; exit 2; }
command -v "$DENO" >/dev/null || { say "deno not found (install Deno 2, or set DENO)." >&2; exit 2; }

# jget FILE EXPR: evaluates a JavaScript expression over the JSON in FILE (as `d`).
jget() {
  FILE="$1" EXPR="$2" "$DENO" eval --quiet '
    const d = JSON.parse(Deno.readTextFileSync(Deno.env.get("FILE")));
    const r = new Function("d", "return (" + Deno.env.get("EXPR") + ");")(d);
    console.log(typeof r === "string" ? r : JSON.stringify(r ?? null));'
}

# call NAME OP [PARAMS]: runs one op on the running driver; result in $OUT/NAME.json, an
# error in $OUT/NAME.err.json; returns the CLI's exit code.
call() {
  local name="$1" op="$2" params="${3:-}"
  "$DENO" run -A main.ts call "$op" "$params" --socket "$SOCK" \
    >"$OUT/$name.json" 2>"$OUT/$name.err.json"
}

# error_code NAME: the driver's error code of a failed call.
error_code() { jget "$OUT/$1.err.json" 'd.error && d.error.data && d.error.data.code'; }

stop_serve() {
  [ -n "$SERVE_PID" ] || return 0
  kill -TERM "$SERVE_PID" 2>/dev/null
  wait "$SERVE_PID" 2>/dev/null
  SERVE_PID=""
}
trap stop_serve EXIT

say "Logs and answers: $OUT"

# --- 1. hello ------------------------------------------------------------------------
say "1. hello"
"$DENO" run -A main.ts hello >"$OUT/hello.json" 2>"$OUT/hello.err.json" || true
AX=$(jget "$OUT/hello.json" 'd.engines && d.engines.find((e) => e.name === "ax")')
if [ "$AX" = "null" ] || [ -z "$AX" ]; then
  bad "hello lists no \"ax\" engine (see $OUT/hello.json, $OUT/hello.err.json)"
  exit 1
fi
if [ "$(jget "$OUT/hello.json" 'd.engines.find((e) => e.name === "ax").available')" != "true" ]; then
  REASON=$(jget "$OUT/hello.json" 'd.engines.find((e) => e.name === "ax").reason')
  bad "ax engine unavailable: $REASON"
  if [ "$REASON" = "accessibility_not_trusted" ]; then
    say "  Grant Accessibility to the app running this script (Terminal, iTerm, ...):"
    say "  System Settings > Privacy & Security > Accessibility, then run it again."
  fi
  exit 2
fi
ok "hello: ax available"

# --- serve ---------------------------------------------------------------------------
mkdir -p "$DATA"
"$DENO" run -A main.ts serve --data-dir "$DATA" >"$OUT/serve.out" 2>"$OUT/serve.log" &
SERVE_PID=$!
for _ in $(seq 1 100); do
  grep -q '"ready":true' "$OUT/serve.out" 2>/dev/null && break
  sleep 0.1
done
grep -q '"ready":true' "$OUT/serve.out" || { bad "serve did not start (see $OUT/serve.log)"; exit 1; }
ok "serve ready (pid $SERVE_PID)"

# wait_app NAME: polls list_apps (10 s) until NAME has a window; prints its window id.
wait_app() {
  local app="$1"
  for _ in $(seq 1 50); do
    if call apps list_apps; then
      local w
      w=$(jget "$OUT/apps.json" "(d.apps.find((a) => a.name === \"$app\" && a.windows.length) || {windows: [{}]}).windows[0].window || \"\"")
      [ -n "$w" ] && { printf '%s' "$w"; return 0; }
    fi
    sleep 0.2
  done
  return 1
}

open -a TextEdit
osascript -e 'tell application "TextEdit" to make new document' >/dev/null 2>&1
open -a Calculator
TE_WIN=$(wait_app TextEdit) || { bad "TextEdit shows no window"; exit 1; }
CALC_WIN=$(wait_app Calculator) || { bad "Calculator shows no window"; exit 1; }

# --- 2. read_ui ----------------------------------------------------------------------
say "2. read_ui"
if call te_read read_ui "{\"window\":\"$TE_WIN\"}"; then
  N=$(jget "$OUT/te_read.json" 'd.elements.length')
  AREA=$(jget "$OUT/te_read.json" 'd.elements.some((e) => e.role === "AXTextArea")')
  if [ "$AREA" = "true" ]; then
    ok "TextEdit: $N elements, a text area ($(jget "$OUT/te_read.json" 'd.ms') ms)"
  else
    bad "TextEdit: $N elements but no AXTextArea"
  fi
else
  bad "read_ui TextEdit: $(error_code te_read)"
fi
if call calc_read read_ui "{\"window\":\"$CALC_WIN\"}"; then
  N=$(jget "$OUT/calc_read.json" 'd.elements.length')
  BUTTONS=$(jget "$OUT/calc_read.json" 'd.elements.filter((e) => e.role === "AXButton").length')
  if [ "${BUTTONS:-0}" -ge 15 ] 2>/dev/null; then
    ok "Calculator: $N elements, $BUTTONS buttons"
  else
    bad "Calculator: only $BUTTONS buttons"
  fi
else
  bad "read_ui Calculator: $(error_code calc_read)"
fi

# key_id NAMES...: the id of the first Calculator button named one of NAMES (names vary
# between macOS versions: "+" or "Add", "=" or "Equals", "AC" or "All Clear" ...).
key_id() {
  local names
  names=$(printf '"%s",' "$@")
  jget "$OUT/calc_read.json" "(d.elements.find((e) => e.role === \"AXButton\" && [${names%,}].includes(e.name)) || {}).id || \"\""
}
key_centre() {
  jget "$OUT/calc_read.json" "((e) => e && ({x: e.bounds.x + e.bounds.w / 2, y: e.bounds.y + e.bounds.h / 2}))(d.elements.find((e) => e.id === \"$1\"))"
}
display_value() {
  jget "$1" '((d.changed || d.elements || []).concat(d.added || [])).filter((e) => e.role === "AXStaticText" && /^[0-9.,\s−-]+$/.test(e.value || e.name)).map((e) => e.value || e.name).join("|")'
}

CLEAR=$(key_id AC C "All Clear" Clear "clear")
K7=$(key_id 7 seven Seven)
K8=$(key_id 8 eight Eight)
PLUS=$(key_id + Add add plus)
EQUALS=$(key_id "=" Equals equals)

# --- 3. the Calculator batch ---------------------------------------------------------
say "3. Calculator batch 7 + 8 ="
if [ -z "$K7" ] || [ -z "$K8" ] || [ -z "$PLUS" ] || [ -z "$EQUALS" ]; then
  bad "cannot find the keys 7 8 + = by name (see $OUT/calc_read.json)"
else
  V=$(jget "$OUT/calc_read.json" 'd.version')
  STEPS="{\"id\":\"$K7\",\"action\":\"press\"},{\"id\":\"$PLUS\",\"action\":\"press\"},{\"id\":\"$K8\",\"action\":\"press\"},{\"id\":\"$EQUALS\",\"action\":\"press\"}"
  [ -n "$CLEAR" ] && STEPS="{\"id\":\"$CLEAR\",\"action\":\"press\"},$STEPS"
  if call batch run_batch "{\"window\":\"$CALC_WIN\",\"version\":$V,\"steps\":[$STEPS]}"; then
    SETTLED=$(jget "$OUT/batch.json" 'd.results.map((r) => r.settled + "/" + Math.round(r.ms)).join(" ")')
    call after_batch read_ui "{\"window\":\"$CALC_WIN\",\"since\":$V}"
    SHOWN=$(display_value "$OUT/after_batch.json")
    case "$SHOWN" in *15*) ok "batch settled [$SETTLED], display 15";; *) bad "batch ran [$SETTLED] but the display reads \"$SHOWN\"";; esac
  else
    bad "run_batch: $(error_code batch)"
  fi
fi

# --- 4a. E4: a click outside the driver -----------------------------------------------
say "4. E4 live-map checks"
if [ -n "$K7" ] && [ -n "$K8" ]; then
  call calc_read read_ui "{\"window\":\"$CALC_WIN\"}"
  V=$(jget "$OUT/calc_read.json" 'd.version')
  [ -n "$CLEAR" ] && call c1 act "{\"window\":\"$CALC_WIN\",\"version\":$V,\"id\":\"$CLEAR\",\"action\":\"press\"}"
  call calc_read read_ui "{\"window\":\"$CALC_WIN\"}"
  V=$(jget "$OUT/calc_read.json" 'd.version')
  call c2 act "{\"window\":\"$CALC_WIN\",\"version\":$V,\"id\":\"$K7\",\"action\":\"press\"}"
  BEFORE=$(jget "$OUT/c2.json" 'd.version')
  osascript -e 'tell application "Calculator" to activate' >/dev/null 2>&1
  P=$(key_centre "$K8")
  call click pixel_click "$P"
  call since read_ui "{\"window\":\"$CALC_WIN\",\"since\":$BEFORE}"
  AFTER=$(jget "$OUT/since.json" 'd.version')
  SHOWN=$(display_value "$OUT/since.json")
  case "$SHOWN" in
    *78*) ok "pixel_click 8: version $BEFORE -> $AFTER, display 78 (read_ui $(jget "$OUT/since.json" 'd.ms') ms, cached $(jget "$OUT/since.json" 'd.cached'))";;
    *) bad "pixel_click 8: version $BEFORE -> $AFTER, display reads \"$SHOWN\"";;
  esac
  # --- 4c. stale version ---
  if call stale act "{\"window\":\"$CALC_WIN\",\"version\":$BEFORE,\"id\":\"$K7\",\"action\":\"press\"}"; then
    bad "act on version $BEFORE after the click was not refused"
  else
    CODE=$(error_code stale)
    HAS_MAP=$(jget "$OUT/stale.err.json" 'Array.isArray(d.error.data.map && d.error.data.map.elements)')
    if [ "$CODE" = "stale_version" ] && [ "$HAS_MAP" = "true" ]; then
      ok "stale act refused with stale_version and the current map"
    else
      bad "stale act answered $CODE (map: $HAS_MAP)"
    fi
  fi
fi

# --- 4b. typing outside the driver ---
call te_read read_ui "{\"window\":\"$TE_WIN\"}"
V=$(jget "$OUT/te_read.json" 'd.version')
AREA=$(jget "$OUT/te_read.json" '(d.elements.find((e) => e.role === "AXTextArea") || {}).id || ""')
if [ -n "$AREA" ]; then
  osascript -e 'tell application "TextEdit" to activate' >/dev/null 2>&1
  call focus act "{\"window\":\"$TE_WIN\",\"version\":$V,\"id\":\"$AREA\",\"action\":\"focus\"}"
  V=$(jget "$OUT/focus.json" 'd.version')
  call typed pixel_type_text '{"text":"typed by validate-macos"}'
  call te_since read_ui "{\"window\":\"$TE_WIN\",\"since\":$V}"
  GOT=$(jget "$OUT/te_since.json" '((d.changed || []).find((e) => e.role === "AXTextArea") || {}).value || ""')
  case "$GOT" in
    *"typed by validate-macos"*) ok "pixel_type_text: the text area's new value is in the diff (read_ui $(jget "$OUT/te_since.json" 'd.ms') ms)";;
    *) bad "pixel_type_text: the diff has no new text (see $OUT/te_since.json)";;
  esac
else
  bad "TextEdit has no text area to type into"
fi

# --- 4d. idle CPU ---
cpu_seconds() { ps -o time= -p "$SERVE_PID" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }'; }
T0=$(cpu_seconds)
sleep "$IDLE_SECONDS"
T1=$(cpu_seconds)
PCT=$(awk -v a="$T0" -v b="$T1" -v s="$IDLE_SECONDS" 'BEGIN { printf "%.2f", (b - a) * 100 / s }')
if awk -v p="$PCT" 'BEGIN { exit !(p < 1.0) }'; then
  ok "idle: $PCT % CPU over $IDLE_SECONDS s (design document: 0.2-0.4 %)"
else
  bad "idle: $PCT % CPU over $IDLE_SECONDS s (design document: 0.2-0.4 %)"
fi

# --- 4e. quit and relaunch ---
osascript -e 'quit app "Calculator"' >/dev/null 2>&1
GONE=""
for _ in $(seq 1 50); do
  if ! call quit_read read_ui '{"app":"Calculator"}'; then
    CODE=$(error_code quit_read)
    [ "$CODE" = "app_not_running" ] && { GONE=yes; break; }
  fi
  sleep 0.1
done
if [ -n "$GONE" ]; then
  ok "after quit: read_ui answers app_not_running"
else
  bad "after quit: no app_not_running within 5 s"
fi
open -a Calculator
CALC_WIN=$(wait_app Calculator) || bad "Calculator did not come back"
if [ -n "$CALC_WIN" ] && call relaunch read_ui '{"app":"Calculator"}' && call reread read_ui '{"app":"Calculator"}'; then
  ok "after relaunch: first read $(jget "$OUT/relaunch.json" 'd.ms') ms, re-read $(jget "$OUT/reread.json" 'd.ms') ms (cached $(jget "$OUT/reread.json" 'd.cached'))"
else
  bad "after relaunch: read_ui failed: $(error_code relaunch)"
fi
if kill -0 "$SERVE_PID" 2>/dev/null; then
  ok "the driver kept running"
else
  bad "the driver exited (see $OUT/serve.log)"
fi

stop_serve
say ""
say "passed $PASS, failed $FAIL  (answers and logs in $OUT)"
[ "$FAIL" -eq 0 ]
