// Slow reference implementations of dual-quaternion skinning and skinning with optimised centres
// of rotation, written from the papers' formulas in double precision and on purpose not from the
// kernels' code (skin/skinning_methods.cpp, skin/skinning_method_lanes.inc):
//
//  - the polar decomposition L = R S comes from the eigenvectors of L^T L (Jacobi rotations),
//    S = V sqrt(diag) V^T and R = L S^-1, not from Higham's iteration that build_method_palette
//    uses;
//  - dual quaternions are multiplied out as dual numbers over quaternions (Kavan et al. 2008,
//    section 3), a point is moved by c (1 + eps p) c-bar, with c-bar both conjugations, and not
//    by the closed form rotate + translate;
//  - two-phase skinning (section 4.3) blends the stretches S_i linearly, applies their blend to
//    the point first, and transforms normals with glm::inverse's transpose (not the cofactor);
//  - CoR (Le & Hodgins 2016, section 4.1): R from the normalised quaternion blend as a matrix,
//    t = sum_i w_i K_i p* - R A p*, v' = R A v + t.
// The hemisphere of every rotation is chosen against the largest-weight influence's (the first
// of equal weights), as the contract says.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>

namespace sv::test {

struct DualQuat {
  glm::dquat r{1.0, 0.0, 0.0, 0.0};
  glm::dquat d{0.0, 0.0, 0.0, 0.0};
};

inline DualQuat operator*(const DualQuat& a, const DualQuat& b) {
  return {a.r * b.r, a.r * b.d + a.d * b.r};
}

// Eigen-decomposition of a symmetric 3x3 matrix by cyclic Jacobi rotations: a = v diag(e) v^T.
inline void jacobi_eigen(glm::dmat3 a, glm::dmat3* v, glm::dvec3* e) {
  glm::dmat3 vv(1.0);
  for (int sweep = 0; sweep < 50; ++sweep) {
    double off = 0.0;
    for (int p = 0; p < 3; ++p)
      for (int q = p + 1; q < 3; ++q) off += a[q][p] * a[q][p];
    if (off < 1e-30) break;
    for (int p = 0; p < 3; ++p) {
      for (int q = p + 1; q < 3; ++q) {
        if (std::abs(a[q][p]) < 1e-300) continue;
        const double theta = (a[q][q] - a[p][p]) / (2.0 * a[q][p]);
        const double t =
            (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1.0 / std::sqrt(t * t + 1), s = t * c;
        glm::dmat3 j(1.0);  // rotation in the (p, q) plane; glm indexes [column][row]
        j[p][p] = c;
        j[q][q] = c;
        j[q][p] = s;
        j[p][q] = -s;
        a = glm::transpose(j) * a * j;
        vv = vv * j;
      }
    }
  }
  *v = vv;
  *e = glm::dvec3(a[0][0], a[1][1], a[2][2]);
}

// L = R S, R a proper rotation, S symmetric (carrying a reflection when det L < 0).
inline void reference_polar(const glm::dmat3& l, glm::dmat3* r, glm::dmat3* s) {
  glm::dmat3 v;
  glm::dvec3 e;
  jacobi_eigen(glm::transpose(l) * l, &v, &e);
  glm::dmat3 root(0.0);
  for (int i = 0; i < 3; ++i) root[i][i] = std::sqrt(std::max(e[i], 0.0));
  glm::dmat3 stretch = v * root * glm::transpose(v);
  glm::dmat3 rot = l * glm::inverse(stretch);
  if (glm::determinant(l) < 0.0) {
    rot = -rot;
    stretch = -stretch;
  }
  *r = rot;
  *s = stretch;
}

struct ReferenceBone {
  glm::dmat4 k;  // the palette entry
  glm::dmat3 stretch;
  glm::dquat rotation;
  DualQuat dq;  // the rigid part [R | t]
};

inline ReferenceBone reference_bone(const glm::mat4& palette_entry) {
  ReferenceBone b;
  b.k = glm::dmat4(palette_entry);
  glm::dmat3 rot;
  reference_polar(glm::dmat3(b.k), &rot, &b.stretch);
  b.rotation = glm::normalize(glm::quat_cast(rot));
  const glm::dvec3 t(b.k[3]);
  b.dq.r = b.rotation;
  b.dq.d = 0.5 * (glm::dquat(0.0, t.x, t.y, t.z) * b.rotation);
  return b;
}

inline int reference_pivot(const float* w, int count) {
  int p = 0;
  for (int i = 1; i < count; ++i)
    if (w[i] > w[p]) p = i;
  return p;
}

inline double qdot(const glm::dquat& a, const glm::dquat& b) {
  return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
}

struct ReferenceVertex {
  glm::dvec3 position;
  glm::dvec3 normal;
};

// Kavan et al. 2008 with two-phase skinning over `count` influences (joints j[i], weights w[i]
// summing to 1). `bones` indexed by the vertex's joints.
template <class Bones>
ReferenceVertex reference_dqs(const Bones& bones, const uint16_t* j, const float* w, int count,
                              const glm::vec3& p, const glm::vec3& n) {
  const glm::dquat pivot = bones[j[reference_pivot(w, count)]].rotation;
  DualQuat b{{0, 0, 0, 0}, {0, 0, 0, 0}};
  glm::dmat3 a(0.0);
  for (int i = 0; i < count; ++i) {
    const auto& bone = bones[j[i]];
    const double s = qdot(bone.rotation, pivot) < 0.0 ? -w[i] : w[i];
    b.r = b.r + s * bone.dq.r;
    b.d = b.d + s * bone.dq.d;
    a += static_cast<double>(w[i]) * bone.stretch;
  }
  const double len = std::sqrt(qdot(b.r, b.r));
  const DualQuat c{b.r / len, b.d / len};
  const glm::dvec3 p1 = a * glm::dvec3(p);
  const DualQuat moved = c * DualQuat{{1, 0, 0, 0}, {0, p1.x, p1.y, p1.z}} *
                         DualQuat{glm::conjugate(c.r), -glm::conjugate(c.d)};
  ReferenceVertex out;
  out.position = glm::dvec3(moved.d.x, moved.d.y, moved.d.z);
  const glm::dvec3 n1 = glm::transpose(glm::inverse(a)) * glm::dvec3(n);
  out.normal = glm::normalize(glm::mat3_cast(c.r) * n1);
  return out;
}

template <class Bones>
ReferenceVertex reference_dqs(const Bones& bones, const glm::u16vec4& j, const glm::vec4& w,
                              const glm::vec3& p, const glm::vec3& n) {
  const uint16_t jj[4] = {j.x, j.y, j.z, j.w};
  const float ww[4] = {w.x, w.y, w.z, w.w};
  return reference_dqs(bones, jj, ww, 4, p, n);
}

// Le & Hodgins 2016 (the per-frame part), with the stretch phase as in reference_dqs, over
// `count` influences.
template <class Bones>
ReferenceVertex reference_cor(const Bones& bones, const uint16_t* j, const float* w, int count,
                              const glm::vec3& p, const glm::vec3& n, const glm::vec3& center) {
  const glm::dquat pivot = bones[j[reference_pivot(w, count)]].rotation;
  glm::dquat q(0, 0, 0, 0);
  glm::dmat3 a(0.0);
  glm::dvec3 lbs_center(0.0);
  const glm::dvec4 c(glm::dvec3(center), 1.0);
  for (int i = 0; i < count; ++i) {
    const auto& bone = bones[j[i]];
    const double s = qdot(bone.rotation, pivot) < 0.0 ? -w[i] : w[i];
    q = q + s * bone.rotation;
    a += static_cast<double>(w[i]) * bone.stretch;
    lbs_center += static_cast<double>(w[i]) * glm::dvec3(bone.k * c);
  }
  const glm::dmat3 r = glm::mat3_cast(glm::normalize(q));
  const glm::dvec3 t = lbs_center - r * a * glm::dvec3(center);
  ReferenceVertex out;
  out.position = r * a * glm::dvec3(p) + t;
  out.normal = glm::normalize(r * glm::transpose(glm::inverse(a)) * glm::dvec3(n));
  return out;
}

template <class Bones>
ReferenceVertex reference_cor(const Bones& bones, const glm::u16vec4& j, const glm::vec4& w,
                              const glm::vec3& p, const glm::vec3& n, const glm::vec3& center) {
  const uint16_t jj[4] = {j.x, j.y, j.z, j.w};
  const float ww[4] = {w.x, w.y, w.z, w.w};
  return reference_cor(bones, jj, ww, 4, p, n, center);
}

}  // namespace sv::test
