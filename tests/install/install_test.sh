#!/usr/bin/env bash
# install_test.sh BUILD_DIR: `cmake --install` of the build into a temporary prefix, then the
# installed skinview run from another folder: --version, --screenshot, --thumbnail (a 256-pixel
# PNG; a missing file: one line and a non-zero status), the worker found in libexec/skinview/,
# the default character found in share/skinview/, and the desktop entry and the thumbnailer
# naming only MIME types the system or skinview's own MIME file defines. Needs a display (Xvfb).
set -euo pipefail
build="$(cd "$1" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# png_size FILE: "WxH" from the PNG's IHDR chunk.
png_size() {
  [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$1: not a PNG"
  local b
  read -r -a b < <(od -An -tu1 -j16 -N8 "$1")
  echo "$(((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]))x$(((b[4] << 24) | (b[5] << 16) | (b[6] << 8) | b[7]))"
}

prefix="$tmp/prefix"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || {
  cat "$tmp/install.log"
  fail "cmake --install"
}
for f in bin/skinview libexec/skinview/skinview-import; do
  [ -x "$prefix/$f" ] || fail "$f not installed as an executable"
done
for f in share/skinview/default.glb share/applications/skinview.desktop \
  share/thumbnailers/skinview.thumbnailer share/mime/packages/skinview.xml \
  share/icons/hicolor/256x256/apps/skinview.png share/icons/hicolor/48x48/apps/skinview.png; do
  [ -s "$prefix/$f" ] || fail "$f not installed"
done
[ ! -e "$prefix/bin/skinview-import" ] || fail "the worker belongs in libexec/skinview/, not bin/"

# Run from elsewhere: nothing may come from the current folder or the source tree.
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"
export XDG_CACHE_HOME="$tmp/cache"
sv="$prefix/bin/skinview"
model="$prefix/share/skinview/default.glb"

version="$("$sv" --version)"
[[ "$version" =~ ^skinview\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "--version said '$version'"

"$sv" "$model" --screenshot shot.png --size 320x200 || fail "--screenshot exited $?"
[ "$(png_size shot.png)" = 320x200 ] || fail "--screenshot wrote $(png_size shot.png), not 320x200"

"$sv" --thumbnail "$model" thumb.png 256 || fail "--thumbnail exited $?"
[ "$(png_size thumb.png)" = 256x256 ] || fail "--thumbnail wrote $(png_size thumb.png)"
# The model is in the picture: a thumbnail of one flat colour would be a blank one.
if command -v identify >/dev/null 2>&1; then
  colours="$(identify -format '%k' thumb.png)"
  [ "$colours" -gt 100 ] || fail "the thumbnail has $colours colours: blank?"
fi

status=0
"$sv" --thumbnail missing.glb bad.png 256 2>err.txt || status=$?
[ "$status" -ne 0 ] || fail "--thumbnail of a missing file exited 0"
[ "$(wc -l <err.txt)" -eq 1 ] || fail "--thumbnail of a missing file said: $(cat err.txt)"
[ ! -e bad.png ] || fail "--thumbnail of a missing file wrote a picture"

# The installed worker is the one that runs: wrapped, it leaves a mark.
worker="$prefix/libexec/skinview/skinview-import"
mv "$worker" "$worker.real"
printf '#!/bin/sh\ntouch "%s"\nexec "%s" "$@"\n' "$tmp/worker-ran" "$worker.real" >"$worker"
chmod +x "$worker"
"$sv" --no-cache --info "$model" >info.txt || fail "--info through the installed worker exited $?"
[ -e "$tmp/worker-ran" ] || fail "skinview did not run the worker in libexec/skinview/"

# With no model, the window opens the installed default character.
"$sv" --frames 1 --exit-json exit.json || fail "the window on the default character exited $?"
grep -q "$model" exit.json || fail "the window did not open $model: $(head -c 300 exit.json)"

# Every MIME type the desktop entry and the thumbnailer name is defined, by the system or by
# skinview's own file.
mime_types() { sed -n 's/^MimeType=//p' "$1" | tr ';' '\n' | sed '/^$/d'; }
defined="$(cat /usr/share/mime/packages/*.xml "$prefix/share/mime/packages/skinview.xml" |
  sed -n 's/.*<mime-type type="\([^"]*\)".*/\1/p' | sort -u)"
desktop_types="$(mime_types "$prefix/share/applications/skinview.desktop")"
[ -n "$desktop_types" ] || fail "the desktop entry names no MIME type"
for t in $desktop_types $(mime_types "$prefix/share/thumbnailers/skinview.thumbnailer"); do
  grep -qxF "$t" <<<"$defined" || fail "MIME type $t is defined nowhere"
done
[ "$(mime_types "$prefix/share/thumbnailers/skinview.thumbnailer")" = "$desktop_types" ] ||
  fail "the thumbnailer and the desktop entry name different MIME types"
grep -q '^Exec=skinview .*--thumbnail %i %o %s' "$prefix/share/thumbnailers/skinview.thumbnailer" ||
  fail "the thumbnailer does not run skinview --thumbnail %i %o %s"
# The file manager's view: with the installed MIME file, real files of each format get skinview's
# types (where shared-mime-info's tools are there to ask).
if command -v update-mime-database >/dev/null 2>&1 && command -v gio >/dev/null 2>&1 &&
  [ -d /usr/share/assimp/models ]; then
  mkdir -p "$tmp/data/mime/packages"
  cp /usr/share/mime/packages/*.xml "$prefix/share/mime/packages/skinview.xml" "$tmp/data/mime/packages/"
  update-mime-database "$tmp/data/mime" >/dev/null 2>&1
  models=/usr/share/assimp/models
  while read -r file type; do
    got="$(XDG_DATA_HOME="$tmp/none" XDG_DATA_DIRS="$tmp/data" \
      gio info -a standard::content-type "$models/$file" | sed -n 's/.*content-type: //p')"
    [ "$got" = "$type" ] || fail "$file is $got, not $type"
    grep -qxF "$type" <<<"$desktop_types" || fail "the desktop entry does not name $type"
  done <<EOS
FBX/box.fbx application/vnd.fbx
Collada/COLLADA.dae model/vnd.collada+xml
X/anim_test.x model/x.directx
X/fromtruespace_bin32.x model/x.directx
BVH/01_01.bvh application/x-bvh
SMD/triangle.smd model/x.smd
B3D/WusonBlitz.b3d model/x.b3d
MS3D/Wuson.ms3d model/x.ms3d
MD5/SimpleCube.md5mesh model/x.md5mesh
EOS
fi
echo "installed into a temporary prefix; ran from another folder"
