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
// carry on with whatever it had). Then it enters its sandbox (import/sandbox.h: Landlock,
// seccomp, rlimits), reading only the model's folder, the --read-dir folders and the libraries,
// and writes the layers in force into its result.
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <new>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "import/assimp_read.h"
#include "import/sandbox.h"
#include "import/worker_import.h"
#include "io/heap_warm.h"
#include "io/model_format.h"
#include "io/sanitizer_build.h"
#include "io/worker_protocol.h"

// Sanitizer builds by clang (scripts/test.sh's sanitizer pass): a report's stack is symbolized by
// an llvm-symbolizer child process, which the sandbox forbids (no execve): the worker died of
// SIGPIPE writing to the symbolizer it could not start, and the report (the fault, the allocation
// past the memory limit) was cut before skinview could read what happened. The worker's reports
// carry addresses instead (module+offset; `llvm-symbolizer` reads them afterwards). An
// ASAN_OPTIONS/UBSAN_OPTIONS that sets symbolize= still wins. GCC's runtime symbolizes in process
// and needs none of this.
#if defined(__clang__) && defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
extern "C" const char* __asan_default_options() { return "symbolize=0"; }
extern "C" const char* __ubsan_default_options() { return "symbolize=0"; }
#endif
#endif

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

// errno's name for the probe's line ("ok" when the call succeeded).
std::string outcome(bool ok, int err) {
  if (ok) return "ok";
  switch (err) {
    case EACCES:
      return "EACCES";
    case EPERM:
      return "EPERM";
    case ENOENT:
      return "ENOENT";
    case ESRCH:
      return "ESRCH";
    default:
      return "errno" + std::to_string(err);
  }
}

// Test-only ("sandbox-probe", worker_protocol.h): tries what the sandbox must stop, from inside
// it, and writes the outcomes as the result's error line, with the sandbox line after them:
//   inside   read <model folder>/probe-inside          (allowed)
//   outside  read <model folder>/../probe-outside      (Landlock: EACCES)
//   write    create <model folder>/probe-written       (Landlock: EACCES)
//   exec     execve of a path that does not exist      (seccomp: EPERM; else ENOENT)
//   socket   socket(AF_INET) / unix socket(AF_UNIX)    (seccomp: EPERM)
//   ptrace   PTRACE_PEEKDATA on itself, not traced     (seccomp: EPERM; else ESRCH)
void probe_sandbox(int result_fd, const std::string& model, const std::string& sandbox) {
  const std::filesystem::path dir = std::filesystem::absolute(model).parent_path();
  auto try_open = [](const std::filesystem::path& p, int flags) {
    const int fd = ::open(p.c_str(), flags | O_CLOEXEC, 0600);
    const int err = errno;
    if (fd >= 0) ::close(fd);
    return outcome(fd >= 0, err);
  };
  auto try_socket = [](int domain) {
    const int fd = ::socket(domain, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int err = errno;
    if (fd >= 0) ::close(fd);
    return outcome(fd >= 0, err);
  };
  std::string line = "probe:";
  line += " inside=" + try_open(dir / "probe-inside", O_RDONLY);
  line += " outside=" + try_open(dir.parent_path() / "probe-outside", O_RDONLY);
  line += " write=" + try_open(dir / "probe-written", O_WRONLY | O_CREAT | O_EXCL);
  char arg0[] = "skinview-probe";
  char* argv[] = {arg0, nullptr};
  ::execve("/nonexistent/skinview-probe", argv, argv + 1);
  line += " exec=" + outcome(false, errno);
  line += " socket=" + try_socket(AF_INET);
  line += " unix=" + try_socket(AF_UNIX);
  errno = 0;
  static long word = 0;
  ::ptrace(PTRACE_PEEKDATA, ::getpid(), &word, nullptr);
  line += " ptrace=" + outcome(errno == 0, errno);
  line += "; sandbox: " + sandbox;
  write_all(result_fd, write_error(line, {}));
  ::_exit(0);
}

// The test-only misbehaviour (worker_protocol.h, kFaultVariable) asked for the model `name`, or "".
std::string fault_for(const std::string& name) {
  const char* fault = std::getenv(worker::kFaultVariable);
  if (!fault) return {};
  // "FAULT:TEXT,FAULT:TEXT,...": the first item that applies to this model.
  std::string f;
  std::string list = fault;
  for (std::size_t at = 0; at <= list.size();) {
    std::size_t comma = list.find(',', at);
    if (comma == std::string::npos) comma = list.size();
    std::string item = list.substr(at, comma - at);
    at = comma + 1;
    if (const std::size_t colon = item.find(':'); colon != std::string::npos) {
      if (name.find(item.substr(colon + 1)) == std::string::npos) continue;  // another file
      item.resize(colon);
    }
    f = item;
    break;
  }
  return f;
}

// Does what fault_for asks before the file is read. Returns when there is nothing to do then,
// or after "print" ("linger" is done after the result: main).
void misbehave_if_asked(int result_fd, const std::string& f, const std::string& name,
                        const std::string& sandbox) {
  if (f == "sandbox-probe") {
    probe_sandbox(result_fd, name, sandbox);
  } else if (f == "segv") {
    ::raise(SIGSEGV);
  } else if (f == "abort") {
    std::abort();
  } else if (f == "hang") {
    // Blocked for good, as a read of a FIFO with no writer is: the parent's clock ends it either
    // way (its CPU limit is the wall-clock one plus 2 s), and a spinning loop only cost the tests
    // a core for the whole limit.
    for (;;) ::pause();
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
  } else if (f == "huge-output" || f == "huge-garbage") {
    // A 3 GiB result (sparse: no memory is touched here) whose header states that size, or
    // whose header is garbage: the parent must refuse it from its size and header alone.
    const uint64_t size = uint64_t{3} << 30;
    std::vector<uint8_t> header(kModelHeaderBytes, 0xab);
    if (f == "huge-output") {
      std::fill(header.begin(), header.end(), 0);
      std::memcpy(header.data(), kModelMagic, 8);
      const uint32_t version = kModelFormatVersion, sections = 1;
      std::memcpy(header.data() + 8, &version, 4);
      std::memcpy(header.data() + 12, &sections, 4);
      std::memcpy(header.data() + 16, &size, 8);
    }
    if (::ftruncate(result_fd, static_cast<off_t>(size)) != 0) ::_exit(worker::kExitWriteFailed);
    write_all(result_fd, header);
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

// The model's stream written into `fd` at offset 0 through a shared mapping: the file sized to
// the stream first (past RLIMIT_FSIZE that is SIGXFSZ, as a write would be). False when `fd`
// cannot be sized or mapped (nothing written, the file's size back to 0).
bool write_model_in_place(int fd, const ImportResult& result) {
  const std::size_t n = model_stream_size(*result.model, result.report, result.provenance);
  if (::ftruncate(fd, static_cast<off_t>(n)) != 0) return false;
  void* map = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    (void)!::ftruncate(fd, 0);
    return false;
  }
  const bool ok = write_model_into(std::span<uint8_t>(static_cast<uint8_t*>(map), n), *result.model,
                                   result.report, result.provenance);
  ::munmap(map, n);
  if (!ok) (void)!::ftruncate(fd, 0);
  return ok;
}

int usage(const char* why) {
  std::fprintf(stderr, "skinview-import: %s (see io/worker_protocol.h)\n", why);
  return worker::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  // Every block from the heap, and the heap never handed back: a worker lives for one file, and
  // its large buffers come and go in turn (the file, the parser's copies, assimp's arrays, the
  // model, the stream). glibc gives each block over its mmap threshold fresh pages and unmaps
  // them at free, so every buffer paid its own page faults (~12 us each on a virtual machine,
  // BENCHMARKS.md round 16b); kept in the heap, a later buffer reuses the pages an earlier one
  // freed. The address-space limit below bounds the heap as it bounded the mappings.
  keep_heap();  // io/heap_warm.h
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
  std::vector<std::string> read_dirs;
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
      images.allowed_dirs.push_back(*v);  // and readable in the sandbox (below)
      read_dirs.push_back(*v);
    } else if (a == "--read-dir" && (v = value())) {
      read_dirs.push_back(*v);
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
  // Measured before the heap grows below: what the parser may map counts from here.
  const uint64_t mapped_at_start = mapped_bytes();
  // The heap faulted in ahead of the parser, on a thread started before the sandbox forbids new
  // ones (io/heap_warm.h). The file's size only: nothing of it is read here.
  if (!from_stdin) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    if (!ec) warm_heap_ahead(heap_warm_bytes(size, 4, memory_limit));
  }
  if (memory_limit > 0) {
    const uint64_t limit = mapped_at_start + memory_limit;
    set_limit(RLIMIT_AS, limit, limit);
  }
  std::set_new_handler(out_of_memory);
  // The model's folder, as given (assimp finds side files there) and as resolved (a link's
  // target must be readable too).
  if (!from_stdin) {
    std::error_code ec;
    read_dirs.push_back(std::filesystem::absolute(file, ec).parent_path().string());
    const std::filesystem::path real = std::filesystem::canonical(file, ec);
    if (!ec) read_dirs.push_back(real.parent_path().string());
  }
  const std::string sandbox = enter_sandbox(read_dirs);
  const std::string fault = fault_for(from_stdin ? name : file);
  misbehave_if_asked(result_fd, fault, from_stdin ? name : file, sandbox);

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
  result.provenance.sandbox = sandbox;
  // A model is written in place into the result file, sized and mapped: the 1M-vertex tube's
  // 101-MB stream was built in the heap and then copied in (BENCHMARKS.md round 36). Where the
  // descriptor cannot be sized or mapped (a pipe, run by hand), or for an error line, the stream
  // is built and written.
  bool written = result.ok() && write_model_in_place(result_fd, result);
  if (!written) {
    const std::vector<uint8_t> stream =
        result.ok() ? write_model(*result.model, result.report, result.provenance)
                    : write_error(result.error, result.provenance);
    if (!write_all(result_fd, stream)) {
      std::fprintf(stderr, "skinview-import: cannot write the result (%s)\n", std::strerror(errno));
      return worker::kExitWriteFailed;
    }
  }
// Sanitizer builds exit through main's return (LeakSanitizer's check), not _exit.
#if !SV_SANITIZER_BUILD
  // io/worker_protocol.h's kDoneLine: what stdio holds first, then the line, the output closed,
  // and out without destructors (the model and the stream are the kernel's to free).
  std::fflush(nullptr);
  (void)!::write(2, worker::kDoneLine, sizeof worker::kDoneLine - 1);
  ::close(1);
  ::close(2);
  if (fault == "linger") {
    for (;;) ::pause();  // the parent must not need this process to end (tests)
  }
  ::_exit(0);
#endif
  return 0;
}
