#!/usr/bin/env bash
# fuzz/make_seeds.sh OUT_DIR [WORKER]: writes one seed corpus per format family under OUT_DIR
# (gltf, fbx, x, dae, bvh, smd_md5), from the assimp-testmodels package, for import_fuzzer; the
# corpus `image` for image_fuzzer (ImageMagick's convert); the corpus `model` for
# model_reader_fuzzer: the flat binary models that the import worker WORKER (default:
# OUT_DIR/../skinview-import) writes for the skinned and animated test models; and the corpus
# `cache` for cache_entry_fuzzer (the same streams behind two zero bytes).
# Each import seed is one hint byte (the index into sv::fuzz::kHints, fuzz/fuzz_input.h) followed
# by the file. Large files are cut down (BVH to 10 frames, SMD to 200 triangles) so the fuzzer
# runs fast on them.
set -euo pipefail
out="${1:?usage: make_seeds.sh OUT_DIR [WORKER]}"
worker="${2:-$(dirname "$out")/skinview-import}"
models="${SKINVIEW_TEST_MODELS:-/usr/share/assimp/models}"

# seed FAMILY HINT_INDEX FILE [NAME]: copies FILE (or stdin when FILE is -) behind the hint byte.
seed() {
  local family="$1" hint="$2" file="$3" name="${4:-$(basename "$3")}"
  mkdir -p "$out/$family"
  { printf "\\x$(printf %02x "$hint")"; cat "$file"; } >"$out/$family/$name"
}

seed gltf 0 "$models/glTF2/simple_skin/simple_skin.gltf"
for f in BoxTextured BoxWithInfinites BoxBadNormals; do
  seed gltf 1 "$models/glTF2/$f-glTF-Binary/$f.glb"
done

for f in huesitos box phong_cube animation_with_skeleton; do seed fbx 2 "$models/FBX/$f.fbx"; done

for f in test_cube_text test_cube_binary test_cube_compressed test kwxport_test_cubewithvcolors; do
  seed x 3 "$models/X/$f.x"
done

for f in box_nested_animation library_animation_clips cube_tristrips cube_emptyTags regr01 \
  cameras; do
  seed dae 4 "$models/Collada/$f.dae"
done

# BVH: the hierarchy and the first 10 frames.
for f in 01_01 01_03; do
  awk '/^Frames:/ {print "Frames: 10"; next} {print} /^Frame Time:/ {n=0; on=1; next} on && ++n >= 10 {exit}' \
    "$models/BVH/$f.bvh" >"$out/$f.bvh.tmp"
  seed bvh 5 "$out/$f.bvh.tmp" "$f.bvh"
  rm "$out/$f.bvh.tmp"
done

# SMD: nodes and skeleton as they are, the first 200 triangles.
awk '/^triangles/ {tri=1; print; next} tri && ++n > 800 {print "end"; exit} {print}' \
  "$models/SMD/WusonSMD.smd" >"$out/wuson.smd.tmp"
seed smd_md5 6 "$out/wuson.smd.tmp" WusonSMD.smd
rm "$out/wuson.smd.tmp"
seed smd_md5 6 "$models/SMD/triangle.smd"
seed smd_md5 7 "$models/MD5/SimpleCube.md5mesh"
# MD5 animation: assimp-testmodels has none, so a short one for SimpleCube's joints, written
# here (hint md5anim), and the cube with it appended (hint md5mesh: from memory assimp reads the
# same bytes as the mesh and as its .md5anim, so both readers see their sections).
cat >"$out/cube.md5anim.tmp" <<'ANIM'
MD5Version 10
commandline ""

numFrames 3
numJoints 3
frameRate 24
numAnimatedComponents 7

hierarchy {
	"origin"	-1 0 0	//
	"root"	0 56 0	// origin
	"joint1"	1 7 3	// root
}

bounds {
	( -1 -1 -1 ) ( 1 1 33 )
	( -1 -1 -1 ) ( 1 1 33 )
	( -1 -1 -1 ) ( 1 1 33 )
}

baseframe {
	( 0 0 0 ) ( 0 0 0 )
	( 0 0 0 ) ( -0.5001951456 0.4998047054 -0.4998047054 )
	( 0.0249728262 0.0000019062 31.9803333282 ) ( -0.7071067691 0.0000000527 0.0000000105 )
}

frame 0 {
	-0.5001951456 0.4998047054 -0.4998047054
	0.0249728262 0.0000019062 31.9803333282 0
}

frame 1 {
	-0.45 0.55 -0.5
	0.0249728262 0.0000019062 31.9803333282 0.25
}

frame 2 {
	-0.4 0.6 -0.5
	0.0249728262 0.0000019062 31.9803333282 0.5
}
ANIM
seed smd_md5 9 "$out/cube.md5anim.tmp" SimpleCube.md5anim
cat "$models/MD5/SimpleCube.md5mesh" "$out/cube.md5anim.tmp" >"$out/cube_both.tmp"
seed smd_md5 7 "$out/cube_both.tmp" SimpleCubeWithAnim.md5mesh
rm "$out/cube.md5anim.tmp" "$out/cube_both.tmp"

# The model reader's seeds: the worker's output for real models (every section kind: skinned
# and rigid meshes, materials with and without textures, linear, step and cubic tracks, morph
# targets and their weight tracks: AnimatedMorphCube and the default character's face).
mkdir -p "$out/model"
for f in glTF2/simple_skin/simple_skin.gltf X/BCN_Epileptic.X X/anim_test.x FBX/huesitos.fbx \
  SMD/triangle.smd MD5/SimpleCube.md5mesh glTF2/BoxTextured-glTF-Binary/BoxTextured.glb \
  Collada/library_animation_clips.dae \
  glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf; do
  "$worker" --result-fd 1 --file "$models/$f" >"$out/model/$(basename "$f").svm"
done
# A skeleton and a clip without a mesh: the BVH seed above (10 frames), without its hint byte.
tail -c +2 "$out/bvh/01_01.bvh" >"$out/01_01.bvh"
"$worker" --result-fd 1 --file "$out/01_01.bvh" >"$out/model/01_01.bvh.svm"
rm "$out/01_01.bvh"
"$worker" --result-fd 1 --file "$(dirname "$0")/../assets/default.glb" >"$out/model/default.glb.svm"

# image_fuzzer's seeds: tiny images of each format the worker decodes (import/images.h), made
# here with ImageMagick, each behind its hint byte (png 0, jpg 1, bmp 2, gif 3, tga 4).
if command -v convert >/dev/null; then
  hint=0
  for ext in png jpg bmp gif tga; do
    convert -size 5x3 gradient:red-blue "$out/seed.$ext"
    seed image "$hint" "$out/seed.$ext" "gradient.$ext"
    rm "$out/seed.$ext"
    hint=$((hint + 1))
  done
  convert -size 4x4 xc:'rgba(10,200,30,0.5)' -define png:color-type=6 "$out/seed.png"
  seed image 0 "$out/seed.png" rgba.png
  rm "$out/seed.png"
fi
# The cache entry fuzzer's seeds: each model seed behind two zero bytes (no flags, no side files;
# fuzz/cache_entry_fuzzer.cpp).
mkdir -p "$out/cache"
for f in "$out"/model/*.svm; do
  { printf '\x00\x00'; cat "$f"; } >"$out/cache/$(basename "$f")"
done

du -sh "$out"/*
