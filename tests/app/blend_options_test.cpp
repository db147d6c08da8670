// --layer and --crossfade's parser and their resolution against a model (app/blend_options.h),
// without a process: names that hold ':', each option, each refusal, and the LayerStack made.
#include "app/blend_options.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "anim/model.h"

namespace sv {
namespace {

LayerSpec layer(const std::string& text) {
  LayerSpec spec;
  EXPECT_EQ(parse_layer_spec(text, &spec), "") << text;
  return spec;
}

std::string layer_error(const std::string& text) {
  LayerSpec spec;
  const std::string e = parse_layer_spec(text, &spec);
  EXPECT_NE(e, "") << text;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  return e;
}

TEST(LayerSpec, ClipAloneTakesTheDefaults) {
  const LayerSpec s = layer("wave");
  EXPECT_EQ(s.clip, "wave");
  EXPECT_EQ(s.weight, 1.0f);
  EXPECT_FALSE(s.time.has_value());
  EXPECT_TRUE(s.masks.empty());
  EXPECT_FALSE(s.additive);
  EXPECT_EQ(s.reference_time, 0.0);
}

TEST(LayerSpec, EveryOptionInAnyOrder) {
  const LayerSpec s =
      layer("breathe:additive:ref=0.25:time=1.5:weight=0.3:mask=spine_01:mask=neck");
  EXPECT_EQ(s.clip, "breathe");
  EXPECT_TRUE(s.additive);
  EXPECT_EQ(s.reference_time, 0.25);
  EXPECT_EQ(*s.time, 1.5);
  EXPECT_FLOAT_EQ(s.weight, 0.3f);
  EXPECT_EQ(s.masks, (std::vector<std::string>{"spine_01", "neck"}));
}

TEST(LayerSpec, NamesMayHoldColons) {
  // Mixamo joints ("mixamorig:Hips") and clip names with ':' (FBX take names).
  const LayerSpec s = layer("Armature|Take:001:mask=mixamorig:Spine:weight=0.5");
  EXPECT_EQ(s.clip, "Armature|Take:001");
  EXPECT_EQ(s.masks, (std::vector<std::string>{"mixamorig:Spine"}));
  EXPECT_FLOAT_EQ(s.weight, 0.5f);
  EXPECT_EQ(layer("a:b:c").clip, "a:b:c");
}

TEST(LayerSpec, RefusesWhatItCannotRead) {
  EXPECT_NE(layer_error("wave:weight=1.01").find("weight '1.01' is not a number in [0, 1]"),
            std::string::npos);
  EXPECT_NE(layer_error("wave:weight=-0.1").find("weight '-0.1'"), std::string::npos);
  EXPECT_NE(layer_error("wave:weight=nan").find("weight 'nan'"), std::string::npos);
  EXPECT_NE(layer_error("wave:weight=").find("weight ''"), std::string::npos);
  EXPECT_NE(layer_error("wave:time=x").find("time 'x' is not a time in seconds >= 0"),
            std::string::npos);
  EXPECT_NE(layer_error("wave:time=inf").find("time 'inf'"), std::string::npos);
  EXPECT_NE(layer_error("wave:mask=").find("mask= names no joint"), std::string::npos);
  EXPECT_NE(layer_error("wave:speed=2").find("unknown option 'speed'"), std::string::npos);
  EXPECT_NE(layer_error("wave:additive:x").find("'x' after 'additive' is not an option"),
            std::string::npos);
  EXPECT_NE(layer_error("wave:ref=1").find("ref= is for additive layers"), std::string::npos);
  EXPECT_NE(layer_error("").find("no clip name"), std::string::npos);
  EXPECT_EQ(layer_error("wave:weight=2").find("--layer 'wave:weight=2': "), 0u);
}

TEST(CrossFadeSpec, ReadsItsFieldsFromTheRight) {
  CrossFadeSpec f;
  ASSERT_EQ(parse_crossfade_spec("walk:run:1.5:0.25:sync", &f), "");
  EXPECT_EQ(f.clips, "walk:run");
  EXPECT_EQ(f.start, 1.5);
  EXPECT_EQ(f.duration, 0.25);
  EXPECT_TRUE(f.sync);
  ASSERT_EQ(parse_crossfade_spec("a:b:c:0:0", &f), "");  // FROM:TO is split later, by the model
  EXPECT_EQ(f.clips, "a:b:c");
  EXPECT_FALSE(f.sync);
  for (const char* bad :
       {"walk:run:1", "walk:1:2", "walk:run:x:1", "walk:run:1:-1", "walk:run:1:1:fast"}) {
    const std::string e = parse_crossfade_spec(bad, &f);
    EXPECT_NE(e, "") << bad;
    EXPECT_EQ(e.find("--crossfade '"), 0u) << e;
  }
}

// A model with three joints (root, a, b below a) and clips named "walk", "run:fast", "run".
Model small_model() {
  Model m;
  for (const char* name : {"root", "a", "b"}) {
    m.skeleton.names.emplace_back(name);
    m.skeleton.rest.emplace_back();
    m.skeleton.inverse_bind.emplace_back(1.0f);
    m.skeleton.is_bone.push_back(1);
  }
  m.skeleton.parents = {-1, 0, 1};
  for (const char* name : {"walk", "run:fast", "run"}) {
    Clip c;
    c.name = name;
    c.duration = 1.0;
    m.clips.emplace_back();
    EXPECT_EQ(m.clips.back().build(c, m.skeleton), "");
  }
  return m;
}

TEST(LayerStackFromSpecs, ResolvesClipsJointsTimesAndTheFade) {
  const Model m = small_model();
  BlendSpecs specs;
  ASSERT_EQ(parse_blend_specs({"run:fast:mask=a:time=2.5:weight=0.5", "2:additive:ref=0.5"},
                              "walk:run:fast:1:0.5:sync", &specs),
            "");
  LayerStack stack;
  ASSERT_EQ(make_layer_stack(m, "small.glb", 0, 2.0, specs, &stack), "");
  EXPECT_EQ(stack.base, 0);
  EXPECT_EQ(stack.fade_to, 1);  // "walk" into "run:fast": the split where both halves are clips
  EXPECT_EQ(stack.fade.start, 1.0);
  EXPECT_EQ(stack.fade.duration, 0.5);
  EXPECT_TRUE(stack.fade.sync);
  ASSERT_EQ(stack.layers.size(), 2u);
  EXPECT_EQ(stack.layers[0].clip, 1);
  EXPECT_EQ(stack.layers[0].mask, (std::vector<float>{0, 1, 1}));  // a and b below it
  EXPECT_EQ(stack.layers[0].time_offset, 0.5);                     // 2.5 s when the base is at 2 s
  EXPECT_FLOAT_EQ(stack.layers[0].weight, 0.5f);
  EXPECT_EQ(stack.layers[1].clip, 2);  // by index
  EXPECT_EQ(stack.layers[1].mode, BlendMode::Additive);
  EXPECT_EQ(stack.layers[1].reference_time, 0.5);
  EXPECT_TRUE(stack.layers[1].mask.empty());
  EXPECT_EQ(stack.layers[1].time_offset, 0.0);  // no time=: with the base
  EXPECT_EQ(stack.size(), 4u);
}

TEST(LayerStackFromSpecs, NamesWhatTheModelDoesNotHave) {
  const Model m = small_model();
  const auto error = [&](std::vector<std::string> layers, std::string fade) {
    BlendSpecs specs;
    EXPECT_EQ(parse_blend_specs(layers, fade, &specs), "");
    LayerStack stack;
    const std::string e = make_layer_stack(m, "small.glb", 0, 0.0, specs, &stack);
    EXPECT_NE(e, "");
    return e;
  };
  EXPECT_NE(error({"jog"}, "").find("no clip 'jog' in small.glb; clips: walk, run:fast, run"),
            std::string::npos);
  EXPECT_NE(error({"3"}, "").find("no clip '3'"), std::string::npos);
  EXPECT_NE(error({"walk:mask=c"}, "").find("mask=: no joint 'c' in small.glb; joints: root"),
            std::string::npos);
  EXPECT_NE(error({}, "walk:jog:0:1").find("'walk:jog' is not FROM:TO"), std::string::npos);
}

}  // namespace
}  // namespace sv
