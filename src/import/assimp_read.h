// Reading a model with assimp in the import worker: the importer's options, the post-processing
// steps, assimp's log, the file systems it reads through, and its messages made one line.
//
// Post-processing is limited to steps that keep every mesh's vertex count and order
// (triangulation, smooth normals where a mesh has none), so that Mesh::positions are assimp's
// mVertices one for one and dumps can be compared per vertex with other tools. assimp's
// ValidateDataStructure step is not run: scene_repair.h checks and repairs what it would refuse.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "import/source.h"

struct aiScene;
namespace Assimp {
class Importer;
}

namespace sv {

struct AssimpRead {
  AssimpRead();
  ~AssimpRead();
  AssimpRead(const AssimpRead&) = delete;
  AssimpRead& operator=(const AssimpRead&) = delete;

  std::unique_ptr<Assimp::Importer> importer;  // owns `scene`
  aiScene* scene = nullptr;                    // null when assimp could not read the file
  std::string error;                           // then: why, one line (no file name)
  std::vector<std::string> log_errors;         // assimp's error-level log lines while reading
  std::vector<std::string> read_files;         // files opened besides the model (from disk)
};

// Reads `src` with assimp, without post-processing (the scene is repaired first).
void read_with_assimp(const Source& src, AssimpRead& out);

// Triangulates and adds smooth normals to meshes without normals. Sets out.scene to null and
// out.error when assimp fails.
void postprocess(AssimpRead& out);

// Whether one of assimp's log lines says it threw away malformed geometry (faces with no
// indices) and carried on: skinview refuses such files instead of showing part of them.
bool is_malformed_geometry(const std::string& log_line);

// "assimp 5.2.4": the version the worker runs, as assimp reports it.
std::string assimp_version();

// Every file extension assimp reads, lower case without the dot.
std::vector<std::string> assimp_extensions();

}  // namespace sv
