#!/usr/bin/env bash
# packaging/make_icons.sh [BUILD_DIR]: renders the desktop icons (packaging/icons/skinview-N.png)
# from the default character with skinview's own thumbnailer. Needs a display; under Xvfb:
#   xvfb-run -a packaging/make_icons.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
skinview="${1:-$root/build}/skinview"
for size in 48 128 256; do
  "$skinview" --no-cache --thumbnail "$root/assets/default.glb" \
    "$root/packaging/icons/skinview-$size.png" "$size"
done
