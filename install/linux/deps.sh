#!/usr/bin/env bash
# Installs the Debian packages listed in install/linux/packages.txt (what the driver, its
# demo, tests, benchmarks and packaging checks use) when any is missing. Needs root (or
# sudo) on Debian 12; prints the command otherwise.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

# The first word of every line that is not a comment, nor a non-Debian "(…)" entry.
mapfile -t PACKAGES < <(grep -Ev '^[[:space:]]*(#|\(|$)' "$here/packages.txt" | awk '{print $1}' | sort -u)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
  echo "deps: not root: using sudo (as root: apt-get install -y ${missing[*]})" >&2
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# openjdk-17-demo ships its Swing demos under /usr/share/doc, which slim Debian images
# leave out (dpkg path-exclude): the tests start one of them, so that part is let in.
$SUDO apt-get install -y -qq --no-install-recommends \
  -o 'Dpkg::Options::=--path-include=/usr/share/doc/openjdk-17-jre-headless/demo/*' \
  "${missing[@]}" >/dev/null
