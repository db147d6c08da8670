// Comparison helpers shared by the test suites: glm vectors, quaternions and matrices compared
// component by component within an absolute tolerance, with every component printed on failure.
//
//   EXPECT_NEAR_GLM(actual, expected, 1e-6f);   // any glm::vec, glm::mat or glm::quat
//   EXPECT_MAT_NEAR(a, b, tol) and EXPECT_VEC_NEAR(a, b, tol) are the same check under the names
//   other suites may look for.
//
// mat4_rows()/mat3_rows() write a matrix the way it is printed in books (row by row), so
// hand-computed expectations read naturally; glm itself stores columns. trs() makes a local
// transform; EXPECT_SAME_ROTATION(a, b, tol) compares quaternions as rotations (q and -q are one
// rotation), component by component.
#pragma once

#include <cmath>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>

#include "anim/model.h"
#include "anim/transform.h"

namespace sv::test {

// Where the importer put the file's vertex `file_index` (it groups vertices by bone set; see
// group_vertices_by_bone_set). Fails the test, returning 0, when no vertex came from it.
inline std::size_t file_vertex(const Mesh& mesh, uint32_t file_index) {
  if (mesh.source_vertex.empty()) return file_index;
  for (std::size_t v = 0; v < mesh.source_vertex.size(); ++v)
    if (mesh.source_vertex[v] == file_index) return v;
  ADD_FAILURE() << "no vertex comes from the file's vertex " << file_index;
  return 0;
}

template <glm::length_t N, class T, glm::qualifier Q>
std::string to_string(const glm::vec<N, T, Q>& v) {
  std::ostringstream s;
  s.precision(9);
  s << "(";
  for (glm::length_t i = 0; i < N; ++i) s << (i ? ", " : "") << v[i];
  s << ")";
  return s.str();
}

template <class T, glm::qualifier Q>
std::string to_string(const glm::qua<T, Q>& q) {
  std::ostringstream s;
  s.precision(9);
  s << "quat(w " << q.w << ", x " << q.x << ", y " << q.y << ", z " << q.z << ")";
  return s.str();
}

// Printed row by row.
template <glm::length_t C, glm::length_t R, class T, glm::qualifier Q>
std::string to_string(const glm::mat<C, R, T, Q>& m) {
  std::ostringstream s;
  s.precision(9);
  for (glm::length_t r = 0; r < R; ++r) {
    s << "\n  [";
    for (glm::length_t c = 0; c < C; ++c) s << (c ? ", " : "") << m[c][r];
    s << "]";
  }
  return s.str();
}

namespace detail {

inline bool close(float a, float b, float tol) { return std::abs(a - b) <= tol; }  // NaN fails

template <glm::length_t N, class T, glm::qualifier Q>
bool close(const glm::vec<N, T, Q>& a, const glm::vec<N, T, Q>& b, float tol) {
  for (glm::length_t i = 0; i < N; ++i)
    if (!close(a[i], b[i], tol)) return false;
  return true;
}

template <class T, glm::qualifier Q>
bool close(const glm::qua<T, Q>& a, const glm::qua<T, Q>& b, float tol) {
  return close(a.w, b.w, tol) && close(a.x, b.x, tol) && close(a.y, b.y, tol) &&
         close(a.z, b.z, tol);
}

template <glm::length_t C, glm::length_t R, class T, glm::qualifier Q>
bool close(const glm::mat<C, R, T, Q>& a, const glm::mat<C, R, T, Q>& b, float tol) {
  for (glm::length_t c = 0; c < C; ++c)
    if (!close(a[c], b[c], tol)) return false;
  return true;
}

}  // namespace detail

// gtest predicate: EXPECT_PRED_FORMAT3(sv::test::near_glm, a, b, tol) or the macros below.
template <class A>
::testing::AssertionResult near_glm(const char* a_expr, const char* b_expr, const char* /*tol*/,
                                    const A& a, const A& b, float tol) {
  if (detail::close(a, b, tol)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << a_expr << " and " << b_expr << " differ by more than " << tol << ":\n  " << a_expr
         << " = " << to_string(a) << "\n  " << b_expr << " = " << to_string(b);
}

// Row-major construction: mat4_rows(m00, m01, m02, m03,  m10, ...).
inline glm::mat4 mat4_rows(float a00, float a01, float a02, float a03, float a10, float a11,
                           float a12, float a13, float a20, float a21, float a22, float a23,
                           float a30, float a31, float a32, float a33) {
  return glm::transpose(
      glm::mat4(a00, a01, a02, a03, a10, a11, a12, a13, a20, a21, a22, a23, a30, a31, a32, a33));
}

inline glm::mat3 mat3_rows(float a00, float a01, float a02, float a10, float a11, float a12,
                           float a20, float a21, float a22) {
  return glm::transpose(glm::mat3(a00, a01, a02, a10, a11, a12, a20, a21, a22));
}

inline Transform trs(glm::vec3 t, glm::quat r = glm::quat(1, 0, 0, 0), glm::vec3 s = glm::vec3(1)) {
  Transform x;
  x.translation = t;
  x.rotation = r;
  x.scale = s;
  return x;
}

// gtest predicate: a and b within tol component by component, b's sign matched to a's.
inline ::testing::AssertionResult same_rotation(const char* a_expr, const char* b_expr,
                                                const char* /*tol*/, const glm::quat& a,
                                                const glm::quat& b, float tol) {
  const glm::quat c = glm::dot(a, b) < 0.0f ? -b : b;
  if (detail::close(a, c, tol)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << a_expr << " and " << b_expr << " are rotations more than " << tol << " apart:\n  "
         << a_expr << " = " << to_string(a) << "\n  " << b_expr << " = " << to_string(b);
}

// One joint "j" at the origin (a bone, identity rest and inverse bind) playing `clip` (its
// channels name joint 0), built as the importer builds clips.
inline Model one_joint_model(Clip clip) {
  Model m;
  m.skeleton.names = {"j"};
  m.skeleton.parents = {-1};
  m.skeleton.rest.resize(1);
  m.skeleton.inverse_bind = {glm::mat4(1.0f)};
  m.skeleton.is_bone = {1};
  m.clips.emplace_back();
  EXPECT_EQ(m.clips.back().build(clip, m.skeleton), "");
  return m;
}

// The same with one 1-s clip `name` playing `channel` (channel.joint is set to 0).
inline Model one_joint_model(JointChannel channel, const char* name) {
  Clip c;
  c.name = name;
  c.duration = 1.0f;
  channel.joint = 0;
  c.channels.push_back(std::move(channel));
  return one_joint_model(std::move(c));
}

}  // namespace sv::test

#define EXPECT_SAME_ROTATION(a, b, tol) EXPECT_PRED_FORMAT3(::sv::test::same_rotation, a, b, tol)
#define EXPECT_NEAR_GLM(a, b, tol) EXPECT_PRED_FORMAT3(::sv::test::near_glm, a, b, tol)
#define ASSERT_NEAR_GLM(a, b, tol) ASSERT_PRED_FORMAT3(::sv::test::near_glm, a, b, tol)
#define EXPECT_MAT_NEAR(a, b, tol) EXPECT_NEAR_GLM(a, b, tol)
#define EXPECT_VEC_NEAR(a, b, tol) EXPECT_NEAR_GLM(a, b, tol)
