// GPU skinning: linear blending (LBS), dual quaternions (DQS) and optimised centres of rotation
// (CoR), the formulas of src/anim/skin_method.h, mirrored from the CPU's per-vertex loop
// (src/anim/skinning_methods.cpp) so both paths give the same vertices up to rounding.
//
// The palette lives in a texture buffer (RGBA32F), three texels per bone holding the rows of the
// 3x4 matrix K = B * M^-1, so the joint count has no small limit and no bone limit is shared
// with C++. The normal palette has the same layout (rows of the 3x3 normal matrix, w unused).
// The method palette (DQS, CoR) has SV_METHOD_TEXELS texels per bone (gfx/gpu_model.h): the
// rotation quaternion, its dual part, the rows of the bind-space stretch S (w of the first row:
// 1 when the bone is scaled). u_palette_base is this mesh's first bone in every buffer.
//
//   LBS  p' = (sum_i w_i K_i) p        n' = (sum_i w_i N_i) n
//   DQS  p' = c applied to (A p)       n' = normalize(R(c) cof(A) n)
//   CoR  p' = R(q) A (p - p*) + sum_i w_i K_i p*
//
// A is the weighted blend of the stretches when any of the vertex's bones is scaled, else I.
// The sums run over the vertex's 4 influences, or 8 where u_influences is 8 (common.vert:
// influence_weight); the pivot of DQS's hemisphere test is the largest, always in the first 4.
//
// Compact streams (src/skin/compact_streams.h; u_compact, common.vert's read_vertex): the bind
// normal, joints and weights decoded first; then the same LBS as the float streams, its sums
// written in the CPU reference loop's order and `precise` (common.vert), so the GPU's positions
// equal skin_lbs_compact_reference's exactly (tests/gfx/compact_gl_test.cpp); the output normal
// is rounded through its octahedral code, as the CPU path stores it. DQS and CoR likewise
// (skin_method_compact, against skin_compact_reference).
//
// Morph targets (src/anim/morph.h) apply first, in bind space: p and n above are
//   p = a_position + sum_i w_i dp_i      n = g_bind_normal + sum_i w_i dn_i
// over this mesh's targets of non-zero weight only. Their deltas live in one texture buffer
// (RGBA32F, per target two texels per vertex: position delta, normal delta); u_morph_active
// lists this frame's active targets (first texel of the target's deltas, weight as float bits)
// from entry u_morph_first on, u_morph_count of them. No target count is fixed here.

#ifndef SV_METHOD_TEXELS
#error "skin.vert needs SV_METHOD_TEXELS (gfx/gpu_model.h)"
#endif

layout(location = 6) in vec3 a_center;  // CoR: centre of rotation, bind space

uniform samplerBuffer u_palette;
uniform samplerBuffer u_normal_palette;
uniform samplerBuffer u_method_palette;
uniform int u_palette_base;
uniform int u_method;  // 0 LBS, 1 DQS, 2 CoR (sv::SkinMethod)

uniform samplerBuffer u_morph_deltas;
uniform isamplerBuffer u_morph_active;
uniform int u_morph_first;
uniform int u_morph_count;
// --- Crowds (gfx/crowd_gpu.h) -------------------------------------------------------------------
// u_crowd_records 0: one model, drawn at u_world with its palette at u_palette_base. Otherwise the
// draw is instanced and the palette buffers hold every palette group's palette, one after the
// other; instance gl_InstanceID's record is 4 texels of u_palette from texel u_crowd_records - 1:
// the rows of its model-to-world 3x4 matrix, then (first bone of its palette group, 0, 0, 0).
// main() sets these two first; everything below reads them instead of the uniforms.
uniform int u_crowd_records;
int palette_base;  // u_palette_base, plus the instance's palette group in a crowd
mat4 world_matrix;  // u_world, or the instance's model-to-world in a crowd

void select_instance() {
  palette_base = u_palette_base;
  world_matrix = u_world;
  if (u_crowd_records == 0) return;
  int r = u_crowd_records - 1 + 4 * gl_InstanceID;
  world_matrix = transpose(mat4(texelFetch(u_palette, r), texelFetch(u_palette, r + 1),
                                texelFetch(u_palette, r + 2), vec4(0.0, 0.0, 0.0, 1.0)));
  palette_base += int(texelFetch(u_palette, r + 3).x);
}
// --- end of crowds ------------------------------------------------------------------------------

out vec3 v_model_position;  // skinned, model space: captured by transform feedback in tests
// The skinned normal as the kernels write it (on compact streams: the code's direction, of L1
// norm 1), model space, before the shading's normalisation: captured in tests as above.
out vec3 v_model_normal;

vec3 g_position;  // the vertex after its morph targets, bind space (apply_morphs)
vec3 g_normal;

void apply_morphs() {
  g_position = a_position;
  g_normal = g_bind_normal;
  for (int i = 0; i < u_morph_count; ++i) {
    ivec4 e = texelFetch(u_morph_active, u_morph_first + i);
    float w = intBitsToFloat(e.y);
    int t = e.x + 2 * gl_VertexID;
    g_position += w * texelFetch(u_morph_deltas, t).xyz;
    g_normal += w * texelFetch(u_morph_deltas, t + 1).xyz;
  }
}

// v rotated by the unit quaternion q (xyz vector part, w scalar).
vec3 quat_rotate(vec4 q, vec3 v) {
  return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}

// LBS of the point p with the vertex's bones.
vec3 blend_point(vec3 p) {
  vec4 h = vec4(p, 1.0);
  vec3 sum = vec3(0.0);
  float share = first_share();
  for (int i = 0; i < influence_count(); ++i) {
    float w = influence_weight(i, share);
    if (w == 0.0) continue;
    int t = 3 * (palette_base + influence_joint(i));
    sum += w * vec3(dot(texelFetch(u_palette, t + 0), h), dot(texelFetch(u_palette, t + 1), h),
                    dot(texelFetch(u_palette, t + 2), h));
  }
  return sum;
}

void skin_method(out vec3 skinned, out vec3 normal) {
  int pivot = 0;
  for (int i = 1; i < 4; ++i)
    if (g_weights[i] > g_weights[pivot]) pivot = i;
  vec4 qp = texelFetch(u_method_palette, SV_METHOD_TEXELS * (palette_base + int(g_joints[pivot])));
  vec4 b0 = vec4(0.0), be = vec4(0.0);
  vec3 a0 = vec3(0.0), a1 = vec3(0.0), a2 = vec3(0.0);  // rows of A
  bool scaled = false;
  float share = first_share();
  for (int i = 0; i < influence_count(); ++i) {
    int t = SV_METHOD_TEXELS * (palette_base + influence_joint(i));
    vec4 real = texelFetch(u_method_palette, t);
    vec4 s0 = texelFetch(u_method_palette, t + 2);
    scaled = scaled || s0.w != 0.0;
    float w = influence_weight(i, share);
    float s = dot(real, qp) < 0.0 ? -w : w;
    b0 += s * real;
    be += s * texelFetch(u_method_palette, t + 1);
    a0 += w * s0.xyz;
    a1 += w * texelFetch(u_method_palette, t + 3).xyz;
    a2 += w * texelFetch(u_method_palette, t + 4).xyz;
  }
  if (!scaled) {
    a0 = vec3(1.0, 0.0, 0.0);
    a1 = vec3(0.0, 1.0, 0.0);
    a2 = vec3(0.0, 0.0, 1.0);
  }
  float len2 = dot(b0, b0);
  float inv = len2 > 0.0 ? inversesqrt(len2) : 0.0;
  vec4 c0 = b0 * inv;
  if (u_method == 2) {
    vec3 d = g_position - a_center;
    skinned = quat_rotate(c0, vec3(dot(a0, d), dot(a1, d), dot(a2, d))) + blend_point(a_center);
  } else {
    vec4 ce = be * inv;
    vec3 p1 = vec3(dot(a0, g_position), dot(a1, g_position), dot(a2, g_position));
    vec3 t = 2.0 * (c0.w * ce.xyz - ce.w * c0.xyz + cross(c0.xyz, ce.xyz));
    skinned = quat_rotate(c0, p1) + t;
  }
  // The cofactor of A (its inverse transpose times det A), oriented by the sign of det A.
  vec3 k0 = cross(a1, a2), k1 = cross(a2, a0), k2 = cross(a0, a1);
  float sign = dot(a0, k0) < 0.0 ? -1.0 : 1.0;
  vec3 n = sign * vec3(dot(k0, g_normal), dot(k1, g_normal), dot(k2, g_normal));
  vec3 r = quat_rotate(c0, n);
  float rl = dot(r, r);
  normal = rl > 0.0 ? r * inversesqrt(rl) : vec3(0.0);
}

// The compact streams' DQS and CoR (u_compact 1, u_method 1 or 2): the CPU's scalar loop
// (src/skin/compact_methods.cpp, which is skinning_methods.cpp's) operation for operation, its
// sums in glm's order and its products unfused (`precise`), so that the positions and the normal's
// code equal skin_compact_reference's (tests/gfx/compact_gl_test.cpp). Every slot is summed, a
// zero weight too, as that loop does; the normal is not normalised (only its code's direction is
// kept). 4 influences only (SkinnedPose::compact).
vec3 cross_glm(vec3 x, vec3 y) {
  precise vec3 r = vec3(x.y * y.z - y.y * x.z, x.z * y.x - y.z * x.x, x.x * y.y - y.x * x.y);
  return r;
}
float dot_glm(vec3 a, vec3 b) {
  precise float r = (a.x * b.x + a.y * b.y) + a.z * b.z;
  return r;
}
float dot4_glm(vec4 a, vec4 b) {
  precise float r = ((a.x * b.x + a.y * b.y) + a.z * b.z) + a.w * b.w;
  return r;
}
vec3 rotate_glm(vec4 q, vec3 v) {
  precise vec3 inner = cross_glm(q.xyz, v) + q.w * v;
  precise vec3 r = v + 2.0 * cross_glm(q.xyz, inner);
  return r;
}

void skin_method_compact(out vec3 skinned, out vec3 normal) {
  int pivot = 0;
  for (int i = 1; i < 4; ++i)
    if (g_weights[i] > g_weights[pivot]) pivot = i;
  vec4 qp = texelFetch(u_method_palette, SV_METHOD_TEXELS * (palette_base + int(g_joints[pivot])));
  precise vec4 b0 = vec4(0.0), be = vec4(0.0);
  bool scaled = false;
  for (int i = 0; i < 4; ++i) {
    int t = SV_METHOD_TEXELS * (palette_base + int(g_joints[i]));
    vec4 real = texelFetch(u_method_palette, t);
    scaled = scaled || texelFetch(u_method_palette, t + 2).w != 0.0;
    float s = dot4_glm(real, qp) < 0.0 ? -g_weights[i] : g_weights[i];
    b0 = b0 + real * s;
    be = be + texelFetch(u_method_palette, t + 1) * s;
  }
  precise float len2 = dot4_glm(b0, b0);
  precise float inv = len2 > 0.0 ? 1.0 / sqrt(len2) : 0.0;
  precise vec4 c0 = b0 * inv;
  // The blended stretch's rows, summed slot by slot as glm sums the matrices.
  precise vec3 a0 = vec3(0.0), a1 = vec3(0.0), a2 = vec3(0.0);
  if (scaled) {
    for (int i = 0; i < 4; ++i) {
      int t = SV_METHOD_TEXELS * (palette_base + int(g_joints[i]));
      float w = g_weights[i];
      if (i == 0) {
        a0 = texelFetch(u_method_palette, t + 2).xyz * w;
        a1 = texelFetch(u_method_palette, t + 3).xyz * w;
        a2 = texelFetch(u_method_palette, t + 4).xyz * w;
      } else {
        a0 = a0 + texelFetch(u_method_palette, t + 2).xyz * w;
        a1 = a1 + texelFetch(u_method_palette, t + 3).xyz * w;
        a2 = a2 + texelFetch(u_method_palette, t + 4).xyz * w;
      }
    }
  }
  precise vec3 p = g_position;
  if (u_method == 2) {
    // sum_i w_i K_i c, K_i c as glm's mat4 * vec4: (K0 c.x + K1 c.y) + (K2 c.z + K3).
    precise vec3 lc = vec3(0.0);
    vec3 c = a_center;
    for (int i = 0; i < 4; ++i) {
      int t = 3 * (palette_base + int(g_joints[i]));
      vec4 r0 = texelFetch(u_palette, t), r1 = texelFetch(u_palette, t + 1),
           r2 = texelFetch(u_palette, t + 2);
      precise vec3 kc = vec3((r0.x * c.x + r0.y * c.y) + (r0.z * c.z + r0.w),
                             (r1.x * c.x + r1.y * c.y) + (r1.z * c.z + r1.w),
                             (r2.x * c.x + r2.y * c.y) + (r2.z * c.z + r2.w));
      lc = i == 0 ? kc * g_weights[i] : lc + kc * g_weights[i];
    }
    precise vec3 d = p - c;
    if (scaled) d = vec3(dot_glm(a0, d), dot_glm(a1, d), dot_glm(a2, d));
    precise vec3 out_p = rotate_glm(c0, d) + lc;
    skinned = out_p;
  } else {
    precise vec4 ce = be * inv;
    precise vec3 p1 = scaled ? vec3(dot_glm(a0, p), dot_glm(a1, p), dot_glm(a2, p)) : p;
    precise vec3 t = 2.0 * ((c0.w * ce.xyz - ce.w * c0.xyz) + cross_glm(c0.xyz, ce.xyz));
    precise vec3 out_p = rotate_glm(c0, p1) + t;
    skinned = out_p;
  }
  precise vec3 n = g_normal;
  if (scaled) {
    // stretch_normal (skinning_kernels.h): the cofactor of A, oriented by the sign of det A.
    precise vec3 k0 = cross_glm(a1, a2), k1 = cross_glm(a2, a0), k2 = cross_glm(a0, a1);
    float sign = dot_glm(a0, k0) < 0.0 ? -1.0 : 1.0;
    n = sign * vec3(dot_glm(k0, n), dot_glm(k1, n), dot_glm(k2, n));
  }
  normal = oct_decode_raw(oct_encode(rotate_glm(c0, n)));
}

void main() {
  read_vertex();
  select_instance();
  apply_morphs();
  SV_PRECISE vec3 skinned;
  SV_PRECISE vec3 normal;
  if ((u_method == 1 || u_method == 2) && u_compact != 0) {
    skin_method_compact(skinned, normal);
  } else if (u_method == 1 || u_method == 2) {
    skin_method(skinned, normal);
  } else {
    vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);
    vec3 n0 = vec3(0.0), n1 = vec3(0.0), n2 = vec3(0.0);
    float share = first_share();
    for (int i = 0; i < influence_count(); ++i) {
      float w = influence_weight(i, share);
      if (w == 0.0) continue;
      int t = 3 * (palette_base + influence_joint(i));
      r0 += w * texelFetch(u_palette, t + 0);
      r1 += w * texelFetch(u_palette, t + 1);
      r2 += w * texelFetch(u_palette, t + 2);
      n0 += w * texelFetch(u_normal_palette, t + 0).xyz;
      n1 += w * texelFetch(u_normal_palette, t + 1).xyz;
      n2 += w * texelFetch(u_normal_palette, t + 2).xyz;
    }
    // Written out rather than dot(): the CPU loop's order of additions (llvmpipe sums a dot
    // product from its last term), so with `precise` both give the same floats.
    vec3 p = g_position, n = g_normal;
    skinned = vec3(((r0.x * p.x + r0.y * p.y) + r0.z * p.z) + r0.w,
                   ((r1.x * p.x + r1.y * p.y) + r1.z * p.z) + r1.w,
                   ((r2.x * p.x + r2.y * p.y) + r2.z * p.z) + r2.w);
    normal = vec3((n0.x * n.x + n0.y * n.y) + n0.z * n.z, (n1.x * n.x + n1.y * n.y) + n1.z * n.z,
                  (n2.x * n.x + n2.y * n.y) + n2.z * n.z);
    // The CPU path writes this normal as its octahedral code (skin_lbs_compact) and shades the
    // code's direction: rounded the same way here, both paths shade the same normal (up to a code
    // where the two sums differ in their last bit).
    if (u_compact != 0) normal = oct_decode_raw(oct_encode(normal));
  }

  v_model_position = skinned;
  v_model_normal = normal;
  vec4 world = world_matrix * vec4(skinned, 1.0);
  // A code's direction has L1 norm 1, so its length (1/sqrt(3) to 1) depends on the direction:
  // made unit before it is interpolated (as mesh.vert does), or the shading between two vertices
  // would lean towards the longer normal. The float blend is unit to within the blend's shrink.
  v_world_normal = mat3(world_matrix) * (u_compact != 0 ? normalize(normal) : normal);
  v_uv = a_uv;
  v_color = view_color();
  v_flat_color = v_color;
  gl_Position = u_view_proj * world;
}
