#include "import/worker_import.h"

#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <exception>
#include <filesystem>
#include <optional>
#include <utility>

#include "import/assimp_read.h"
#include "import/convert.h"
#include "import/pre_read.h"
#include "import/scene_converter.h"
#include "import/scene_repair.h"
#include "import/source.h"

namespace sv {
namespace {

// Reads, checks, repairs and converts one model: the one code path behind both entry points.
ImportResult import_source(const Source& src, const ImageRules& images) {
  ImportResult result;
  result.provenance.importer = assimp_version();
  auto refuse = [&](const std::string& why) {
    ImportResult r;
    r.provenance = std::move(result.provenance);
    r.error = src.name + ": " + why;
    return r;
  };
  try {
    if (src.size > kMaxFileBytes)
      return refuse(std::to_string(src.size) + " bytes, more than the limit of " +
                    std::to_string(kMaxFileBytes));
    if (std::string e = pre_read_check(src); !e.empty()) return refuse(e);

    // glTF: read by tinygltf first, for the STEP/CUBICSPLINE samplers assimp reads as linear;
    // data out of range or a file tinygltf cannot parse is refused (assimp 5.2.5 reads such
    // files without range checks). glTF 1.0 and Draco-compressed files, which tinygltf does not
    // read, are left to assimp.
    std::optional<GltfSidecar> gltf;
    if (src.ext == ".gltf" || src.ext == ".glb") {
      gltf = src.in_memory() ? read_gltf_sidecar(src.bytes, src.ext == ".glb")
                             : read_gltf_sidecar(src.name);
      if (!gltf->problem.empty()) return refuse("glTF data out of range (" + gltf->problem + ")");
      if (!gltf->parsed && !gltf->version1 && !gltf->draco)
        return refuse("not a valid glTF 2 file (" + quoted_error(gltf->parse_error) + ")");
    }

    AssimpRead read;
    read_with_assimp(src, read);
    result.provenance.read_files = read.read_files;
    if (!read.scene) return refuse(read.error);
    const SceneRepairs repairs = repair_scene(*read.scene);
    postprocess(read);
    if (!read.scene) return refuse(read.error);
    for (const std::string& e : read.log_errors)
      if (is_malformed_geometry(e)) return refuse("malformed geometry (" + quoted_error(e) + ")");
    const aiScene& scene = *read.scene;
    if (scene.mNumMeshes == 0 && scene.mNumAnimations == 0)
      return refuse("empty scene (no meshes and no animations)");

    SceneConverter convert(result.report);
    convert.scene = &scene;
    convert.name = src.name;
    if (gltf) convert.gltf = &*gltf;
    convert.gltf_file = src.ext == ".gltf" || src.ext == ".glb";
    convert.image_rules = images;
    convert.image_rules.model_dir.clear();
    if (!src.in_memory()) {
      convert.image_rules.model_dir = std::filesystem::path(src.name).parent_path().string();
      if (convert.image_rules.model_dir.empty()) convert.image_rules.model_dir = ".";
    }
    result.report.faces_dropped += repairs.faces_dropped;
    if (std::string error = convert.run(); !error.empty()) {
      ImportResult r;
      r.provenance = std::move(result.provenance);
      r.error = one_line(error);  // the conversion names the file itself
      return r;
    }
    for (const std::string& e : read.log_errors)
      result.report.notes.push_back("assimp: " + quoted_error(e));
    result.report.notes.insert(result.report.notes.end(), repairs.notes.begin(),
                               repairs.notes.end());
    for (const std::string& f : convert.texture_files)
      if (std::find(result.provenance.read_files.begin(), result.provenance.read_files.end(), f) ==
          result.provenance.read_files.end())
        result.provenance.read_files.push_back(f);
    result.report.unit_metres = file_unit_metres(scene, src.ext);
    result.model = std::move(convert.model);
  } catch (const std::bad_alloc&) {
    throw;  // the worker's new-handler reports it (worker_main.cpp)
  } catch (const std::exception& e) {
    return refuse(assimp_error_line(e.what()));
  } catch (...) {
    return refuse("unknown error while importing");
  }
  return result;
}

}  // namespace

ImportResult import_file_here(const std::string& path, const ImageRules& images) {
  ImportResult result;
  result.provenance.importer = assimp_version();
  if (std::string e = missing_file_error(path); !e.empty()) {
    result.error = e;
    return result;
  }
  std::error_code ec;
  Source src;
  src.name = path;
  src.ext = lower_extension(path);
  src.size = std::filesystem::file_size(path, ec);
  if (ec) src.size = 0;  // not a regular file (a FIFO, ...): assimp decides
  return import_source(src, images);
}

ImportResult import_memory_here(std::span<const uint8_t> bytes, const std::string& hint,
                                const std::string& name, const ImageRules& images) {
  ImportResult result;
  result.provenance.importer = assimp_version();
  if (bytes.empty()) {
    result.error = name + ": empty file";
    return result;
  }
  Source src;
  src.name = name;
  src.ext = "." + hint;
  for (char& c : src.ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (src.ext == ".") src.ext.clear();
  src.bytes = bytes;
  src.size = bytes.size();
  return import_source(src, images);
}

}  // namespace sv
