#include "skin/skin_method.h"

#include <cmath>
#include <iterator>

#include <glm/gtc/matrix_access.hpp>
#include <glm/matrix.hpp>

namespace sv {
namespace {

double frobenius(const glm::dmat3& m) noexcept {
  double s = 0.0;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) s += m[c][r] * m[c][r];
  return std::sqrt(s);
}

// Below this every component of S - I counts as rigid: float palettes of rigid rigs are off the
// identity by ~1e-7, and a real scale of 1.00001 moves a vertex 1 m from its joint by 10 um.
constexpr double kRigidTolerance = 1e-5;

}  // namespace

const char* skin_method_name(SkinMethod method) noexcept {
  switch (method) {
    case SkinMethod::Lbs:
      return "lbs";
    case SkinMethod::Dqs:
      return "dqs";
    case SkinMethod::Cor:
      return "cor";
  }
  return "?";
}

const char* skin_method_label(SkinMethod method) noexcept {
  switch (method) {
    case SkinMethod::Lbs:
      return "LBS";
    case SkinMethod::Dqs:
      return "DQS";
    case SkinMethod::Cor:
      return "CoR";
  }
  return "?";
}

std::optional<SkinMethod> parse_skin_method(std::string_view text) noexcept {
  for (SkinMethod m : kSkinMethods)
    if (text == skin_method_name(m)) return m;
  return std::nullopt;
}

SkinMethod next_skin_method(SkinMethod method) noexcept {
  constexpr std::size_t n = std::size(kSkinMethods);
  for (std::size_t i = 0; i < n; ++i)
    if (kSkinMethods[i] == method) return kSkinMethods[(i + 1) % n];
  return kSkinMethods[0];
}

// Higham's scaled Newton iteration X <- (g X + (g X)^-T) / 2 converges quadratically to the
// orthogonal factor Q of L = Q S; S = Q^T L. A mirrored L (det < 0) gives det Q = -1, and
// L = (-Q)(-S) puts the reflection into S so the rotation stays proper.
bool polar_decompose(const glm::dmat3& l, glm::dmat3* r, glm::dmat3* s) noexcept {
  const double det = glm::determinant(l);
  const double size = frobenius(l);
  if (!std::isfinite(det) || !std::isfinite(size) || size == 0.0 ||
      std::abs(det) <= 1e-12 * size * size * size)
    return false;
  glm::dmat3 x = l;
  for (int iteration = 0; iteration < 30; ++iteration) {
    const glm::dmat3 inv_t = glm::transpose(glm::inverse(x));
    const double g = std::sqrt(frobenius(inv_t) / frobenius(x));
    const glm::dmat3 next = 0.5 * (g * x + inv_t / g);
    const double change = frobenius(next - x);
    x = next;
    if (change <= 1e-13 * frobenius(x)) break;
  }
  glm::dmat3 stretch = glm::transpose(x) * l;
  stretch = 0.5 * (stretch + glm::transpose(stretch));
  if (det < 0.0) {
    x = -x;
    stretch = -stretch;
  }
  *r = x;
  *s = stretch;
  return true;
}

namespace {

// Splits one entry's linear part. Rigid and uniformly scaled entries (every bone of most rigs,
// and of any rig whose joints scale uniformly) need no iteration: L^T L = s^2 I says so, and
// then R = L / s and S = s I.
void split(const glm::dmat3& l, glm::dmat3* rot, glm::dmat3* stretch) noexcept {
  const glm::dmat3 g = glm::transpose(l) * l;
  const double s2 = (g[0][0] + g[1][1] + g[2][2]) / 3.0;
  double off = 0.0;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) off = std::max(off, std::abs(g[c][r] - (c == r ? s2 : 0.0)));
  const double det = glm::determinant(l);
  if (std::isfinite(off) && s2 > 0.0 && off <= 1e-6 * s2 && det > 0.0) {
    const double s = std::sqrt(s2);
    *rot = l / s;
    *stretch = glm::dmat3(s);
    return;
  }
  *rot = glm::dmat3(1.0);
  *stretch = l;
  polar_decompose(l, rot, stretch);
}

}  // namespace

bool build_method_palette(std::span<const glm::mat4> palette, std::span<MethodBone> out) noexcept {
  if (palette.size() != out.size()) return false;
  for (std::size_t b = 0; b < palette.size(); ++b) {
    const glm::dmat4 k(palette[b]);
    const glm::dvec3 t(k[3]);
    glm::dmat3 rot, stretch;
    split(glm::dmat3(k), &rot, &stretch);
    glm::dquat q = glm::normalize(glm::quat_cast(rot));
    if (q.w < 0.0) q = -q;
    bool scaled = false;
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r)
        scaled = scaled || !(std::abs(stretch[c][r] - (c == r ? 1.0 : 0.0)) <= kRigidTolerance);
    MethodBone& m = out[b];
    m.real = glm::quat(q);
    // qe = 0.5 * (0, t) * q, so that t = 2 qe q* (the translation of the unit dual quaternion).
    m.dual = glm::quat(0.5 * (glm::dquat(0.0, t.x, t.y, t.z) * q));
    m.stretch = scaled ? glm::mat3(stretch) : glm::mat3(1.0f);
    m.scaled = scaled ? 1u : 0u;
  }
  return true;
}

}  // namespace sv
