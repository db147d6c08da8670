// skinview-import: the import worker. skinview starts it as a child process for every file it
// opens (io/import_process.h); it is the only program that runs assimp. Its command line,
// result descriptor and exit statuses are io/worker_protocol.h.
//
// Before it reads a byte of the model it bounds itself: an address-space limit of what it has
// mapped at start plus --memory-limit bytes (relative, so a sanitizer build's terabytes of
// reserved shadow memory do not count against it), a CPU limit (--cpu-limit seconds, then
// SIGXCPU; one second later SIGKILL), a limit on what it writes (the largest model a reader
// accepts), no core files, and death when its parent dies. An allocation that fails past the
// limit ends it at once with kExitOutOfMemory (assimp would otherwise catch std::bad_alloc and
// carry on with whatever it had).
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "import/assimp_read.h"
#include "import/worker_import.h"
#include "io/model_format.h"
#include "io/worker_protocol.h"

namespace {

using namespace sv;

void out_of_memory() {
  static const char kMessage[] = "skinview-import: out of memory (past the limit)\n";
  [[maybe_unused]] const ssize_t n = ::write(2, kMessage, sizeof kMessage - 1);
  ::_exit(worker::kExitOutOfMemory);
}

// Bytes mapped now (VmSize in /proc/self/status), or 0 when unknown.
uint64_t mapped_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmSize:", 0) == 0) return std::strtoull(line.c_str() + 7, nullptr, 10) << 10;
  return 0;
}

void set_limit(int resource, rlim_t soft, rlim_t hard) {
  rlimit r{soft, hard};
  rlimit old{};
  if (::getrlimit(resource, &old) == 0 && old.rlim_max != RLIM_INFINITY) {
    r.rlim_max = std::min(r.rlim_max, old.rlim_max);
    r.rlim_cur = std::min(r.rlim_cur, r.rlim_max);
  }
  ::setrlimit(resource, &r);
}

bool write_all(int fd, const std::vector<uint8_t>& bytes) {
  std::size_t put = 0;
  while (put < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + put, bytes.size() - put);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    put += static_cast<std::size_t>(n);
  }
  return true;
}

// Test-only misbehaviour (worker_protocol.h, kFaultVariable) for the model `name`. Returns when
// there is none to do, or after "print".
void misbehave_if_asked(int result_fd, const std::string& name) {
  const char* fault = std::getenv(worker::kFaultVariable);
  if (!fault) return;
  std::string f = fault;
  if (const std::size_t colon = f.find(':'); colon != std::string::npos) {
    if (name.find(f.substr(colon + 1)) == std::string::npos) return;  // another file
    f.resize(colon);
  }
  if (f == "segv") {
    ::raise(SIGSEGV);
  } else if (f == "abort") {
    std::abort();
  } else if (f == "hang") {
    volatile unsigned long spins = 0;
    for (;;) spins = spins + 1;
  } else if (f == "alloc") {
    std::vector<char*> held;
    for (;;) {
      char* block = new char[std::size_t{64} << 20];
      std::memset(block, 1, std::size_t{64} << 20);
      held.push_back(block);
    }
  } else if (f == "garbage") {
    std::vector<uint8_t> bytes(kModelMagic, kModelMagic + 8);
    bytes.resize(64, 0xab);
    write_all(result_fd, bytes);
    ::_exit(0);
  } else if (f == "exit") {
    ::_exit(7);
  } else if (f == "print") {
    const std::string line(1023, 'x');
    for (int i = 0; i < 100; ++i) {
      std::printf("%s\n", line.c_str());
      std::fprintf(stderr, "%s\n", line.c_str());
    }
    std::fflush(nullptr);
  }
}

int usage(const char* why) {
  std::fprintf(stderr, "skinview-import: %s (see io/worker_protocol.h)\n", why);
  return worker::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && args[0] == "--extensions") {
    for (const std::string& e : assimp_extensions()) std::printf("%s\n", e.c_str());
    return 0;
  }
  if (args.size() == 1 && args[0] == "--version") {
    std::printf("%s\n", assimp_version().c_str());
    return 0;
  }
  int result_fd = worker::kResultFd;
  uint64_t memory_limit = 0, cpu_limit = 0;
  long parent = 0;
  std::string file, hint, name;
  bool from_stdin = false;
  ImageRules images;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string* { return i + 1 < args.size() ? &args[++i] : nullptr; };
    const std::string* v = nullptr;
    if (a == "--result-fd" && (v = value())) {
      result_fd = std::atoi(v->c_str());
    } else if (a == "--memory-limit" && (v = value())) {
      memory_limit = std::strtoull(v->c_str(), nullptr, 10);
    } else if (a == "--cpu-limit" && (v = value())) {
      cpu_limit = std::strtoull(v->c_str(), nullptr, 10);
    } else if (a == "--parent" && (v = value())) {
      parent = std::atol(v->c_str());
    } else if (a == "--texture-path" && (v = value())) {
      images.allowed_dirs.push_back(*v);
    } else if (a == "--file" && (v = value())) {
      file = *v;
    } else if (a == "--stdin" && i + 2 < args.size()) {
      from_stdin = true;
      hint = args[++i];
      name = args[++i];
    } else {
      return usage(("unknown or incomplete argument '" + a + "'").c_str());
    }
  }
  if (file.empty() == !from_stdin) return usage("give --file PATH or --stdin HINT NAME");

  // Bounds first: nothing of the model has been read yet.
  if (parent > 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) return 1;  // the parent is already gone
  }
  // Decoded images cost the worker up to ~64 bytes a pixel at their peak (the file, stb's
  // buffers, the pixels, the stream): their budget follows the memory limit.
  if (memory_limit > 0) images.pixel_budget = std::min(images.pixel_budget, memory_limit / 64);
  set_limit(RLIMIT_CORE, 0, 0);
  set_limit(RLIMIT_FSIZE, kMaxModelBytes, kMaxModelBytes);
  if (cpu_limit > 0) set_limit(RLIMIT_CPU, cpu_limit, cpu_limit + 1);
  if (memory_limit > 0) {
    const uint64_t limit = mapped_bytes() + memory_limit;
    set_limit(RLIMIT_AS, limit, limit);
  }
  std::set_new_handler(out_of_memory);
  misbehave_if_asked(result_fd, from_stdin ? name : file);

  ImportResult result;
  if (from_stdin) {
    std::vector<uint8_t> bytes;
    char buf[1 << 16];
    for (;;) {
      const ssize_t n = ::read(0, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      bytes.insert(bytes.end(), buf, buf + n);
      if (bytes.size() > kMaxFileBytes) break;  // refused by size below
    }
    result = import_memory_here(bytes, hint, name, images);
  } else {
    result = import_file_here(file, images);
  }
  const std::vector<uint8_t> stream =
      result.ok() ? write_model(*result.model, result.report, result.provenance)
                  : write_error(result.error, result.provenance);
  if (!write_all(result_fd, stream)) {
    std::fprintf(stderr, "skinview-import: cannot write the result (%s)\n", std::strerror(errno));
    return worker::kExitWriteFailed;
  }
  return 0;
}
