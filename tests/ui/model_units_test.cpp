// The inspector's Model section (ui/model_units.h): the size in the file's units, the unit and
// where it comes from, the size in metres; and the section drawn in the panel.
#include <string>

#include <gtest/gtest.h>

#include "ui/model_units.h"
#include "ui_fixture.h"

namespace sv::test {
namespace {

std::string unit(double m, const char* path) {
  char buf[128];
  ui::format_unit(m, path, buf, sizeof buf);
  return buf;
}

TEST(ModelUnits, NamesCommonUnits) {
  EXPECT_STREQ(ui::unit_name(1.0), "metre");
  EXPECT_STREQ(ui::unit_name(0.01), "centimetre");
  EXPECT_STREQ(ui::unit_name(0.0254), "inch");
  EXPECT_STREQ(ui::unit_name(0.001), "millimetre");
  EXPECT_EQ(ui::unit_name(0.5), nullptr);
  EXPECT_EQ(ui::unit_name(0.0), nullptr);
}

TEST(ModelUnits, SaysWhereTheUnitComesFrom) {
  EXPECT_EQ(unit(0.01, "/m/spider.fbx"), "centimetre (FBX UnitScaleFactor 1)");
  EXPECT_EQ(unit(1.0, "/m/Robot.FBX"), "metre (FBX UnitScaleFactor 100)");
  EXPECT_EQ(unit(0.5, "/m/a.fbx"), "0.5 m (FBX UnitScaleFactor 50)");
  EXPECT_EQ(unit(1.0, "/m/a.glb"), "metre (glTF)");
  EXPECT_EQ(unit(1.0, "/m/duck.dae"), "metre (COLLADA <unit>, applied on import)");
  EXPECT_EQ(unit(0.0, "/m/spider.obj"), "unknown (the file does not say)");
  EXPECT_EQ(unit(0.0, "/m.d/noext"), "unknown (the file does not say)");
}

TEST(ModelUnits, SizesInFileUnitsAndInMetres) {
  char buf[128];
  ui::format_size(glm::vec3(40.0f, 180.0f, 25.5f), buf, sizeof buf);
  EXPECT_STREQ(buf, "40 x 180 x 25.5 units (X, Y, Z)");
  ASSERT_TRUE(ui::format_metres(glm::vec3(40.0f, 180.0f, 25.5f), 0.01, buf, sizeof buf));
  EXPECT_STREQ(buf, "= 0.4 x 1.8 x 0.255 m");
  // FBX/spider.fbx: whole numbers from 1000 up, not 1.51e+04.
  ui::format_size(glm::vec3(15100.0f, 7970.0f, 19300.0f), buf, sizeof buf);
  EXPECT_STREQ(buf, "15100 x 7970 x 19300 units (X, Y, Z)");
  EXPECT_FALSE(ui::format_metres(glm::vec3(1.0f), 1.0, buf, sizeof buf)) << "already metres";
  EXPECT_FALSE(ui::format_metres(glm::vec3(1.0f), 0.0, buf, sizeof buf)) << "unknown unit";
  EXPECT_STREQ(buf, "");
}

TEST(ModelUnits, TheInspectorShowsTheModelsSizeAndUnit) {
  UiFixture f;
  f.model_size = glm::vec3(40.0f, 180.0f, 25.0f);
  f.unit_metres = 0.01;
  f.harness.frames(2);
  const ui::Landmark* header = f.marks().find("header:Model");
  ASSERT_NE(header, nullptr);
  EXPECT_EQ(header->index, 1) << "open by default";
  EXPECT_NE(f.marks().find("text:Size"), nullptr);
  const ui::Landmark* u = f.marks().find("text:Unit");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->index, 1) << "a known unit";
  EXPECT_NE(f.marks().find("text:Size in metres"), nullptr);
  f.unit_metres = 0.0;
  f.harness.frames(2);
  u = f.marks().find("text:Unit");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->index, 0) << "unknown";
  EXPECT_EQ(f.marks().find("text:Size in metres"), nullptr);
  // Closed with a click, as every section.
  ASSERT_TRUE(f.click_mark("header:Model"));
  EXPECT_EQ(f.marks().find("text:Unit"), nullptr);
}

}  // namespace
}  // namespace sv::test
