#!/usr/bin/env bash
# deb_test.sh BUILD_DIR VERSION: `cpack -G DEB` of the build, then the package read back with
# dpkg-deb: its name, version and architecture, the files a desktop application needs (and no
# test or benchmark program), and its dependencies: Debian packages (no -dev ones), the
# libraries skinview and its worker link among them. Installs what the build made; builds
# nothing.
set -euo pipefail
build="$(cd "$1" && pwd)"
version="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/out" >"$tmp/cpack.log" 2>&1 || {
  cat "$tmp/cpack.log"
  fail "cpack -G DEB"
}
debs=("$tmp"/out/*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "cpack made ${#debs[@]} packages"
deb="${debs[0]}"
arch="$(dpkg --print-architecture)"
[ "$(basename "$deb")" = "skinview_${version}_${arch}.deb" ] || fail "named $(basename "$deb")"
[ "$(dpkg-deb -f "$deb" Package)" = skinview ] || fail "Package: $(dpkg-deb -f "$deb" Package)"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version: $(dpkg-deb -f "$deb" Version)"
[ "$(dpkg-deb -f "$deb" Architecture)" = "$arch" ] || fail "Architecture"

# Contents.
contents="$(dpkg-deb -c "$deb" | awk '{print $1, $NF}')"
for f in usr/bin/skinview usr/libexec/skinview/skinview-import; do
  grep -qx -- "-rwxr-xr-x ./$f" <<<"$contents" || fail "no executable ./$f in the package"
done
for f in usr/share/skinview/default.glb usr/share/applications/skinview.desktop \
  usr/share/thumbnailers/skinview.thumbnailer usr/share/mime/packages/skinview.xml \
  usr/share/icons/hicolor/256x256/apps/skinview.png; do
  grep -qx -- "-rw-r--r-- ./$f" <<<"$contents" || fail "no ./$f in the package"
done
executables="$(awk '$1 ~ /^-..x/ {print $2}' <<<"$contents")"
[ "$executables" = "$(printf './usr/bin/skinview\n./usr/libexec/skinview/skinview-import')" ] ||
  fail "executables other than skinview and its worker: $executables"

# Dependencies: Debian package names, none a -dev package; the libraries the two programs
# link are among them (read off by dpkg-shlibdeps), and libgl1 (opened at run time).
depends="$(dpkg-deb -f "$deb" Depends)"
[ -n "$depends" ] || fail "no Depends"
names="$(tr ',' '\n' <<<"$depends" | sed 's/([^)]*)//g; s/|/\n/g' | tr -d ' ' | sed '/^$/d')"
for n in $names; do
  [[ "$n" =~ ^[a-z0-9][a-z0-9.+-]+$ ]] || fail "'$n' is not a Debian package name"
  [[ "$n" != *-dev ]] || fail "depends on the development package $n"
  apt-cache show "$n" >/dev/null 2>&1 || dpkg-query -W "$n" >/dev/null 2>&1 ||
    fail "$n is not a package Debian knows"
done
for n in libassimp5 libglfw3 libepoxy0 libgl1 libc6 libstdc++6; do
  grep -qx "$n" <<<"$names" || fail "$n missing from Depends: $depends"
done

# The package's tree runs where it is unpacked (skinview finds its worker from its own folder).
dpkg-deb -x "$deb" "$tmp/root"
"$tmp/root/usr/bin/skinview" --version | grep -qx "skinview $version" ||
  fail "the unpacked skinview --version"
echo "$(basename "$deb"): Depends: $depends"
