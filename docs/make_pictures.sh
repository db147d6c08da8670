#!/usr/bin/env bash
# Regenerates the README's pictures (docs/*.png) with the built skinview. Needs a display, or:
#   xvfb-run -a -s "-screen 0 1280x720x24" docs/make_pictures.sh [path/to/skinview]
# Look at every picture before committing it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exe="${1:-build/skinview}"
models=/usr/share/assimp/models

"$exe" "$models/X/Testwuson.X" --screenshot docs/screenshot-shaded.png --size 560x400 \
  --skeleton --clip Wuson_Walk --time 0.5
"$exe" "$models/X/BCN_Epileptic.X" --screenshot docs/screenshot-weights.png --size 560x400 \
  --view weights --bone B_UpperArm_Right --time 3
"$exe" "$models/FBX/huesitos.fbx" --screenshot docs/screenshot-weight-sum.png --size 560x400 \
  --view weight-sum --rest-pose
# A blend: the wave layered over the walk, masked to the right arm.
"$exe" assets/default.glb --screenshot docs/screenshot-wave-over-walk.png --size 560x400 \
  --clip walk --time 0.3 --layer wave:mask=clavicle_r
# A crowd (README, Crowds): 49 default characters walking out of phase, one instanced draw.
"$exe" assets/default.glb --screenshot docs/screenshot-crowd.png --size 720x405 \
  --clip walk --time 0.3 --crowd 49
# The same twist frame (the left forearm rolled half a turn) under LBS, DQS and CoR, side by side:
# each rendered large, cropped to the arm, joined left to right (ImageMagick).
methods_tmp="$(mktemp -d)"
for m in lbs dqs cor; do
  "$exe" assets/default.glb --clip twist --time 1 --method "$m" --size 1440x1080 \
    --screenshot "$methods_tmp/$m.png"
  convert "$methods_tmp/$m.png" -crop 450x375+675+210 +repage -bordercolor '#111111' -border 2 \
    "$methods_tmp/$m-arm.png"
done
convert "$methods_tmp"/{lbs,dqs,cor}-arm.png +append docs/screenshot-methods.png
rm -rf "$methods_tmp"
# The window itself: its frame after 40 frames, panels included (--exit-png), with an empty
# Recent list (a private XDG_CONFIG_HOME).
config="$(mktemp -d)"
XDG_CONFIG_HOME="$config" "$exe" assets/default.glb --clip wave --time 0.8 --bone upperarm_r \
  --view weights --skeleton --frames 40 --exit-png docs/screenshot-viewer.png
rm -rf "$config"
# Recording (README, Recording): contact sheets (ImageMagick's montage) of a recorded clip and of
# a turntable, each tile labelled with its frame's time or turn (fonts-dejavu-core's DejaVu Sans).
rec="$(mktemp -d)"
"$exe" assets/default.glb --clip walk --fps 10 --size 240x180 --record "$rec/walk"
labelled=()
for i in $(seq 0 11); do
  labelled+=(-label "$(awk "BEGIN { printf \"%.1f s\", $i / 10 }")" \
    "$rec/walk/$(printf 'frame_%05d.png' "$i")")
done
montage "${labelled[@]}" -tile 6x2 -geometry +2+2 -background '#1b1c1f' -fill '#d0d0d0' \
  -font DejaVu-Sans -pointsize 13 docs/record-walk-sheet.png
"$exe" "$models/X/BCN_Epileptic.X" --rest-pose --orbit 45 --fps 1 --size 240x180 \
  --record "$rec/turn"
labelled=()
for i in $(seq 0 7); do
  labelled+=(-label "$((i * 45)) deg" "$rec/turn/$(printf 'frame_%05d.png' "$i")")
done
montage "${labelled[@]}" -tile 4x2 -geometry +2+2 -background '#1b1c1f' -fill '#d0d0d0' \
  -font DejaVu-Sans -pointsize 13 docs/record-turntable-sheet.png
rm -rf "$rec"
