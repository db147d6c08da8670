// --compare (see compare.h): reads both files, compares them (skin/rig_compare.h), prints the
// report.
#include "app/compare.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "anim/model.h"
#include "app/animation_files.h"
#include "app/cli.h"
#include "skin/rig_compare.h"

namespace sv {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v == 0.0 ? 0.0 : v);
  return buf;
}

std::size_t file_vertex(const Mesh& m, uint32_t v) {
  return m.source_vertex.empty() || v >= m.source_vertex.size() ? v : m.source_vertex[v];
}

std::size_t vertex_count(const Model& m) {
  std::size_t n = 0;
  for (const Mesh& mesh : m.meshes) n += mesh.vertex_count();
  return n;
}

std::string mesh_label(const Model& m, int32_t i) {
  const std::string& name = m.meshes[static_cast<std::size_t>(i)].name;
  std::ostringstream out;
  out << '[' << i << "] ";
  if (name.empty())
    out << "(no name)";
  else
    out << '\'' << name << '\'';
  return out.str();
}

const char* path_name(TrackPath p) {
  return p == TrackPath::Translation ? "translation"
         : p == TrackPath::Rotation  ? "rotation"
                                     : "scale";
}

// A mesh's changed vertices as (file index, change), largest first.
std::vector<std::pair<std::size_t, float>> changed_vertices(const RigComparison& r, const Model& a,
                                                            std::size_t mesh) {
  std::vector<std::pair<std::size_t, float>> out;
  const std::vector<float>& c = r.change[mesh];
  for (std::size_t v = 0; v < c.size(); ++v)
    if (static_cast<double>(c[v]) > r.tolerances.weight)
      out.emplace_back(file_vertex(a.meshes[mesh], static_cast<uint32_t>(v)), c[v]);
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    return x.second != y.second ? x.second > y.second : x.first < y.first;
  });
  return out;
}

std::string delta_text(const TransformDelta& d) {
  std::string s = "moved " + num(d.distance) + " units, turned " + num(d.degrees) + " degrees";
  if (d.scale > 0.0) s += ", scale by " + num(d.scale);
  return s;
}

}  // namespace

std::string compare_files(const Options& o, std::string* a, std::string* b) {
  if (o.compare.size() == 2) {
    if (!o.model.empty())
      return "--compare takes A and B, or MODEL --compare B; not MODEL --compare A B";
    *a = o.compare[0];
    *b = o.compare[1];
    return std::string();
  }
  if (o.compare.size() != 1 || o.model.empty())
    return "--compare needs two files: --compare A B (or MODEL --compare B)";
  *a = o.model;
  *b = o.compare[0];
  return std::string();
}

namespace {

// B, the other version, read as A is (the worker, the cache, the same import options) but
// alone: the animations, joint map and clip ranges given for A are not B's.
ImportResult import_other_version(const Options& options, const std::string& b_path) {
  Options ob = options;
  ob.model = b_path;
  ob.anims.clear();
  ob.joint_map.clear();
  ob.ranges.clear();
  return import_character(ob);
}

}  // namespace

std::string compare_with(const Options& options, const Model& a, const std::string& b_path,
                         RigComparison* out) {
  ImportResult rb = import_other_version(options, b_path);
  if (!rb.ok()) return rb.error;
  *out = compare_rigs(a, *rb.model, {}, kCommandLineCompareBudget);
  return out->status == CompareStatus::Done ? std::string() : out->problem;
}

std::string compare_text(const RigComparison& r, const Model& a, const Model& b,
                         const std::string& a_name, const std::string& b_name) {
  std::ostringstream out;
  const CompareTolerances& t = r.tolerances;
  out << "Comparing " << a_name << " (A) with " << b_name << " (B)\n";
  out << "Tolerances: translation " << num(r.translation_tolerance()) << " model units ("
      << num(t.translation) << " of A's size " << num(r.model_size) << "), rotation "
      << num(t.degrees) << " degrees, scale " << num(t.scale) << ", weight " << num(t.weight)
      << " (L1), time " << num(t.seconds) << " s\n";
  const Skeleton& sa = a.skeleton;
  const Skeleton& sb = b.skeleton;
  std::size_t same_name = 0;
  for (int32_t j : r.b_of_a) same_name += j >= 0 ? 1 : 0;
  same_name -= r.renamed.size();
  out << "Joints: " << sa.size() << " in A, " << sb.size() << " in B: " << same_name
      << " matched by name, " << r.renamed.size() << " renamed, " << r.added.size() << " added, "
      << r.removed.size() << " removed, " << r.moved.size() << " moved\n";
  for (const JointPair& p : r.renamed)
    out << "  renamed: '" << sa.names[static_cast<std::size_t>(p.a)] << "' -> '"
        << sb.names[static_cast<std::size_t>(p.b)] << "' (same parent, same rest)\n";
  for (int32_t j : r.added) {
    const int32_t p = sb.parents[static_cast<std::size_t>(j)];
    out << "  added: '" << sb.names[static_cast<std::size_t>(j)] << "'"
        << (p >= 0 ? " under '" + sb.names[static_cast<std::size_t>(p)] + "'" : " (a root)")
        << "\n";
  }
  for (int32_t j : r.removed)
    out << "  removed: '" << sa.names[static_cast<std::size_t>(j)] << "'\n";
  for (const MovedJoint& m : r.moved) {
    out << "  moved: '" << sa.names[static_cast<std::size_t>(m.a)] << "'";
    if (sa.names[static_cast<std::size_t>(m.a)] != sb.names[static_cast<std::size_t>(m.b)])
      out << " ('" << sb.names[static_cast<std::size_t>(m.b)] << "' in B)";
    out << ": rest " << delta_text(m.rest) << "; bind " << delta_text(m.bind) << "\n";
  }

  out << "Weights (per vertex, the L1 distance of its joint->weight maps, joints matched by name "
         "and rename; 0 to 2):\n";
  for (const MeshPair& p : r.meshes) {
    const std::size_t m = static_cast<std::size_t>(p.a);
    out << "  mesh " << mesh_label(a, p.a) << ": " << p.vertices_a << " vertices";
    if (p.by_position)
      out << ", B's " << mesh_label(b, p.b) << " has " << p.vertices_b
          << ": matched by nearest rest position (the counts differ; farthest match "
          << num(p.farthest_match) << " units)";
    else
      out << ", matched by index (the counts agree)";
    if (p.changed == 0) {
      out << ": none changed\n";
      continue;
    }
    out << ": " << p.changed << " changed, largest " << num(p.max_change) << " at vertex "
        << file_vertex(a.meshes[m], p.max_vertex) << "\n";
    const auto changed = changed_vertices(r, a, m);
    out << "      vertex (change):";
    const std::size_t shown = std::min<std::size_t>(changed.size(), 12);
    for (std::size_t i = 0; i < shown; ++i)
      out << " " << changed[i].first << " (" << num(changed[i].second) << ")";
    if (changed.size() > shown) out << " ... (" << changed.size() - shown << " more: --json)";
    out << "\n";
  }
  for (int32_t m : r.meshes_removed) out << "  mesh " << mesh_label(a, m) << ": not in B\n";
  for (int32_t m : r.meshes_added) out << "  mesh " << mesh_label(b, m) << " of B: not in A\n";
  out << "  " << r.vertices_changed << " of " << r.vertices_compared << " vertices changed";
  if (r.vertices_changed > 0)
    out << "; largest " << num(r.max_change) << " at vertex "
        << file_vertex(a.meshes[static_cast<std::size_t>(r.max_mesh)], r.max_vertex) << " of mesh "
        << mesh_label(a, r.max_mesh);
  out << "\n";

  out << "Clips: " << a.clips.size() << " in A, " << b.clips.size() << " in B: " << r.clips_same
      << " the same, " << r.clips_changed.size() << " changed, " << r.clips_added.size()
      << " added, " << r.clips_removed.size() << " removed\n";
  for (const std::string& c : r.clips_added) out << "  added: '" << c << "'\n";
  for (const std::string& c : r.clips_removed) out << "  removed: '" << c << "'\n";
  for (const ClipDifference& c : r.clips_changed) {
    out << "  changed: '" << c.name << "': duration " << num(c.duration_a) << " s";
    if (c.duration_a != c.duration_b) out << " -> " << num(c.duration_b) << " s";
    out << ", keys " << c.keys_a;
    if (c.keys_a != c.keys_b) out << " -> " << c.keys_b;
    out << ", " << c.tracks.size() << " track(s) differ\n";
    for (const TrackDifference& d : c.tracks) {
      out << "      '" << sa.names[static_cast<std::size_t>(d.a)] << "' " << path_name(d.path)
          << ": ";
      if (d.keyed_a != d.keyed_b) {
        out << (d.keyed_a ? "keyed in A only" : "keyed in B only") << " (" << d.keys_a << " -> "
            << d.keys_b << " keys), ";
      } else {
        out << "keys " << d.keys_a;
        if (d.keys_a != d.keys_b) out << " -> " << d.keys_b;
        out << (d.times_differ ? ", key times differ, " : ", ");
      }
      out << "values differ by up to " << num(d.max_value)
          << (d.path == TrackPath::Rotation      ? " degrees"
              : d.path == TrackPath::Translation ? " units"
                                                 : "")
          << "\n";
    }
  }
  out << "Different: " << (r.any_difference() ? "yes" : "no") << "\n";
  return out.str();
}

std::string compare_json(const RigComparison& r, const Model& a, const Model& b,
                         const std::string& a_name, const std::string& b_name) {
  using nlohmann::json;
  const auto side = [](const Model& m, const std::string& name) {
    return json{{"file", name},
                {"joints", m.skeleton.size()},
                {"meshes", m.meshes.size()},
                {"vertices", vertex_count(m)},
                {"clips", m.clips.size()}};
  };
  const auto delta = [](const TransformDelta& d) {
    return json{{"distance", d.distance}, {"degrees", d.degrees}, {"scale", d.scale}};
  };
  const Skeleton& sa = a.skeleton;
  const Skeleton& sb = b.skeleton;
  json j;
  j["skinview"] = "rig comparison";
  j["version"] = 1;
  j["different"] = r.any_difference();
  j["a"] = side(a, a_name);
  j["b"] = side(b, b_name);
  j["modelSize"] = r.model_size;
  j["tolerances"] = {{"translation", r.translation_tolerance()},
                     {"translationOfSize", r.tolerances.translation},
                     {"degrees", r.tolerances.degrees},
                     {"scale", r.tolerances.scale},
                     {"weight", r.tolerances.weight},
                     {"seconds", r.tolerances.seconds}};
  json joints;
  joints["added"] = json::array();
  for (int32_t x : r.added) joints["added"].push_back(sb.names[static_cast<std::size_t>(x)]);
  joints["removed"] = json::array();
  for (int32_t x : r.removed) joints["removed"].push_back(sa.names[static_cast<std::size_t>(x)]);
  joints["renamed"] = json::array();
  for (const JointPair& p : r.renamed)
    joints["renamed"].push_back({{"from", sa.names[static_cast<std::size_t>(p.a)]},
                                 {"to", sb.names[static_cast<std::size_t>(p.b)]}});
  joints["moved"] = json::array();
  for (const MovedJoint& m : r.moved)
    joints["moved"].push_back({{"name", sa.names[static_cast<std::size_t>(m.a)]},
                               {"nameB", sb.names[static_cast<std::size_t>(m.b)]},
                               {"rest", delta(m.rest)},
                               {"bind", delta(m.bind)}});
  j["joints"] = joints;

  json weights;
  weights["compared"] = r.vertices_compared;
  weights["changed"] = r.vertices_changed;
  weights["maxChange"] = r.max_change;
  if (r.max_mesh >= 0 && r.vertices_changed > 0) {
    const Mesh& m = a.meshes[static_cast<std::size_t>(r.max_mesh)];
    weights["max"] = {
        {"mesh", r.max_mesh}, {"meshName", m.name}, {"vertex", file_vertex(m, r.max_vertex)}};
  } else {
    weights["max"] = nullptr;
  }
  weights["meshes"] = json::array();
  for (const MeshPair& p : r.meshes) {
    json changed = json::array();
    std::vector<std::pair<std::size_t, float>> list =
        changed_vertices(r, a, static_cast<std::size_t>(p.a));
    std::sort(list.begin(), list.end());
    for (const auto& [v, c] : list) changed.push_back({{"vertex", v}, {"change", c}});
    weights["meshes"].push_back({{"mesh", p.a},
                                 {"meshB", p.b},
                                 {"name", a.meshes[static_cast<std::size_t>(p.a)].name},
                                 {"match", p.by_position ? "nearest position" : "index"},
                                 {"verticesA", p.vertices_a},
                                 {"verticesB", p.vertices_b},
                                 {"farthestMatch", p.farthest_match},
                                 {"changed", p.changed},
                                 {"maxChange", p.max_change},
                                 {"changedVertices", changed}});
  }
  weights["meshesAdded"] = r.meshes_added;
  weights["meshesRemoved"] = r.meshes_removed;
  j["weights"] = weights;

  json clips;
  clips["same"] = r.clips_same;
  clips["added"] = r.clips_added;
  clips["removed"] = r.clips_removed;
  clips["changed"] = json::array();
  for (const ClipDifference& c : r.clips_changed) {
    json tracks = json::array();
    for (const TrackDifference& d : c.tracks)
      tracks.push_back({{"joint", sa.names[static_cast<std::size_t>(d.a)]},
                        {"jointB", sb.names[static_cast<std::size_t>(d.b)]},
                        {"path", path_name(d.path)},
                        {"keyed", {d.keyed_a, d.keyed_b}},
                        {"keys", {d.keys_a, d.keys_b}},
                        {"timesDiffer", d.times_differ},
                        {"maxDifference", d.max_value}});
    clips["changed"].push_back({{"name", c.name},
                                {"duration", {c.duration_a, c.duration_b}},
                                {"keys", {c.keys_a, c.keys_b}},
                                {"tracks", tracks}});
  }
  j["clips"] = clips;
  // Names are the file's bytes: invalid UTF-8 is replaced, never thrown on.
  return j.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

int run_compare(const Options& options) {
  std::string a_path, b_path;
  if (std::string e = compare_files(options, &a_path, &b_path); !e.empty()) {
    print_error_line(e);
    return kExitBadInput;
  }
  Options oa = options;
  oa.model = a_path;
  ImportResult ra = import_character(oa);
  if (!ra.ok()) {
    print_error_line(ra.error);
    return kExitBadInput;
  }
  ImportResult rb = import_other_version(options, b_path);
  if (!rb.ok()) {
    print_error_line(rb.error);
    return kExitBadInput;
  }
  const RigComparison r = compare_rigs(*ra.model, *rb.model, {}, kCommandLineCompareBudget);
  if (r.status != CompareStatus::Done) {
    print_error_line(r.problem);
    return kExitBadInput;
  }
  std::cout << (options.json ? compare_json(r, *ra.model, *rb.model, a_path, b_path)
                             : compare_text(r, *ra.model, *rb.model, a_path, b_path));
  std::cout.flush();
  return options.fail_on_diff && r.any_difference() ? 1 : kExitOk;
}

}  // namespace sv
