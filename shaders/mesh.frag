// Directional light plus hemisphere ambient (sky above, ground below) on the vertex colour,
// optionally times a base-colour texture. Two-sided: back faces use the flipped normal.
//
// Debug views (u_lit 2) take the same light as the shaded view, as Blender shades its weight
// paint: the light's brightness (luminance) only, so the ramp keeps its hues, scaled so that the
// brightest a surface can be lit (sky plus the full direct light) is the legend's colour; creases
// and form show as they do in the shaded view. u_lit 0 paints them flat: exactly the legend's
// colours (the View panel's "Flat colours").

in vec3 v_world_normal;
in vec2 v_uv;
in vec4 v_color;
flat in vec4 v_flat_color;

uniform vec3 u_light_dir;  // world space, unit, pointing towards the light
uniform vec3 u_light_color;
uniform vec3 u_sky_color;
uniform vec3 u_ground_color;
uniform int u_lit;          // 0: flat (debug views, unlit), 1: shaded, 2: debug view lit
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
  vec3 lit = base.rgb;
  if (u_lit == 1) {
    lit = base.rgb * (ambient + direct);
  } else if (u_lit == 2) {
    const vec3 kLuma = vec3(0.2126, 0.7152, 0.0722);  // Rec. 709 luminance
    float full = dot(u_sky_color + u_light_color, kLuma);
    lit = base.rgb * min(dot(ambient + direct, kLuma) / max(full, 1e-6), 1.0);
  }
  frag_color = vec4(pow(lit, vec3(1.0 / SV_DISPLAY_GAMMA)), base.a);
}
