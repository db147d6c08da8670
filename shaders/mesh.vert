// The CPU skinning path: a_position and a_normal already hold the skinned model-space vertex
// (written by sv::skin_lbs into a streamed buffer each frame); this shader only projects. With
// u_compact the normal is the octahedral code skin_lbs_compact wrote (common.vert decodes it, this
// makes it unit before interpolation, as skin.vert does).

void main() {
  read_vertex();
  vec4 world = u_world * vec4(a_position, 1.0);
  // Unit before interpolation: skin.vert's reason (a code's direction is of L1 norm 1).
  v_world_normal = mat3(u_world) * (u_compact != 0 ? normalize(g_bind_normal) : g_bind_normal);
  v_uv = a_uv;
  v_color = view_color();
  v_flat_color = v_color;
  gl_Position = u_view_proj * world;
}
