// The headless commands: --info (what a file holds, and what the importer repaired) and --dump
// (a pose as JSON, io/dump.h). Every failure is one line on stderr, "skinview: FILE: reason",
// exit 2. The import runs in a child process bounded by --time-limit and --memory-limit
// (io/import.h).
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "anim/player.h"
#include "app/animation_files.h"
#include "app/app_common.h"
#include "app/blend_options.h"
#include "app/cli.h"
#include "io/dump.h"
#include "io/import.h"
#include "skin/clip_bounds.h"
#include "skin/rotation_centers.h"
#include "skin/volume.h"
#include "ui/model_units.h"

namespace sv {
namespace {

int fail(const std::string& line) {
  print_error_line(line);
  return kExitBadInput;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", s);
  return buf;
}

// Parses a time in seconds: a finite number >= 0, nothing else.
bool parse_time(const std::string& text, double& out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || end != text.c_str() + text.size() || !std::isfinite(v) || v < 0.0 || v > 3.0e38)
    return false;
  out = v;
  return true;
}

// Clip by exact name first, then by index; -2 when neither matches.
int find_clip(const Model& model, const std::string& which) {
  for (std::size_t i = 0; i < model.clips.size(); ++i)
    if (model.clips[i].name() == which) return static_cast<int>(i);
  char* end = nullptr;
  errno = 0;
  const long index = std::strtol(which.c_str(), &end, 10);
  if (!which.empty() && errno == 0 && end == which.c_str() + which.size() && index >= 0 &&
      index < static_cast<long>(model.clips.size()))
    return static_cast<int>(index);
  return -2;
}

// Per clip and closed mesh, the volume change against the rest pose under --method
// (skin/volume.h, which also writes the lines: the window's View section shows the same), or
// why there is no figure. "" or the one-line reason the method cannot skin the model.
std::string volume_lines(const Model& m, const Options& o, std::ostream& out) {
  if (m.meshes.empty()) return std::string();
  const std::vector<MeshShape> shapes = mesh_shapes(m);
  SkinChoice skin;
  skin.method = skin_method_of(o);
  skin.influences = o.influences;
  std::vector<std::vector<glm::vec3>> centers;
  if (skin.method == SkinMethod::Cor) {
    centers = compute_rotation_centers(m, o.influences == 8);
    if (centers.size() != m.meshes.size())
      return o.model + ": the centres of rotation cannot be computed for this model";
    skin.centers = centers;
  }
  std::size_t closed = 0;
  for (MeshShape s : shapes) closed += s == MeshShape::Closed ? 1 : 0;
  out << "Volume change against the rest pose, " << skin_method_label(skin.method)
      << (skin.influences == 8 ? ", 8 influences" : "") << " (closed meshes: " << closed << " of "
      << m.meshes.size() << "):\n";
  VolumeFigures unposed;  // the meshes' lines that no clip changes
  for (std::size_t i = 0; i < m.meshes.size(); ++i)
    unposed.meshes.push_back({m.meshes[i].name, shapes[i]});
  for (std::size_t i = 0; i < m.meshes.size(); ++i)
    if (shapes[i] != MeshShape::Closed)
      out << "  mesh [" << i << "] " << mesh_volume_line(unposed, i) << "\n";
  for (std::size_t i = 0; i < m.clips.size(); ++i) {
    const VolumeFigures v = clip_volume_figures(m, static_cast<int32_t>(i), skin, shapes);
    if (v.status == VolumeStatus::Unskinnable)
      return o.model + ": clip '" + m.clips[i].name() + "' cannot be skinned";
    out << "  [" << i << "] '" << m.clips[i].name() << "': " << volume_sampling_line(v) << "\n";
    for (std::size_t k = 0; k < v.meshes.size(); ++k)
      if (shapes[k] == MeshShape::Closed) out << "      " << mesh_volume_line(v, k) << "\n";
  }
  return std::string();
}

}  // namespace

std::string resolve_pose(const Options& o, const Model& m, const BlendSpecs& blend,
                         double base_time, DumpRequest* request,
                         std::vector<std::vector<glm::vec3>>* centers) {
  // CoR's centres of rotation, computed here before posing (the window computes them off its
  // UI thread; a dump waits for them).
  request->skin.method = skin_method_of(o);
  request->skin.influences = o.influences;
  if (request->skin.method == SkinMethod::Cor) {
    *centers = compute_rotation_centers(m, o.influences == 8);
    if (centers->size() != m.meshes.size())
      return o.model + ": the centres of rotation cannot be computed for this model";
    request->skin.centers = *centers;
  }
  if (o.rest_pose || o.bind_pose) {
    request->clip = -1;
    request->bind_pose = o.bind_pose;
  } else if (!o.clip.empty()) {
    request->clip = find_clip(m, o.clip);
    if (request->clip < 0) return no_clip_message(m, o.model, o.clip);
  } else {
    request->clip = m.clips.empty() ? -1 : 0;
  }
  if (!blend.any()) return std::string();
  return make_layer_stack(m, o.model, request->clip, base_time, blend, &request->blend);
}

int run_info(const Options& o) {
  if (o.model.empty()) return fail("no model file given (see --help)");
  ImportResult r = import_character(o);
  if (!r.ok()) return fail(r.error);
  const Model& m = *r.model;
  std::ostringstream out;
  out << o.model << "\n";

  uint32_t max_influences = 0;
  out << "Meshes: " << m.meshes.size() << "\n";
  for (std::size_t i = 0; i < m.meshes.size(); ++i) {
    const Mesh& mesh = m.meshes[i];
    max_influences = std::max(max_influences, mesh.max_influences);
    out << "  [" << i << "] " << (mesh.name.empty() ? "(no name)" : "'" + mesh.name + "'") << ": "
        << mesh.vertex_count() << " vertices, " << mesh.triangle_count() << " triangles, ";
    if (!mesh.line_indices.empty() || !mesh.point_indices.empty())
      out << mesh.line_indices.size() / 2 << " lines, " << mesh.point_indices.size() << " points, ";
    if (mesh.skinned)
      out << "skinned, " << mesh.skin_joints.size() << " bones, up to " << mesh.max_influences
          << " influences per vertex";
    else
      out << "rigid";
    out << ", on node '" << m.skeleton.names[static_cast<std::size_t>(mesh.node)] << "'";
    // glTF's doubleSided: false (Material::double_sided): drawn from the front only.
    if (mesh.material >= 0 && static_cast<std::size_t>(mesh.material) < m.materials.size() &&
        !m.materials[static_cast<std::size_t>(mesh.material)].double_sided)
      out << ", single-sided";
    out << "\n";
    if (!mesh.morph_targets.empty()) {
      out << "      morph targets: " << mesh.morph_targets.size() << " (";
      for (std::size_t t = 0; t < mesh.morph_targets.size(); ++t)
        out << (t ? ", " : "") << "'" << mesh.morph_targets[t].name << "' "
            << mesh.morph_targets[t].default_weight;
      out << ")";
      std::size_t clips = 0;
      for (const MorphClip& c : m.morph_clips)
        for (const MorphTrack& track : c.tracks) clips += track.mesh == i ? 1 : 0;
      out << ", animated by " << clips << " clip(s)\n";
    }
  }

  // The rest pose's extent and the file's unit, as the inspector's Model section says them.
  char line[160];
  if (const Bounds rest = clip_bounds(m, kRestPose, PoseMode::Rest); rest.valid()) {
    ui::format_size(rest.max - rest.min, line, sizeof line);
    out << "Size: " << line << ", the rest pose\n";
    if (ui::format_metres(rest.max - rest.min, r.report.unit_metres, line, sizeof line))
      out << "      " << line << "\n";
  }
  ui::format_unit(r.report.unit_metres, o.model, line, sizeof line);
  out << "Unit: " << line << "\n";

  const Skeleton& sk = m.skeleton;
  std::size_t bones = 0;
  for (uint8_t b : sk.is_bone) bones += b;
  out << "Joints: " << sk.size() << " (" << bones << " bones, " << sk.size() - bones
      << " plain nodes)\n";
  std::vector<int> depth(sk.size(), 0);
  for (std::size_t j = 0; j < sk.size(); ++j) {
    depth[j] = sk.parents[j] < 0 ? 0 : depth[static_cast<std::size_t>(sk.parents[j])] + 1;
    out << "  " << std::string(2 * static_cast<std::size_t>(depth[j]), ' ') << sk.names[j]
        << (sk.is_bone[j] ? "  [bone]" : "  [node]") << "\n";
  }
  out << "Max influences per vertex: " << max_influences;
  if (max_influences > 4)
    out << " (" << std::min<uint32_t>(max_influences, static_cast<uint32_t>(o.influences))
        << " skin per vertex with --influences " << o.influences << ")";
  out << "\n";

  out << "Clips: " << m.clips.size() << "\n";
  for (std::size_t i = 0; i < m.clips.size(); ++i) {
    const ClipRuntime& c = m.clips[i];
    out << "  [" << i << "] '" << c.name() << "': " << seconds_text(c.duration()) << " s, "
        << c.channels() << " channels, " << c.keys() << " keys\n";
  }

  if (std::string e = volume_lines(m, o, out); !e.empty()) return fail(e);

  out << "Import report:";
  if (r.report.notes.empty()) {
    out << " nothing was repaired.\n";
  } else {
    out << "\n";
    for (const std::string& note : r.report.notes) out << "  " << note << "\n";
  }
  // The worker's sandbox layers when the file was imported (for a cached model: when it was
  // first imported).
  if (!r.provenance.sandbox.empty()) out << "Import sandbox: " << r.provenance.sandbox << "\n";
  if (r.from_cache)
    out << "Read from the model cache (the importer did not run; --no-cache runs it).\n";
  std::cout << out.str();
  std::cout.flush();
  return kExitOk;
}

int run_dump(const Options& o) {
  if (o.model.empty()) return fail("--dump needs a model file (see --help)");
  BlendSpecs blend;
  if (std::string e = parse_blend_specs(o.layers, o.crossfade, &blend); !e.empty()) return fail(e);
  DumpRequest request;
  if (!o.times.empty()) {
    std::string item;
    std::istringstream list(o.times);
    while (std::getline(list, item, ',')) {
      double t = 0.0;
      if (!parse_time(item, t))
        return fail(o.model + ": bad time '" + item + "' in --times (need seconds >= 0)");
      request.times.push_back(t);
    }
    if (request.times.empty()) return fail(o.model + ": --times is empty");
    request.frames = true;
  } else if (!o.time.empty()) {
    double t = 0.0;
    if (!parse_time(o.time, t))
      return fail(o.model + ": bad time '" + o.time + "' (need seconds >= 0)");
    request.times.push_back(t);
  } else {
    request.times.push_back(0.0);
  }

  ImportResult r = import_character(o);
  if (!r.ok()) return fail(r.error);
  const Model& m = *r.model;
  // The layers' time=T counts from --time (0 with --times); every clip loops in a blend.
  std::vector<std::vector<glm::vec3>> centers;
  if (std::string e =
          resolve_pose(o, m, blend, request.frames ? 0.0 : request.times[0], &request, &centers);
      !e.empty())
    return fail(e);

  if (o.output == "-") {
    std::string error = write_dump_json(m, request, std::cout);
    std::cout.flush();
    if (!error.empty()) return fail(o.model + ": " + error);
    return kExitOk;
  }
  std::ofstream file(o.output, std::ios::binary | std::ios::trunc);
  if (!file) return fail(o.output + ": cannot open for writing");
  std::string error = write_dump_json(m, request, file);
  file.close();
  if (!error.empty() || !file) {
    std::error_code ec;
    std::filesystem::remove(o.output, ec);  // a refused dump leaves no file behind
  }
  if (!error.empty()) return fail(o.model + ": " + error);
  if (!file) return fail(o.output + ": write failed");
  return kExitOk;
}

}  // namespace sv
