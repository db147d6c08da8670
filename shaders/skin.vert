// GPU linear blend skinning. The palette lives in a texture buffer (RGBA32F), three texels per
// bone holding the rows of the 3x4 matrix K = B * M^-1, so the joint count has no small limit
// and no bone limit is shared with C++. The normal palette has the same layout (rows of the 3x3
// normal matrix, w unused). u_palette_base is this mesh's first bone in both buffers.
//
//   p' = (sum_i w_i K_i) p        n' = normalize((sum_i w_i N_i) n)      (as sv::skin_lbs)

uniform samplerBuffer u_palette;
uniform samplerBuffer u_normal_palette;
uniform int u_palette_base;

out vec3 v_model_position;  // skinned, model space: captured by transform feedback in tests

void main() {
  vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);
  vec3 n0 = vec3(0.0), n1 = vec3(0.0), n2 = vec3(0.0);
  for (int i = 0; i < 4; ++i) {
    float w = a_weights[i];
    if (w == 0.0) continue;
    int t = 3 * (u_palette_base + int(a_joints[i]));
    r0 += w * texelFetch(u_palette, t + 0);
    r1 += w * texelFetch(u_palette, t + 1);
    r2 += w * texelFetch(u_palette, t + 2);
    n0 += w * texelFetch(u_normal_palette, t + 0).xyz;
    n1 += w * texelFetch(u_normal_palette, t + 1).xyz;
    n2 += w * texelFetch(u_normal_palette, t + 2).xyz;
  }
  vec4 p = vec4(a_position, 1.0);
  vec3 skinned = vec3(dot(r0, p), dot(r1, p), dot(r2, p));
  vec3 normal = vec3(dot(n0, a_normal), dot(n1, a_normal), dot(n2, a_normal));

  v_model_position = skinned;
  vec4 world = u_world * vec4(skinned, 1.0);
  v_world_normal = mat3(u_world) * normal;
  v_uv = a_uv;
  v_color = view_color();
  v_flat_color = v_color;
  gl_Position = u_view_proj * world;
}
