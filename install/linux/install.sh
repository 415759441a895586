#!/usr/bin/env bash
# Installs the Allternit Driver as a Linux guest service (install/PACKAGING.md).
#
#   install.sh [--root DIR] [--deno PATH] [--bundle PATH] [--binary PATH] [--user NAME] [--no-deps]
#
# Lays out under DIR (default /):
#   /opt/allternit-driver/        the program: bundle/ (allternit-driver.js and its chunks) + a pinned deno, or a
#                                 compiled allternit-driver; MANIFEST; validate-image.sh
#   /usr/local/bin/               allternit-driver, allternit-driver-rpc (forwarder),
#                                 allternit-driver-session-env (run by the session)
#   /etc/systemd/system/          allternit-driver.service, allternit-driver-session.{path,service}
#   /etc/environment, /etc/profile.d/allternit-a11y.sh, /etc/X11/Xsession.d/90allternit-driver
#                                 ACCESSIBILITY_ENABLED=1, GTK_MODULES=gail:atk-bridge (idempotent)
# and makes sure the explicit fallback (xdotool, scrot) and what the driver loads are
# installed: with apt-get on this machine, or, with --root, listed in
# /opt/allternit-driver/REQUIRES for the image build to install.
#
#   --deno PATH    the Deno that runs the bundle (default: deno on PATH), copied and pinned
#   --bundle DIR   default: dist/out/bundle (`deno task bundle`): allternit-driver.js and chunks
#   --binary PATH  a compiled driver for this machine; default: the one `deno task compile`
#                  left in dist/out for this host's target, if any; else bundle + deno
#   --user NAME    run the service as the desktop session's user (recommended)
#   --no-deps      install no Debian package; only say what is missing
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
REQUIRED=(xdotool scrot jq libx11-6 libxtst6 at-spi2-core dbus)

die() { echo "install: $*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

ROOT=/ DENO_BIN="" BUNDLE="$REPO/dist/out/bundle" BINARY="" SVC_USER="" DEPS=1
while [ $# -gt 0 ]; do
  case "$1" in
    --root) ROOT="${2:?}"; shift 2 ;;
    --deno) DENO_BIN="${2:?}"; shift 2 ;;
    --bundle) BUNDLE="${2:?}"; shift 2 ;;
    --binary) BINARY="${2:?}"; shift 2 ;;
    --user) SVC_USER="${2:?}"; shift 2 ;;
    --no-deps) DEPS=0; shift ;;
    -h | --help) usage ;;
    *) echo "install: unknown option \"$1\"" >&2; usage ;;
  esac
done
mkdir -p "$ROOT"
ROOT=$(cd "$ROOT" && pwd)
R=${ROOT%/} # prefix for every path below; empty for /
PREFIX="$R/opt/allternit-driver"

sha() { sha256sum "$1" | cut -d' ' -f1; }

# --- the program -------------------------------------------------------------------------
if [ -z "$BINARY" ]; then
  arch=$(uname -m)
  version=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$REPO/deno.json" | head -n1)
  candidate="$REPO/dist/out/allternit-driver-$version-$arch-unknown-linux-gnu"
  [ -x "$candidate" ] && BINARY="$candidate"
fi
install -d -m 0755 "$PREFIX"
rm -rf "$PREFIX/allternit-driver" "$PREFIX/allternit-driver.js" "$PREFIX/bundle" "$PREFIX/deno"
if [ -n "$BINARY" ]; then
  [ -x "$BINARY" ] || die "--binary \"$BINARY\" is not an executable file"
  install -m 0755 "$BINARY" "$PREFIX/allternit-driver"
  manifest=("mode=binary" "allternit-driver $(sha "$PREFIX/allternit-driver")")
else
  [ -f "$BUNDLE/allternit-driver.js" ] ||
    die "no bundle in \"$BUNDLE\" (allternit-driver.js); run \`deno task bundle\` first"
  DENO_BIN=${DENO_BIN:-$(command -v deno || true)}
  [ -n "$DENO_BIN" ] || die "no deno on PATH; give --deno PATH"
  DENO_BIN=$(readlink -f "$DENO_BIN")
  # npm's deno is a symlink to the real binary; a shell or node shim would not relocate.
  [ "$(head -c 4 "$DENO_BIN" | od -An -c | tr -d ' ')" = '177ELF' ] ||
    die "--deno \"$DENO_BIN\" is not a Deno executable (an ELF binary)"
  deno_version=$("$DENO_BIN" --version | head -n1)
  # The bundle is a tree: allternit-driver.js, the chunks and each command's entry.
  install -d -m 0755 "$PREFIX/bundle"
  cp -R "$BUNDLE"/. "$PREFIX/bundle/"
  find "$PREFIX/bundle" -type d -exec chmod 0755 {} + -o -type f -exec chmod 0644 {} +
  install -m 0755 "$DENO_BIN" "$PREFIX/deno"
  manifest=("mode=bundle" "$deno_version"
    "allternit-driver.js $(sha "$PREFIX/bundle/allternit-driver.js")")
  while IFS= read -r f; do
    manifest+=("${f#"$PREFIX/bundle/"} $(sha "$f")")
  done < <(find "$PREFIX/bundle" -type f -name '*.js' ! -path "$PREFIX/bundle/allternit-driver.js" | sort)
  manifest+=("deno $(sha "$PREFIX/deno")")
fi
printf '%s\n' "${manifest[@]}" >"$PREFIX/MANIFEST"
install -m 0755 "$HERE/validate-image.sh" "$PREFIX/validate-image.sh"

install -d -m 0755 "$R/usr/local/bin"
for f in allternit-driver allternit-driver-rpc allternit-driver-session-env; do
  install -m 0755 "$HERE/bin/$f" "$R/usr/local/bin/$f"
done

# --- systemd -----------------------------------------------------------------------------
UNITS="$R/etc/systemd/system"
install -d -m 0755 "$UNITS" "$UNITS/multi-user.target.wants"
for u in allternit-driver.service allternit-driver-session.path allternit-driver-session.service; do
  install -m 0644 "$HERE/systemd/$u" "$UNITS/$u"
done
# What `systemctl enable` does, without needing a running systemd (or one at all).
ln -sfn /etc/systemd/system/allternit-driver-session.path \
  "$UNITS/multi-user.target.wants/allternit-driver-session.path"

install -d -m 0755 "$R/etc/allternit"
if [ -n "$SVC_USER" ]; then
  # The image's own passwd (a staged root); on / getent also sees directory users.
  if [ "$ROOT" = / ]; then entry=$(getent passwd "$SVC_USER" || true); else
    entry=$(grep -m1 "^$SVC_USER:" "$R/etc/passwd" 2>/dev/null || true)
  fi
  ids=$(printf '%s' "$entry" | awk -F: '{ print $3 ":" $4 }')
  [ -n "$ids" ] || die "user \"$SVC_USER\" does not exist in \"$R/etc/passwd\""
  install -d -m 0755 "$UNITS/allternit-driver.service.d"
  printf '[Service]\nUser=%s\nGroup=%s\n' "$SVC_USER" "${ids#*:}" \
    >"$UNITS/allternit-driver.service.d/user.conf"
  # The session (as that user) writes it at login; the service reads it through PID 1.
  [ -f "$R/etc/allternit/session.env" ] || : >"$R/etc/allternit/session.env"
  chmod 0600 "$R/etc/allternit/session.env"
  chown "$ids" "$R/etc/allternit/session.env"
else
  rm -f "$UNITS/allternit-driver.service.d/user.conf"
fi

# --- accessibility for the desktop session -----------------------------------------------
# set_env FILE KEY VALUE: KEY=VALUE in a pam_env file, once. GTK_MODULES keeps other
# modules and gains atk-bridge only when it lacks it.
set_env() {
  local file=$1 key=$2 value=$3 line current
  touch "$file"
  line=$(grep -m1 "^$key=" "$file" || true)
  if [ -z "$line" ]; then
    echo "$key=$value" >>"$file"
    return
  fi
  current=${line#*=}
  current=${current#\"} current=${current%\"}
  if [ "$key" = GTK_MODULES ]; then
    case ":$current:" in *:atk-bridge:*) return ;; esac
    value="$current:$value"
  fi
  [ "$current" = "$value" ] && return
  sed -i "s|^$key=.*|$key=$value|" "$file"
}
set_env "$R/etc/environment" ACCESSIBILITY_ENABLED 1
set_env "$R/etc/environment" GTK_MODULES gail:atk-bridge
set_env "$R/etc/environment" QT_ACCESSIBILITY 1
install -d -m 0755 "$R/etc/profile.d" "$R/etc/X11/Xsession.d"
install -m 0644 "$HERE/session/allternit-a11y.sh" "$R/etc/profile.d/allternit-a11y.sh"
install -m 0644 "$HERE/session/90allternit-driver" "$R/etc/X11/Xsession.d/90allternit-driver"

# --- the fallback and what the driver loads ----------------------------------------------
admindir="$R/var/lib/dpkg"
missing=()
for p in "${REQUIRED[@]}"; do
  dpkg-query --admindir="$admindir" -W -f='${Status}' "$p" 2>/dev/null |
    grep -q "install ok installed" || missing+=("$p")
done
printf '%s\n' "${REQUIRED[@]}" >"$PREFIX/REQUIRES"
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$ROOT" = / ] && [ "$DEPS" = 1 ] && command -v apt-get >/dev/null; then
    echo "install: installing ${missing[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "install: the image also needs: ${missing[*]} (apt-get install -y ${missing[*]})" >&2
  fi
fi

if [ "$ROOT" = / ] && [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  systemctl enable --now allternit-driver-session.path
  if [ -s /etc/allternit/session.env ]; then systemctl restart allternit-driver.service; fi
fi
echo "install: installed into $ROOT ($(head -n1 "$PREFIX/MANIFEST"))"
