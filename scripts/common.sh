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
  libxxhash-dev  # content hashes for the model cache
  libseccomp-dev  # the import worker's system-call filter
  libgtest-dev libbenchmark-dev
  libgl1-mesa-dri
)

# Installs every named package that dpkg does not list as installed, with apt-get, as root or
# through sudo. Prints nothing when all are present.
sv_install_packages() {
  local missing=()
  local p
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
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

# sv_build DIR BUILD_TYPE [extra cmake args...]: configures once, then builds incrementally.
sv_build() {
  local dir="$1" type="$2"
  shift 2
  local jobs
  jobs="$(nproc 2>/dev/null || echo 2)"
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    cmake -S "$SKINVIEW_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE="$type" "$@"
  fi
  cmake --build "$dir" -j"$jobs"
}
