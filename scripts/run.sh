#!/usr/bin/env bash
# scripts/run.sh [MODEL] [skinview options...]
# Installs what is missing, builds the viewer (Release, into build/: only skinview and its import
# worker, not the tests or benchmarks, which scripts/test.sh builds in the same folder) and opens
# it on MODEL, or on the default character in assets/ when no model is given. With everything
# installed and built it only checks (one dpkg-query, a no-op build) and opens the window.
#
#   SKINVIEW_BUILD_DIR=DIR    another build folder (default build/, relative to the repository
#                             root unless absolute)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build="$(sv_build_dir)"
sv_install_packages "${SKINVIEW_BUILD_PACKAGES[@]}"
sv_build_app "$build" Release

if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  exec "$build/skinview" "$@"
fi
# No model named: the built-in character, walking.
exec "$build/skinview" "$SKINVIEW_ROOT/assets/default.glb" --clip walk "$@"
