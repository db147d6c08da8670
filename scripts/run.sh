#!/usr/bin/env bash
# scripts/run.sh [MODEL] [skinview options...]
# Installs what is missing, builds Release into build/, and opens the viewer on MODEL, or on
# the default character in assets/ when no model is given.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

sv_install_packages "${SKINVIEW_BUILD_PACKAGES[@]}"
sv_build "$SKINVIEW_ROOT/build" Release

if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  exec "$SKINVIEW_ROOT/build/skinview" "$@"
fi
# No model named: the built-in character, walking.
exec "$SKINVIEW_ROOT/build/skinview" "$SKINVIEW_ROOT/assets/default.glb" --clip walk "$@"
