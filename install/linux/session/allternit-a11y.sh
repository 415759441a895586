# shellcheck shell=sh
# /etc/profile.d/allternit-a11y.sh (installed by allternit-driver's install.sh):
# accessibility on for apps started from login shells. Chromium and Electron publish an
# AT-SPI tree only when asked; Qt only with QT_ACCESSIBILITY. Sourced: no exit, no set -e.
ACCESSIBILITY_ENABLED=1
QT_ACCESSIBILITY=1
case ":${GTK_MODULES:-}:" in
  *:atk-bridge:*) ;;
  *) GTK_MODULES="${GTK_MODULES:+$GTK_MODULES:}gail:atk-bridge" ;;
esac
export ACCESSIBILITY_ENABLED QT_ACCESSIBILITY GTK_MODULES
