// --export-pose (see export_pose.h): pose_model's output as glTF meshes, through GlbWriter.
#include "app/export_pose.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <stb_image_write.h>

#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/matrix_decompose.hpp>

#include "anim/model.h"
#include "anim/transform.h"
#include "app/animation_files.h"
#include "app/app_common.h"
#include "app/blend_options.h"
#include "app/cli.h"
#include "app/viewer_scene.h"
#include "glb_writer.h"
#include "io/dump.h"
#include "io/import.h"

namespace sv {
namespace {

using tools::GlbWriter;
using tools::Json;

// The image as PNG bytes: the pixels the import worker decoded (anim/model.h: Image), encoded
// again. Never a file's bytes: an export holds only images that were loaded under the import's
// rules (inside the model's folder or a --texture-path, within the pixel budget), and nothing of
// the file that was not decoded.
std::vector<uint8_t> png_of(const Image& image) {
  std::vector<uint8_t> out;
  auto append = [](void* context, void* data, int size) {
    auto* bytes = static_cast<std::vector<uint8_t>*>(context);
    const auto* p = static_cast<const uint8_t*>(data);
    bytes->insert(bytes->end(), p, p + size);
  };
  const int w = static_cast<int>(image.width), h = static_cast<int>(image.height);
  if (image.rgba.size() != 4 * uint64_t{image.width} * image.height ||
      stbi_write_png_to_func(append, &out, w, h, 4, image.rgba.data(), 4 * w) == 0)
    out.clear();
  return out;
}

// The skeleton as glTF nodes in the pose (--export-pose-skinned): node first + j is joint j, with
// the posed local transform as TRS (decomposed from inverse(parent model) x model; rotations
// normalised). `posed_model` gets each joint's model matrix recomposed from exactly the floats
// written, so inverse bind matrices made from it put every vertex where the pose has it: at the
// new rest pose each palette entry is the identity up to float rounding. Returns the root joints.
std::vector<int> add_joint_nodes(const Skeleton& sk, const std::vector<glm::mat4>& joint_model,
                                 int first, Json& doc, std::vector<glm::mat4>* posed_model) {
  std::vector<int> roots;
  posed_model->resize(sk.size());
  for (std::size_t j = 0; j < sk.size(); ++j) {
    const int32_t parent = sk.parents[j];
    const glm::mat4 local =
        parent >= 0 ? glm::inverse(joint_model[static_cast<std::size_t>(parent)]) * joint_model[j]
                    : joint_model[j];
    glm::vec3 scale, translation, skew;
    glm::quat rotation;
    glm::vec4 perspective;
    if (!glm::decompose(local, scale, rotation, translation, skew, perspective)) {
      scale = glm::vec3(1.0f);
      rotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
      translation = glm::vec3(local[3]);
    }
    rotation = glm::normalize(rotation);
    Transform t;
    t.translation = translation;
    t.rotation = rotation;
    t.scale = scale;
    (*posed_model)[j] = parent >= 0
                            ? (*posed_model)[static_cast<std::size_t>(parent)] * to_matrix(t)
                            : to_matrix(t);
    Json node{{"name", sk.names[j]},
              {"rotation", {rotation.x, rotation.y, rotation.z, rotation.w}},
              {"scale", {scale.x, scale.y, scale.z}},
              {"translation", {translation.x, translation.y, translation.z}}};
    doc["nodes"].push_back(std::move(node));
    if (parent < 0) {
      roots.push_back(first + static_cast<int>(j));
    } else {
      doc["nodes"][static_cast<std::size_t>(first + parent)]["children"].push_back(
          first + static_cast<int>(j));
    }
  }
  return roots;
}

// The skin of `mesh` over the joint nodes from `first_joint`: its skin bones, inverse bind
// matrices of the recomposed pose, and JOINTS_0 / WEIGHTS_0 in the file's vertex order (a rigid
// mesh: every vertex on its node with weight 1). Unused influences are joint 0 with weight 0,
// as glTF asks. With `influences` 8 on a mesh that keeps a second set, JOINTS_1 / WEIGHTS_1
// carry the 5th-8th and the first set is scaled by 1 - their sum, so all eight sum to 1 (glTF
// sums every set) and weigh as the viewer skins. Returns the skin's index.
int add_skin(const Mesh& mesh, const std::vector<glm::mat4>& posed_model, int first_joint,
             const std::vector<uint32_t>& order, int influences, GlbWriter& w, Json& attributes) {
  Json& doc = w.json();
  const std::size_t n = order.size();
  std::vector<int32_t> bones = mesh.skinned ? mesh.skin_joints : std::vector<int32_t>{mesh.node};
  if (bones.empty() || bones[0] < 0) bones = {0};
  std::vector<float> ibm;
  Json joints = Json::array();
  for (int32_t j : bones) {
    joints.push_back(first_joint + j);
    glm::mat4 m = glm::inverse(posed_model[static_cast<std::size_t>(j)]);
    // Affine: glTF wants the last row exactly (0, 0, 0, 1), which the inverse misses by an ulp.
    m[0][3] = m[1][3] = m[2][3] = 0.0f;
    m[3][3] = 1.0f;
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) ibm.push_back(m[c][r]);
  }
  const bool weighted = mesh.skinned && mesh.weights.size() == mesh.vertex_count();
  const bool eight = weighted && influences == 8 && mesh.has_influences8() &&
                     mesh.joints2.size() == mesh.vertex_count() &&
                     mesh.weights2.size() == mesh.vertex_count();
  const int sets = eight ? 2 : 1;
  for (int set = 0; set < sets; ++set) {
    std::vector<uint16_t> joint_ids(n * 4, 0);
    std::vector<float> weights(n * 4, 0.0f);
    for (std::size_t k = 0; k < n; ++k) {
      if (!weighted) {
        if (set == 0) weights[k * 4] = 1.0f;
        continue;
      }
      const uint32_t v = order[k];
      const glm::vec4& second = eight ? mesh.weights2[v] : glm::vec4(0.0f);
      const float share = 1.0f - (second.x + second.y + second.z + second.w);
      const glm::u16vec4& jv = set == 0 ? mesh.joints[v] : mesh.joints2[v];
      const glm::vec4 wv = set == 0 ? mesh.weights[v] * share : second;
      for (int i = 0; i < 4; ++i) {
        if (wv[i] <= 0.0f) continue;
        joint_ids[k * 4 + static_cast<std::size_t>(i)] = jv[i];
        weights[k * 4 + static_cast<std::size_t>(i)] = wv[i];
      }
    }
    const std::string suffix = std::to_string(set);
    if (bones.size() <= 256) {
      std::vector<uint8_t> small(joint_ids.begin(), joint_ids.end());
      attributes["JOINTS_" + suffix] = w.add_u8(small, "VEC4", tools::kArrayBuffer);
    } else {
      attributes["JOINTS_" + suffix] = w.add_u16(joint_ids, "VEC4", tools::kArrayBuffer);
    }
    attributes["WEIGHTS_" + suffix] = w.add_floats(weights, "VEC4", tools::kArrayBuffer, false);
  }
  const int skin = static_cast<int>(doc["skins"].size());
  doc["skins"].push_back(
      Json{{"inverseBindMatrices", w.add_floats(ibm, "MAT4", tools::kNoTarget, false)},
           {"joints", std::move(joints)}});
  return skin;
}

}  // namespace

std::string posed_glb(const Model& model, const PosedModel& pose, bool z_up, bool skinned,
                      int influences, std::vector<uint8_t>* out) {
  if (pose.positions.size() != model.meshes.size() || pose.normals.size() != model.meshes.size())
    return "the pose does not match the model";
  if (skinned && (pose.joint_model.size() != model.skeleton.size() || model.skeleton.size() == 0))
    return "the pose has no skeleton to keep";
  GlbWriter w("skinview --export-pose");
  Json& doc = w.json();

  // Materials first: meshes refer to them by index. Each image the import decoded is embedded
  // once, as PNG (png_of).
  bool any_texture = false;
  std::vector<int> texture_of(model.images.size(), -2);  // image -> glTF texture, -1: none
  for (const Material& m : model.materials) {
    Json pbr{{"baseColorFactor", {m.base_color.r, m.base_color.g, m.base_color.b, m.base_color.a}},
             {"metallicFactor", 0.0},
             {"roughnessFactor", 1.0}};
    if (m.image >= 0 && static_cast<std::size_t>(m.image) < model.images.size()) {
      int& index = texture_of[static_cast<std::size_t>(m.image)];
      if (index == -2) {
        const std::vector<uint8_t> png = png_of(model.images[static_cast<std::size_t>(m.image)]);
        index = -1;
        if (!png.empty()) {
          index = static_cast<int>(doc["images"].size());
          doc["images"].push_back(
              Json{{"bufferView", w.add_view(png, tools::kNoTarget)}, {"mimeType", "image/png"}});
          doc["textures"].push_back(Json{{"sampler", 0}, {"source", index}});
        }
      }
      if (index >= 0) {
        pbr["baseColorTexture"] = Json{{"index", index}};
        any_texture = true;
      }
    }
    Json material{{"pbrMetallicRoughness", pbr}};
    if (!m.name.empty()) material["name"] = m.name;
    if (m.base_color.a < 1.0f) material["alphaMode"] = "BLEND";
    // glTF's default is single-sided: a material drawn from both sides must say so.
    if (m.double_sided) material["doubleSided"] = true;
    doc["materials"].push_back(std::move(material));
  }
  if (any_texture) {
    doc["samplers"].push_back(
        Json{{"magFilter", 9729}, {"minFilter", 9987}, {"wrapS", 10497}, {"wrapT", 10497}});
  }

  // With the skin: the joints first (nodes 0 .. joints - 1), in the pose.
  std::vector<int> joint_roots;
  std::vector<glm::mat4> posed_model;
  if (skinned)
    joint_roots = add_joint_nodes(model.skeleton, pose.joint_model, 0, doc, &posed_model);
  std::vector<int> mesh_nodes;
  std::vector<float> positions, normals, uvs;
  std::vector<uint32_t> indices;
  for (std::size_t mi = 0; mi < model.meshes.size(); ++mi) {
    const Mesh& mesh = model.meshes[mi];
    const std::size_t n = mesh.vertex_count();
    if (n == 0 || mesh.indices.empty()) continue;  // glTF accessors may not be empty
    if (pose.positions[mi].size() != n || pose.normals[mi].size() != n)
      return "mesh '" + mesh.name + "': the pose does not match its vertices";
    std::vector<uint32_t> order = file_order(mesh);
    if (order.empty()) {
      order.resize(n);
      for (std::size_t k = 0; k < n; ++k) order[k] = static_cast<uint32_t>(k);
    }
    positions.clear();
    normals.clear();
    uvs.clear();
    bool unit_normals = !mesh.normals.empty();
    for (std::size_t k = 0; k < n; ++k) {
      const glm::vec3& p = pose.positions[mi][order[k]];
      const glm::vec3& q = pose.normals[mi][order[k]];
      positions.insert(positions.end(), {p.x, p.y, p.z});
      normals.insert(normals.end(), {q.x, q.y, q.z});
      // glTF requires unit normals (the validator allows 5e-4); a degenerate one drops them.
      if (!(std::abs(q.x * q.x + q.y * q.y + q.z * q.z - 1.0f) < 1e-3f)) unit_normals = false;
      if (mesh.uvs.size() == n) uvs.insert(uvs.end(), {mesh.uvs[order[k]].x, mesh.uvs[order[k]].y});
    }
    for (float p : positions)
      if (!std::isfinite(p)) return "mesh '" + mesh.name + "': a posed position is not finite";
    // Triangles renumbered into the file's vertex order.
    indices.resize(mesh.indices.size());
    for (std::size_t i = 0; i < indices.size(); ++i) {
      const uint32_t v = mesh.indices[i];
      if (v >= n) return "mesh '" + mesh.name + "': a triangle refers to no vertex";
      indices[i] = mesh.source_vertex.size() == n ? mesh.source_vertex[v] : v;
    }
    Json attributes;
    attributes["POSITION"] = w.add_floats(positions, "VEC3", tools::kArrayBuffer, true);
    if (unit_normals)
      attributes["NORMAL"] = w.add_floats(normals, "VEC3", tools::kArrayBuffer, false);
    if (!uvs.empty())
      attributes["TEXCOORD_0"] = w.add_floats(uvs, "VEC2", tools::kArrayBuffer, false);
    const int skin =
        skinned ? add_skin(mesh, posed_model, 0, order, influences, w, attributes) : -1;
    Json primitive{{"attributes", attributes},
                   {"indices", w.add_u32(indices, "SCALAR", tools::kElementArrayBuffer)},
                   {"mode", 4}};
    if (mesh.material >= 0 && static_cast<std::size_t>(mesh.material) < model.materials.size())
      primitive["material"] = mesh.material;
    Json gltf_mesh{{"primitives", Json::array({primitive})}};
    if (!mesh.name.empty()) gltf_mesh["name"] = mesh.name;
    const int mesh_index = static_cast<int>(doc["meshes"].size());
    doc["meshes"].push_back(std::move(gltf_mesh));
    Json node{{"mesh", mesh_index}};
    if (skin >= 0) node["skin"] = skin;
    if (!mesh.name.empty()) node["name"] = mesh.name;
    mesh_nodes.push_back(static_cast<int>(doc["nodes"].size()));
    doc["nodes"].push_back(std::move(node));
  }
  if (mesh_nodes.empty()) return "no mesh with triangles to export";
  Json scene{{"name", "posed"}};
  if (skinned) {
    // A skinned mesh's own node transform is ignored (glTF): the meshes stay at the root and the
    // joints carry the placement. Their roots go under one node (glTF wants one common root): the
    // Z-up turn, or a plain node when the skeleton has several roots.
    if (z_up || joint_roots.size() > 1) {
      Json root{{"name", z_up ? "z-up to y-up" : "skeleton"}, {"children", joint_roots}};
      const double h = std::sqrt(0.5);
      if (z_up) root["rotation"] = {-h, 0.0, 0.0, h};
      joint_roots = {static_cast<int>(doc["nodes"].size())};
      doc["nodes"].push_back(std::move(root));
    }
    Json nodes = mesh_nodes;
    for (int r : joint_roots) nodes.push_back(r);
    scene["nodes"] = std::move(nodes);
  } else if (z_up) {
    // -90 degrees about X (a unit quaternion, x y z w): model Z-up becomes glTF's Y-up.
    const double h = std::sqrt(0.5);
    scene["nodes"] = {static_cast<int>(doc["nodes"].size())};
    doc["nodes"].push_back(
        Json{{"name", "z-up to y-up"}, {"rotation", {-h, 0.0, 0.0, h}}, {"children", mesh_nodes}});
  } else {
    scene["nodes"] = mesh_nodes;
  }
  doc["scenes"].push_back(std::move(scene));
  *out = w.finish();
  return std::string();
}

namespace {

std::string check_glb_path(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext != ".glb" && ext != ".GLB") return "'" + path + "': want a file ending in .glb";
  return std::string();
}

std::string write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return path + ": cannot open for writing";
  file.write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) return path + ": write failed";
  return std::string();
}

}  // namespace

std::string export_scene_pose(Scene& scene, SkinMethod method, bool skinned,
                              const std::string& path) {
  if (std::string e = check_glb_path(path); !e.empty()) return e;
  const Model& m = scene.doc.model;
  const int influences = scene.frame.animator.skin().influences;
  if (method == SkinMethod::Cor && !centers_fit(scene, influences))
    return "the centres of rotation are not known yet: export again when they are";
  // The float streams, whatever the frame skinned from: the file gets full-precision normals
  // (a frame skinned compact holds them as octahedral codes), and skinned_normals is then current
  // for every mesh. The next frame skins again.
  if (!scene.frame.animator.skin_cpu(m, &skin_pool(), false))
    return "the mesh could not be skinned";
  PosedModel pose;
  const auto joints = scene.frame.animator.pose.model_matrices();
  pose.joint_model.assign(joints.begin(), joints.end());
  for (std::size_t mi = 0; mi < m.meshes.size(); ++mi) {
    const auto p = scene.frame.animator.skinned_positions(mi);
    const auto n = scene.frame.animator.skinned_normals(mi);
    pose.positions.emplace_back(p.begin(), p.end());
    pose.normals.emplace_back(n.begin(), n.end());
  }
  std::vector<uint8_t> glb;
  if (std::string why = posed_glb(m, pose, scene.play.z_up, skinned, influences, &glb);
      !why.empty())
    return why;
  return write_bytes(path, glb);
}

int run_export_pose(const Options& o, const std::string& up) {
  if (o.model.empty()) return bad_input("--export-pose needs a model file");
  if (std::string e = check_glb_path(o.export_pose); !e.empty())
    return bad_input("--export-pose " + e);
  double time = 0.0;
  if (!o.time.empty() && !parse_seconds(o.time, &time))
    return bad_input("bad --time '" + o.time + "' (want seconds >= 0)");
  BlendSpecs blend;
  if (std::string e = parse_blend_specs(o.layers, o.crossfade, &blend); !e.empty())
    return bad_input(e);
  ImportResult r = import_character(o);
  if (!r.ok()) return bad_input(r.error);
  const Model& m = *r.model;
  DumpRequest request;
  std::vector<std::vector<glm::vec3>> centers;  // CoR's, for request.skin
  if (std::string e = resolve_pose(o, m, blend, time, &request, &centers); !e.empty())
    return bad_input(e);

  PosedModel pose;
  const std::string e =
      request.blend.blends()
          ? pose_model(m, request.blend, time, pose, request.skin)
          : pose_model(m, request.clip, time, pose, request.bind_pose, request.skin);
  if (!e.empty()) return bad_input(o.model + ": " + e);
  const bool z_up = up == "auto" ? format_is_z_up(o.model) : up == "z";
  std::vector<uint8_t> glb;
  if (std::string why = posed_glb(m, pose, z_up, o.export_skinned, request.skin.influences, &glb);
      !why.empty())
    return bad_input(o.model + ": " + why);
  if (std::string e = write_bytes(o.export_pose, glb); !e.empty()) return bad_input(e);
  return kExitOk;
}

}  // namespace sv
