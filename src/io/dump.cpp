// The --dump writer: poses a model through the anim jobs and streams JSON by hand (numbers with
// %.9g, so a float survives the round trip; nothing here allocates per number).
#include "io/dump.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "skin/skinned_pose.h"

namespace sv {
namespace {

// Finite by then: write_dump_json refuses a pose with a value that is not (first_non_finite).
void write_number(std::ostream& out, double v) {
  if (v == 0.0) v = 0.0;  // no "-0"
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  out << buf;
}

// JSON string: escapes quotes, backslashes and control characters; bytes that are not valid
// UTF-8 are written as the Latin-1 character of that byte so the output stays valid JSON.
void write_string(std::ostream& out, const std::string& s) {
  out << '"';
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  char buf[8];
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    if (c == '"' || c == '\\') {
      out << '\\' << static_cast<char>(c);
      ++i;
    } else if (c < 0x20) {
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out << buf;
      ++i;
    } else if (c < 0x80) {
      out << static_cast<char>(c);
      ++i;
    } else {
      std::size_t len = (c & 0xE0) == 0xC0   ? 2
                        : (c & 0xF0) == 0xE0 ? 3
                        : (c & 0xF8) == 0xF0 ? 4
                                             : 0;
      bool valid = len > 0 && i + len <= n;
      for (std::size_t k = 1; valid && k < len; ++k) valid = (p[i + k] & 0xC0) == 0x80;
      if (valid) {
        out.write(reinterpret_cast<const char*>(p + i), static_cast<std::streamsize>(len));
        i += len;
      } else {
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out << buf;
        ++i;
      }
    }
  }
  out << '"';
}

// `v` in the file's vertex order: element file_order[k] is the file's vertex k (the importer
// stores vertices grouped by bone set; see Mesh::source_vertex). Empty file_order: as stored.
void write_vec3s(std::ostream& out, std::span<const glm::vec3> v,
                 std::span<const uint32_t> file_order) {
  const bool reorder = file_order.size() == v.size();
  out << '[';
  for (std::size_t k = 0; k < v.size(); ++k) {
    const glm::vec3& p = v[reorder ? file_order[k] : k];
    if (k) out << ',';
    write_number(out, p.x);
    out << ',';
    write_number(out, p.y);
    out << ',';
    write_number(out, p.z);
  }
  out << ']';
}

void write_meshes(std::ostream& out, const Model& model, const PosedModel* pose, bool bind) {
  out << '[';
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    const std::vector<uint32_t> order = file_order(mesh);
    if (m) out << ',';
    out << "{\"name\":";
    write_string(out, mesh.name);
    out << ",\"vertexCount\":" << mesh.vertex_count();
    if (pose) {
      out << ",\"positions\":";
      write_vec3s(out, pose->positions[m], order);
      out << ",\"normals\":";
      write_vec3s(out, pose->normals[m], order);
      if (!mesh.morph_targets.empty() && m < pose->morph_weights.size()) {
        out << ",\"morphWeights\":[";
        for (std::size_t t = 0; t < pose->morph_weights[m].size(); ++t) {
          if (t) out << ',';
          write_number(out, pose->morph_weights[m][t]);
        }
        out << ']';
      }
    }
    if (bind) {
      out << ",\"bindPositions\":";
      write_vec3s(out, mesh.positions, order);
      if (!mesh.morph_targets.empty()) {
        out << ",\"morphTargets\":[";
        for (std::size_t t = 0; t < mesh.morph_targets.size(); ++t) {
          if (t) out << ',';
          out << "{\"name\":";
          write_string(out, mesh.morph_targets[t].name);
          out << ",\"defaultWeight\":";
          write_number(out, mesh.morph_targets[t].default_weight);
          out << '}';
        }
        out << ']';
      }
    }
    out << '}';
  }
  out << ']';
}

void write_bones(std::ostream& out, const Model& model, const PosedModel& pose) {
  out << '[';
  for (std::size_t j = 0; j < model.skeleton.size(); ++j) {
    if (j) out << ',';
    out << "{\"name\":";
    write_string(out, model.skeleton.names[j]);
    out << ",\"worldMatrix\":[";
    const glm::mat4& m = pose.joint_model[j];
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) {
        if (c || r) out << ',';
        write_number(out, m[c][r]);
      }
    out << "]}";
  }
  out << ']';
}

bool finite3(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Where `pose` holds its first value that is not finite (a float past its range once skinned:
// a vertex at 1e38 under a scaled joint), in words, or "" when every value it would write is.
std::string first_non_finite(const Model& model, const PosedModel& pose) {
  for (std::size_t m = 0; m < pose.positions.size() && m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    const std::vector<uint32_t> order = file_order(mesh);
    for (std::size_t k = 0; k < pose.positions[m].size(); ++k) {
      const std::size_t v = order.empty() ? k : order[k];
      const char* what = !finite3(pose.positions[m][v])                               ? "position"
                         : v < pose.normals[m].size() && !finite3(pose.normals[m][v]) ? "normal"
                                                                                      : nullptr;
      if (what)
        return std::string(what) + " of vertex " + std::to_string(k) + " of mesh '" + mesh.name +
               "'";
    }
    for (std::size_t t = 0; m < pose.morph_weights.size() && t < pose.morph_weights[m].size(); ++t)
      if (!std::isfinite(pose.morph_weights[m][t]))
        return "morph weight " + std::to_string(t) + " of mesh '" + mesh.name + "'";
  }
  for (std::size_t j = 0; j < pose.joint_model.size() && j < model.skeleton.size(); ++j)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r)
        if (!std::isfinite(pose.joint_model[j][c][r]))
          return "the model matrix of joint '" + model.skeleton.names[j] + "'";
  return {};
}

}  // namespace

std::vector<uint32_t> file_order(const Mesh& mesh) {
  std::vector<uint32_t> order;
  if (mesh.source_vertex.size() != mesh.vertex_count()) return order;
  order.assign(mesh.vertex_count(), 0);
  for (std::size_t i = 0; i < mesh.source_vertex.size(); ++i)
    if (mesh.source_vertex[i] < order.size())
      order[mesh.source_vertex[i]] = static_cast<uint32_t>(i);
  return order;
}

namespace {

// Skins `animator`'s pose on the CPU and copies it out.
std::string copy_pose(const Model& model, SkinnedPose& animator, PosedModel& out) {
  if (!animator.skin_cpu(model)) return "skinning failed";
  const std::span<const glm::mat4> joints = animator.pose.model_matrices();
  out.joint_model.assign(joints.begin(), joints.end());
  out.positions.resize(model.meshes.size());
  out.normals.resize(model.meshes.size());
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const std::span<const glm::vec3> p = animator.skinned_positions(m);
    const std::span<const glm::vec3> n = animator.skinned_normals(m);
    out.positions[m].assign(p.begin(), p.end());
    // A mesh without normals is skinned without them; the dump writes zeros, as before.
    out.normals[m].assign(n.begin(), n.end());
    out.normals[m].resize(p.size(), glm::vec3(0.0f));
  }
  out.morph_weights.resize(model.meshes.size());
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const std::span<const float> w = animator.pose.morph_weights(m);
    out.morph_weights[m].assign(w.begin(), w.end());
  }
  return {};
}

}  // namespace

std::string pose_model(const Model& model, int clip, double time, PosedModel& out, bool bind_pose,
                       const SkinChoice& skin) {
  if (clip >= static_cast<int>(model.clips.size())) return "no clip " + std::to_string(clip);
  // The viewer's own path (skin/skinned_pose.h): evaluate_pose, the normal palette, skin().
  SkinnedPose animator(model);
  animator.set_skin(skin);
  animator.pose.set_clip(model, bind_pose ? -1 : clip);
  double t = 0.0;
  if (bind_pose) {
    if (!animator.evaluate(model, PoseMode::Bind, 0.0)) return "posing the bind pose failed";
  } else if (clip >= 0) {
    const ClipRuntime& c = model.clips[static_cast<std::size_t>(clip)];
    t = std::isfinite(time) ? std::clamp(time, 0.0, c.duration()) : 0.0;
    if (!animator.evaluate(model, PoseMode::Clip, t))
      return "posing clip '" + c.name() + "' failed";
  } else if (!animator.evaluate(model, PoseMode::Rest, 0.0)) {
    return "posing the rest pose failed";
  }
  return copy_pose(model, animator, out);
}

std::string pose_model(const Model& model, const LayerStack& stack, double time, PosedModel& out,
                       const SkinChoice& skin) {
  std::vector<Layer> layers(stack.size());
  if (!std::isfinite(time) || time < 0.0) return "bad time for the blend";
  if (!stack.at(model, time, layers)) return "the blend names a clip the model does not have";
  // The viewer's own path: the Animator's layer stack (blend.h), then as for one clip.
  SkinnedPose animator(model);
  animator.set_skin(skin);
  if (std::string e = animator.pose.set_layers(model, layers); !e.empty()) return e;
  if (!animator.evaluate(model, layers)) return "posing the blend failed";
  return copy_pose(model, animator, out);
}

std::string write_dump_json(const Model& model, const DumpRequest& request, std::ostream& out) {
  if (request.times.empty()) return "no time to dump";
  PosedModel pose;
  // A value that overflowed (infinite) or is NaN is never written, as 0 or otherwise: the dump is
  // refused with where it is. With several times, every time is posed and checked before a byte
  // is written, so a refused dump writes nothing.
  const auto pose_at = [&](double t) {
    std::string e = request.blend.blends()
                        ? pose_model(model, request.blend, t, pose, request.skin)
                        : pose_model(model, request.clip, t, pose, request.bind_pose, request.skin);
    if (e.empty())
      if (const std::string where = first_non_finite(model, pose); !where.empty()) {
        char at[32];
        std::snprintf(at, sizeof at, "%.9g", t);
        e = "the pose at " + std::string(at) + " s overflows the float range (" + where +
            " is not finite); nothing written";
      }
    return e;
  };
  if (request.times.size() > 1)
    for (const double t : request.times)
      if (std::string e = pose_at(t); !e.empty()) return e;
  if (!request.frames && request.times.size() == 1) {
    if (std::string e = pose_at(request.times[0]); !e.empty()) return e;
    out << "{\"meshes\":";
    write_meshes(out, model, &pose, true);
    out << ",\"bones\":";
    write_bones(out, model, pose);
    out << "}\n";
    return {};
  }
  out << "{\"meshes\":";
  write_meshes(out, model, nullptr, true);
  out << ",\"frames\":[";
  for (std::size_t i = 0; i < request.times.size(); ++i) {
    if (std::string e = pose_at(request.times[i]); !e.empty()) return e;
    if (i) out << ',';
    out << "{\"time\":";
    write_number(out, request.times[i]);
    out << ",\"meshes\":";
    write_meshes(out, model, &pose, true);
    out << ",\"bones\":";
    write_bones(out, model, pose);
    out << '}';
  }
  out << "]}\n";
  return out ? std::string{} : std::string("write failed");
}

}  // namespace sv
