// Skinning methods beyond linear blending: dual-quaternion skinning (DQS, Kavan et al. 2008) and
// skinning with optimised centres of rotation (CoR, Le & Hodgins 2016), and the per-frame
// palette both read.
//
// Every palette entry K = [L | t] (pose.h: K = B * M^-1, model space <- bind space) is split
// once per frame, per bone, never per vertex (build_method_palette):
//
//     L = R S        R a rotation (unit quaternion q), S symmetric: the polar decomposition
//     K p = R (S p) + t
//
// so S is the joint's scale/shear expressed in bind space (applied to the stored vertex first)
// and [R | t] its rigid part, which becomes the unit dual quaternion q + eps * 0.5 (t q).
// Where every S is the identity (within 1e-5, the usual rig) only the rigid parts are used.
//
// DQS, per vertex with weights w_i on bones i (Kavan et al. 2008, "Geometric skinning with
// approximate dual quaternion blending"; two-phase skinning for scale/shear, section 4.3):
//
//     A  = sum_i w_i S_i                          (phase 1: scale/shear blended linearly)
//     b  = sum_i s_i w_i (q_i + eps qe_i),        s_i = sign(q_i . q_pivot), pivot = the
//                                                 vertex's largest weight (first on a tie)
//     c  = b / |b_0|                              (phase 2: the rigid parts, as a unit DQ)
//     p' = c applied to (A p)      n' = normalize(rotation(c) * cof(A) n)
//
// cof(A) = det(A) A^-T, the inverse transpose up to a positive factor (det > 0 for any blend of
// the positive-definite S of real rigs; the sign of det is applied so a mirrored joint keeps
// its normals outward). With every A = I this is plain DQS.
//
// CoR, per vertex with its precomputed centre of rotation p* (bind space; skin/rotation_centers.h):
//
//     q  = normalize(sum_i s_i w_i q_i)           (same signs s_i as DQS)
//     p' = R(q) A (p - p*) + sum_i w_i K_i p*     (rotated about the transformed centre, which
//                                                  moves as LBS moves it)
//     n' = normalize(R(q) cof(A) n)
//
// For one bone of weight 1 both give K p exactly as LBS does (up to rounding): a rigid mesh
// looks the same under every method.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>

namespace sv {

enum class SkinMethod : uint8_t {
  Lbs,  // linear blend skinning: sum_i w_i K_i p
  Dqs,  // dual quaternions (two-phase for scale/shear)
  Cor,  // optimised centres of rotation
};
inline constexpr SkinMethod kSkinMethods[] = {SkinMethod::Lbs, SkinMethod::Dqs, SkinMethod::Cor};

// "lbs", "dqs", "cor": the command line's spelling.
const char* skin_method_name(SkinMethod method) noexcept;
// "LBS", "DQS", "CoR": what the UI and the figures print.
const char* skin_method_label(SkinMethod method) noexcept;
std::optional<SkinMethod> parse_skin_method(std::string_view text) noexcept;
// The method after `method` in kSkinMethods, the first after the last (the window's M key).
SkinMethod next_skin_method(SkinMethod method) noexcept;

// One palette entry split for DQS and CoR.
struct MethodBone {
  glm::quat real{1.0f, 0.0f, 0.0f, 0.0f};  // q: the rotation R, unit, w >= 0
  glm::quat dual{0.0f, 0.0f, 0.0f, 0.0f};  // qe = 0.5 * (0, t) * q
  glm::mat3 stretch{1.0f};                 // S (bind space); exactly the identity when !scaled
  uint32_t scaled = 0;                     // 1: S is not the identity (two-phase skinning)
};

// Splits every palette entry (see above). False, writing nothing, when the sizes differ. A
// singular or non-finite linear part (a joint scaled to zero) cannot be split: its entry keeps
// R = identity and S = L, which is still exact for a vertex on that bone alone.
bool build_method_palette(std::span<const glm::mat4> palette, std::span<MethodBone> out) noexcept;

// Polar decomposition of a 3x3 matrix: L = R S with R a proper rotation (det +1) and S
// symmetric (negative definite when det L < 0, so R stays a rotation). False when L is
// singular or not finite (R, S untouched). Exposed for the tests.
bool polar_decompose(const glm::dmat3& l, glm::dmat3* r, glm::dmat3* s) noexcept;

}  // namespace sv
