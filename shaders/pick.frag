// The picking ID pass (src/gfx/picker.h): writes which triangle of which mesh covers the pixel,
// drawn with skin.vert or mesh.vert exactly as the frame was, into a 1x1 RG32UI target.
// gl_PrimitiveID counts the triangles of the draw call: the mesh's triangle index.

uniform uint u_pick_mesh;  // mesh index + 1 (0 in the target means nothing was hit)

out uvec2 pick_id;

void main() { pick_id = uvec2(u_pick_mesh, uint(gl_PrimitiveID)); }
