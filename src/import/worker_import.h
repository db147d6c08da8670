// The whole import as the worker runs it, in its own process: the pre-read checks
// (pre_read.h), the glTF re-read (gltf_interp.cpp), assimp's read (assimp_read.h), the repairs
// that replace assimp's validation (scene_repair.h), post-processing, and the conversion to a
// Model (convert.h). worker_main.cpp writes the result as a flat binary model; the in-process
// tests call these directly.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "import/images.h"
#include "io/import.h"

namespace sv {

// Imports the file `path`. Never throws (std::bad_alloc aside: the worker ends on it, see
// worker_main.cpp). provenance is filled in (with the texture files read). `images` gives the
// folders textures may be read from besides the model's own and the pixel budget; its model_dir
// is ignored (the model's folder is).
ImportResult import_file_here(const std::string& path, const ImageRules& images = {});

// Imports a file held in memory; `hint` is a file extension without the dot, `name` prefixes
// errors. No texture file is opened; embedded images are decoded within `images`' budget.
ImportResult import_memory_here(std::span<const uint8_t> bytes, const std::string& hint,
                                const std::string& name, const ImageRules& images = {});

}  // namespace sv
