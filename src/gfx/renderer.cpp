#include "gfx/renderer.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>

#include <glm/geometric.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "anim/model.h"
#include "gfx/camera.h"
#include "gfx/crowd_gpu.h"
#include "gfx/face_culling.h"
#include "gfx/gpu_model.h"
#include "gfx/shader.h"
#include "gfx/view_colors.h"
#include "skin/skinned_pose.h"

namespace sv::gl {
namespace {

constexpr int kGridHalfLines = 10;
constexpr float kMeshPointSize = 4.0f;  // pixels: a mesh's points (Mesh::point_indices)
constexpr std::size_t kGridVertices = 2 * 2 * (2 * kGridHalfLines + 1);
constexpr std::size_t kAxisVertices = 6;

// The gizmo's X, Y and Z labels as line strokes in a unit box ([-1, 1]^2): no font in the GL
// layer, and the labels then appear in --screenshot pictures too.
constexpr float kGlyphX[] = {-1, -1, 1, 1, -1, 1, 1, -1};
constexpr float kGlyphY[] = {-1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, -1};
constexpr float kGlyphZ[] = {-1, 1, 1, 1, 1, 1, -1, -1, -1, -1, 1, -1};
constexpr std::size_t kLabelVertices =
    (std::size(kGlyphX) + std::size(kGlyphY) + std::size(kGlyphZ)) / 2;

bool build(const ProgramDesc& desc, Program* out, std::string* error,
           std::vector<std::string>* warnings) {
  ProgramResult r = build_program(desc);
  if (!r.warning.empty() && warnings != nullptr) warnings->push_back(r.warning);
  if (!r.ok()) {
    *error = r.error;
    return false;
  }
  *out = std::move(r.program);
  return true;
}

}  // namespace

bool Renderer::build_mesh_program(bool gpu_path, bool shaded_only, std::string* error,
                                  std::vector<std::string>* warnings) {
  MeshProgram& slot = mesh_programs_[gpu_path ? 1 : 0][shaded_only ? 1 : 0];
  slot.tried = true;
  std::vector<std::string> defines = skin_program_defines();
  if (shaded_only) defines.emplace_back("SV_SHADED_ONLY 1");
  if (!build({{"common.vert", gpu_path ? "skin.vert" : "mesh.vert"}, {"mesh.frag"}, defines, {}},
             &slot.program, error, warnings))
    return false;
  ++mesh_programs_built_;
  const GLuint p = slot.program.id();
  MeshUniforms* u = &slot.u;
  u->world = glGetUniformLocation(p, "u_world");
  u->view_proj = glGetUniformLocation(p, "u_view_proj");
  u->base_color = glGetUniformLocation(p, "u_base_color");
  u->view_mode = glGetUniformLocation(p, "u_view_mode");
  u->selected_bone = glGetUniformLocation(p, "u_selected_bone");
  u->light_dir = glGetUniformLocation(p, "u_light_dir");
  u->light_color = glGetUniformLocation(p, "u_light_color");
  u->sky = glGetUniformLocation(p, "u_sky_color");
  u->ground = glGetUniformLocation(p, "u_ground_color");
  u->lit = glGetUniformLocation(p, "u_lit");
  u->has_texture = glGetUniformLocation(p, "u_has_texture");
  u->base_texture = glGetUniformLocation(p, "u_base_texture");
  u->vertex_base = glGetUniformLocation(p, "u_vertex_base");
  u->crowd_records = glGetUniformLocation(p, "u_crowd_records");
  u->skin = SkinUniforms::of(p);
  return true;
}

const Renderer::MeshProgram* Renderer::mesh_program(bool gpu_path, bool shaded_only) {
  MeshProgram& slot = mesh_programs_[gpu_path ? 1 : 0][shaded_only ? 1 : 0];
  if (!slot.tried) {
    std::string error;
    if (!build_mesh_program(gpu_path, shaded_only, &error, &late_problems_))
      late_problems_.push_back(error);
  }
  return slot.program ? &slot : nullptr;
}

bool is_software_renderer(std::string_view r) noexcept {
  for (std::string_view soft : {"llvmpipe", "softpipe", "SwiftShader", "GDI Generic",
                                "Software Renderer", "Software Rasterizer"})
    if (r.find(soft) != std::string_view::npos) return true;
  return false;
}

bool gpu_skinning_for(std::string_view skinning, bool software) noexcept {
  if (skinning == "gpu") return true;
  if (skinning == "cpu") return false;
  return !software;
}

bool Renderer::init(std::string* error, std::vector<std::string>* warnings) {
  const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  software_ = name != nullptr && is_software_renderer(name);
  // The programs a first frame draws by default; the other mesh programs at their first use.
  if (!build_mesh_program(gpu_skinning_for("auto", software_), true, error, warnings) ||
      !build({{"line.vert"}, {"line.frag"}, {}, {}}, &line_, error, warnings)) {
    return false;
  }
  line_view_proj_ = glGetUniformLocation(line_.id(), "u_view_proj");
  line_point_size_ = glGetUniformLocation(line_.id(), "u_point_size");

  line_vao_ = VertexArray::create();
  line_buffer_ = Buffer::create();
  glBindVertexArray(line_vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, line_buffer_.id());
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        reinterpret_cast<const void*>(offsetof(LineVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        reinterpret_cast<const void*>(offsetof(LineVertex, color)));
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  for (Query& q : timers_) q = Query::create();
  prepare(Model{});
  SV_GL_CHECK("Renderer::init");
  return true;
}

void Renderer::prepare(const Model& model) {
  const std::size_t joints = model.skeleton.size();
  // Grid, axes, corner gizmo and its labels, then per joint: a bone line (2) and a point (1);
  // then the selected and hovered joints' larger points (2) and the selection's axes (6).
  line_capacity_ = kGridVertices + 2 * kAxisVertices + kLabelVertices + 3 * joints + 2 + 6;
  lines_.assign(line_capacity_, LineVertex{});
  glBindBuffer(GL_ARRAY_BUFFER, line_buffer_.id());
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(line_capacity_ * sizeof(LineVertex)),
               nullptr, GL_STREAM_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  selected_bones_.assign(model.meshes.size(), -1);
  bones_selected_for_ = -1;
}

void Renderer::select_bones(const Model& model, int32_t joint) {
  bones_selected_for_ = joint;
  for (std::size_t m = 0; m < selected_bones_.size() && m < model.meshes.size(); ++m) {
    const std::vector<int32_t>& skin = model.meshes[m].skin_joints;
    const auto it = std::find(skin.begin(), skin.end(), joint);
    selected_bones_[m] =
        joint >= 0 && it != skin.end() ? static_cast<int32_t>(it - skin.begin()) : -1;
  }
}

void Renderer::draw_lines(GLenum mode, std::size_t first, std::size_t count, float point_size) {
  if (count == 0) return;
  glUniform1f(line_point_size_, point_size);
  glDrawArrays(mode, static_cast<GLint>(first), static_cast<GLsizei>(count));
}

void Renderer::draw_meshes(const Model& model, GpuModel& gpu, const SkinnedPose& animator,
                           const RenderOptions& options, const glm::mat4& view_proj,
                           const glm::vec3& light_dir) {
  const bool gpu_path = options.gpu_skinning;
  // A difference view compares the one model's pose (app/difference_view.h): it draws that model
  // alone, not a crowd whose instances its values do not describe.
  const bool crowd =
      gpu_path && crowd_ != nullptr && crowd_->instances() > 0 && !is_difference_view(options.view);
  const MeshProgram* program = mesh_program(gpu_path, options.view == ViewMode::Shaded);
  if (program == nullptr) return;  // cannot be built (late_problems() says why)
  const MeshUniforms& u = program->u;
  glUseProgram(program->program.id());
  if (gpu_path) {
    gpu.upload_palette(animator.pose.palette(), animator.normal_palette());
    // The Animator's method is what its method palette was built for (the caller keeps it
    // equal to options.method; a CoR scene whose centres are not known yet skins with LBS).
    const SkinMethod method = animator.skin().method;
    if (method != SkinMethod::Lbs) gpu.upload_method_palette(animator.method_palette());
    gpu.upload_morph_weights([&](std::size_t m) { return animator.pose.morph_weights(m); });
    if (crowd) {
      crowd_->bind();
      bind_morph_textures(gpu);  // every instance takes the model's morph weights
    } else {
      bind_palettes(gpu);
    }
    glUniform1i(u.crowd_records, crowd ? crowd_->records_uniform() : 0);
    u.skin.set_palette_units();
    glUniform1i(u.skin.method, static_cast<GLint>(method));
  }
  const glm::mat4 world = up_axis_matrix(options.z_up);
  glUniformMatrix4fv(u.world, 1, GL_FALSE, glm::value_ptr(world));
  glUniformMatrix4fv(u.view_proj, 1, GL_FALSE, glm::value_ptr(view_proj));
  glUniform1i(u.view_mode, static_cast<GLint>(options.view));
  glUniform3fv(u.light_dir, 1, glm::value_ptr(light_dir));
  glUniform3f(u.light_color, 0.75f, 0.72f, 0.68f);
  glUniform3f(u.sky, 0.45f, 0.48f, 0.55f);
  glUniform3f(u.ground, 0.22f, 0.2f, 0.18f);
  const GLint lit = options.view == ViewMode::Shaded ? 1 : options.flat_colors ? 0 : 2;
  glUniform1i(u.lit, lit);
  glUniform1i(u.base_texture, 0);
  // Always its own unit (a sampler left on unit 0 would clash with the base texture's type).
  glUniform1i(u.skin.vertex_values, kVertexValueUnit);
  if (is_difference_view(options.view)) {
    // The values the difference view computed this frame (app/difference_view.h).
    glActiveTexture(GL_TEXTURE0 + kVertexValueUnit);
    glBindTexture(GL_TEXTURE_BUFFER, gpu.vertex_value_texture());
    glActiveTexture(GL_TEXTURE0);
  }
  glPolygonMode(GL_FRONT_AND_BACK, options.wireframe ? GL_LINE : GL_FILL);

  const auto meshes = gpu.meshes();
  const auto palette = animator.pose.palette();
  const auto joints = static_cast<int32_t>(model.skeleton.size());
  const int32_t sel =
      options.selected_joint >= 0 && options.selected_joint < joints ? options.selected_joint : -1;
  if (sel != bones_selected_for_) select_bones(model, sel);  // only when the selection changes
  GLint vertex_base = 0;
  for (std::size_t m = 0; m < meshes.size(); ++m) {
    const GpuMesh& mesh = meshes[m];
    glUniform1i(u.vertex_base, vertex_base);
    vertex_base += mesh.vertex_count;
    // The compact streams where the frame skins from them (SkinnedPose::compact), on either path.
    const bool compact =
        draws_compact(mesh, gpu_path ? animator.compact(m) : animator.skinned_compact(m));
    glUniform1i(u.skin.compact, compact ? 1 : 0);
    if (!gpu_path) {
      if (compact)
        gpu.upload_skinned_compact(m, animator.skinned_positions(m),
                                   animator.skinned_oct_normals(m));
      else
        gpu.upload_skinned(m, animator.skinned_positions(m), animator.skinned_normals(m));
    } else {
      glUniform1i(u.skin.palette_base, mesh.palette_base);
      u.skin.morph.set(mesh);
    }
    glUniform1i(u.selected_bone, m < selected_bones_.size() ? selected_bones_[m] : -1);
    // Both programs: skin.vert skins with it, the weights view of either sums what skins.
    glUniform1i(u.skin.influences, influences_uniform(mesh, animator.skin().influences));
    glUniform4fv(u.base_color, 1, glm::value_ptr(mesh.base_color));
    const bool textured = mesh.base_texture && options.view == ViewMode::Shaded;
    glUniform1i(u.has_texture, textured ? 1 : 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, textured ? mesh.base_texture.id() : 0);
    glBindVertexArray(gpu.vertex_array(m, gpu_path, compact));
    // glTF's single-sided materials, unless this frame mirrors the mesh's winding (or the user
    // shows back faces): gfx/face_culling.h, the picker's rule too.
    const auto first = static_cast<std::size_t>(mesh.palette_base);
    const auto bones = static_cast<std::size_t>(mesh.palette_bones);
    set_back_face_culling(
        crowd ? culls_back_faces(mesh.double_sided, options.show_back_faces, world,
                                 !mesh.double_sided && crowd_->mirrors(first, bones))
              : culls_back_faces(mesh.double_sided, options.show_back_faces, world, palette, first,
                                 bones));
    if (crowd) {
      glDrawElementsInstanced(GL_TRIANGLES, mesh.index_count, GL_UNSIGNED_INT, nullptr,
                              static_cast<GLsizei>(crowd_->instances()));
    } else {
      glDrawElements(GL_TRIANGLES, mesh.index_count, GL_UNSIGNED_INT, nullptr);
    }
    if (mesh.line_count > 0 || mesh.point_count > 0) {
      // Lines and points (a file of lines or points only): in the mesh's (or the view's) colour
      // unlit, since they have no surface to light; after the triangles in the element buffer.
      glUniform1i(u.lit, 0);
      const auto after = [](GLsizei n) {
        return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(n) * sizeof(uint32_t));
      };
      const GLsizei instances = crowd ? static_cast<GLsizei>(crowd_->instances()) : 1;
      if (mesh.line_count > 0)
        glDrawElementsInstanced(GL_LINES, mesh.line_count, GL_UNSIGNED_INT, after(mesh.index_count),
                                instances);
      if (mesh.point_count > 0) {
        glPointSize(kMeshPointSize);
        glDrawElementsInstanced(GL_POINTS, mesh.point_count, GL_UNSIGNED_INT,
                                after(mesh.index_count + mesh.line_count), instances);
      }
      glUniform1i(u.lit, lit);
    }
  }
  glBindVertexArray(0);
  glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  set_back_face_culling(false);  // the overlays, the legend and ImGui draw both sides
  SV_GL_CHECK("draw_meshes");
}

void Renderer::draw(const Model& model, GpuModel& gpu, const SkinnedPose& animator,
                    const OrbitCamera& camera, const RenderOptions& options, int width,
                    int height) {
  draw(model, gpu, animator, camera, options, PixelRect{0, 0, width, height}, height);
}

void Renderer::draw(const Model& model, GpuModel& gpu, const SkinnedPose& animator,
                    const OrbitCamera& camera, const RenderOptions& options,
                    const PixelRect& viewport, int framebuffer_height) {
  // GL counts rows from the bottom; the rectangle counts them from the top.
  const int gl_x = viewport.x;
  const int gl_y = framebuffer_height - viewport.y - viewport.height;
  const int width = viewport.width, height = viewport.height;
  glViewport(gl_x, gl_y, std::max(width, 0), std::max(height, 0));
  glScissor(gl_x, gl_y, std::max(width, 0), std::max(height, 0));
  glEnable(GL_SCISSOR_TEST);
  glClearColor(options.background.r, options.background.g, options.background.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (width <= 0 || height <= 0) {
    glDisable(GL_SCISSOR_TEST);
    return;
  }
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);

  const float aspect = viewport.aspect();
  const glm::mat4 view = camera.view();
  const glm::mat4 view_proj = camera.projection(aspect) * view;
  // A light over the viewer's right shoulder, fixed to the camera.
  const glm::vec3 right(view[0][0], view[1][0], view[2][0]);
  const glm::vec3 up(view[0][1], view[1][1], view[2][1]);
  const glm::vec3 back(view[0][2], view[1][2], view[2][2]);
  const glm::vec3 light_dir = glm::normalize(0.4f * right + 0.7f * up + 0.6f * back);

  // Read whichever earlier timer has finished; start the next one around the mesh draws.
  for (int i = 0; i < kTimers; ++i) {
    if (!timer_pending_[i]) continue;
    GLint ready = 0;
    glGetQueryObjectiv(timers_[i].id(), GL_QUERY_RESULT_AVAILABLE, &ready);
    if (ready == 0) continue;
    GLuint64 ns = 0;
    glGetQueryObjectui64v(timers_[i].id(), GL_QUERY_RESULT, &ns);
    gpu_seconds_ = static_cast<double>(ns) * 1e-9;
    timer_pending_[i] = false;
  }
  const int timer = timer_next_;
  const bool timing = !timer_pending_[timer];
  if (timing) glBeginQuery(GL_TIME_ELAPSED, timers_[timer].id());
  draw_meshes(model, gpu, animator, options, view_proj, light_dir);
  if (timing) {
    glEndQuery(GL_TIME_ELAPSED);
    timer_pending_[timer] = true;
    timer_next_ = (timer_next_ + 1) % kTimers;
  }

  // Overlay lines: grid and axes (depth-tested), skeleton (on top).
  std::size_t n = 0;
  auto put = [&](const glm::vec3& p, const glm::vec4& c) {
    if (n < lines_.size()) lines_[n++] = LineVertex{p, c};
  };
  float spacing = std::pow(10.0f, std::floor(std::log10(std::max(camera.radius, 1e-6f) * 0.5f)));
  grid_spacing_ = spacing;
  const glm::vec3 center(std::round(camera.target.x / spacing) * spacing, options.floor_y,
                         std::round(camera.target.z / spacing) * spacing);
  const float extent = spacing * kGridHalfLines;
  const glm::vec4 grid_color(0.42f, 0.43f, 0.45f, 1.0f);
  for (int i = -kGridHalfLines; i <= kGridHalfLines; ++i) {
    const float o = spacing * static_cast<float>(i);
    put(center + glm::vec3(o, 0.0f, -extent), grid_color);
    put(center + glm::vec3(o, 0.0f, extent), grid_color);
    put(center + glm::vec3(-extent, 0.0f, o), grid_color);
    put(center + glm::vec3(extent, 0.0f, o), grid_color);
  }
  const std::size_t grid_count = n;
  const glm::vec3 origin(0.0f, options.floor_y, 0.0f);
  const float axis = spacing;
  put(origin, {1, 0.2f, 0.2f, 1});
  put(origin + glm::vec3(axis, 0, 0), {1, 0.2f, 0.2f, 1});
  put(origin, {0.2f, 1, 0.2f, 1});
  put(origin + glm::vec3(0, axis, 0), {0.2f, 1, 0.2f, 1});
  put(origin, {0.3f, 0.4f, 1, 1});
  put(origin + glm::vec3(0, 0, axis), {0.3f, 0.4f, 1, 1});

  const std::size_t gizmo_first = n;
  for (int a = 0; a < 3; ++a) {
    glm::vec4 col(0.25f, 0.25f, 0.25f, 1.0f);
    col[a] = 1.0f;
    glm::vec3 tip(0.0f);
    tip[a] = 1.0f;
    put(glm::vec3(0.0f), col);
    put(tip, col);
  }
  // The labels, placed past each axis tip as the gizmo projects it (in the gizmo's own NDC).
  const glm::mat4 gizmo = glm::mat4(glm::vec4(0.72f, 0, 0, 0), glm::vec4(0, 0.72f, 0, 0),
                                    glm::vec4(0, 0, -0.1f, 0), glm::vec4(0, 0, 0, 1)) *
                          glm::mat4(glm::mat3(view));
  const std::size_t labels_first = n;
  {
    const std::span<const float> glyphs[3] = {kGlyphX, kGlyphY, kGlyphZ};
    for (int a = 0; a < 3; ++a) {
      glm::vec4 col(0.25f, 0.25f, 0.25f, 1.0f);
      col[a] = 1.0f;
      glm::vec4 tip(0.0f, 0.0f, 0.0f, 1.0f);
      tip[a] = 1.0f;
      const glm::vec2 at = glm::vec2(gizmo * tip) * 1.2f;
      const float size = 0.1f;
      for (std::size_t i = 0; i + 1 < glyphs[a].size(); i += 2) {
        put(glm::vec3(at.x + size * glyphs[a][i], at.y + size * glyphs[a][i + 1], 0.0f), col);
      }
    }
  }
  const std::size_t bones_first = n;
  const glm::mat4 world = up_axis_matrix(options.z_up);
  const auto matrices = animator.pose.model_matrices();
  const auto& parents = model.skeleton.parents;
  const std::size_t joints = std::min(matrices.size(), parents.size());
  const glm::vec4 bone_color(1.0f, 0.85f, 0.2f, 1.0f);
  const glm::vec4 selected_color(1.0f, 0.2f, 0.9f, 1.0f);
  const glm::vec4 hovered_color(1.0f, 1.0f, 1.0f, 1.0f);
  const int32_t sel = options.selected_joint;
  const int32_t hov = options.hovered_joint;
  // The selected joint's bone is the segment(s) it rotates, to its children; a leaf's is the
  // segment from its parent. Drawn whole in the selection colour.
  bool sel_has_child = false;
  for (std::size_t j = 0; j < joints; ++j) sel_has_child |= sel >= 0 && parents[j] == sel;
  if (options.skeleton) {
    for (std::size_t j = 0; j < joints; ++j) {
      if (parents[j] < 0) continue;
      const bool highlighted =
          parents[j] == sel || (!sel_has_child && static_cast<int32_t>(j) == sel && sel >= 0);
      const glm::vec4 c = highlighted ? selected_color : bone_color;
      put(glm::vec3(world * matrices[static_cast<std::size_t>(parents[j])][3]), c);
      put(glm::vec3(world * matrices[j][3]), c);
    }
  }
  const std::size_t points_first = n;
  if (options.skeleton) {
    for (std::size_t j = 0; j < joints; ++j) {
      put(glm::vec3(world * matrices[j][3]), glm::vec4(0.2f, 0.9f, 1, 1));
    }
  }
  const std::size_t big_points_first = n;
  if (options.skeleton) {
    if (hov >= 0 && static_cast<std::size_t>(hov) < joints && hov != sel) {
      put(glm::vec3(world * matrices[static_cast<std::size_t>(hov)][3]), hovered_color);
    }
    if (sel >= 0 && static_cast<std::size_t>(sel) < joints) {
      put(glm::vec3(world * matrices[static_cast<std::size_t>(sel)][3]), selected_color);
    }
  }
  const std::size_t sel_first = n;
  if (options.selected_joint >= 0 && static_cast<std::size_t>(options.selected_joint) < joints) {
    const glm::mat4 m = world * matrices[static_cast<std::size_t>(options.selected_joint)];
    const glm::vec3 p(m[3]);
    const float len = 0.1f * camera.radius;
    for (int a = 0; a < 3; ++a) {
      glm::vec4 c(0.2f, 0.2f, 0.2f, 1.0f);
      c[a] = 1.0f;
      put(p, c);
      put(p + len * glm::normalize(glm::vec3(m[a]) + glm::vec3(1e-12f)), c);
    }
  }
  glBindBuffer(GL_ARRAY_BUFFER, line_buffer_.id());
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(n * sizeof(LineVertex)),
                  lines_.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glUseProgram(line_.id());
  glUniformMatrix4fv(line_view_proj_, 1, GL_FALSE, glm::value_ptr(view_proj));
  glBindVertexArray(line_vao_.id());
  if (options.grid) draw_lines(GL_LINES, 0, grid_count, 1.0f);
  if (options.axes) draw_lines(GL_LINES, grid_count, kAxisVertices, 1.0f);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_PROGRAM_POINT_SIZE);
  draw_lines(GL_LINES, bones_first, points_first - bones_first, 1.0f);
  draw_lines(GL_POINTS, points_first, big_points_first - points_first, 5.0f);
  draw_lines(GL_POINTS, big_points_first, sel_first - big_points_first, 9.0f);
  draw_lines(GL_LINES, sel_first, n - sel_first, 1.0f);
  if (options.axes) {
    // The world axes as the camera sees them, labelled, in the viewport's lower-left corner.
    const PixelRect g = axis_gizmo_rect(viewport);
    glViewport(g.x, framebuffer_height - g.y - g.height, g.width, g.height);
    glUniformMatrix4fv(line_view_proj_, 1, GL_FALSE, glm::value_ptr(gizmo));
    draw_lines(GL_LINES, gizmo_first, kAxisVertices, 1.0f);
    const glm::mat4 identity(1.0f);
    glUniformMatrix4fv(line_view_proj_, 1, GL_FALSE, glm::value_ptr(identity));
    draw_lines(GL_LINES, labels_first, kLabelVertices, 1.0f);
    glViewport(gl_x, gl_y, width, height);
  }
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_PROGRAM_POINT_SIZE);
  glEnable(GL_DEPTH_TEST);
  glBindVertexArray(0);
  glUseProgram(0);
  SV_GL_CHECK("Renderer::draw");
}

}  // namespace sv::gl
