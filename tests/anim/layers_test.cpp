// The Animator's layer stack (anim/animator.h) on clips built in code, against poses computed by
// hand: a two-joint chain blended at known weights, a mask that keeps the lower body, an additive
// layer that is its own reference, a cross-fade from its first clip to its second, weights that
// sum to 0 or above 1, layers at 0 before the first that blends, sparse tracks; and the fused
// single-clip path against the blend path.
#include "anim/animator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/crossfade.h"
#include "anim/model.h"
#include "anim/player.h"
#include "test_util.h"

namespace sv {
namespace {

const glm::vec3 kX(1, 0, 0), kY(0, 1, 0), kZ(0, 0, 1);

glm::quat rot(float degrees, const glm::vec3& axis) {
  return glm::angleAxis(glm::radians(degrees), axis);
}

// A joint's model-space origin.
glm::vec3 origin(const Animator& a, std::size_t joint) {
  return glm::vec3(a.model_matrices()[joint][3]);
}

// Joints: 0 root, 1 hips (0), 2 spine (1), 3 arm (2), 4 leg (1); rest translations only.
// With `chain`, just joints 0 and 1: root and a child one unit along X.
Model make_model(bool chain = false) {
  Model m;
  Skeleton& s = m.skeleton;
  const auto add = [&s](const char* name, int32_t parent, glm::vec3 t) {
    s.names.emplace_back(name);
    s.parents.push_back(parent);
    Transform x;
    x.translation = t;
    s.rest.push_back(x);
    s.inverse_bind.emplace_back(1.0f);
    s.is_bone.push_back(1);
  };
  if (chain) {
    add("root", -1, {0, 0, 0});
    add("child", 0, {1, 0, 0});
    return m;
  }
  add("root", -1, {0, 0, 0});
  add("hips", 0, {0, 1, 0});
  add("spine", 1, {0, 0.5f, 0});
  add("arm", 2, {0.5f, 0, 0});
  add("leg", 1, {0, -0.5f, 0});
  return m;
}

template <class T>
void keys(Track<T>& track, const T& a, const T& b, double duration) {
  track.times = {0.0, duration};
  track.values = {a, b};
}

// Adds a runtime clip: per joint, components from `from` at time 0 to `to` at `duration`,
// linear. A component given in neither is not keyed.
struct Channel {
  int32_t joint;
  std::vector<glm::vec3> t;  // empty, or {at 0, at duration}
  std::vector<glm::quat> r;
  std::vector<glm::vec3> s;
};
int32_t add_clip(Model& m, const std::string& name, double duration,
                 const std::vector<Channel>& channels) {
  Clip c;
  c.name = name;
  c.duration = duration;
  for (const Channel& ch : channels) {
    JointChannel jc;
    jc.joint = ch.joint;
    if (!ch.t.empty()) keys(jc.translation, ch.t[0], ch.t[1], duration);
    if (!ch.r.empty()) keys(jc.rotation, ch.r[0], ch.r[1], duration);
    if (!ch.s.empty()) keys(jc.scale, ch.s[0], ch.s[1], duration);
    c.channels.push_back(std::move(jc));
  }
  ClipRuntime rt;
  EXPECT_EQ(rt.build(c, m.skeleton), "");
  m.clips.push_back(std::move(rt));
  return static_cast<int32_t>(m.clips.size() - 1);
}

Layer layer(int32_t clip, double time, float weight = 1.0f, BlendMode mode = BlendMode::Override) {
  Layer l;
  l.clip = clip;
  l.time = time;
  l.weight = weight;
  l.mode = mode;
  return l;
}

// Prepares and evaluates `layers`.
void pose(Animator& a, const Model& m, const std::vector<Layer>& layers) {
  ASSERT_EQ(a.set_layers(m, layers), "");
  ASSERT_TRUE(a.evaluate(m, layers));
}

TEST(Layers, TwoJointChainAtKnownWeights) {
  Model m = make_model(true);
  // A: the root still at the origin, the child unturned. B: the root lifted to (0,2,0), the
  // child turned 90 degrees about Z.
  const int32_t a = add_clip(
      m, "a", 1.0, {{0, {{0, 0, 0}, {0, 0, 0}}, {}, {}}, {1, {}, {rot(0, kZ), rot(0, kZ)}, {}}});
  const int32_t b = add_clip(
      m, "b", 1.0, {{0, {{0, 2, 0}, {0, 2, 0}}, {}, {}}, {1, {}, {rot(90, kZ), rot(90, kZ)}, {}}});
  Animator an(m);
  for (const float w : {0.25f, 0.5f, 0.75f}) {
    pose(an, m, {layer(a, 0.3), layer(b, 0.6, w)});
    // Root at (0, 2w, 0); child at root + (1,0,0), turned about Z by nlerp's angle (blend.h)
    // 2 atan(w sin 45 / ((1 - w) + w cos 45)): 21.598161, 45 and 68.401839 degrees (slerp's 90w
    // until the blend went into lanes), so a point one unit along its X is at
    // (1 + cos(angle), 2w + sin(angle), 0).
    const float degrees = w == 0.25f ? 21.598161f : w == 0.5f ? 45.0f : 68.401839f;
    const float angle = glm::radians(degrees);
    EXPECT_NEAR_GLM(origin(an, 0), glm::vec3(0, 2 * w, 0), 1e-6f);
    EXPECT_NEAR_GLM(origin(an, 1), glm::vec3(1, 2 * w, 0), 1e-6f);
    const glm::vec4 tip = an.model_matrices()[1] * glm::vec4(1, 0, 0, 1);
    EXPECT_NEAR_GLM(glm::vec3(tip), glm::vec3(1 + std::cos(angle), 2 * w + std::sin(angle), 0),
                    1e-6f)
        << w;
    EXPECT_SAME_ROTATION(an.local(m, 1).rotation, rot(degrees, kZ), 1e-6f);
  }
}

TEST(Layers, AMaskOnTheUpperBodyKeepsTheLowerBody) {
  Model m = make_model();
  // walk: hips turned 30 deg about Y, spine 10 about X, arm 20 about Z, leg 40 about X.
  // wave: every one of them the other way.
  const auto constant = [](int32_t j, glm::quat q) { return Channel{j, {}, {q, q}, {}}; };
  const int32_t walk = add_clip(m, "walk", 1.0,
                                {constant(1, rot(30, kY)), constant(2, rot(10, kX)),
                                 constant(3, rot(20, kZ)), constant(4, rot(40, kX))});
  const int32_t wave = add_clip(m, "wave", 2.0,
                                {constant(1, rot(-30, kY)), constant(2, rot(-10, kX)),
                                 constant(3, rot(-80, kZ)), constant(4, rot(-40, kX))});
  std::vector<float> upper = subtree_mask(m.skeleton.parents, 2);  // spine and arm
  Layer over = layer(wave, 0.5);
  over.mask = upper;
  Animator an(m);
  pose(an, m, {layer(walk, 0.2), over});
  EXPECT_SAME_ROTATION(an.local(m, 1).rotation, rot(30, kY), 1e-6f);   // hips: walk
  EXPECT_SAME_ROTATION(an.local(m, 4).rotation, rot(40, kX), 1e-6f);   // leg: walk
  EXPECT_SAME_ROTATION(an.local(m, 2).rotation, rot(-10, kX), 1e-6f);  // spine: wave
  EXPECT_SAME_ROTATION(an.local(m, 3).rotation, rot(-80, kZ), 1e-6f);  // arm: wave
  // The leg's model transform is walk's alone: hips turned 30 about Y, the leg 40 about X.
  const glm::mat4 leg = an.model_matrices()[4];
  const glm::vec3 foot = glm::vec3(leg * glm::vec4(0, -1, 0, 1));
  const glm::vec3 expected = glm::vec3(0, 1, 0) + rot(30, kY) * (glm::vec3(0, -0.5f, 0) +
                                                                 rot(40, kX) * glm::vec3(0, -1, 0));
  EXPECT_NEAR_GLM(foot, expected, 1e-6f);
  // A per-joint weight: the arm at half its mask, so it turns halfway, 20 -> -30.
  upper[3] = 0.5f;
  ASSERT_TRUE(an.evaluate(m, std::vector<Layer>{layer(walk, 0.2), over}));
  EXPECT_SAME_ROTATION(an.local(m, 3).rotation, rot(-30, kZ), 1e-6f);
  EXPECT_SAME_ROTATION(an.local(m, 2).rotation, rot(-10, kX), 1e-6f);
}

TEST(Layers, AdditiveLayerAddsItsDifferenceFromItsFirstFrame) {
  Model m = make_model();
  const int32_t base = add_clip(m, "base", 1.0, {{2, {}, {rot(20, kX), rot(20, kX)}, {}}});
  // breathe: the spine from rest (0, 0.5, 0), unturned, scale 1 at time 0 to (0, 0.6, 0),
  // 30 deg about X, scale 1.2 at time 1.
  const int32_t breathe = add_clip(m, "breathe", 1.0,
                                   {{2,
                                     {{0, 0.5f, 0}, {0, 0.6f, 0}},
                                     {rot(0, kX), rot(30, kX)},
                                     {glm::vec3(1), glm::vec3(1.2f)}}});
  Animator an(m);
  Layer add = layer(breathe, 1.0, 0.5f, BlendMode::Additive);  // reference: time 0
  pose(an, m, {layer(base, 0.0), add});
  const Transform spine = an.local(m, 2);
  EXPECT_NEAR_GLM(spine.translation, glm::vec3(0, 0.55f, 0), 1e-6f);  // rest + 0.5 * 0.1
  EXPECT_SAME_ROTATION(spine.rotation, rot(35, kX), 1e-6f);           // 20 + 0.5 * 30
  EXPECT_NEAR_GLM(spine.scale, glm::vec3(1.1f), 1e-6f);               // 1 * mix(1, 1.2, 0.5)
  // At its first frame it adds nothing.
  add.time = 0.0;
  ASSERT_TRUE(an.evaluate(m, std::vector<Layer>{layer(base, 0.0), add}));
  EXPECT_SAME_ROTATION(an.local(m, 2).rotation, rot(20, kX), 1e-6f);
}

TEST(Layers, AnAdditiveLayerThatIsItsOwnReferenceAddsNothing) {
  Model m = make_model();
  const int32_t base = add_clip(m, "base", 2.0,
                                {{1, {{0, 1, 0}, {0, 1.5f, 0}}, {rot(0, kY), rot(90, kY)}, {}},
                                 {3, {}, {rot(10, kZ), rot(70, kZ)}, {}}});
  const int32_t moving =
      add_clip(m, "moving", 1.0,
               {{1, {{1, 0, 0}, {0, 3, 0}}, {rot(-40, kX), rot(50, kZ)}, {}},
                {3, {}, {rot(0, kX), rot(120, kY)}, {glm::vec3(1), glm::vec3(2)}}});
  Animator alone(m), with(m);
  for (const double t : {0.0, 0.37, 0.8}) {
    pose(alone, m, {layer(base, 2 * t)});
    Layer self = layer(moving, t, 1.0f, BlendMode::Additive);
    self.reference_time = t;  // its own pose at this time is its reference
    pose(with, m, {layer(base, 2 * t), self});
    for (std::size_t j = 0; j < m.skeleton.size(); ++j)
      EXPECT_NEAR_GLM(with.model_matrices()[j], alone.model_matrices()[j], 1e-5f) << t << " " << j;
  }
}

TEST(Layers, CrossFadeStartsAtTheFirstClipAndEndsAtTheSecond) {
  Model m = make_model(true);
  // FROM keys the root's translation and the child's rotation; TO keys only the child's
  // rotation, so at the fade's end the root must be back at its rest place, TO's whole pose.
  const int32_t from =
      add_clip(m, "from", 1.0,
               {{0, {{0, 2, 0}, {0, 2, 0}}, {}, {}}, {1, {}, {rot(90, kZ), rot(90, kZ)}, {}}});
  const int32_t to = add_clip(m, "to", 1.0, {{1, {}, {rot(-30, kZ), rot(-30, kZ)}, {}}});
  const CrossFade fade{1.0, 0.5, false};
  Animator an(m);
  const auto at = [&](double t) {
    const CrossFadeState s = crossfade_at(fade, 1.0, 1.0, t);
    Layer target = layer(to, wrap_time(s.to_time, 1.0, true), s.weight);
    target.every_channel = true;
    pose(an, m, {layer(from, wrap_time(s.from_time, 1.0, true)), target});
  };
  at(0.9);  // before the fade: FROM
  EXPECT_NEAR_GLM(origin(an, 0), glm::vec3(0, 2, 0), 1e-6f);
  EXPECT_SAME_ROTATION(an.local(m, 1).rotation, rot(90, kZ), 1e-6f);
  at(1.25);  // halfway: root at (0,1,0), the child halfway from 90 to -30, i.e. 30
  EXPECT_NEAR_GLM(origin(an, 0), glm::vec3(0, 1, 0), 1e-6f);
  EXPECT_SAME_ROTATION(an.local(m, 1).rotation, rot(30, kZ), 1e-6f);
  for (const double t : {1.5, 7.0}) {  // at and after the end: TO's whole pose
    at(t);
    EXPECT_NEAR_GLM(origin(an, 0), glm::vec3(0, 0, 0), 1e-6f) << t;
    EXPECT_NEAR_GLM(origin(an, 1), glm::vec3(1, 0, 0), 1e-6f) << t;
    EXPECT_SAME_ROTATION(an.local(m, 1).rotation, rot(-30, kZ), 1e-6f) << t;
  }
  // A plain override layer in its place would leave FROM's root translation, which TO does not
  // key: the sparse rule, which is right for layers and wrong for a transition.
  pose(an, m, {layer(from, 0.0), layer(to, 0.0)});
  EXPECT_NEAR_GLM(origin(an, 0), glm::vec3(0, 2, 0), 1e-6f);
}

TEST(Layers, WeightsThatSumAboveOneAreAStackNotASum) {
  Model m = make_model(true);
  const auto lift = [&](const char* name, float y) {
    return add_clip(m, name, 1.0, {{0, {{0, y, 0}, {0, y, 0}}, {}, {}}});
  };
  const int32_t a = lift("a", 0.0f), b = lift("b", 1.0f), c = lift("c", 2.0f);
  Animator an(m);
  // 0 -> b at 0.8: 0.8; -> c at 0.8: 0.8 + 0.8 (2 - 0.8) = 1.76. Weights 1.6 in all.
  pose(an, m, {layer(a, 0), layer(b, 0, 0.8f), layer(c, 0, 0.8f)});
  EXPECT_NEAR_GLM(origin(an, 0), glm::vec3(0, 1.76f, 0), 1e-6f);
  // A weight above 1 counts as 1 (no overshoot past the layer's own pose).
  pose(an, m, {layer(a, 0), layer(b, 0, 3.0f)});
  EXPECT_NEAR_GLM(origin(an, 0), glm::vec3(0, 1, 0), 1e-6f);
  // Negative and NaN weights count as 0.
  pose(an, m, {layer(b, 0), layer(c, 0, -2.0f), layer(c, 0, std::nanf(""))});
  EXPECT_NEAR_GLM(origin(an, 0), glm::vec3(0, 1, 0), 1e-6f);
}

TEST(Layers, TheFirstLayerWithAWeightJoinsTheBasesPass) {
  // The base at full weight is sampled in one pass with the first layer that has a weight
  // (sample_base_blend), skipping layers at 0 before it; the layers after go on as before.
  Model m = make_model(true);
  const auto lift = [&](const char* name, float y) {
    return add_clip(m, name, 1.0, {{0, {{0, y, 0}, {0, y, 0}}, {}, {}}});
  };
  const int32_t a = lift("a", 0.0f), b = lift("b", 1.0f), c = lift("c", 2.0f), d = lift("d", 3.0f);
  // The root from (0,0,0) at 0 s to (0,4,0) at 1 s: at 0.5 s, (0,2,0) more than at 0 s.
  const int32_t rise = add_clip(m, "rise", 1.0, {{0, {{0, 0, 0}, {0, 4, 0}}, {}, {}}});
  Animator an(m);
  // 0 -> c at 0.5: 1; b at 0 does nothing.
  pose(an, m, {layer(a, 0), layer(b, 0, 0.0f), layer(c, 0, 0.5f)});
  EXPECT_NEAR_GLM(origin(an, 0), glm::vec3(0, 1, 0), 1e-6f);
  EXPECT_NEAR_GLM(an.local(m, 0).translation, glm::vec3(0, 1, 0), 1e-6f);
  // Then d at 0.5 over it: 1 + 0.5 (3 - 1) = 2.
  pose(an, m, {layer(a, 0), layer(b, 0, 0.0f), layer(c, 0, 0.5f), layer(d, 0, 0.5f)});
  EXPECT_NEAR_GLM(origin(an, 0), glm::vec3(0, 2, 0), 1e-6f);
  // An additive first layer: b's 1 + 0.5 (2 - 0) = 2.
  pose(an, m, {layer(b, 0), layer(c, 0, 0.0f), layer(rise, 0.5, 0.5f, BlendMode::Additive)});
  EXPECT_NEAR_GLM(origin(an, 0), glm::vec3(0, 2, 0), 1e-6f);
  // Every layer over the base at 0: the base alone, through the blend path.
  pose(an, m, {layer(d, 0), layer(c, 0, 0.0f), layer(b, 0, 0.0f)});
  EXPECT_NEAR_GLM(origin(an, 0), glm::vec3(0, 3, 0), 1e-6f);
}

TEST(Layers, WeightsThatSumToZeroGiveTheRestPose) {
  Model m = make_model();
  const int32_t a = add_clip(m, "a", 1.0,
                             {{1, {{3, 3, 3}, {3, 3, 3}}, {rot(50, kX), rot(50, kX)}, {}},
                              {3, {}, {rot(20, kY), rot(20, kY)}, {glm::vec3(2), glm::vec3(2)}}});
  Animator blended(m), rest(m);
  pose(blended, m, {layer(a, 0.5, 0.0f), layer(a, 0.5, 0.0f)});
  ASSERT_TRUE(rest.evaluate(m, PoseMode::Rest, 0.0));
  for (std::size_t j = 0; j < m.skeleton.size(); ++j)
    EXPECT_NEAR_GLM(blended.model_matrices()[j], rest.model_matrices()[j], 1e-6f) << j;
  // An empty stack is the rest pose too.
  pose(blended, m, {});
  for (std::size_t j = 0; j < m.skeleton.size(); ++j)
    EXPECT_NEAR_GLM(blended.model_matrices()[j], rest.model_matrices()[j], 1e-6f) << j;
  // A base at half weight is halfway from the rest pose: the hips at (1.5, 2, 1.5).
  pose(blended, m, {layer(a, 0.5, 0.5f)});
  EXPECT_NEAR_GLM(origin(blended, 1), glm::vec3(1.5f, 2.0f, 1.5f), 1e-6f);
}

TEST(Layers, SparseTracksLeaveWhatTheLayerDoesNotKey) {
  Model m = make_model();
  const int32_t base = add_clip(m, "base", 1.0,
                                {{1, {{0, 2, 0}, {0, 2, 0}}, {rot(10, kY), rot(10, kY)}, {}},
                                 {3, {{1, 0, 0}, {1, 0, 0}}, {rot(0, kZ), rot(0, kZ)}, {}}});
  // The layer keys only the arm's rotation.
  const int32_t arm = add_clip(m, "arm", 1.0, {{3, {}, {rot(60, kZ), rot(60, kZ)}, {}}});
  Animator an(m);
  pose(an, m, {layer(base, 0), layer(arm, 0)});
  EXPECT_NEAR_GLM(an.local(m, 1).translation, glm::vec3(0, 2, 0), 1e-6f);  // base's hips
  EXPECT_SAME_ROTATION(an.local(m, 1).rotation, rot(10, kY), 1e-6f);
  EXPECT_NEAR_GLM(an.local(m, 3).translation, glm::vec3(1, 0, 0), 1e-6f);  // base's arm place
  EXPECT_SAME_ROTATION(an.local(m, 3).rotation, rot(60, kZ), 1e-6f);       // layer's turn
}

TEST(Layers, OneFullLayerIsTheFusedPathAndTheBlendPathAgrees) {
  Model m = make_model();
  const int32_t a =
      add_clip(m, "a", 2.0,
               {{0, {{0, 0, 0}, {1, 0, 2}}, {rot(0, kY), rot(170, kY)}, {}},
                {1, {}, {rot(-20, kX), rot(80, kZ)}, {glm::vec3(1), glm::vec3(1.5f, 1, 0.5f)}},
                {3, {{0.5f, 0, 0}, {0.2f, 0.3f, 0}}, {rot(0, kZ), rot(-95, kZ)}, {}}});
  const int32_t b = add_clip(m, "b", 1.0, {{4, {}, {rot(0, kX), rot(45, kX)}, {}}});
  Animator fused(m), blended(m);
  fused.set_clip(m, a);
  for (double t = 0.0; t < 2.0; t += 0.13) {
    ASSERT_TRUE(fused.evaluate(m, PoseMode::Clip, t));
    // A second layer at weight 0 sends the stack down the blend path; it must change nothing.
    pose(blended, m, {layer(a, t), layer(b, t, 0.0f)});
    for (std::size_t j = 0; j < m.skeleton.size(); ++j)
      EXPECT_NEAR_GLM(blended.model_matrices()[j], fused.model_matrices()[j], 1e-5f) << t;
  }
}

TEST(Layers, SetLayersRefusesWhatCannotBePosedAndEvaluateNeedsIt) {
  Model m = make_model();
  const int32_t a = add_clip(m, "a", 1.0, {{1, {}, {rot(0, kX), rot(10, kX)}, {}}});
  Animator an(m);
  EXPECT_NE(an.set_layers(m, std::vector<Layer>{layer(5, 0)}).find("no clip 5"), std::string::npos);
  std::vector<float> short_mask(2, 1.0f);
  Layer masked = layer(a, 0);
  masked.mask = short_mask;
  EXPECT_NE(an.set_layers(m, std::vector<Layer>{masked}).find("2 weights for 5 joints"),
            std::string::npos);
  Layer bad_ref = layer(a, 0, 1.0f, BlendMode::Additive);
  bad_ref.reference_time = std::nan("");
  EXPECT_NE(an.set_layers(m, std::vector<Layer>{layer(a, 0), bad_ref}).find("reference time"),
            std::string::npos);
  // Not prepared: more layers than set, another clip, another reference time.
  ASSERT_EQ(an.set_layers(m, std::vector<Layer>{layer(a, 0)}), "");
  EXPECT_FALSE(an.evaluate(m, std::vector<Layer>{layer(a, 0), layer(a, 0), layer(a, 0)}));
  Layer add = layer(a, 0, 1.0f, BlendMode::Additive);
  ASSERT_EQ(an.set_layers(m, std::vector<Layer>{layer(a, 0), add}), "");
  EXPECT_TRUE(an.evaluate(m, std::vector<Layer>{layer(a, 0), add}));
  add.reference_time = 0.5;
  EXPECT_FALSE(an.evaluate(m, std::vector<Layer>{layer(a, 0), add}));
}

}  // namespace
}  // namespace sv
