#!/usr/bin/env bash
# Regenerates the README's pictures (docs/*.png) with the built skinview. Needs a display, or:
#   xvfb-run -a -s "-screen 0 1280x720x24" docs/make_pictures.sh [path/to/skinview]
# Look at every picture before committing it.
# docs/window-record.png is not made here: it is the real window captured while recording (the
# Outliner cropped from `import -window root`, the Export section driven with xdotool).
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
# The weights view lit as the shaded view is (the default) and flat (--flat), side by side, cropped
# to the character.
lit_tmp="$(mktemp -d)"
for shading in lit flat; do
  flag=(); [ "$shading" = flat ] && flag=(--flat)
  "$exe" assets/default.glb --screenshot "$lit_tmp/$shading.png" --size 960x720 --view weights \
    --bone upperarm_l --clip walk --time 0.3 "${flag[@]}"
  convert "$lit_tmp/$shading.png" -crop 320x620+290+70 +repage -bordercolor '#111111' -border 2 \
    "$lit_tmp/$shading-crop.png"
done
convert "$lit_tmp"/{lit,flat}-crop.png +append docs/screenshot-weights-lit-flat.png
rm -rf "$lit_tmp"
# A blend: the wave layered over the walk, masked to the right arm.
"$exe" assets/default.glb --screenshot docs/screenshot-wave-over-walk.png --size 560x400 \
  --clip walk --time 0.3 --layer wave:mask=clavicle_r
# The orthographic side view (README, The viewer: numpad 3 in the window, --camera-view here):
# mid-stride, the skeleton over the mesh, no perspective (the far leg as long as the near one).
"$exe" assets/default.glb --screenshot docs/screenshot-side-ortho.png --size 560x400 \
  --clip walk --time 0.4 --camera-view right --skeleton
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
# The LBS/DQS difference view of the same frame: the arm (as above, a little wider) over the
# legend, cut from a render with the panels (--ui --legend-open: the legend whole, in the corner
# where it covers least of the model: the top-right here).
"$exe" assets/default.glb --clip twist --time 1 --view method-diff --diff-methods lbs,dqs \
  --size 1440x1080 --screenshot "$methods_tmp/diff.png"
"$exe" assets/default.glb --clip twist --time 1 --view method-diff --diff-methods lbs,dqs \
  --size 1440x1080 --ui --legend-open --screenshot "$methods_tmp/diff-ui.png"
convert "$methods_tmp/diff.png" -crop 512x375+640+210 +repage "$methods_tmp/diff-arm.png"
convert "$methods_tmp/diff-ui.png" -crop 512x116+616+4 +repage "$methods_tmp/diff-legend.png"
convert "$methods_tmp"/diff-{arm,legend}.png -background '#1b1c1f' -append +repage \
  -bordercolor '#111111' -border 2 docs/screenshot-method-diff.png
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
# Morph targets (README, Morph targets): the default character's face in the face clip, neutral
# (0 s), blinking (0.6 s: blink 1) and smiling (1.7 s: smile 1), seen from the front (a turntable's
# frame at -45 degrees from the opening view), rendered large and cropped to the head.
face="$(mktemp -d)"
labels=("0 s: neutral" "0.6 s: blink 1" "1.7 s: smile 1")
tiles=()
i=0
for t in 0 0.6 1.7; do
  "$exe" assets/default.glb --clip face --time "$t" --orbit 45 --fps 1 --size 2880x2160 \
    --record "$face/$t"
  convert "$face/$t/frame_00007.png" -crop 300x260+1290+390 +repage -resize 150% "$face/$t.png"
  tiles+=(-label "${labels[$i]}" "$face/$t.png")
  i=$((i + 1))
done
montage "${tiles[@]}" -tile 3x1 -geometry +2+2 -background '#1b1c1f' -fill '#d0d0d0' \
  -font DejaVu-Sans -pointsize 16 docs/morph-face.png
rm -rf "$face"
# Animations from other files (README): CMU's motion-capture take 01_01.bvh added to the default
# character with --anim and a joint map (docs/cmu-bvh-to-default.json), retargeted, beside the
# BVH's own skeleton at the same time, both seen from the right.
anim_tmp="$(mktemp -d)"
"$exe" assets/default.glb --anim "$models/BVH/01_01.bvh" --joint-map docs/cmu-bvh-to-default.json \
  --clip Motion --time 3 --camera-view right --size 800x600 --screenshot "$anim_tmp/character.png"
"$exe" "$models/BVH/01_01.bvh" --time 3 --camera-view right --size 800x600 \
  --screenshot "$anim_tmp/bvh.png"
for f in character bvh; do
  convert "$anim_tmp/$f.png" -crop 360x420+440+150 +repage -bordercolor '#111111' -border 2 \
    "$anim_tmp/$f-crop.png"
done
convert "$anim_tmp"/{character,bvh}-crop.png +append docs/screenshot-anim-bvh.png
rm -rf "$anim_tmp"
# Comparing two versions (README): the default character against a version of it made by
# docs/rig_version.py (forearm_l moved, hand_r renamed, the left elbow repainted), the weight-change
# view with its legend (--ui), cropped to the model and the legend. Wide enough that the legend
# finds a corner clear of the model (the raised hand) and is drawn whole there: without room it
# would fold to its title row, not cover the model.
cmp_tmp="$(mktemp -d)"
docs/rig_version.py assets/default.glb "$cmp_tmp/version2.glb"
"$exe" --compare assets/default.glb "$cmp_tmp/version2.glb" --clip wave --time 0.8 --ui \
  --size 1920x720 --screenshot "$cmp_tmp/compare.png"
convert "$cmp_tmp/compare.png" -crop 910x650+700+4 +repage -bordercolor '#111111' -border 2 \
  docs/screenshot-compare.png
rm -rf "$cmp_tmp"
