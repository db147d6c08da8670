// See tube_mesh.h.
#include "tube_mesh.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

namespace sv::tools {
namespace {

constexpr double kPi = std::numbers::pi;

double smoothstep(double e0, double e1, double x) {
  const double t = std::clamp((x - e0) / (e1 - e0), 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

// Radii at axial position a and their derivatives d/da (zero at and beyond the keys).
struct Radii {
  double ru, rv, dru, drv;
};

Radii radii_at(const std::vector<RadiusKey>& keys, double a) {
  if (a <= keys.front().a) return {keys.front().ru, keys.front().rv, 0.0, 0.0};
  if (a >= keys.back().a) return {keys.back().ru, keys.back().rv, 0.0, 0.0};
  std::size_t k = 0;
  while (a > keys[k + 1].a) ++k;
  const RadiusKey& p = keys[k];
  const RadiusKey& q = keys[k + 1];
  const double span = static_cast<double>(q.a) - p.a;
  const double t = (a - p.a) / span;
  const double s = t * t * (3.0 - 2.0 * t);
  const double ds = 6.0 * t * (1.0 - t) / span;
  return {p.ru + (q.ru - p.ru) * s, p.rv + (q.rv - p.rv) * s, (q.ru - p.ru) * ds,
          (q.rv - p.rv) * ds};
}

// One joint weight per tube joint at axial position a (stick-breaking over the blend zones).
std::vector<double> weights_at(const Tube& tube, double a) {
  std::vector<double> w(tube.joints.size(), 0.0);
  double remaining = 1.0;
  for (std::size_t k = 0; k < tube.boundaries.size(); ++k) {
    const Boundary& b = tube.boundaries[k];
    const double f = smoothstep(static_cast<double>(b.a) - b.half_width,
                                static_cast<double>(b.a) + b.half_width, a);
    w[k] = remaining * (1.0 - f);
    remaining *= f;
  }
  w.back() = remaining;
  return w;
}

// The 4 largest influences (ties: lower joint first), quantised to integers summing to 65536
// by largest remainder, largest first.
void quantise(const Tube& tube, const std::vector<double>& w, glm::u8vec4& joints,
              glm::vec4& weights) {
  std::vector<std::pair<double, uint8_t>> inf;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i] > 0.0) inf.emplace_back(w[i], tube.joints[i]);
  }
  // The same joint may appear twice in a tube (it never does in the default character); merge.
  std::sort(inf.begin(), inf.end(), [](auto& x, auto& y) { return x.second < y.second; });
  for (std::size_t i = 1; i < inf.size();) {
    if (inf[i].second == inf[i - 1].second) {
      inf[i - 1].first += inf[i].first;
      inf.erase(inf.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  std::stable_sort(inf.begin(), inf.end(), [](auto& x, auto& y) { return x.first > y.first; });
  if (inf.size() > 4) inf.resize(4);
  double total = 0.0;
  for (auto& [v, j] : inf) total += v;

  constexpr int64_t kOne = 65536;
  std::array<int64_t, 4> q{};
  std::array<double, 4> rem{};
  int64_t sum = 0;
  for (std::size_t i = 0; i < inf.size(); ++i) {
    const double exact = inf[i].first / total * kOne;
    q[i] = static_cast<int64_t>(std::floor(exact));
    rem[i] = exact - static_cast<double>(q[i]);
    sum += q[i];
  }
  while (sum < kOne) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < inf.size(); ++i) {
      if (rem[i] > rem[best]) best = i;
    }
    ++q[best];
    rem[best] = -1.0;
    ++sum;
  }
  // Drop influences that rounded to zero, keep largest first.
  std::array<std::pair<int64_t, uint8_t>, 4> out{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < inf.size(); ++i) {
    if (q[i] > 0) out[n++] = {q[i], inf[i].second};
  }
  std::stable_sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n),
                   [](auto& x, auto& y) { return x.first > y.first; });
  joints = glm::u8vec4(0);
  weights = glm::vec4(0.0f);
  for (std::size_t i = 0; i < n; ++i) {
    joints[static_cast<int>(i)] = out[i].second;
    weights[static_cast<int>(i)] = static_cast<float>(static_cast<double>(out[i].first) / kOne);
  }
}

// One ring of the profile: axial position, radius factor (1 on the body, cos(phi) on a cap) and
// the axial component of the unnormalised normal.
struct Ring {
  double a;
  double scale;  // multiplies ru, rv
  bool cap;
  double cap_len;  // semi-axis of the cap (cap rings only)
  double phi;      // latitude on the cap, -pi/2 (start pole) .. pi/2 (end pole)
  double cap_a0;   // axial centre of the cap's ellipsoid
};

std::vector<Ring> profile(const Tube& t) {
  std::vector<Ring> rings;
  for (int k = 0; k < t.cap_rings; ++k) {  // start cap: pole first, equator excluded
    const double phi = -kPi / 2 + (kPi / 2) * k / t.cap_rings;
    rings.push_back({t.cap_start * std::sin(phi), std::cos(phi), true, t.cap_start, phi, 0.0});
  }
  // Body rings: evenly spaced, plus kZoneRings across every blend zone on the body so each
  // joint's falloff is sampled finely however narrow its zone; rings closer than a quarter of
  // the spacing are merged.
  constexpr int kZoneRings = 8;
  const int body = std::max(1, static_cast<int>(std::ceil(t.length / t.ring_spacing)));
  std::vector<double> at;
  for (int k = 0; k <= body; ++k) at.push_back(static_cast<double>(t.length) * k / body);
  for (const Boundary& b : t.boundaries) {
    for (int k = 0; k <= kZoneRings; ++k) {
      const double a = b.a - b.half_width + 2.0 * b.half_width * k / kZoneRings;
      if (a > 0.0 && a < t.length) at.push_back(a);
    }
  }
  std::sort(at.begin(), at.end());
  std::vector<double> merged;
  for (double a : at) {
    if (merged.empty() || a - merged.back() >= 0.25 * t.ring_spacing) {
      merged.push_back(a);
    } else if (a == static_cast<double>(t.length)) {
      merged.back() = a;  // keep the exact end ring, where the cap starts
    }
  }
  for (double a : merged) rings.push_back({a, 1.0, false, 0.0, 0.0, 0.0});
  for (int k = 1; k <= t.cap_rings; ++k) {  // end cap: equator excluded, pole last
    const double phi = (kPi / 2) * k / t.cap_rings;
    rings.push_back({t.length + t.cap_end * std::sin(phi), std::cos(phi), true, t.cap_end, phi,
                     static_cast<double>(t.length)});
  }
  return rings;
}

}  // namespace

void append_tube(const Tube& tube, MeshData& mesh) {
  assert(!tube.radii.empty() && !tube.joints.empty() && "tube needs radii and joints");
  assert(tube.boundaries.size() + 1 == tube.joints.size() && "one boundary between two joints");
  const glm::dvec3 A = glm::normalize(glm::dvec3(tube.axis));
  const glm::dvec3 U = glm::normalize(glm::dvec3(tube.side));
  const glm::dvec3 V = glm::cross(A, U);
  const glm::dvec3 origin(tube.start);
  const std::vector<Ring> rings = profile(tube);
  const int around = tube.sides + 1;  // seam copy for the texture
  const uint32_t base = static_cast<uint32_t>(mesh.positions.size());

  double v_coord = 0.0;
  glm::dvec3 previous{0.0};
  for (std::size_t r = 0; r < rings.size(); ++r) {
    const Ring& ring = rings[r];
    const Radii rad = radii_at(tube.radii, ring.cap ? ring.cap_a0 : ring.a);
    const std::vector<double> w = weights_at(tube, ring.a);
    glm::u8vec4 joints;
    glm::vec4 weights;
    quantise(tube, w, joints, weights);

    // Texture v follows the surface length along the meridian at theta = 0.
    const glm::dvec3 meridian = origin + A * ring.a + U * (rad.ru * ring.scale);
    if (r > 0) v_coord += glm::length(meridian - previous) * tube.texel_scale;
    previous = meridian;

    for (int s = 0; s < around; ++s) {
      const double theta = 2.0 * kPi * (s % tube.sides) / tube.sides;
      const double c = std::cos(theta), sn = std::sin(theta);
      const glm::dvec3 p =
          origin + A * ring.a + U * (rad.ru * ring.scale * c) + V * (rad.rv * ring.scale * sn);
      glm::dvec3 n;
      if (ring.cap) {  // ellipsoid (ru, rv, cap_len) centred at cap_a0
        const double cp = std::cos(ring.phi), sp = std::sin(ring.phi);
        n = U * (cp * c / rad.ru) + V * (cp * sn / rad.rv) + A * (sp / ring.cap_len);
      } else {  // gradient of (x/ru(a))^2 + (y/rv(a))^2 = 1
        n = U * (c / rad.ru) + V * (sn / rad.rv) -
            A * (c * c * rad.dru / rad.ru + sn * sn * rad.drv / rad.rv);
      }
      mesh.positions.emplace_back(p);
      mesh.normals.emplace_back(glm::normalize(n));
      mesh.uvs.emplace_back(static_cast<float>(static_cast<double>(s) / tube.sides),
                            static_cast<float>(v_coord));
      mesh.joints.push_back(joints);
      mesh.weights.push_back(weights);
    }
  }

  const bool start_pole = tube.cap_rings > 0;
  const bool end_pole = tube.cap_rings > 0;
  for (std::size_t r = 0; r + 1 < rings.size(); ++r) {
    for (int s = 0; s < tube.sides; ++s) {
      const uint32_t i0 = base + static_cast<uint32_t>(r * around + s);
      const uint32_t i1 = i0 + 1;
      const uint32_t j0 = i0 + static_cast<uint32_t>(around);
      const uint32_t j1 = j0 + 1;
      if (!(start_pole && r == 0)) mesh.indices.insert(mesh.indices.end(), {i0, i1, j0});
      if (!(end_pole && r + 2 == rings.size()))
        mesh.indices.insert(mesh.indices.end(), {i1, j1, j0});
    }
  }
}

}  // namespace sv::tools
