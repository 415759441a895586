#!/usr/bin/env bash
# Installs the Debian packages the driver's Linux engine, its demo and its tests use,
# when any is missing. Needs root (or sudo) on Debian 12; prints the command otherwise.
set -euo pipefail

PACKAGES=(
  xvfb x11-utils x11-xserver-utils dbus dbus-x11 at-spi2-core libatspi2.0-0 libxtst6
  xdotool scrot python3-pyatspi python3-gi python3-gi-cairo gir1.2-gtk-3.0 jq
  gnome-calculator mousepad gtk-3-examples x11-apps xterm chromium tesseract-ocr
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "deps: missing packages; run as root: apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
