// The CPU skinning path: a_position and a_normal already hold the skinned model-space vertex
// (written by sv::skin_lbs into a streamed buffer each frame); this shader only projects.

void main() {
  vec4 world = u_world * vec4(a_position, 1.0);
  v_world_normal = mat3(u_world) * a_normal;
  v_uv = a_uv;
  v_color = view_color();
  v_flat_color = v_color;
  gl_Position = u_view_proj * world;
}
