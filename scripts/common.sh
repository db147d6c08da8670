#!/usr/bin/env bash
# Shared by run.sh and test.sh: installs missing Debian packages and builds into a build folder.
# Sourced, not run. Idempotent: with everything installed and built it only checks and returns.
set -euo pipefail

SKINVIEW_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# What building skinview needs (see README.md, "Dependencies", for what each is for).
SKINVIEW_BUILD_PACKAGES=(
  g++ make cmake pkg-config
  libglfw3-dev libepoxy-dev libglm-dev libassimp-dev libimgui-dev libstb-dev
  zlib1g-dev  # assimp's CMake target links /usr/lib/.../libz.so, which libassimp-dev does not pull in
  libcli11-dev nlohmann-json3-dev libtinygltf-dev
  libtomlplusplus-dev  # TOML rules files for `skinview check --rules` (src/app/check_rules.cpp)
  libxxhash-dev  # content hashes for the model cache
  libpng-dev  # writing pictures (src/gfx/capture.cpp)
  libseccomp-dev  # the import worker's system-call filter
  libgtest-dev libbenchmark-dev
  libgl1-mesa-dri
  fonts-droid-fallback  # CJK glyphs for file names in the window (src/ui/fonts.h); optional
  mold  # links a test executable in a quarter of GNU ld's time (CMakeLists.txt: SKINVIEW_USE_MOLD)
  ninja-build  # a no-op build of the viewer takes Ninja a fraction of a second (make: seconds)
)

# What the window needs, and all that scripts/run.sh builds: the viewer and the import worker it
# starts for every file (the default character is checked in: assets/default.glb). The tests and
# the benchmarks build when scripts/test.sh, or a plain `cmake --build build`, asks.
SKINVIEW_APP_TARGETS=(skinview skinview-import)

# Installs every named package that dpkg does not list as installed, with apt-get, as root or
# through sudo. Prints nothing when all are present.
# One dpkg-query for all of them (one per package costs seconds on a busy machine).
sv_install_packages() {
  local missing=()
  local p status name
  local -A installed=()
  while read -r status name; do
    [ "$status" = ii ] && installed["${name%%:*}"]=1
  done < <(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "$@" 2>/dev/null || true)
  for p in "$@"; do
    [ -n "${installed[$p]:-}" ] || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "skinview: installing missing packages: ${missing[*]}" >&2
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "skinview: need root or sudo to install: ${missing[*]}" >&2
      return 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  # A fresh machine may have no package lists yet; refresh them once if an install fails.
  if ! "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
    "${sudo[@]}" apt-get update
    "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
  fi
}

# sv_build_dir [DIR]: DIR as an absolute path (a relative one is taken from the repository
# root); $SKINVIEW_BUILD_DIR, else build/, when none is given.
sv_build_dir() {
  local dir="${1:-${SKINVIEW_BUILD_DIR:-build}}"
  case "$dir" in
    /*) echo "$dir" ;;
    *) echo "$SKINVIEW_ROOT/$dir" ;;
  esac
}

# sv_configure DIR BUILD_TYPE [extra cmake args...]: configures DIR once (with Ninja when it is
# there), the tests and benchmarks included, so run.sh and test.sh share one folder.
sv_configure() {
  local dir="$1" type="$2"
  shift 2
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    local generator=()
    command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
    cmake -S "$SKINVIEW_ROOT" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE="$type" "$@"
  fi
}

# sv_build DIR BUILD_TYPE [extra cmake args...]: configures once, then builds everything
# (the tests and benchmarks too) incrementally.
sv_build() {
  local dir="$1" type="$2"
  shift 2
  sv_configure "$dir" "$type" "$@"
  cmake --build "$dir" -j"$(nproc 2>/dev/null || echo 2)"
}

# sv_build_app DIR BUILD_TYPE: configures once, then builds only SKINVIEW_APP_TARGETS.
sv_build_app() {
  sv_configure "$1" "$2"
  cmake --build "$1" -j"$(nproc 2>/dev/null || echo 2)" --target "${SKINVIEW_APP_TARGETS[@]}"
}
