// gfx/face_culling.h: the sign of a matrix's 3x3 determinant, a mesh's palette range (a skinned
// mesh's bones, a rigid mesh's one bone: its node), and the rule the renderer and the picker
// share, each case computed by hand.
#include "gfx/face_culling.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

namespace sv {
namespace {

const glm::mat4 kIdentity(1.0f);
// det 2 * 3 * 4 = 24 > 0, with a translation (which the 3x3 part ignores).
const glm::mat4 kScaled =
    glm::scale(glm::translate(kIdentity, glm::vec3(5, -7, 9)), glm::vec3(2, 3, 4));
const glm::mat4 kMirrorX = glm::scale(kIdentity, glm::vec3(-1, 1, 1));  // det -1
// A 90-degree turn about z: (x, y) -> (-y, x), det +1 though two entries are negative.
const glm::mat4 kTurn = glm::rotate(kIdentity, 1.5707963f, glm::vec3(0, 0, 1));
// Two mirrors make a turn: det (-1)(-1)(1) = +1.
const glm::mat4 kMirrorXY = glm::scale(kIdentity, glm::vec3(-1, -1, 1));
const glm::mat4 kFlat = glm::scale(kIdentity, glm::vec3(1, 0, 1));  // det 0: collapsed

TEST(FaceCulling, MirrorsIsTheSignOfTheDeterminant) {
  EXPECT_FALSE(mirrors(kIdentity));
  EXPECT_FALSE(mirrors(kScaled));
  EXPECT_FALSE(mirrors(kTurn));
  EXPECT_FALSE(mirrors(kMirrorXY));
  EXPECT_TRUE(mirrors(kMirrorX));
  EXPECT_TRUE(mirrors(glm::scale(kIdentity, glm::vec3(-1, -1, -1))));  // det -1
  EXPECT_TRUE(mirrors(kFlat));                                         // det 0: no front to keep
  glm::mat4 nan = kIdentity;
  nan[1][1] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(mirrors(nan));  // a broken matrix never culls
}

TEST(FaceCulling, AnyMirrorsReadsOnlyTheMeshsRange) {
  // Mesh 0 skinned with bones 0-2, mesh 1 rigid (one bone: its node) at 3, mesh 2 at 4.
  const std::vector<glm::mat4> palette = {kIdentity, kScaled, kTurn, kMirrorX, kScaled};
  EXPECT_FALSE(any_mirrors(palette, 0, 3));
  EXPECT_TRUE(any_mirrors(palette, 3, 1));  // the rigid mesh's node mirrors
  EXPECT_FALSE(any_mirrors(palette, 4, 1));
  EXPECT_TRUE(any_mirrors(palette, 2, 2));  // a skin with one mirrored bone among others
  EXPECT_FALSE(any_mirrors(palette, 5, 0));
  // A range outside the palette: no pose to trust, so it counts as mirrored.
  EXPECT_TRUE(any_mirrors(palette, 4, 2));
  EXPECT_TRUE(any_mirrors(palette, 6, 0));
  EXPECT_TRUE(any_mirrors({}, 0, 1));
}

TEST(FaceCulling, TheRule) {
  const std::vector<glm::mat4> plain = {kIdentity, kScaled};
  const std::vector<glm::mat4> mirrored = {kIdentity, kMirrorX};
  // Single-sided, nothing mirrors, the switch off: the only case that culls.
  EXPECT_TRUE(culls_back_faces(false, false, kIdentity, plain, 0, 2));
  EXPECT_TRUE(culls_back_faces(false, false, kTurn, false));
  // Double-sided never culls.
  EXPECT_FALSE(culls_back_faces(true, false, kIdentity, plain, 0, 2));
  EXPECT_FALSE(culls_back_faces(true, false, kIdentity, false));
  // "Show back faces" never culls.
  EXPECT_FALSE(culls_back_faces(false, true, kIdentity, plain, 0, 2));
  EXPECT_FALSE(culls_back_faces(false, true, kIdentity, false));
  // A mirrored world matrix, or a mirrored bone of the mesh, keeps both sides.
  EXPECT_FALSE(culls_back_faces(false, false, kMirrorX, plain, 0, 2));
  EXPECT_FALSE(culls_back_faces(false, false, kIdentity, mirrored, 0, 2));
  EXPECT_FALSE(culls_back_faces(false, false, kIdentity, true));
  // ...but only a bone of its own range: the mirrored bone 1 is another mesh's.
  EXPECT_TRUE(culls_back_faces(false, false, kIdentity, mirrored, 0, 1));
  // A mirrored world and a mirrored bone cancel on screen, but the rule stays on the safe side.
  EXPECT_FALSE(culls_back_faces(false, false, kMirrorX, mirrored, 1, 1));
}

}  // namespace
}  // namespace sv
