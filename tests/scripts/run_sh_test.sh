#!/usr/bin/env bash
# run_sh_test.sh: what scripts/run.sh builds and runs, without building: run.sh is run with
# `cmake`, `dpkg-query` and the built `skinview` replaced by stand-ins that log their arguments.
# It must check the packages with one dpkg-query, configure the build folder once (tests
# included, so test.sh shares it), build only named targets, and open skinview on the default
# character (or on the MODEL given). The targets it names, and everything they depend on (read
# from CMake's file-API codemodel of a scratch configure), must hold no test and no benchmark.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
real_cmake="$(command -v cmake)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

mkdir "$tmp/bin"
cat >"$tmp/bin/cmake" <<EOS
#!/usr/bin/env bash
# A stand-in: logs its arguments; a configure (-B DIR) leaves a cache and a stand-in skinview.
echo "\$*" >>"$tmp/cmake.log"
while [ \$# -gt 0 ]; do
  if [ "\$1" = -B ]; then
    mkdir -p "\$2"
    touch "\$2/CMakeCache.txt"
    printf '#!/bin/sh\necho "\$*" >>"%s"\n' "$tmp/skinview.log" >"\$2/skinview"
    chmod +x "\$2/skinview"
  fi
  shift
done
EOS
cat >"$tmp/bin/dpkg-query" <<EOS
#!/usr/bin/env bash
# A stand-in: every package asked about is installed.
echo call >>"$tmp/dpkg-query.log"
for a in "\$@"; do
  case "\$a" in -*) ;; *) echo "ii  \$a" ;; esac
done
EOS
chmod +x "$tmp/bin/cmake" "$tmp/bin/dpkg-query"

build="$tmp/build"
run() { SKINVIEW_BUILD_DIR="$build" PATH="$tmp/bin:$PATH" bash "$root/scripts/run.sh" "$@"; }

run --frames 1
[ "$(wc -l <"$tmp/dpkg-query.log")" -eq 1 ] || fail "run.sh ran dpkg-query $(wc -l <"$tmp/dpkg-query.log") times"
mapfile -t calls <"$tmp/cmake.log"
[ ${#calls[@]} -eq 2 ] || fail "run.sh ran cmake ${#calls[@]} times: ${calls[*]}"
[[ "${calls[0]}" == "-S $root -B $build "*"-DCMAKE_BUILD_TYPE=Release"* ]] ||
  fail "the first cmake is not the configure: ${calls[0]}"
[[ "${calls[0]}" != *SKINVIEW_BUILD_TESTS=OFF* ]] || fail "configured without the tests"
[[ "${calls[1]}" == "--build $build "*" --target "* ]] ||
  fail "the build names no targets (it would build the tests): ${calls[1]}"
read -r -a targets <<<"${calls[1]##* --target }"
[ "$(cat "$tmp/skinview.log")" = "$root/assets/default.glb --clip walk --frames 1" ] ||
  fail "skinview ran as: $(cat "$tmp/skinview.log")"

# Configured once: a second run only builds, and opens the model named.
: >"$tmp/cmake.log"
: >"$tmp/skinview.log"
run some.glb --frames 1
[ "$(cat "$tmp/cmake.log")" = "${calls[1]}" ] || fail "the second run ran cmake as: $(cat "$tmp/cmake.log")"
[ "$(cat "$tmp/skinview.log")" = "some.glb --frames 1" ] || fail "skinview ran as: $(cat "$tmp/skinview.log")"

# What those targets need: a configure (no build) with the file API's codemodel.
graph="$tmp/graph"
mkdir -p "$graph/.cmake/api/v1/query"
touch "$graph/.cmake/api/v1/query/codemodel-v2"
"$real_cmake" -S "$root" -B "$graph" -DSKINVIEW_BUILD_TESTS=ON -DSKINVIEW_BUILD_BENCH=ON \
  >"$tmp/configure.log" 2>&1 || {
  cat "$tmp/configure.log"
  fail "the scratch configure"
}
closure() {
  "$real_cmake" -DREPLY="$graph/.cmake/api/v1/reply" -DTARGETS="$1" \
    -P "$root/tests/scripts/target_closure.cmake" 2>&1
}
everything="$(closure '*')"
grep -q ' tests/' <<<"$everything" && grep -q ' bench$' <<<"$everything" ||
  fail "the scratch configure has no test or no benchmark target to tell apart"
needed="$(closure "$(IFS=';' && echo "${targets[*]}")")"
for t in skinview skinview-import; do
  grep -q "^$t " <<<"$needed" || fail "run.sh does not build $t"
done
if grep -E ' (tests|bench|fuzz)(/|$)' <<<"$needed"; then
  fail "run.sh's targets (${targets[*]}) build the tests or benchmarks above"
fi
echo "run.sh builds ${targets[*]}: $(awk '{print $1}' <<<"$needed" | tr '\n' ' ')"
