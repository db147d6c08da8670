// The loading code the viewer's Model panel uses: a failed load keeps the previous model, and
// the error reaches the caller; a good load replaces it and sizes everything for the new model.
#include <cstdlib>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "app/viewer_scene.h"
#include "gl_context.h"
#include "io/import.h"
#include "synthetic_models.h"

namespace sv {
namespace {

ImportResult synthetic(int joints) {
  ImportResult r;
  r.model = test::make_chain_model(joints);
  return r;
}

TEST(SceneLoading, FailedImportKeepsThePreviousModel) {
  SV_REQUIRE_GL();
  std::unique_ptr<Scene> scene;
  ASSERT_EQ(adopt_scene(synthetic(3), "chain3", &scene), "");
  ASSERT_TRUE(scene);
  const Scene* before = scene.get();

  ImportResult failed;
  failed.error = "broken.glb: not a glTF file";
  EXPECT_EQ(adopt_scene(std::move(failed), "broken.glb", &scene), "broken.glb: not a glTF file");
  EXPECT_EQ(scene.get(), before);
  EXPECT_EQ(scene->doc.path, "chain3");
  EXPECT_EQ(scene->doc.model.skeleton.size(), 3u);
}

TEST(SceneLoading, AnImportThatCrashesKeepsThePreviousModel) {
  SV_REQUIRE_GL();
  std::unique_ptr<Scene> scene;
  ASSERT_EQ(adopt_scene(synthetic(3), "chain3", &scene), "");
  const Scene* before = scene.get();
  const std::string path = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  ::setenv("SKINVIEW_IMPORT_FAULT", "segv", 1);
  const std::string error = load_scene(path, &scene);
  ::unsetenv("SKINVIEW_IMPORT_FAULT");
  EXPECT_EQ(error.rfind(path + ": the importer crashed (", 0), 0u) << error;
  EXPECT_EQ(scene.get(), before);
  EXPECT_EQ(scene->doc.path, "chain3");
  // And the same file loads once the worker behaves.
  EXPECT_EQ(load_scene(path, &scene), "");
  EXPECT_EQ(scene->doc.path, path);
}

TEST(SceneLoading, MissingFileKeepsThePreviousModel) {
  SV_REQUIRE_GL();
  std::unique_ptr<Scene> scene;
  ASSERT_EQ(adopt_scene(synthetic(3), "chain3", &scene), "");
  const std::string error = load_scene("/nonexistent/skinview/model.glb", &scene);
  EXPECT_FALSE(error.empty());
  ASSERT_TRUE(scene);
  EXPECT_EQ(scene->doc.path, "chain3");
}

TEST(SceneLoading, InconsistentModelIsRefused) {
  SV_REQUIRE_GL();
  std::unique_ptr<Scene> scene;
  ImportResult bad = synthetic(3);
  bad.model->skeleton.parents[1] = 2;  // a parent after its child
  EXPECT_FALSE(adopt_scene(std::move(bad), "bad", &scene).empty());
  EXPECT_FALSE(scene);
}

TEST(SceneLoading, GoodLoadReplacesAndSizesEverything) {
  SV_REQUIRE_GL();
  std::unique_ptr<Scene> scene;
  ASSERT_EQ(adopt_scene(synthetic(3), "chain3", &scene), "");
  ASSERT_EQ(adopt_scene(synthetic(50), "chain50", &scene), "");
  EXPECT_EQ(scene->doc.path, "chain50");
  EXPECT_EQ(scene->gpu.bone_count(), 50u);
  EXPECT_EQ(scene->frame.animator.pose.palette().size(), 50u);
  EXPECT_EQ(scene->doc.influence.size(), 50u);
  EXPECT_EQ(scene->play.player.clip, 0);
  EXPECT_TRUE(scene->frame.bounds.valid());
  // Every joint of the chain carries weight.
  for (const JointInfluence& ji : scene->doc.influence) EXPECT_GT(ji.vertices, 0u);
}

}  // namespace
}  // namespace sv
