#include "import/assimp_read.h"

#include <assimp/DefaultIOSystem.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/version.h>
#include <assimp/DefaultLogger.hpp>
#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>
#include <assimp/Importer.hpp>
#include <assimp/Logger.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <mutex>
#include <new>
#include <sstream>

#include "import/convert.h"

namespace sv {
namespace {

// assimp's global logger: keeps the error-level messages of the import running on this thread
// (they explain rejected files, and flag files assimp only half understood); drops the rest.
thread_local std::vector<std::string>* t_assimp_errors = nullptr;

class ErrorCollector final : public Assimp::Logger {
 public:
  ErrorCollector() : Logger(Logger::NORMAL) {}
  bool attachStream(Assimp::LogStream* stream, unsigned int) override {
    delete stream;  // the logger owns attached streams; this one has no use for them
    return false;
  }
  bool detachStream(Assimp::LogStream*, unsigned int) override { return false; }

 protected:
  void OnDebug(const char*) override {}
  void OnVerboseDebug(const char*) override {}
  void OnInfo(const char*) override {}
  void OnWarn(const char*) override {}
  void OnError(const char* message) override {
    if (t_assimp_errors && message && t_assimp_errors->size() < 64)
      t_assimp_errors->emplace_back(message);
  }
};

void install_logger() {
  static std::once_flag once;
  std::call_once(once, [] { Assimp::DefaultLogger::set(new ErrorCollector()); });
}

// A no-op filesystem for files held in memory: assimp's memory reader falls back to the
// importer's IOSystem for every other file a format references, and this one opens none.
class NoFilesIOSystem final : public Assimp::IOSystem {
 public:
  bool Exists(const char*) const override { return false; }
  char getOsSeparator() const override { return '/'; }
  Assimp::IOStream* Open(const char*, const char*) override { return nullptr; }
  void Close(Assimp::IOStream* stream) override { delete stream; }
};

// The disk, noting every file assimp opens besides the model (a .gltf's buffers, an .md5mesh's
// .md5anim, an .obj's .mtl): a cache of the result must know them.
class RecordingIOSystem final : public Assimp::DefaultIOSystem {
 public:
  RecordingIOSystem(std::string model, std::vector<std::string>* opened)
      : model_(std::filesystem::absolute(model).lexically_normal()), opened_(opened) {}
  Assimp::IOStream* Open(const char* file, const char* mode) override {
    Assimp::IOStream* stream = DefaultIOSystem::Open(file, mode);
    if (stream && file) {
      const std::filesystem::path p = std::filesystem::absolute(file).lexically_normal();
      const std::string s = p.string();
      if (p != model_ && std::find(opened_->begin(), opened_->end(), s) == opened_->end())
        opened_->push_back(s);
    }
    return stream;
  }

 private:
  std::filesystem::path model_;
  std::vector<std::string>* opened_;
};

// Collects assimp's log errors into `out` while it lives.
struct LogScope {
  explicit LogScope(std::vector<std::string>* out) {
    install_logger();
    t_assimp_errors = out;
  }
  ~LogScope() { t_assimp_errors = nullptr; }
};

std::string failure_text(const Assimp::Importer& importer) {
  std::string why = importer.GetErrorString();
  if (why.empty()) return "assimp could not read the file";
  return assimp_error_line(std::move(why));
}

}  // namespace

AssimpRead::AssimpRead() : importer(std::make_unique<Assimp::Importer>()) {}
AssimpRead::~AssimpRead() = default;

void read_with_assimp(const Source& src, AssimpRead& out) {
  LogScope log(&out.log_errors);
  Assimp::Importer& importer = *out.importer;
  // BVH, MD5 anims etc. would otherwise get a generated "skeleton mesh": skinview draws
  // skeletons itself, so the meshes are only the file's own.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  const aiScene* scene = nullptr;
  if (src.in_memory()) {
    importer.SetIOHandler(new NoFilesIOSystem());
    const std::string hint = src.ext.empty() ? std::string() : src.ext.substr(1);
    scene = importer.ReadFileFromMemory(src.bytes.data(), src.bytes.size(), 0, hint.c_str());
  } else {
    importer.SetIOHandler(new RecordingIOSystem(src.name, &out.read_files));
    scene = importer.ReadFile(src.name, 0);
  }
  // The scene is assimp's, owned by the importer; the repairs edit it in place.
  out.scene = const_cast<aiScene*>(scene);
  if (!scene) out.error = failure_text(importer);
}

void postprocess(AssimpRead& out) {
  if (!out.scene) return;
  LogScope log(&out.log_errors);
  // GenSmoothNormals acts on meshes without normals only; Triangulate only splits faces: both
  // keep every vertex where it is.
  const aiScene* scene =
      out.importer->ApplyPostProcessing(aiProcess_Triangulate | aiProcess_GenSmoothNormals);
  out.scene = const_cast<aiScene*>(scene);
  if (!scene) out.error = failure_text(*out.importer);
}

bool is_malformed_geometry(const std::string& message) {
  return message.find("empty face") != std::string::npos ||
         message.find("Faces with zero indices") != std::string::npos;
}

std::string assimp_version() {
  return "assimp " + std::to_string(aiGetVersionMajor()) + "." +
         std::to_string(aiGetVersionMinor()) + "." + std::to_string(aiGetVersionPatch());
}

std::vector<std::string> assimp_extensions() {
  std::string list;
  Assimp::Importer().GetExtensionList(list);  // "*.3ds;*.obj;..."
  std::vector<std::string> out;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ';');) {
    const std::size_t dot = item.find('.');
    std::string ext = dot == std::string::npos ? item : item.substr(dot + 1);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!ext.empty() && std::find(out.begin(), out.end(), ext) == out.end()) out.push_back(ext);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The longest piece of an assimp (or tinygltf) message an error line keeps. Some of assimp's
// messages quote the input: "Cannot parse string \"...\" as a real number" holds everything
// from that point to the end of the file.
constexpr std::size_t kMaxQuotedError = 300;

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string quoted_error(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  if (s.size() > kMaxQuotedError) {
    std::size_t cut = kMaxQuotedError;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xc0) == 0x80) --cut;
    s.resize(cut);
    s += "...";
  }
  return one_line(std::move(s));
}

std::string assimp_error_line(std::string message) {
  // assimp catches std::bad_alloc itself and reports its what(): a count in the file asked for
  // more memory than could be allocated.
  if (message == std::bad_alloc().what())
    return "out of memory while reading: a count in the file asks for more memory than can be "
           "allocated (corrupt or hostile file)";
  return quoted_error(std::move(message));
}

}  // namespace sv
