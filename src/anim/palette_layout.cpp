#include "anim/palette_layout.h"

#include <glm/matrix.hpp>

#include "anim/clip.h"
#include "anim/model.h"
#include "anim/pose.h"

namespace sv {

PaletteLayout::PaletteLayout(const Model& model) {
  const std::size_t joints = model.skeleton.size();
  base.resize(model.meshes.size());
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    base[m] = static_cast<uint32_t>(skin_joints.size());
    fits = fits && mesh.skin_joints.size() == mesh.inverse_bind.size();
    skin_joints.insert(skin_joints.end(), mesh.skin_joints.begin(), mesh.skin_joints.end());
    inverse_bind.insert(inverse_bind.end(), mesh.inverse_bind.begin(), mesh.inverse_bind.end());
  }
  bind_model.resize(joints);
  for (std::size_t j = 0; j < joints && j < model.skeleton.inverse_bind.size(); ++j)
    bind_model[j] = glm::inverse(model.skeleton.inverse_bind[j]);
  bind_palette.assign(skin_joints.size(), glm::mat4(1.0f));
  fits = fits && build_palette(bind_model, skin_joints, inverse_bind, bind_palette);
  // A skeleton that does not validate leaves `rest` empty; posing it then reports failure.
  rest.build(Clip{}, model.skeleton);
}

}  // namespace sv
