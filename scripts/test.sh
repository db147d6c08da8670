#!/usr/bin/env bash
# scripts/test.sh [ctest options...]
# Installs what is missing (also Xvfb and Debian's assimp-testmodels), builds into build/, and
# runs every test with ctest inside a virtual X server, so GL tests run on Mesa's llvmpipe when
# there is no GPU. Exits non-zero when any test fails.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

test_packages=("${SKINVIEW_BUILD_PACKAGES[@]}" xvfb xauth assimp-testmodels)
# The glTF validator test runs Khronos' validator under Node.js; use the machine's node if it
# has one, otherwise Debian's.
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || test_packages+=(nodejs npm)
sv_install_packages "${test_packages[@]}"

sv_build "$SKINVIEW_ROOT/build" Release

cd "$SKINVIEW_ROOT/build"
jobs="$(nproc 2>/dev/null || echo 2)"
xvfb-run -a -s "-screen 0 1280x720x24" ctest --output-on-failure -j"$jobs" "$@"
