#include "gfx/picker.h"

#include <span>
#include <tuple>
#include <vector>

#include <glm/gtc/type_ptr.hpp>
#include <glm/matrix.hpp>

#include "anim/model.h"
#include "gfx/face_culling.h"
#include "gfx/gpu_model.h"
#include "gfx/shader.h"
#include "gfx/view_colors.h"
#include "skin/skinned_pose.h"

namespace sv::gl {

bool Picker::init(std::string* error) {
  const std::vector<std::string> colors = skin_program_defines();
  for (auto [program, u, stage] :
       {std::tuple{&skin_, &skin_u_, "skin.vert"}, std::tuple{&mesh_, &mesh_u_, "mesh.vert"}}) {
    ProgramResult r = build_program({{"common.vert", stage}, {"pick.frag"}, colors, {}});
    if (!r.ok()) {
      *error = "picking: " + r.error;
      return false;
    }
    *program = std::move(r.program);
    const GLuint p = program->id();
    u->world = glGetUniformLocation(p, "u_world");
    u->view_proj = glGetUniformLocation(p, "u_view_proj");
    u->pick_mesh = glGetUniformLocation(p, "u_pick_mesh");
    u->skin = SkinUniforms::of(p);
  }
  fbo_ = Framebuffer::create();
  ids_ = Renderbuffer::create();
  depth_ = Renderbuffer::create();
  glBindRenderbuffer(GL_RENDERBUFFER, ids_.id());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RG32UI, 1, 1);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_.id());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, 1, 1);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  GLint draw_fbo = 0, read_fbo = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fbo);
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, ids_.id());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_.id());
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_fbo));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_fbo));
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    *error = "picking: the 1x1 RG32UI target is incomplete (status " + std::to_string(status) + ")";
    return false;
  }
  SV_GL_CHECK("Picker::init");
  return true;
}

bool Picker::id_at(const PickInput& in, uint32_t* mesh, uint32_t* triangle) {
  if (in.model == nullptr || in.gpu == nullptr || in.rect.empty() ||
      !in.rect.contains(in.cursor.x, in.cursor.y))
    return false;
  GLint draw_fbo = 0, read_fbo = 0, viewport[4] = {};
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fbo);
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fbo);
  glGetIntegerv(GL_VIEWPORT, viewport);

  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id());
  glViewport(0, 0, 1, 1);
  const GLuint clear_ids[4] = {0, 0, 0, 0};
  glClearBufferuiv(GL_COLOR, 0, clear_ids);
  const GLfloat far_depth = 1.0f;
  glClearBufferfv(GL_DEPTH, 0, &far_depth);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);  // a wireframe view still picks whole triangles

  const bool gpu_path = in.gpu_skinning;
  const Uniforms& u = gpu_path ? skin_u_ : mesh_u_;
  glUseProgram(gpu_path ? skin_.id() : mesh_.id());
  const glm::mat4 view_proj = pick_matrix(in.rect, in.cursor) * in.projection * in.view;
  glUniformMatrix4fv(u.world, 1, GL_FALSE, glm::value_ptr(in.world));
  glUniformMatrix4fv(u.view_proj, 1, GL_FALSE, glm::value_ptr(view_proj));
  if (gpu_path) {
    bind_palettes(*in.gpu);
    u.skin.set_palette_units();
    // The method the frame was drawn with (the renderer's rule: the Animator's).
    const SkinMethod method = in.animator != nullptr ? in.animator->skin().method : SkinMethod::Lbs;
    glUniform1i(u.skin.method, static_cast<GLint>(method));
  }
  const auto meshes = in.gpu->meshes();
  const std::span<const glm::mat4> palette =
      in.animator != nullptr ? in.animator->pose.palette() : std::span<const glm::mat4>();
  for (std::size_t m = 0; m < meshes.size(); ++m) {
    const GpuMesh& g = meshes[m];
    if (g.index_count == 0) continue;
    if (gpu_path) {
      glUniform1i(u.skin.palette_base, g.palette_base);
      u.skin.morph.set(g);
    }
    glUniform1i(u.skin.influences,
                influences_uniform(g, in.animator != nullptr ? in.animator->skin().influences : 4));
    glUniform1ui(u.pick_mesh, static_cast<GLuint>(m + 1));
    // The streams the frame was drawn from (the renderer's rule, gfx/gpu_model.h).
    const bool compact =
        in.animator != nullptr &&
        draws_compact(g, gpu_path ? in.animator->compact(m) : in.animator->skinned_compact(m));
    glUniform1i(u.skin.compact, compact ? 1 : 0);
    glBindVertexArray(in.gpu->vertex_array(m, gpu_path, compact));
    // The renderer's rule (gfx/face_culling.h): a face the picture culls is not picked.
    set_back_face_culling(culls_back_faces(g.double_sided, in.show_back_faces, in.world, palette,
                                           static_cast<std::size_t>(g.palette_base),
                                           static_cast<std::size_t>(g.palette_bones)));
    glDrawElements(GL_TRIANGLES, g.index_count, GL_UNSIGNED_INT, nullptr);
  }
  set_back_face_culling(false);
  glBindVertexArray(0);
  glUseProgram(0);

  GLuint id[2] = {0, 0};
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glReadPixels(0, 0, 1, 1, GL_RG_INTEGER, GL_UNSIGNED_INT, id);

  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_fbo));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_fbo));
  glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
  SV_GL_CHECK("Picker::id_at");
  if (id[0] == 0 || id[0] > meshes.size()) return false;
  *mesh = id[0] - 1;
  *triangle = id[1];
  return true;
}

PickResult Picker::pick(const PickInput& in) {
  PickResult r;
  if (in.model == nullptr || in.animator == nullptr || in.rect.empty() ||
      !in.rect.contains(in.cursor.x, in.cursor.y))
    return r;
  const glm::mat4 view_proj = in.projection * in.view;
  if (in.skeleton) {
    const JointOnScreen j =
        nearest_joint_on_screen(view_proj, in.world, in.animator->pose.model_matrices(), in.rect,
                                in.cursor, in.joint_radius_px);
    if (j.joint >= 0) {
      r.kind = PickResult::Kind::Joint;
      r.joint = j.joint;
      r.joint_distance_px = j.distance_px;
      return r;
    }
  }
  uint32_t mesh = 0, triangle = 0;
  if (!id_at(in, &mesh, &triangle) || mesh >= in.model->meshes.size()) return r;
  const Mesh& m = in.model->meshes[mesh];
  const auto palette = in.animator->pose.palette();
  const std::size_t base = in.animator->pose.palette_base(mesh);
  if (base + m.skin_joints.size() > palette.size()) return r;
  // The cursor's ray, world -> model space (the inverse of the up-axis turn).
  const Ray world_ray = cursor_ray(view_proj, in.rect, in.cursor);
  const glm::mat4 to_model = glm::inverse(in.world);
  Ray ray;
  ray.origin = glm::vec3(to_model * glm::vec4(world_ray.origin, 1.0f));
  ray.direction = glm::vec3(to_model * glm::vec4(world_ray.direction, 0.0f));
  r.surface.mesh = mesh;
  // The triangle's vertices where this frame drew them: with the frame's skinning method.
  const SkinChoice& skin = in.animator->skin();
  const std::size_t bones = m.skin_joints.size();
  SkinPalettes palettes;
  palettes.palette = palette.subspan(base, bones);
  const auto method_palette = in.animator->method_palette();
  if (skin.method != SkinMethod::Lbs && base + bones <= method_palette.size())
    palettes.method = method_palette.subspan(base, bones);
  const std::span<const glm::vec3> centers =
      skin.method == SkinMethod::Cor && mesh < skin.centers.size()
          ? std::span<const glm::vec3>(skin.centers[mesh])
          : std::span<const glm::vec3>();
  if (!resolve_surface_hit(m, skin.method, palettes, centers, triangle, ray, &r.surface,
                           skin.influences))
    return r;
  r.kind = PickResult::Kind::Surface;
  r.joint = r.surface.joint;
  return r;
}

}  // namespace sv::gl
