#!/usr/bin/env bash
# Windows Deno under Wine 10, built from Debian's packages (issue 23).
#
#   env.sh build        make (or reuse) the Wine environment; prints nothing on reuse
#   env.sh run -- CMD   run CMD inside it (cwd /src = this repository), e.g. `wine deno.exe test`
#   env.sh clean        remove it
#
# Debian 12's Wine 8.0 cannot run deno.exe (no bcryptprimitives.dll, no MEM_RESERVE_PLACEHOLDER
# for V8, no IUIAutomation client), so Wine comes from a Debian trixie root made by debootstrap.
# The root, the Wine prefix and deno.exe (npm: @deno/win32-x64, the version pinned below) are
# kept under $ALLTERNIT_WINE_DIR (default /var/cache/allternit-wine) and reused while the stamp
# matches; a fresh machine builds them in about three minutes.
#
# Commands run in the root through chroot inside a private mount namespace (unshare), with
# /proc, /dev, /tmp (the X socket) and the repository bound in, so nothing stays mounted
# after a run, even when it is killed. Needs root, debootstrap, unshare and npm.
set -euo pipefail

DENO_VERSION=2.9.6
SUITE=trixie
PACKAGES=wine,wine64
# Part of the stamp: changing what the root holds rebuilds it.
STAMP="suite=$SUITE packages=$PACKAGES deno=$DENO_VERSION v1"
DIR="${ALLTERNIT_WINE_DIR:-/var/cache/allternit-wine}"
ROOT="$DIR/root"
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
MIRROR="${ALLTERNIT_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

die() { echo "wine-env: $*" >&2; exit 1; }

need_root() {
  [ "$(id -u)" = 0 ] || die "needs root (debootstrap and chroot)"
  for bin in debootstrap unshare chroot npm tar; do
    command -v "$bin" >/dev/null || die "missing $bin (run install/linux/deps.sh)"
  done
}

built() { [ -f "$DIR/stamp" ] && [ "$(cat "$DIR/stamp")" = "$STAMP" ]; }

build_root() {
  local tmp="$DIR/root.partial"
  rm -rf "$tmp"
  echo "wine-env: debootstrap $SUITE with $PACKAGES (from $MIRROR)" >&2
  # minbase keeps it to what Wine needs; a failed run leaves only root.partial, never a
  # root that looks complete.
  if ! debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$tmp" "$MIRROR" \
    >"$DIR/debootstrap.log" 2>&1; then
    tail -n 20 "$DIR/debootstrap.log" >&2
    die "debootstrap failed (log: $DIR/debootstrap.log)"
  fi
  rm -rf "$ROOT"
  mv "$tmp" "$ROOT"
}

fetch_deno() {
  local work
  work=$(mktemp -d)
  # The npm registry is the one source of Deno here; the package holds deno.exe as is.
  (cd "$work" && npm pack "@deno/win32-x64@$DENO_VERSION" >/dev/null 2>"$work/npm.log") ||
    { cat "$work/npm.log" >&2; rm -rf "$work"; die "npm pack @deno/win32-x64@$DENO_VERSION failed"; }
  tar -xzf "$work"/deno-win32-x64-*.tgz -C "$work"
  mkdir -p "$ROOT/opt/deno"
  install -m 0755 "$work/package/deno.exe" "$ROOT/opt/deno/deno.exe"
  rm -rf "$work"
}

# Runs "$@" in the root as root, with the repository at /src and the session's display.
in_root() {
  cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
  # deno.exe fetches the npm packages of deno.json itself, trusting what this host trusts
  # (a machine behind a TLS-inspecting proxy adds that proxy's CA to this bundle).
  # Without a bundle here, deno.exe keeps its own roots.
  local bundle="${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}" cert=DENO_NO_UPDATE_CHECK=1
  if [ -f "$bundle" ]; then
    cp -L "$bundle" "$ROOT/etc/host-ca.crt"
    cert='DENO_CERT=Z:\etc\host-ca.crt'
  fi
  mkdir -p "$ROOT/src" "$ROOT/tmp/.X11-unix" "$ROOT/wine"
  unshare --mount --propagation private -- bash -c '
    set -e
    root=$1; repo=$2; cert=$3; shift 3
    mount --rbind /dev "$root/dev"
    mount -t proc proc "$root/proc"
    if [ -d /tmp/.X11-unix ]; then mount --bind /tmp/.X11-unix "$root/tmp/.X11-unix"; fi
    mount --bind "$repo" "$root/src"
    exec chroot "$root" /usr/bin/env -i \
      PATH=/usr/lib/wine:/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
      DISPLAY="${DISPLAY:-}" WINEPREFIX=/wine/prefix WINEDEBUG="${WINEDEBUG:--all}" \
      WINEDLLOVERRIDES="mscoree,mshtml=" DENO_DIR="Z:\\wine\\deno-dir" \
      "$cert" NO_COLOR=1 DENO_NO_UPDATE_CHECK=1 \
      bash -c "cd /src && \"\$@\"" bash "$@"
  ' bash "$ROOT" "$REPO" "$cert" "$@"
}

build() {
  need_root
  built && return 0
  mkdir -p "$DIR"
  rm -f "$DIR/stamp"
  build_root
  fetch_deno
  # A prefix of our own, made once: wineboot is what makes the first deno.exe start slow.
  in_root wine wineboot --init >"$DIR/wineboot.log" 2>&1 ||
    { tail -n 20 "$DIR/wineboot.log" >&2; die "wineboot failed (log: $DIR/wineboot.log)"; }
  echo "$STAMP" >"$DIR/stamp"
  echo "wine-env: ready in $DIR ($(in_root wine --version))" >&2
}

case "${1:-}" in
  build) build ;;
  run)
    shift
    [ "${1:-}" = -- ] && shift
    [ $# -gt 0 ] || die "usage: env.sh run -- CMD..."
    build
    in_root "$@"
    ;;
  clean) rm -rf "$DIR" ;;
  *) die "usage: env.sh build | run -- CMD... | clean" ;;
esac
