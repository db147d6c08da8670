#!/usr/bin/env bash
# scripts/test.sh [ctest options...]
# Installs what is missing (also Xvfb and Debian's assimp-testmodels), builds into build/, and
# runs every test with ctest inside a virtual X server, so GL tests run on Mesa's llvmpipe when
# there is no GPU. Meanwhile it builds the suite again, with clang, with AddressSanitizer +
# UndefinedBehaviorSanitizer (LeakSanitizer included) into build-asan/ (Debug; its output in
# build-asan/test-sh-build.log, printed if it fails), and runs it there once the Release tests are
# done. Exits non-zero when any test of either pass fails. Both builds are incremental: with
# everything built, the script only checks and runs the tests. The test executables build in unity
# batches, their own files at -O1 in Release (tests/CMakeLists.txt: SKINVIEW_TEST_UNITY,
# SKINVIEW_TEST_OPTIMIZE); what they test is built as the viewer is.
#
#   SKINVIEW_SANITIZE=0 scripts/test.sh    skips the sanitizer pass (a quick local run)
#   SKINVIEW_BUILD_DIR=DIR, SKINVIEW_ASAN_BUILD_DIR=DIR    other build folders (default build/,
#                                          build-asan/, relative to the repository root)
#
# Each pass builds the tests and what they run (CMake target `skinview_tests`), not the
# benchmarks. No test bounds wall-clock time: both passes are meant to stay green on a loaded
# machine (README.md, "Tests", says what each covers and how long it takes).
#
# The sanitizer pass leaves out the tests that create a GL context (ctest label `gl`, set by
# `sv_add_test(NAME GL ...)` in tests/CMakeLists.txt; the pass configures SKINVIEW_TEST_GL=OFF, so
# they are not even built there):
# under Xvfb, Mesa's llvmpipe driver leaves allocations unfreed at exit that LeakSanitizer
# reports (stacks end inside the driver, which has no frame pointers, so no suppression can name
# it; full unwinding makes the driver too slow to run). Every other test runs sanitized. The Khronos glTF
# validator (a Node.js program, not our code; label `external`) is left out too. LeakSanitizer suppressions cover
# third-party libraries only (scripts/lsan.supp), never skinview's own code.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# ffmpeg (with its ffprobe) for the --video tests only: the viewer runs without it.
# minetest-data for Minetest's player model (character.b3d), the clip ranges' test file.
# clang-14 (with its sanitizer runtimes) builds the sanitizer pass: see below.
test_packages=("${SKINVIEW_BUILD_PACKAGES[@]}" xvfb xauth xdotool assimp-testmodels ffmpeg
  minetest-data clang-14 libclang-rt-14-dev)
# The glTF validator test runs Khronos' validator under Node.js; use the machine's node if it
# has one, otherwise Debian's.
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || test_packages+=(nodejs npm)
sv_install_packages "${test_packages[@]}"

jobs="$(nproc 2>/dev/null || echo 2)"
xvfb=(xvfb-run -a -s "-screen 0 1280x720x24")
status=0

build="$SKINVIEW_ROOT/${SKINVIEW_BUILD_DIR:-build}"
asan_build="$SKINVIEW_ROOT/${SKINVIEW_ASAN_BUILD_DIR:-build-asan}"

# build_tests DIR BUILD_TYPE [cmake -D options...]: configures DIR once (common.sh), sets the
# options again when the folder was configured without them (an older build-asan/), then builds
# the tests and what they run.
build_tests() {
  local dir="$1" type="$2"
  shift 2
  sv_configure "$dir" "$type" "$@"
  local option
  for option in "$@"; do
    # -DNAME=VALUE is in the cache as NAME:TYPE=VALUE.
    if ! sed -E 's/^([A-Za-z0-9_]+):[A-Z]+=/\1=/' "$dir/CMakeCache.txt" | grep -x -- "${option#-D}" >/dev/null; then
      cmake -S "$SKINVIEW_ROOT" -B "$dir" "$@" >/dev/null
      break
    fi
  done
  cmake --build "$dir" -j"$jobs" --target skinview_tests
}

sanitize="${SKINVIEW_SANITIZE:-1}"
build_tests "$build" Release

# The sanitizer tree builds while the Release pass's tests run: those leave a core idle for much
# of their time (GL tests wait on Xvfb and Mesa, process tests on their children), so on two
# cores the build costs that pass little and the sanitizer pass starts minutes earlier. Its output
# goes to a log, printed when the build fails.
if [ "$sanitize" != 0 ]; then
  mkdir -p "$asan_build"
  asan_log="$asan_build/test-sh-build.log"
  # Debug at -g1: line tables only, which is all a sanitizer's stack trace needs (file:line per
  # frame); full -g adds variable information no report prints, ~15% more object bytes to write
  # and link (src/io/model_format.cpp: 6.5 MB against 5.5 MB).
  # In a process group of its own (set -m), so that an interrupted script (Ctrl-C) stops the
  # whole build, compilers included.
  # Built by clang, not GCC: at -O0 with ASan + UBSan clang compiles our units in about half
  # GCC's time (src/import/gltf_interp.cpp 18.9 -> 10.2 s of CPU, the largest test unit 35.8 ->
  # 16.2 s), and the sanitizer tree's build was the longest part of this script. It also puts a
  # second compiler's errors, warnings and UB checks on every change; the Release pass (and the
  # viewer users run) stays GCC's. A folder configured by another compiler is configured afresh
  # (CMake cannot change the compiler of a configured folder).
  if [ -f "$asan_build/CMakeCache.txt" ] &&
    ! grep -qx 'CMAKE_CXX_COMPILER:[A-Z]*=.*clang++-14' "$asan_build/CMakeCache.txt"; then
    rm -rf "$asan_build/CMakeCache.txt" "$asan_build/CMakeFiles"
  fi
  set -m
  CC=clang-14 CXX=clang++-14 build_tests "$asan_build" Debug -DSKINVIEW_SANITIZE=ON -DSKINVIEW_BUILD_BENCH=OFF \
    -DSKINVIEW_TEST_GL=OFF -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1 \
    >"$asan_log" 2>&1 &
  asan_build_pid=$!
  set +m
  trap '[ -z "${asan_build_pid:-}" ] || kill -- -"$asan_build_pid" 2>/dev/null || true' EXIT
  echo "skinview: building the sanitizer pass in $asan_build (log: $asan_log) while the Release pass runs" >&2
fi

(cd "$build" && "${xvfb[@]}" ctest --output-on-failure -j"$jobs" "$@") || status=$?

if [ "$sanitize" != 0 ]; then
  asan_status=0
  wait "$asan_build_pid" || asan_status=$?
  asan_build_pid=
  if [ "$asan_status" != 0 ]; then
    cat "$asan_log" >&2
    echo "skinview: the sanitizer build failed (log above: $asan_log)" >&2
    exit 1
  fi
  export ASAN_OPTIONS="detect_leaks=1:check_initialization_order=1:strict_init_order=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  export LSAN_OPTIONS="suppressions=$SKINVIEW_ROOT/scripts/lsan.supp:print_suppressions=0"
  (cd "$asan_build" &&
    "${xvfb[@]}" ctest --output-on-failure -j"$jobs" -LE '^(gl|external)$' "$@") || status=$?
fi
exit "$status"
