// Shared by skin.vert and mesh.vert (the loader concatenates: version line, injected #defines,
// this file, then the stage's own file). Computes the colour of the debug views per vertex.
//
// View modes (u_view_mode): 0 shaded (material colour), 1 weight of the selected bone as a heat
// map (0 blue -> 1 red), 2 dominant joint (stable colour per skeleton joint, not interpolated:
// see v_flat_color), 3 influences per vertex (1 grey, 2 green, 3 yellow, 4 orange; vertices
// that lost weight to the 4-limit magenta), 4 weight-sum error (vertices whose stored weights
// did not sum to 1 red, unweighted ones yellow, the rest grey).

layout(location = 0) in vec3 a_position;  // bind space (as stored in the file)
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in uvec4 a_joints;   // skin bone indices of this mesh
layout(location = 4) in vec4 a_weights;   // sum 1, largest first
layout(location = 5) in uvec2 a_info;     // x: dominant skeleton joint, y: VertexFlag bits

uniform mat4 u_world;      // model space -> world (the up-axis fix)
uniform mat4 u_view_proj;  // world -> clip
uniform vec4 u_base_color;
uniform int u_view_mode;
uniform int u_selected_bone;  // skin bone of this mesh for the heat map; -1 when not in this skin

out vec3 v_world_normal;
out vec2 v_uv;
out vec4 v_color;
flat out vec4 v_flat_color;  // the provoking vertex's colour: hard edges between joints

vec3 heat(float w) {
  w = clamp(w, 0.0, 1.0);
  vec3 c = vec3(0.0);
  c.r = smoothstep(0.5, 0.75, w);
  c.g = w < 0.5 ? smoothstep(0.0, 0.25, w) : 1.0 - smoothstep(0.75, 1.0, w);
  c.b = 1.0 - smoothstep(0.25, 0.5, w);
  return c;
}

vec3 joint_color(uint j) {
  // A hash spread over hue; the same joint always gets the same colour.
  uint h = j * 2654435761u;
  float hue = float(h >> 8) / 16777216.0;
  vec3 k = clamp(abs(mod(hue * 6.0 + vec3(0.0, 4.0, 2.0), 6.0) - 3.0) - 1.0, 0.0, 1.0);
  return mix(vec3(0.35), k, 0.8);
}

vec4 view_color() {
  if (u_view_mode == 1) {
    float w = 0.0;
    for (int i = 0; i < 4; ++i) {
      if (int(a_joints[i]) == u_selected_bone && a_weights[i] > 0.0) w += a_weights[i];
    }
    return vec4(heat(w), 1.0);
  }
  if (u_view_mode == 2) return vec4(joint_color(a_info.x), 1.0);
  if (u_view_mode == 3) {
    if ((a_info.y & 1u) != 0u) return vec4(1.0, 0.0, 1.0, 1.0);
    int n = 0;
    for (int i = 0; i < 4; ++i) n += a_weights[i] > 0.0 ? 1 : 0;
    vec3 c = n <= 1 ? vec3(0.6) : n == 2 ? vec3(0.2, 0.8, 0.2) : n == 3 ? vec3(0.95, 0.9, 0.2)
                                                                        : vec3(1.0, 0.5, 0.1);
    return vec4(c, 1.0);
  }
  if (u_view_mode == 4) {
    if ((a_info.y & 2u) != 0u) return vec4(1.0, 0.1, 0.1, 1.0);
    if ((a_info.y & 4u) != 0u) return vec4(1.0, 0.9, 0.1, 1.0);
    return vec4(0.55, 0.55, 0.55, 1.0);
  }
  return u_base_color;
}
