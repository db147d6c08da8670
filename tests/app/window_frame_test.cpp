// The window's frame (app/window_frame.h) on the default character: what the panels are built
// from is the pose drawn in the same frame, and the clock figures stay true when frames are slow.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "app/app_common.h"
#include "app/camera_control.h"
#include "app/frame.h"
#include "app/viewer_scene.h"
#include "app/window_frame.h"
#include "gfx/capture.h"
#include "gfx/gl_context.h"
#include "gfx/renderer.h"
#include "skin/clip_bounds.h"
#include "skin/volume.h"
#include "ui/imgui_harness.h"
#include "ui/ui.h"

namespace sv::test {
namespace {

const std::string kModel = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
constexpr int kWidth = 960, kHeight = 540;

// What the panels were given, copied when the window frame asks for their status (right before
// they are built).
struct Seen {
  double time = -1.0;
  std::vector<float> weights;
  std::vector<glm::mat4> matrices;
};

class Hooks final : public WindowFrameHooks {
 public:
  explicit Hooks(Scene& scene) : scene_(scene) {}
  void before_frame(const ui::UiEdits&) override {}
  ui::StatusView status() override {
    seen.time = scene_.play.player.time;
    const auto w = scene_.frame.animator.pose.all_morph_weights();
    seen.weights.assign(w.begin(), w.end());
    const auto m = scene_.frame.animator.pose.model_matrices();
    seen.matrices.assign(m.begin(), m.end());
    return {};
  }
  void after_panels(const ui::UiEdits&, const Frame*) override {}
  Seen seen;

 private:
  Scene& scene_;
};

struct Window {
  std::unique_ptr<Scene> scene;
  gl::Renderer renderer;
  gl::OffscreenTarget target;
  OrbitCamera camera;
  ui::ViewerState state;
  FrameState frames;
  ImGuiHarness harness{static_cast<float>(kWidth), static_cast<float>(kHeight)};
  bool ok = false;
  Window() {
    std::string error;
    std::vector<std::string> warnings;
    if (!renderer.init(&error, &warnings) || !target.create(kWidth, kHeight, &error)) {
      ADD_FAILURE() << error;
      return;
    }
    if (std::string e = load_scene(kModel, &scene); !e.empty()) {
      ADD_FAILURE() << e;
      return;
    }
    renderer.prepare(scene->doc.model);
    state.new_model(scene->doc.model);
    camera.frame(world_bounds(*scene), static_cast<float>(kWidth) / kHeight);
    ok = true;
  }
  ~Window() {
    scene.reset();
    gl::OffscreenTarget::unbind();
  }
  // One window frame `wall` seconds after the last, drawn into the target; its pixels. With
  // `draw` false the frame is computed and the panels built, nothing drawn (many quick frames).
  const Frame* frame(Hooks& hooks, double wall, std::vector<uint8_t>* rgba, bool draw = true) {
    const Frame* f = nullptr;
    target.bind();
    harness.draw = [&] {
      WindowFrameInputs in;
      in.scene = scene.get();
      in.state = &state;
      in.renderer = draw ? &renderer : nullptr;
      in.camera = &camera;
      in.frames = &frames;
      in.wall_seconds = wall;
      in.framebuffer_width = kWidth;
      in.framebuffer_height = kHeight;
      f = window_frame(in, hooks);
    };
    harness.frame();
    if (draw) {
      glFinish();
      target.read_rgba(rgba);
    }
    return f;
  }
  // A picture of the player's clip at `time` through the same camera, as --screenshot draws.
  void picture(double time, std::vector<uint8_t>* rgba) {
    target.bind();
    FrameChoices choices;
    choices.render = &state.render;
    choices.clip = scene->play.player.clip;
    choices.morph_overrides = state.morph_overrides;
    DrawTarget t;
    t.renderer = &renderer;
    t.camera = &camera;
    t.width = kWidth;
    t.height = kHeight;
    t.viewport = state.viewport;
    FrameState untimed;
    run_frame(*scene, choices, FrameClock::picture(time), t, untimed);
    glFinish();
    target.read_rgba(rgba);
  }
};

TEST(WindowFrame, ThePanelsAreBuiltFromThePoseDrawnInTheSameFrame) {
  SV_REQUIRE_GL();
  Window w;
  ASSERT_TRUE(w.ok);
  Scene& s = *w.scene;
  const std::optional<int32_t> walk = resolve_clip(s.doc.model, "walk");
  ASSERT_TRUE(walk.has_value());
  s.play.player.clip = *walk;
  s.play.player.playing = true;
  Hooks hooks(s);
  std::vector<uint8_t> shown, again;
  double previous = -1.0;
  for (int i = 0; i < 4; ++i) {
    // A fifth of a second a frame: the walk moves the legs by many pixels between two frames.
    const Frame* f = w.frame(hooks, 0.2, &shown);
    ASSERT_NE(f, nullptr);
    // The panels saw the clock, the pose and the weights of the frame drawn...
    EXPECT_DOUBLE_EQ(hooks.seen.time, f->time);
    EXPECT_GT(std::abs(f->time - previous), 0.1) << "the clip did not advance";
    previous = f->time;
    ASSERT_EQ(hooks.seen.matrices.size(), f->model_matrices.size());
    for (std::size_t j = 0; j < f->model_matrices.size(); ++j)
      EXPECT_EQ(hooks.seen.matrices[j], f->model_matrices[j]) << "joint " << j;
    // ...and that frame is the picture of the time they show.
    const std::vector<uint8_t> window_pixels = shown;
    w.picture(hooks.seen.time, &again);
    s.play.player.playing = true;  // the picture paused the player; the window plays on
    ASSERT_EQ(window_pixels.size(), again.size());
    std::size_t differ = 0;
    for (std::size_t k = 0; k < again.size(); ++k) differ += window_pixels[k] != again[k];
    EXPECT_EQ(differ, 0u) << "frame " << i << ": the window drew another time than "
                          << hooks.seen.time << " s";
  }
}

TEST(WindowFrame, TheFaceClipsWeightsInThePanelsAreTheDrawnOnes) {
  SV_REQUIRE_GL();
  Window w;
  ASSERT_TRUE(w.ok);
  Scene& s = *w.scene;
  const std::optional<int32_t> face = resolve_clip(s.doc.model, "face");
  ASSERT_TRUE(face.has_value());
  s.play.player.clip = *face;
  s.play.player.playing = true;
  Hooks hooks(s);
  std::vector<uint8_t> rgba;
  bool moved = false;
  std::vector<float> last;
  for (int i = 0; i < 12; ++i) {
    const Frame* f = w.frame(hooks, 0.1, &rgba);
    ASSERT_NE(f, nullptr);
    ASSERT_FALSE(f->morph_weights.empty());
    ASSERT_EQ(hooks.seen.weights.size(), f->morph_weights.size());
    for (std::size_t k = 0; k < f->morph_weights.size(); ++k)
      EXPECT_EQ(hooks.seen.weights[k], f->morph_weights[k]);
    // The weights the frame was drawn with are the clip's at the frame's time.
    SkinnedPose check(s.doc.model);
    check.pose.set_clip(s.doc.model, *face);
    check.evaluate(s.doc.model, PoseMode::Clip, f->time);
    const auto expect = check.pose.all_morph_weights();
    ASSERT_EQ(expect.size(), f->morph_weights.size());
    for (std::size_t k = 0; k < expect.size(); ++k)
      EXPECT_FLOAT_EQ(expect[k], f->morph_weights[k]) << "target " << k << " at " << f->time;
    if (!last.empty() && last != hooks.seen.weights) moved = true;
    last = hooks.seen.weights;
  }
  EXPECT_TRUE(moved) << "the face clip's weights never changed over 1.2 s";
}

TEST(WindowFrame, SlowFramesShowTheTrueRateAndSaySoInTheTimeline) {
  SV_REQUIRE_GL();
  Window w;
  ASSERT_TRUE(w.ok);
  Scene& s = *w.scene;
  s.play.player.clip = *resolve_clip(s.doc.model, "walk");
  s.play.player.playing = true;
  s.play.player.time = 0.0;
  Hooks hooks(s);
  std::vector<uint8_t> rgba;
  // Frames of 540 ms: the clock steps at most kMaxFrameStep a frame.
  const double duration = s.duration();
  double expect_time = 0.0;
  for (int i = 0; i < 3; ++i) {
    const Frame* f = w.frame(hooks, 0.54, &rgba);
    ASSERT_NE(f, nullptr);
    EXPECT_DOUBLE_EQ(f->wall_seconds, 0.54);
    EXPECT_DOUBLE_EQ(f->step, kMaxFrameStep);
    expect_time = std::fmod(expect_time + kMaxFrameStep, duration);
    EXPECT_NEAR(f->time, expect_time, 1e-9);
  }
  // The true rate (1.85 FPS), not one clamped to 4 FPS, and the real-time ratio 0.25 / 0.54.
  EXPECT_NEAR(w.frames.fps(), 1.0 / 0.54, 1e-4);
  EXPECT_NEAR(ui::mean_frame_seconds(w.frames.wall), 0.54, 1e-6);
  EXPECT_NEAR(w.frames.realtime(), 0.25 / 0.54, 1e-4);
  const ui::SceneView view = scene_view(&s, w.frames, nullptr);
  char notice[96];
  ASSERT_TRUE(ui::slow_playback_notice(view, notice, sizeof(notice)));
  EXPECT_STREQ(notice, "playing at 0.46x: frames take 540 ms");
  // The timeline shows it (the panels drew its landmark).
  EXPECT_NE(w.state.landmarks.find("text:Slow playback"), nullptr);

  // Fast frames again: the ring forgets the slow ones as it fills, and the notice goes.
  for (std::size_t i = 0; i < FrameState::kRing; ++i) w.frame(hooks, 1.0 / 60.0, &rgba, false);
  EXPECT_NEAR(w.frames.fps(), 60.0, 1e-2);
  EXPECT_NEAR(w.frames.realtime(), 1.0, 1e-6);
  EXPECT_FALSE(ui::slow_playback_notice(scene_view(&s, w.frames, nullptr), notice, sizeof(notice)));
  EXPECT_EQ(w.state.landmarks.find("text:Slow playback"), nullptr);
  // Paused, a slow frame does not slow the clip: there is no clip running behind.
  s.play.player.playing = false;
  for (std::size_t i = 0; i < FrameState::kRing; ++i) w.frame(hooks, 0.54, &rgba, false);
  EXPECT_NEAR(w.frames.fps(), 1.0 / 0.54, 1e-4);
  EXPECT_FALSE(ui::slow_playback_notice(scene_view(&s, w.frames, nullptr), notice, sizeof(notice)));
  // Nor does the rest pose "playing" (a file without clips): there is no time to fall behind.
  s.play.player.clip = kRestPose;
  s.play.player.playing = true;
  for (std::size_t i = 0; i < FrameState::kRing; ++i) w.frame(hooks, 0.54, &rgba, false);
  const ui::SceneView rest = scene_view(&s, w.frames, nullptr);
  ASSERT_LT(rest.realtime, 0.98);
  EXPECT_FALSE(ui::slow_playback_notice(rest, notice, sizeof(notice)));
}

// The volume figure is a job: the frame that first asks for it gets none and goes on ("measuring"),
// a later one gets the figures, equal to --info's; another clip cancels the run in progress.
TEST(WindowFrame, TheVolumeFigureIsMeasuredOffTheFrameAndEqualsInfos) {
  SV_REQUIRE_GL();
  Window w;
  ASSERT_TRUE(w.ok);
  Scene& s = *w.scene;
  const int32_t walk = *resolve_clip(s.doc.model, "walk");
  const int32_t twist = *resolve_clip(s.doc.model, "twist");
  s.play.player.clip = walk;
  s.play.player.playing = false;
  EXPECT_EQ(s.volume_of(walk), nullptr);  // started, not waited for
  EXPECT_TRUE(s.volume_pending());
  const ui::SceneView view = scene_view(&s, w.frames, nullptr);
  EXPECT_TRUE(view.volume != nullptr || view.volume_pending);
  // Another clip: the walk's run is cancelled, the twist's starts.
  EXPECT_EQ(s.volume_of(twist), nullptr);
  const VolumeFigures* v = s.wait_for_volume(twist);
  ASSERT_NE(v, nullptr);
  EXPECT_FALSE(s.volume_pending());
  const std::vector<MeshShape> shapes = mesh_shapes(s.doc.model);
  const VolumeFigures expect =
      clip_volume_figures(s.doc.model, twist, s.frame.animator.skin(), shapes);
  EXPECT_EQ(volume_sampling_line(*v), volume_sampling_line(expect));
  ASSERT_EQ(v->meshes.size(), expect.meshes.size());
  for (std::size_t m = 0; m < expect.meshes.size(); ++m)
    EXPECT_EQ(mesh_volume_line(*v, m), mesh_volume_line(expect, m)) << "mesh " << m;
  // Kept: the next call answers at once.
  EXPECT_EQ(s.volume_of(twist), v);
  // The walk, cancelled above, is measured again when asked for, not left cancelled.
  const VolumeFigures* walked = s.wait_for_volume(walk);
  ASSERT_NE(walked, nullptr);
  const VolumeFigures walk_expect =
      clip_volume_figures(s.doc.model, walk, s.frame.animator.skin(), shapes);
  EXPECT_EQ(volume_sampling_line(*walked), volume_sampling_line(walk_expect));
}

// The clip's bounds are a job: the window frames the rest pose at once, reframes on the clip's
// bounds when they arrive unless the user moved the camera meanwhile, and its framing never
// cancels another clip's job (the Record control's).
TEST(WindowFrame, TheClipsBoundsAreAJobTheWindowFramesWhenTheyArrive) {
  SV_REQUIRE_GL();
  Window w;
  ASSERT_TRUE(w.ok);
  Scene& s = *w.scene;
  const float aspect = static_cast<float>(kWidth) / kHeight;
  const int32_t wave = *resolve_clip(s.doc.model, "wave");
  const int32_t twist = *resolve_clip(s.doc.model, "twist");
  const int32_t walk = *resolve_clip(s.doc.model, "walk");
  const Bounds rest = *s.bounds_if_known(kRestPose);  // one pose: known in the call
  ASSERT_TRUE(rest.valid());
  s.play.player.clip = wave;
  AutoFrame auto_frame;
  OrbitCamera camera;
  // The wave's bounds were never asked for: the framing starts their job and frames the rest.
  auto_frame.frame(s, camera, w.state.render, aspect);
  EXPECT_TRUE(auto_frame.pending());
  EXPECT_EQ(s.frame.bounds.min, rest.min);
  EXPECT_EQ(s.frame.bounds.max, rest.max);
  OrbitCamera on_rest;
  on_rest.frame(world_bounds(s), aspect);
  EXPECT_TRUE(same_view(camera, on_rest));
  // The job ends; the next frame's settle reframes on the wave (the raised hand: taller).
  s.jobs.bounds_job.wait();
  EXPECT_TRUE(auto_frame.settle(s, camera, w.state.render, aspect));
  EXPECT_FALSE(auto_frame.pending());
  const Bounds& waved = s.bounds_of(wave);
  EXPECT_GT(waved.max.y, rest.max.y + 0.01f * rest.diagonal());
  EXPECT_EQ(s.frame.bounds.max, waved.max);
  OrbitCamera on_wave = on_rest;  // reframed from the view it had, as the window's camera is
  on_wave.frame(world_bounds(s), aspect);
  EXPECT_TRUE(same_view(camera, on_wave));
  EXPECT_FALSE(same_view(on_wave, on_rest));
  // Known now: the next framing of the wave is immediate.
  auto_frame.frame(s, camera, w.state.render, aspect);
  EXPECT_FALSE(auto_frame.pending());

  // The user orbits before the twist's bounds arrive: the view stays theirs.
  s.play.player.clip = twist;
  auto_frame.frame(s, camera, w.state.render, aspect);
  ASSERT_TRUE(auto_frame.pending());
  camera.orbit(0.4f, 0.1f);
  const OrbitCamera moved = camera;
  s.jobs.bounds_job.wait();
  EXPECT_FALSE(auto_frame.settle(s, camera, w.state.render, aspect));
  EXPECT_FALSE(auto_frame.pending());
  EXPECT_TRUE(same_view(camera, moved));

  // Another clip's job (the Record control's) is not cancelled by the window's framing: the
  // framing waits for it to end, keeps its bounds, then starts its own.
  EXPECT_EQ(s.bounds_if_known(walk), nullptr);  // the walk's job (Replace: the default)
  s.play.player.clip = kBindPose;
  auto_frame.frame(s, camera, w.state.render, aspect);  // the bind pose: known in the call
  EXPECT_FALSE(auto_frame.pending());
  const int32_t clips = static_cast<int32_t>(s.doc.model.clips.size());
  int32_t other = -1;  // a clip whose bounds were never asked for
  for (int32_t c = 0; c < clips && other < 0; ++c)
    if (c != wave && c != twist && c != walk &&
        s.jobs.clip_bounds_done[static_cast<std::size_t>(c)] == 0)
      other = c;
  ASSERT_GE(other, 0);
  EXPECT_EQ(s.bounds_if_known(other, Scene::BoundsStart::WhenIdle), nullptr);
  EXPECT_EQ(s.jobs.bounds_job.slot, static_cast<std::size_t>(walk));  // still the walk's
  s.jobs.bounds_job.wait();
  // The walk's job ended: its bounds are kept, and the other clip's job starts.
  EXPECT_EQ(s.bounds_if_known(other, Scene::BoundsStart::WhenIdle), nullptr);
  EXPECT_EQ(s.jobs.clip_bounds_done[static_cast<std::size_t>(walk)], 1);
  EXPECT_EQ(s.jobs.bounds_job.slot, static_cast<std::size_t>(other));
  const Bounds& walked = s.bounds_of(walk);
  const Bounds expect = clip_bounds(s.doc.model, walk, PoseMode::Clip);
  EXPECT_EQ(walked.min, expect.min);
  EXPECT_EQ(walked.max, expect.max);
  EXPECT_TRUE(s.bounds_of(other).valid());
}

}  // namespace
}  // namespace sv::test
