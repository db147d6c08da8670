// Directional light plus hemisphere ambient (sky above, ground below) on the vertex colour,
// optionally times a base-colour texture. Two-sided: back faces use the flipped normal.

in vec3 v_world_normal;
in vec2 v_uv;
in vec4 v_color;
flat in vec4 v_flat_color;

uniform vec3 u_light_dir;  // world space, unit, pointing towards the light
uniform vec3 u_light_color;
uniform vec3 u_sky_color;
uniform vec3 u_ground_color;
uniform int u_lit;          // 0: unlit (debug views)
uniform int u_view_mode;    // as in common.vert; 2 (dominant joint) takes the flat colour
uniform int u_has_texture;
uniform sampler2D u_base_texture;

out vec4 frag_color;

void main() {
  vec4 base = u_view_mode == 2 ? v_flat_color : v_color;
  if (u_has_texture != 0) base *= texture(u_base_texture, v_uv);
  vec3 n = normalize(v_world_normal);
  if (!gl_FrontFacing) n = -n;
  if (any(isnan(n))) n = vec3(0.0, 1.0, 0.0);
  vec3 ambient = mix(u_ground_color, u_sky_color, 0.5 + 0.5 * n.y);
  vec3 direct = u_light_color * max(dot(n, u_light_dir), 0.0);
  // Debug views keep their colours readable: a soft shade only, no ambient tint.
  float shade = 0.55 + 0.45 * max(dot(n, u_light_dir), 0.0);
  vec3 lit = u_lit != 0 ? base.rgb * (ambient + direct) : base.rgb * shade;
  frag_color = vec4(pow(lit, vec3(1.0 / SV_DISPLAY_GAMMA)), base.a);
}
