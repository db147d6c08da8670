// Tube meshes for the default character: smooth skinned capsules with a varying elliptical
// cross-section, and weights that blend smoothly between joints along the tube's axis.
//
// A Tube runs along a straight axis from `start` for `length` units and is closed at both ends
// by half-ellipsoid caps. Its cross-section at axial position a (0 at start) is an ellipse with
// radius ru(a) along `side` and rv(a) along axis x side; the radii are smoothstep-interpolated
// between RadiusKeys, so the surface has no creases. Normals are the analytic gradients of that
// surface (not averaged faces), so a seam or pole has the same normal on every copy of a vertex.
//
// Weights depend on the axial position only: joints[0] owns the tube up to boundaries[0],
// joints[k] between boundaries[k-1] and boundaries[k], and around each boundary a zone of
// +-half_width blends the two with a smoothstep (stick-breaking: joint k gets
// prod_{m<k} f_m * (1 - f_k)), so the weights sum to 1 and vary smoothly along the limb: a
// vertex in the elbow zone is, e.g., 2/3 upper arm and 1/3 forearm. Weights are then quantised
// to multiples of 2^-16 whose integers sum to 65536, so their float sum is exactly 1 in any
// order of addition.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace sv::tools {

struct RadiusKey {
  float a;   // axial position (units from start)
  float ru;  // radius along `side`
  float rv;  // radius along cross(axis, side)
};

struct Boundary {
  float a;           // axial position where the next joint takes over
  float half_width;  // half the blend zone; > 0
};

struct Tube {
  glm::vec3 start{0.0f};
  glm::vec3 axis{0.0f, 1.0f, 0.0f};  // unit
  glm::vec3 side{1.0f, 0.0f, 0.0f};  // unit, perpendicular to axis
  float length = 1.0f;
  float cap_start = 0.1f;            // semi-axis of the start cap along -axis
  float cap_end = 0.1f;              // semi-axis of the end cap along +axis
  std::vector<RadiusKey> radii;      // increasing a; at least one
  std::vector<uint8_t> joints;       // at least one
  std::vector<Boundary> boundaries;  // joints.size() - 1, increasing a
  int sides = 20;                    // vertices around (plus one seam copy)
  float ring_spacing = 0.02f;        // axial distance between body rings (denser in blend zones)
  int cap_rings = 6;                 // rings per cap, pole included
  float texel_scale = 1.0f;          // v units per unit of length along the surface
};

// Flat vertex streams of the whole character, one entry per vertex, and triangle indices.
struct MeshData {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;
  std::vector<glm::vec2> uvs;
  std::vector<glm::u8vec4> joints;  // largest weight first; unused slots joint 0, weight 0
  std::vector<glm::vec4> weights;   // multiples of 2^-16, summing to exactly 1
  std::vector<uint32_t> indices;    // counter-clockwise seen from outside
};

// Appends `tube` to `mesh`. Pole rings emit one triangle per quad, so no triangle is degenerate.
void append_tube(const Tube& tube, MeshData& mesh);

}  // namespace sv::tools
