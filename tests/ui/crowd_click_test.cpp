// The window's Crowd section, clicked as a user clicks it on the default character in a headless
// ImGui context: turning the crowd on (which locks the CPU skinning radio), a count button, the
// shared-palette toggle and "Randomise phases"; then the crowd the app would lay out from those
// settings (skin/crowd.h, as app/crowd_frame.cpp does) shows its counts in the section and in
// Performance.
#include <gtest/gtest.h>
#include <imgui.h>

#include "skin/crowd.h"
#include "ui_fixture.h"

namespace sv::test {
namespace {

TEST(CrowdClicks, TheSectionEditsTheCrowdRequest) {
  UiFixture f;
  f.player.clip = 1;  // walk
  f.harness.frames(2);
  EXPECT_FALSE(f.state.crowd.on);
  ASSERT_TRUE(f.click_mark("header:Crowd"));  // closed by default
  f.harness.frame();
  ASSERT_TRUE(f.click_mark("check:Crowd"));
  f.harness.frame();
  EXPECT_TRUE(f.state.crowd.on);
  // A crowd is skinned on the GPU: the CPU radio button does nothing while it is on.
  ASSERT_TRUE(f.state.render.gpu_skinning);
  ASSERT_TRUE(f.click_mark("radio:CPU"));
  f.harness.frame();
  EXPECT_TRUE(f.state.render.gpu_skinning);

  ASSERT_TRUE(f.click_mark("button:Crowd 100"));
  f.harness.frame();
  EXPECT_EQ(f.state.crowd.settings.count, 100);
  EXPECT_FALSE(f.state.crowd.settings.shared);
  ASSERT_TRUE(f.click_mark("check:Shared palettes"));
  f.harness.frame();
  EXPECT_TRUE(f.state.crowd.settings.shared);
  const uint32_t seed = f.state.crowd.settings.seed;
  f.state.crowd.settings.random_phases = false;
  ASSERT_TRUE(f.click_mark("button:Randomise phases"));
  f.harness.frame();
  EXPECT_NE(f.state.crowd.settings.seed, seed);
  EXPECT_TRUE(f.state.crowd.settings.random_phases);

  // What the app lays out from the request: 100 instances, 8 shared palettes at most.
  CrowdSettings s = f.state.crowd.settings;
  s.spacing = 1.0f;  // the app resolves "automatic" from the model's bounds
  Crowd crowd;
  ASSERT_EQ(crowd.configure(f.model, s, f.player.clip), "");
  ASSERT_TRUE(crowd.evaluate(f.model, f.player.time, SkinMethod::Lbs));
  EXPECT_EQ(crowd.instances(), 100u);
  EXPECT_LE(crowd.palettes_computed(), 8u);
  EXPECT_GE(crowd.palettes_computed(), 2u);
  f.crowd = &crowd;
  f.harness.frames(2);
  EXPECT_NE(f.marks().find("text:Crowd count"), nullptr);
  EXPECT_NE(f.marks().find("text:Crowd stats"), nullptr) << "Performance shows the crowd";

  // Off again: the CPU path can be chosen once more.
  ASSERT_TRUE(f.click_mark("check:Crowd"));
  f.harness.frame();
  EXPECT_FALSE(f.state.crowd.on);
  f.crowd = nullptr;
  ASSERT_TRUE(f.click_mark("radio:CPU"));
  f.harness.frame();
  EXPECT_FALSE(f.state.render.gpu_skinning);
}

}  // namespace
}  // namespace sv::test
