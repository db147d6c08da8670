// Shared by skin.vert and mesh.vert (the loader concatenates: version line, injected #defines,
// this file, then the stage's own file). Computes the colour of the debug views per vertex.
//
// View modes (u_view_mode): 0 shaded (material colour), 1 weight of the selected bone as a heat
// map (Blender's ramp, 0 blue -> 1 red), 2 dominant joint (the dominant joint's colour from the
// model's table, packed per vertex at upload; not interpolated: see v_flat_color), 3 influences per vertex (1 grey, 2 green, 3 yellow, 4 orange;
// vertices that lost weight to the 4-limit a pink -> magenta -> violet ramp of the share cut),
// 4 weight-sum error (grey within tolerance, unweighted yellow, off by more an orange -> red ramp
// of the error), 5 CPU vs GPU difference and 6 method vs method difference (both the heat ramp of
// a value per vertex, 0..1, that the CPU computed and uploaded: u_vertex_values, indexed by the
// vertex's index in its mesh; a negative value, no comparison, is grey), 7 weight change against
// another version of the rig (the same: "Compare with...", skin/rig_compare.h).
//
// Every colour comes from C++ (src/gfx/view_colors.h, injected as SV_* #defines), where the
// legends read them too; heat(), dominant_color() and sum_color() mirror the functions there.

// GLSL 4.00's `precise` (ARB_gpu_shader5 on a 3.30 context, which llvmpipe and every 4.x
// driver have): the skinning sums it marks are not contracted into fused multiply-adds, so
// skin.vert's arithmetic is the CPU reference loop's operation for operation (exactly equal
// positions on the compact streams: tests/gfx/compact_gl_test.cpp). Without the extension it is
// nothing, and the two differ by rounding.
#ifdef GL_ARB_gpu_shader5
#extension GL_ARB_gpu_shader5 : enable
#define SV_PRECISE precise
#else
#define SV_PRECISE
#endif

#if !defined(SV_HEAT_STOPS) || !defined(SV_INFLUENCE_COLORS) || !defined(SV_CUT_STOPS)
#error "common.vert needs the view colours: build with sv::view_color_defines()"
#endif
#ifndef SV_OCT_SCALE_BITS
#error "common.vert needs SV_OCT_SCALE_BITS: build with sv::gl::skin_program_defines()"
#endif

layout(location = 0) in vec3 a_position;  // bind space (as stored in the file)
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in uvec4 a_joints;   // skin bone indices of this mesh
layout(location = 4) in vec4 a_weights;   // sum 1; weighted slots first, by joint
layout(location = 5) in uvec2 a_info;     // x: dominant joint's colour (pack_rgb8), y: VertexFlag bits
                                         // (0-7) | weight-sum level (8-15, weight_sum_level)
                                         // | cut-weight level (16-23, cut_weight_level)
                                         // | weights above 0 (24-26, 0..4)
// The compact layout (src/skin/compact_streams.h), read instead of a_normal, a_joints' u16 and
// a_weights while u_compact is 1 (gfx/gpu_model.h: the compact vertex arrays): the normal as one
// octahedral code (snorm16 x2), the joints as u8 x4 (u16 x4 on a mesh of more than 255 joints;
// both arrive in a_joints), the first 3 weights (the 4th is 1 - ((w0 + w1) + w2)).
layout(location = 9) in uint a_oct_normal;
layout(location = 10) in vec3 a_weights3;
uniform int u_compact;
// Influences 5-8 (src/anim/model.h): bound only on meshes that keep them, read only while
// u_influences is 8 (gl::influences_uniform). With 8 the vertex blends a_weights scaled by
// 1 - sum(a_weights2), and a_weights2: its 8 largest weights renormalised.
layout(location = 7) in uvec4 a_joints2;
layout(location = 8) in vec4 a_weights2;
uniform int u_influences;

uniform mat4 u_world;      // model space -> world (the up-axis fix)
uniform mat4 u_view_proj;  // world -> clip
uniform vec4 u_base_color;
uniform int u_view_mode;
uniform int u_selected_bone;  // skin bone of this mesh for the heat map; -1 when not in this skin
uniform samplerBuffer u_vertex_values;  // modes 5, 6: R32F, every mesh's vertices concatenated
uniform int u_vertex_base;              // this mesh's first vertex in u_vertex_values

out vec3 v_world_normal;
out vec2 v_uv;
out vec4 v_color;
flat out vec4 v_flat_color;  // the provoking vertex's colour: hard edges between joints

// The vertex's bind-space normal, joints and 4 weights from either layout (read_vertex()).
vec3 g_bind_normal;
uvec4 g_joints;
vec4 g_weights;

// compact_streams.h's oct_decode_raw, the same float operations in the same order (so the GPU
// reads exactly the normal the CPU kernels read): a vector of L1 norm 1, not normalised.
float oct_sign(float a) { return a >= 0.0 ? 1.0 : -1.0; }
vec3 oct_decode_raw(uint code) {
  float scale = uintBitsToFloat(uint(SV_OCT_SCALE_BITS));
  int sx = int(code << 16) >> 16, sy = int(code) >> 16;  // the two int16, sign-extended
  float x = max(float(sx) * scale, -1.0), y = max(float(sy) * scale, -1.0);
  float z = (1.0 - abs(x)) - abs(y);
  if (z < 0.0) return vec3((1.0 - abs(y)) * oct_sign(x), (1.0 - abs(x)) * oct_sign(y), z);
  return vec3(x, y, z);
}

// compact_streams.h's oct_encode (the CPU kernels' rounding of their output normal): divide by
// the L1 norm, fold the lower half, round to nearest even; no direction (an L1 norm below 2^-120,
// or not finite) encodes as 0. skin.vert rounds its compact output normal through it, so the GPU
// path shades the direction the CPU path's code gives.
uint oct_encode(vec3 n) {
  SV_PRECISE float l1 = (abs(n.x) + abs(n.y)) + abs(n.z);
  // kOctMinL1 (2^-120) and the largest float, as bits.
  if (!(l1 >= uintBitsToFloat(0x03800000u) && l1 <= uintBitsToFloat(0x7f7fffffu))) return 0u;
  SV_PRECISE float inv = 1.0 / l1;
  SV_PRECISE vec2 p = vec2(n.x * inv, n.y * inv);
  if (n.z < 0.0) p = vec2((1.0 - abs(p.y)) * oct_sign(p.x), (1.0 - abs(p.x)) * oct_sign(p.y));
  ivec2 q = ivec2(roundEven(p * 32767.0));
  return (uint(q.x) & 0xffffu) | (uint(q.y) << 16);
}

// Fills g_bind_normal, g_joints and g_weights; main() calls it first.
void read_vertex() {
  g_joints = a_joints;
  if (u_compact != 0) {
    g_bind_normal = oct_decode_raw(a_oct_normal);
    // fourth_weight() in C++: this order of operations.
    g_weights = vec4(a_weights3, 1.0 - ((a_weights3.x + a_weights3.y) + a_weights3.z));
  } else {
    g_bind_normal = a_normal;
    g_weights = a_weights;
  }
}

const vec3 kHeatStops[SV_HEAT_STOP_COUNT] = SV_HEAT_STOPS;
const vec3 kInfluenceColors[4] = SV_INFLUENCE_COLORS;
const vec3 kCutStops[3] = SV_CUT_STOPS;

// The slots the vertex skins with: 4, or 8 with the second set.
int influence_count() { return u_influences == 8 ? 8 : 4; }
// The first set's share of the weight (exactly 1 with 4 influences).
float first_share() {
  return u_influences == 8 ? 1.0 - (a_weights2.x + a_weights2.y + a_weights2.z + a_weights2.w)
                           : 1.0;
}
int influence_joint(int i) { return i < 4 ? int(g_joints[i]) : int(a_joints2[i - 4]); }
float influence_weight(int i, float share) {
  return i < 4 ? g_weights[i] * share : a_weights2[i - 4];
}

// The influences view's ramp of the cut share (level 1..255, cut_weight_color in C++).
vec3 cut_color(uint level) {
  float x = float(clamp(level, 1u, 255u) - 1u) / 254.0 * 2.0;
  int i = min(int(x), 1);
  return mix(kCutStops[i], kCutStops[i + 1], x - float(i));
}

vec3 heat(float w) {
  float x = clamp(w, 0.0, 1.0) * float(SV_HEAT_STOP_COUNT - 1);
  int i = min(int(x), SV_HEAT_STOP_COUNT - 2);
  return mix(kHeatStops[i], kHeatStops[i + 1], smoothstep(0.0, 1.0, x - float(i)));
}

vec3 sum_color(uint level) {
  if (level == 0u) return SV_SUM_OK_COLOR;
  return mix(SV_SUM_ERROR_LOW_COLOR, SV_SUM_ERROR_HIGH_COLOR, float(min(level, 255u) - 1u) / 254.0);
}

// The dominant joint's colour, RGB8 (joint_colors and unpack_rgb8 in C++).
vec3 dominant_color(uint bits) {
  return vec3(float(bits & 255u), float((bits >> 8) & 255u), float((bits >> 16) & 255u)) / 255.0;
}

vec4 view_color() {
#ifdef SV_SHADED_ONLY
  // The shaded view's programs (gfx/renderer.h): llvmpipe runs every branch of an `if` on a
  // uniform, masked, so the debug views' code below cost every vertex of a shaded draw (a tenth
  // of a 1M-vertex first open's CPU, BENCHMARKS.md round 24); they have programs of their own.
  return u_base_color;
#else
  if (u_view_mode == 1) {
    float w = 0.0;
    float share = first_share();
    for (int i = 0; i < influence_count(); ++i) {
      float wi = influence_weight(i, share);
      if (influence_joint(i) == u_selected_bone && wi > 0.0) w += wi;
    }
    return vec4(heat(w), 1.0);
  }
  if (u_view_mode == 2) return vec4(dominant_color(a_info.x), 1.0);
  if (u_view_mode == 3) {
    if ((a_info.y & 1u) != 0u) return vec4(cut_color((a_info.y >> 16) & 255u), 1.0);
    // Counted at upload from the float weights: the compact 4th weight is a rounding off 0.
    int n = int((a_info.y >> 24) & 7u);
    return vec4(kInfluenceColors[clamp(n, 1, 4) - 1], 1.0);
  }
  if (u_view_mode == 4) {
    if ((a_info.y & 4u) != 0u) return vec4(SV_SUM_UNWEIGHTED_COLOR, 1.0);
    return vec4(sum_color((a_info.y >> 8) & 255u), 1.0);
  }
  if (u_view_mode == 5 || u_view_mode == 6 || u_view_mode == 7) {
    // Negative: no comparison to show (the legend says why).
    float v = texelFetch(u_vertex_values, u_vertex_base + gl_VertexID).r;
    return v < 0.0 ? vec4(SV_NO_VALUE_COLOR, 1.0) : vec4(heat(v), 1.0);
  }
  return u_base_color;
#endif
}
