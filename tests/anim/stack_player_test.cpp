// The window's playing layer stack (anim/stack_player.h): a cross-fade started now hands the base
// over to its target without a jump, sync keeps the two in phase, layers run on their own clocks
// and stop with the base, switching the base drops a fade, and a stack started from the command
// line's LayerStack poses as the LayerStack does at every time.
#include "anim/stack_player.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/model.h"
#include "test_util.h"

namespace sv {
namespace {

// Two joints; clips: 0 "a" (2 s) turns joint 1 from 0 to 90 degrees about Z, 1 "b" (1 s) lifts
// the root from 0 to 1 along Y, 2 "c" (0.5 s) turns joint 1 about X.
Model stack_model() {
  Model m;
  for (int j = 0; j < 2; ++j) {
    m.skeleton.names.push_back(j == 0 ? "root" : "child");
    m.skeleton.parents.push_back(j - 1);
    Transform t;
    t.translation = glm::vec3(j == 0 ? 0.0f : 1.0f, 0.0f, 0.0f);
    m.skeleton.rest.push_back(t);
    m.skeleton.inverse_bind.emplace_back(1.0f);
    m.skeleton.is_bone.push_back(1);
  }
  const auto add = [&m](const char* name, double duration, JointChannel ch) {
    Clip c;
    c.name = name;
    c.duration = duration;
    c.channels.push_back(std::move(ch));
    m.clips.emplace_back();
    EXPECT_EQ(m.clips.back().build(c, m.skeleton), "");
  };
  JointChannel a;
  a.joint = 1;
  a.rotation.times = {0.0, 2.0};
  a.rotation.values = {glm::quat(1, 0, 0, 0),
                       glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1))};
  add("a", 2.0, std::move(a));
  JointChannel b;
  b.joint = 0;
  b.translation.times = {0.0, 1.0};
  b.translation.values = {glm::vec3(0), glm::vec3(0, 1, 0)};
  add("b", 1.0, std::move(b));
  JointChannel c;
  c.joint = 1;
  c.rotation.times = {0.0, 0.5};
  c.rotation.values = {glm::quat(1, 0, 0, 0),
                       glm::angleAxis(glm::radians(40.0f), glm::vec3(1, 0, 0))};
  add("c", 0.5, std::move(c));
  return m;
}

// The pose of `stack` over `base`, as the window evaluates it.
std::vector<glm::mat4> pose(const Model& m, const StackPlayer& stack, const Player& base) {
  std::vector<Layer> layers(stack.size());
  EXPECT_TRUE(stack.frame(m, base, layers));
  Animator a(m);
  EXPECT_EQ(a.set_layers(m, layers), "");
  EXPECT_TRUE(a.evaluate(m, layers));
  return {a.model_matrices().begin(), a.model_matrices().end()};
}

float max_move(const std::vector<glm::mat4>& p, const std::vector<glm::mat4>& q) {
  float worst = 0.0f;
  for (std::size_t j = 0; j < p.size(); ++j)
    for (int c = 0; c < 4; ++c) worst = std::max(worst, glm::length(p[j][c] - q[j][c]));
  return worst;
}

TEST(StackPlayer, ACrossFadeHandsTheBaseOverToItsTargetWithoutAJump) {
  const Model m = stack_model();
  Player base;
  base.clip = 0;
  base.time = 0.5;
  StackPlayer s;
  ASSERT_TRUE(s.start_fade(m, base, 1, 0.3, false));
  EXPECT_TRUE(s.fading());
  EXPECT_EQ(s.size(), 2u);
  const double dt = 1.0 / 60.0;
  std::vector<glm::mat4> last = pose(m, s, base);
  float worst = 0.0f;
  for (int i = 0; i < 40; ++i) {  // 0.67 s: through the fade and past it
    s.advance(m, base, dt);
    const std::vector<glm::mat4> now = pose(m, s, base);
    worst = std::max(worst, max_move(now, last));
    last = now;
  }
  EXPECT_FALSE(s.fading());
  EXPECT_EQ(base.clip, 1);
  // b started from 0 when the fade began, 40 frames ago: 40/60 s in.
  EXPECT_NEAR(base.time, 40.0 / 60.0, 1e-9);
  // Per frame the pose moves at most what the two clips and a 0.3 s fade between them do in 1/60
  // s (the root's lift of 1 unit over the fade: 0.06 a frame), and no more at the hand-over.
  EXPECT_LT(worst, 0.1f);
  // A plain base with no layer is no blend.
  EXPECT_FALSE(s.blends());
}

TEST(StackPlayer, SyncStartsTheTargetInPhaseAndKeepsItThere) {
  const Model m = stack_model();
  Player base;
  base.clip = 0;    // 2 s
  base.time = 1.5;  // phase 0.75
  StackPlayer s;
  ASSERT_TRUE(s.start_fade(m, base, 2, 1.0, true));  // c: 0.5 s
  std::vector<Layer> layers(s.size());
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(s.frame(m, base, layers));
    // Both at one phase (mod 1).
    const double from = layers[0].time / 2.0, to = layers[1].time / 0.5;
    EXPECT_NEAR(from - std::floor(from), to - std::floor(to), 1e-9) << i;
    s.advance(m, base, 1.0 / 60.0);
  }
}

TEST(StackPlayer, LayersRunOnTheirOwnClocksAndStopWithTheBase) {
  const Model m = stack_model();
  Player base;
  base.clip = 0;
  StackPlayer s;
  PlayedLayer l;
  l.player.clip = 2;  // 0.5 s, looping
  l.player.speed = 2.0f;
  s.layers.push_back(l);
  s.advance(m, base, 0.1);
  EXPECT_NEAR(base.time, 0.1, 1e-12);
  EXPECT_NEAR(s.layers[0].player.time, 0.2, 1e-12);
  s.advance(m, base, 0.2);  // the layer wraps at 0.5
  EXPECT_NEAR(s.layers[0].player.time, 0.1, 1e-9);
  base.playing = false;
  s.advance(m, base, 0.2);
  EXPECT_NEAR(base.time, 0.3, 1e-12);
  EXPECT_NEAR(s.layers[0].player.time, 0.1, 1e-9);
}

TEST(StackPlayer, SwitchingTheBaseDropsTheFadeAndBadFadesAreRefused) {
  const Model m = stack_model();
  Player base;
  base.clip = 0;
  StackPlayer s;
  ASSERT_TRUE(s.start_fade(m, base, 1, 1.0, false));
  base.clip = 2;  // picked in the timeline
  s.advance(m, base, 0.1);
  EXPECT_FALSE(s.fading());
  EXPECT_EQ(base.clip, 2);
  EXPECT_FALSE(s.start_fade(m, base, 7, 1.0, false));
  base.clip = kRestPose;
  EXPECT_FALSE(s.start_fade(m, base, 1, 1.0, false));
  std::vector<Layer> layers(s.size());
  EXPECT_FALSE(s.frame(m, base, layers));  // no clip under the stack
}

TEST(StackPlayer, FromTheCommandLinesStackItPosesAsTheStackDoes) {
  const Model m = stack_model();
  LayerStack stack;
  stack.base = 0;
  stack.fade_to = 1;
  stack.fade = CrossFade{0.4, 0.5, true};
  StackLayer l;
  l.clip = 2;
  l.weight = 0.6f;
  l.time_offset = 0.25;
  stack.layers.push_back(l);
  Player base;
  StackPlayer s = from_stack(m, stack, 0.2, base);
  EXPECT_EQ(base.clip, 0);
  std::vector<Layer> expected(stack.size());
  for (int i = 0; i < 30; ++i) {  // 0.2 s to 0.7 s: before, into and past the middle of the fade
    const double t = 0.2 + i / 60.0;
    ASSERT_TRUE(stack.at(m, t, expected));
    std::vector<Layer> got(s.size());
    ASSERT_TRUE(s.frame(m, base, got));
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].clip, expected[k].clip) << t;
      EXPECT_NEAR(got[k].time, expected[k].time, 1e-9) << t << " layer " << k;
      EXPECT_FLOAT_EQ(got[k].weight, expected[k].weight) << t << " layer " << k;
    }
    s.advance(m, base, 1.0 / 60.0);
  }
}

}  // namespace
}  // namespace sv
