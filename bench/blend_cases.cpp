// The benchmarks' layer stacks (blend_cases.h).
#include "blend_cases.h"

#include "anim/blend.h"
#include "anim/player.h"
#include "synthetic.h"

namespace sv::bench {

std::unique_ptr<BlendCase> make_blend_case(const std::string& name, std::size_t layers) {
  const bool additive = name == "blend_additive";
  if (!(name == "blend" && (layers == 1 || layers == 2 || layers == 4)) &&
      !(additive && layers == 2))
    return nullptr;
  auto c = std::make_unique<BlendCase>();
  c->model = make_model(60, 0);
  for (uint32_t i = 1; i < 4; ++i)
    c->model.clips.push_back(
        make_runtime_clip(c->model.skeleton, 3.0f + static_cast<float>(i), 30.0f, 43u + i));
  // Joint 1's subtree: about half of make_skeleton's bushy tree.
  c->mask = subtree_mask(c->model.skeleton.parents, 1);
  c->stack.resize(layers);
  for (std::size_t i = 0; i < layers; ++i) c->stack[i].clip = static_cast<int32_t>(i);
  if (additive) {
    c->stack[1].weight = 0.5f;
    c->stack[1].mode = BlendMode::Additive;
    return c;
  }
  if (layers > 1) c->stack[1].weight = 0.5f;
  if (layers > 2) {
    c->stack[2].weight = 0.7f;
    c->stack[2].mask = c->mask;
    c->stack[3].weight = 0.5f;
    c->stack[3].mode = BlendMode::Additive;
  }
  return c;
}

void set_blend_time(BlendCase& c, double t) noexcept {
  for (Layer& l : c.stack)
    l.time = wrap_time(t, c.model.clips[static_cast<std::size_t>(l.clip)].duration(), true);
}

}  // namespace sv::bench
