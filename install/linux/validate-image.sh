#!/usr/bin/env bash
# Checks an image before it ships (install/PACKAGING.md): the service is active (when
# systemd runs), `hello` through the allternit-driver-rpc forwarder reports protocol 1 and
# the atspi engine available, and a real read_ui of a running app has at least --min
# elements. Exits 0 with one "validate: ok ..." line, or 1 with one "validate: ..." reason.
#
#   validate-image.sh [--socket PATH] [--app NAME] [--min N] [--no-service-check]
#
#   --socket PATH  the driver's socket (default /run/allternit/driver.sock)
#   --app NAME     read this app (default: the frontmost app with a window)
#   --min N        fewest elements that count as populated (default 5)
#   --no-service-check  the driver was started some other way: do not ask systemd
# Reads the answers with jq, else python3 (ALLTERNIT_VALIDATE_JSON=jq|python3 picks one).
set -euo pipefail

SOCKET=/run/allternit/driver.sock APP="" MIN=5 SERVICE_CHECK=1
fail() { echo "validate: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
  case "$1" in
    --socket) SOCKET="${2:?}"; shift 2 ;;
    --app) APP="${2:?}"; shift 2 ;;
    --min) MIN="${2:?}"; shift 2 ;;
    --no-service-check) SERVICE_CHECK=0; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    *) echo "validate: unknown option \"$1\"" >&2; exit 2 ;;
  esac
done

# --- the service -------------------------------------------------------------------------
if [ "$SERVICE_CHECK" = 0 ]; then
  echo "validate: --no-service-check given; skipped the service check" >&2
  service="service check skipped"
elif [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
  systemctl is-active --quiet allternit-driver.service ||
    fail "allternit-driver.service is not active ($(systemctl is-active allternit-driver.service || true))"
  service="service active"
else
  echo "validate: systemd is not running here; skipped the service check" >&2
  service="service check skipped"
fi

# --- one forwarder session: hello, list_apps, read_ui ------------------------------------
RPC=$(command -v allternit-driver-rpc || echo /usr/local/bin/allternit-driver-rpc)
[ -x "$RPC" ] || fail "allternit-driver-rpc is not installed"
if [ -n "$APP" ]; then
  target=$(printf '{"app":"%s"}' "$(printf '%s' "$APP" | sed 's/[\\"]/\\&/g')")
else
  target='{}'
fi
requests='{"jsonrpc":"2.0","id":1,"method":"hello"}
{"jsonrpc":"2.0","id":2,"method":"list_apps"}
{"jsonrpc":"2.0","id":3,"method":"read_ui","params":'"$target"'}'
set +e
answers=$(printf '%s\n' "$requests" | ALLTERNIT_DRIVER_SOCKET="$SOCKET" timeout 120 "$RPC" 2>/dev/null)
rc=$?
set -e
case $rc in
  0) ;;
  3) fail "no driver answers on $SOCKET" ;;
  124) fail "the driver did not answer within 120 s on $SOCKET" ;;
  *) fail "the forwarder stopped with exit code $rc on $SOCKET" ;;
esac

# --- read the answers: one KEY=value line per fact ---------------------------------------
# shellcheck disable=SC2016 # jq's own $variables, not the shell's
JQ_SUMMARY='
def ans($i): (map(select(.id == $i)) | first) // {error: {message: "no answer"}};
def one: tostring | gsub("[\r\n]"; " ");
def windowed: (.result.apps // []) | map(select((.windows // []) | length > 0));
ans(1) as $h | ans(2) as $l | ans(3) as $r
| (($h.result.engines // []) | map(select(.name == "atspi")) | first) as $e
| "hello_error=\($h.error.message // "" | one)",
  "protocol=\($h.result.protocol // "" | one)",
  "atspi=\(if $e == null then "missing" elif $e.available then "available" else "unavailable" end)",
  "atspi_reason=\($e.reason // "" | one)",
  "apps=\($l | windowed | length)",
  "read_error_code=\($r.error.data.code // "" | one)",
  "read_error=\($r.error.message // "" | one)",
  "read_app=\($r.result.app // "" | one)",
  "elements=\($r.result.elements // [] | length)"'
PY_SUMMARY='
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
def ans(i):
    return next((r for r in rows if r.get("id") == i), {"error": {"message": "no answer"}})
def one(v):
    return "" if v is None else str(v).replace("\r", " ").replace("\n", " ")
h, l, r = ans(1), ans(2), ans(3)
hr, rr, re = h.get("result") or {}, r.get("result") or {}, r.get("error") or {}
e = next((x for x in hr.get("engines") or [] if x.get("name") == "atspi"), None)
print("hello_error=" + one((h.get("error") or {}).get("message")))
print("protocol=" + one(hr.get("protocol")))
print("atspi=" + ("missing" if e is None else "available" if e.get("available") else "unavailable"))
print("atspi_reason=" + one((e or {}).get("reason")))
print("apps=%d" % sum(1 for a in (l.get("result") or {}).get("apps") or [] if a.get("windows")))
print("read_error_code=" + one((re.get("data") or {}).get("code")))
print("read_error=" + one(re.get("message")))
print("read_app=" + one(rr.get("app")))
print("elements=%d" % len(rr.get("elements") or []))'
tool=${ALLTERNIT_VALIDATE_JSON:-}
if [ -z "$tool" ]; then
  if command -v jq >/dev/null; then tool=jq; elif command -v python3 >/dev/null; then tool=python3; fi
fi
case "$tool" in
  jq) summary=$(printf '%s\n' "$answers" | jq -rs "$JQ_SUMMARY") ;;
  python3) summary=$(printf '%s\n' "$answers" | python3 -c "$PY_SUMMARY") ;;
  *) fail "needs jq or python3 to read the driver's answers" ;;
esac
declare -A fact
while IFS= read -r line; do fact[${line%%=*}]=${line#*=}; done <<<"$summary"

# --- judge -------------------------------------------------------------------------------
[ -z "${fact[hello_error]}" ] || fail "hello failed: ${fact[hello_error]}"
[ "${fact[protocol]}" = 1 ] || fail "hello reports protocol \"${fact[protocol]}\", expected 1"
case "${fact[atspi]}" in
  available) ;;
  missing) fail "hello lists no atspi engine" ;;
  *) fail "the atspi engine is not available: ${fact[atspi_reason]:-no reason given}" ;;
esac
if [ -z "$APP" ] && [ "${fact[apps]}" = 0 ]; then fail "no app is running"; fi
case "${fact[read_error_code]}" in
  "") ;;
  app_not_running) fail "$APP is not running" ;;
  *) fail "read_ui of ${APP:-the frontmost app} failed: ${fact[read_error_code]}: ${fact[read_error]}" ;;
esac
name=${fact[read_app]:-${APP:-the frontmost app}}
[ "${fact[elements]}" -ge "$MIN" ] ||
  fail "read_ui of $name returned ${fact[elements]} elements (fewer than $MIN)"
echo "validate: ok: $service, protocol 1, atspi available, read_ui of $name returned ${fact[elements]} elements"
