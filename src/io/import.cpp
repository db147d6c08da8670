// import_model and import_model_from_memory: one ImportProcess (io/import_process.h) each, waited
// for, with the model cache (io/import_cache.h) around import_model. supported_extensions asks the
// worker once.
#include "io/import.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <sstream>
#include <utility>
#include <vector>

#include "io/import_cache.h"
#include "io/import_process.h"

extern char** environ;

namespace sv {

std::string missing_file_error(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return path + ": no such file";
  if (std::filesystem::is_directory(path, ec)) return path + ": is a directory, not a model file";
  return {};
}

ImportResult import_model(const std::string& path, const ImportOptions& options) {
  ImportResult result;
  if (std::string e = missing_file_error(path); !e.empty()) {
    result.error = e;
    return result;
  }
  finish_cache_stores();  // a store of this process in flight may be this file's entry
  CacheLookup lookup = look_up_import(path, options);
  if (lookup.result) return std::move(*lookup.result);
  ImportOptions child_options = options;
  child_options.keep_stream = options.keep_stream || !lookup.key.empty();
  ImportProcess child;
  if (std::string e = child.start(path, child_options); !e.empty()) {
    result.error = e;
    return result;
  }
  result = child.wait();
  if (result.ok() && !lookup.refused.empty())
    result.report.notes.push_back(refused_entry_note(lookup.refused));
  if (result.ok() && !lookup.key.empty()) {
    // A cache that cannot be written only means the next open imports again.
    if (options.keep_stream) {
      store_import(lookup.key, path, result.stream, result.provenance.read_files, options);
    } else {
      // Off this call's path where the process waits for its stores (io/import_cache.h). The
      // stream may borrow the worker's sealed output mapping: the store keeps it alive.
      store_import_later(lookup.key, path, std::move(result.stream), result.provenance.read_files,
                         options);
      result.stream = Stream<uint8_t>();
    }
  }
  return result;
}

ImportResult import_model_from_memory(std::span<const uint8_t> bytes, const std::string& hint,
                                      const std::string& name, const ImportOptions& options) {
  ImportResult result;
  if (bytes.empty()) {
    result.error = name + ": empty file";
    return result;
  }
  ImportProcess child;
  if (std::string e = child.start_from_memory(bytes, hint, name, options); !e.empty()) {
    result.error = e;
    return result;
  }
  return child.wait();
}

namespace {

// Runs `worker --extensions` and reads its lines; empty on any failure.
std::vector<std::string> ask_worker_for_extensions() {
  const std::string worker = worker_path();
  if (worker.empty()) return {};
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return {};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::string arg0 = worker, arg1 = "--extensions";
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, worker.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  std::string text;
  if (rc == 0) {
    char buf[4096];
    for (;;) {
      const ssize_t n = ::read(fds[0], buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0 || text.size() > (1u << 20)) break;
      text.append(buf, static_cast<std::size_t>(n));
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) text.clear();
  }
  ::close(fds[0]);
  std::vector<std::string> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    bool plain = !line.empty() && line.size() <= 16;
    for (char c : line)
      plain = plain && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.');
    // Refused by the worker (no model in a camera path): not offered.
    if (plain && line != "md5camera") out.push_back(line);
  }
  return out;
}

}  // namespace

const std::vector<std::string>& supported_extensions() {
  static const std::vector<std::string> extensions = ask_worker_for_extensions();
  return extensions;
}

}  // namespace sv
