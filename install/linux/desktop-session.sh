#!/usr/bin/env bash
# A headless Linux desktop with a live accessibility bus (shared/design/headless-desktop.md).
#
#   desktop-session.sh run [--wm openbox|none] -- CMD...   start the session, run CMD inside it,
#                                                          stop, exit with CMD's code
#   desktop-session.sh start [--wm openbox|none]           start and print `export` lines for the
#                                                          session's environment
#   desktop-session.sh stop                                stop what `start` started ($STATE/pids)
#
# --wm (or ALLTERNIT_SESSION_WM): `none` (the default) is a bare X server, as in containers;
# `openbox` adds the window manager guest desktops have: it reparents every window into a
# frame, owns stacking and focus (_NET_ACTIVE_WINDOW, focus-stealing prevention) and answers
# the EWMH requests. Openbox because it is small (one Debian package and its two libraries,
# no compositor, no session services), starts in well under a second, and implements EWMH
# fully, which is what the driver speaks to any window manager; the session exports
# ALLTERNIT_SESSION_WM so tests know which desktop they run on.
#
# Everything it starts is stopped by pid, apps' parent processes first, Xvfb last.
set -euo pipefail

STATE="${ALLTERNIT_SESSION_DIR:-/tmp/allternit-desktop}"
# Debian's ATK wrapper for Java (libatk-wrapper-java): the jar that bridges Swing to ATK.
JAVA_ATK_JAR=/usr/share/java/java-atk-wrapper.jar
JAVA_ATK_OPTIONS="-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper \
-Xbootclasspath/a:$JAVA_ATK_JAR -Djava.library.path=/usr/lib/x86_64-linux-gnu/jni"

die() { echo "desktop-session: $*" >&2; exit 1; }

need() {
  local missing=()
  for bin in Xvfb xdpyinfo dbus-daemon dbus-send; do command -v "$bin" >/dev/null || missing+=("$bin"); done
  [ -x /usr/libexec/at-spi-bus-launcher ] || missing+=(at-spi-bus-launcher)
  [ ${#missing[@]} -eq 0 ] || die "missing: ${missing[*]} (run install/linux/deps.sh)"
}

wait_for() { # wait_for SECONDS CMD...
  local deadline=$((SECONDS + $1)); shift
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.05
  done
}

# The stock session.conf (policy and limits), with our empty service directory instead of the
# standard ones and without its includes of local overrides.
session_bus_config() {
  cat <<XML
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <servicedir>$STATE/dbus-services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
  <limit name="max_incoming_bytes">1000000000</limit>
  <limit name="max_incoming_unix_fds">250000000</limit>
  <limit name="max_outgoing_bytes">1000000000</limit>
  <limit name="max_outgoing_unix_fds">250000000</limit>
  <limit name="max_message_size">1000000000</limit>
  <limit name="service_start_timeout">120000</limit>
  <limit name="auth_timeout">240000</limit>
  <limit name="pending_fd_timeout">150000</limit>
  <limit name="max_completed_connections">100000</limit>
  <limit name="max_incomplete_connections">10000</limit>
  <limit name="max_connections_per_user">100000</limit>
  <limit name="max_pending_service_starts">10000</limit>
  <limit name="max_names_per_connection">50000</limit>
  <limit name="max_match_rules_per_connection">50000</limit>
  <limit name="max_replies_per_connection">50000</limit>
</busconfig>
XML
}

start() {
  need
  case "$WM" in
    none) ;;
    openbox) command -v openbox >/dev/null || die "missing: openbox (run install/linux/deps.sh)" ;;
    *) die "unknown window manager \"$WM\" (openbox or none)" ;;
  esac
  mkdir -p "$STATE" && chmod 700 "$STATE"
  : > "$STATE/pids"
  # -displayfd: Xvfb picks a free display itself and writes its number once it is ready,
  # so two sessions starting at once can never share (and later kill) one server.
  # -noreset: a real desktop always has a client connected; without one Xvfb resets when
  # its last client leaves and drops the root window's properties (AT_SPI_BUS below).
  : > "$STATE/display"
  Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp -noreset 3>"$STATE/display" >"$STATE/xvfb.log" 2>&1 &
  echo $! >> "$STATE/pids"
  wait_for 10 grep -q . "$STATE/display" || die "Xvfb did not start; see $STATE/xvfb.log"
  export DISPLAY=":$(head -n1 "$STATE/display" | tr -d '[:space:]')"
  wait_for 10 xdpyinfo -display "$DISPLAY" || die "Xvfb on $DISPLAY did not answer; see $STATE/xvfb.log"

  # A session bus that activates nothing: on a real desktop the portals and gvfs are already
  # running, but here the first GTK app to start would activate them and block on it (GDBus's
  # 25 s call timeout) whenever they start slowly, as they do on a loaded CI machine. Apps
  # told "no such service" at once carry on without them.
  mkdir -p "$STATE/dbus-services"
  session_bus_config > "$STATE/session.conf"
  local out; out=$(dbus-daemon --config-file="$STATE/session.conf" --fork --nosyslog \
    --print-address=1 --print-pid=1)
  export DBUS_SESSION_BUS_ADDRESS; DBUS_SESSION_BUS_ADDRESS=$(echo "$out" | sed -n 1p)
  echo "$out" | sed -n 2p >> "$STATE/pids"

  export XDG_RUNTIME_DIR="$STATE/runtime"; mkdir -p "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"
  export GTK_MODULES=gail:atk-bridge ACCESSIBILITY_ENABLED=1 GNOME_ACCESSIBILITY=1 QT_ACCESSIBILITY=1
  export QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 SAL_USE_VCLPLUGIN=gtk3
  # Java publishes its Swing tree only through the ATK wrapper, which Debian's OpenJDK does
  # not load by default; without the wrapper's jar, naming it would stop every Java GUI.
  if [ -f "$JAVA_ATK_JAR" ]; then export JAVA_TOOL_OPTIONS="$JAVA_ATK_OPTIONS"; fi
  export GDK_BACKEND=x11 NO_AT_BRIDGE=0 GSETTINGS_BACKEND=memory
  unset NO_AT_BRIDGE

  /usr/libexec/at-spi-bus-launcher --launch-immediately --a11y=1 >"$STATE/a11y.log" 2>&1 &
  echo $! >> "$STATE/pids"
  wait_for 10 dbus-send --session --print-reply=literal --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress \
    || die "the accessibility bus did not come up; see $STATE/a11y.log"
  /usr/libexec/at-spi2-registryd --use-gnome-session=false >"$STATE/registryd.log" 2>&1 &
  echo $! >> "$STATE/pids"
  # Qt 5 finds the accessibility bus by the root window's AT_SPI_BUS property, which a
  # desktop's bus launcher sets; without it Qt races its own session-bus lookup and often
  # never registers (its tree stays off the bus). Set it as a desktop would.
  local a11y; a11y=$(dbus-send --session --print-reply=literal --dest=org.a11y.Bus /org/a11y/bus \
    org.a11y.Bus.GetAddress | tr -d '[:space:]')
  xprop -display "$DISPLAY" -root -f AT_SPI_BUS 8s -set AT_SPI_BUS "$a11y" \
    || die "could not publish the accessibility bus address on the root window"

  export ALLTERNIT_SESSION_WM="$WM"
  if [ "$WM" = openbox ]; then
    # Started last, inside the session's environment, as a desktop's session manager would.
    openbox --sm-disable >"$STATE/wm.log" 2>&1 &
    echo $! >> "$STATE/pids"
    # Ready once it has claimed the screen: EWMH's _NET_SUPPORTING_WM_CHECK on the root.
    wait_for 10 sh -c "xprop -display '$DISPLAY' -root _NET_SUPPORTING_WM_CHECK | grep -q 'window id'" \
      || die "openbox did not start; see $STATE/wm.log"
  fi

  cat > "$STATE/env" <<ENV
export DISPLAY='$DISPLAY'
export DBUS_SESSION_BUS_ADDRESS='$DBUS_SESSION_BUS_ADDRESS'
export XDG_RUNTIME_DIR='$XDG_RUNTIME_DIR'
export GTK_MODULES='$GTK_MODULES' ACCESSIBILITY_ENABLED=1 GNOME_ACCESSIBILITY=1 QT_ACCESSIBILITY=1
export QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 SAL_USE_VCLPLUGIN=gtk3
${JAVA_TOOL_OPTIONS:+export JAVA_TOOL_OPTIONS='$JAVA_TOOL_OPTIONS'}
export GDK_BACKEND=x11 GSETTINGS_BACKEND=memory
export ALLTERNIT_SESSION_WM='$WM'
unset NO_AT_BRIDGE
ENV
}

stop() {
  [ -f "$STATE/pids" ] || return 0
  # Reverse order: registry and bus first, Xvfb (the first pid) last.
  tac "$STATE/pids" | while read -r pid; do
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  sleep 0.1
  tac "$STATE/pids" | while read -r pid; do
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
  done
  rm -f "$STATE/pids" "$STATE/env"
}

WM="${ALLTERNIT_SESSION_WM:-none}"
cmd="${1:-}"; [ $# -gt 0 ] && shift
if [ "${1:-}" = "--wm" ]; then
  [ $# -ge 2 ] || die "--wm needs a value: openbox or none"
  WM="$2"; shift 2
fi
case "$cmd" in
  start) start; cat "$STATE/env" ;;
  stop) stop ;;
  run)
    [ "${1:-}" = "--" ] && shift
    [ $# -gt 0 ] || die "usage: desktop-session.sh run [--wm openbox|none] -- CMD..."
    STATE="$STATE.$$"; export ALLTERNIT_SESSION_DIR="$STATE"
    trap stop EXIT
    start
    set +e; "$@"; rc=$?; set -e
    exit $rc
    ;;
  *) die "usage: desktop-session.sh start [--wm openbox|none] | stop | run [--wm …] -- CMD..." ;;
esac
