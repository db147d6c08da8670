#include "io/import_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <span>
#include <string_view>
#include <thread>
#include <vector>

#include "io/model_format.h"
#include "io/worker_protocol.h"

extern char** environ;

namespace sv {
namespace {

// The most of the child's output kept (the end of it: error messages come last).
constexpr std::size_t kOutputTail = 8192;
// The longest quote of that output an error line or a report note carries.
constexpr std::size_t kOutputQuote = 240;

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

std::string mib_text(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// A descriptor moved above the ones the child's file actions write (0-3), keeping CLOEXEC, so
// that dup2 onto 0-3 always makes a copy without CLOEXEC (dup2 of a descriptor onto itself
// would keep the flag and the child would lose it at exec).
int high_fd(int fd) {
  if (fd < 0 || fd > 9) return fd;
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
  ::close(fd);
  return moved;
}

// Every control character made a space, and at most kOutputQuote bytes (cut at a UTF-8
// boundary, "..." added).
std::string quote_line(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  std::size_t start = 0;
  while (start < s.size() && s[start] == ' ') ++start;
  s.erase(0, start);
  if (s.size() > kOutputQuote) {
    std::size_t cut = kOutputQuote;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xc0) == 0x80) --cut;
    s.resize(cut);
    s += "...";
  }
  return s;
}

// The child's most telling output line: the first that reports an error (sanitizers and most
// libraries say "ERROR" or "error"), else the last non-empty one.
std::string telling_line(const std::string& output) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < output.size()) {
    std::size_t end = output.find('\n', at);
    if (end == std::string::npos) end = output.size();
    std::string line = quote_line(output.substr(at, end - at));
    if (!line.empty()) lines.push_back(std::move(line));
    at = end + 1;
  }
  if (lines.empty()) return {};
  for (const std::string& l : lines)
    if (l.find("ERROR") != std::string::npos || l.find("error") != std::string::npos) return l;
  return lines.back();
}

// What a sanitizer's allocator prints when it gives up (the sanitizer builds' operator new does
// not throw std::bad_alloc: it reports and exits).
bool sanitizer_out_of_memory(const std::string& output) {
  if (output.find("Sanitizer") == std::string::npos) return false;
  for (const char* what : {"out of memory", "allocation-size-too-big", "failed to allocate",
                           "exceeds maximum supported size", "rss-limit-exceeded"})
    if (output.find(what) != std::string::npos) return true;
  return false;
}

// A sanitizer build's worker does not die of a fault's signal: the sanitizer reports it and exits
// with status 1. The kind of fault it reported ("SIGSEGV", "AddressSanitizer:
// heap-buffer-overflow", ...), or "" when the output holds no such report.
std::string sanitizer_fault(const std::string& output) {
  std::size_t at = output.find("ERROR: ");
  while (at != std::string::npos) {
    const std::size_t name = at + 7;
    const std::size_t colon = output.find("Sanitizer: ", name);
    const std::size_t eol = output.find('\n', name);
    if (colon != std::string::npos && colon < eol) {
      const std::size_t kind = colon + 11;
      std::size_t end = kind;
      while (end < output.size() && output[end] != ' ' && output[end] != '\n') ++end;
      const std::string word = output.substr(kind, end - kind);
      for (const char* sig : {"SEGV", "BUS", "FPE", "ILL", "ABRT"})
        if (word == sig) return std::string("SIG") + sig;
      return output.substr(name, colon + 9 - name) + ": " + word;
    }
    at = output.find("ERROR: ", name);
  }
  if (output.find("runtime error:") != std::string::npos)
    return "UndefinedBehaviorSanitizer: runtime error";
  return {};
}

std::string signal_name(int sig) {
  if (const char* abbrev = ::sigabbrev_np(sig)) return std::string("SIG") + abbrev;
  return "signal " + std::to_string(sig);
}

bool pread_full(int fd, uint8_t* out, std::size_t n, uint64_t offset) {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::pread(fd, out + got, n - got, static_cast<off_t>(offset + got));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    got += static_cast<std::size_t>(r);
  }
  return true;
}

// The worker's output as read_model takes it: its bytes, and what keeps them alive and unchanged
// (the model's mesh streams borrow from them: anim/stream.h).
struct Output {
  std::span<const uint8_t> bytes;
  std::shared_ptr<const void> keep;
};

// The worker's output, read in two steps: its size (fstat) against `max` and its header against
// that size, and only then the body. A worker that wrote a huge or a garbage header is refused
// with nothing of the body read or allocated. nullopt with `why` set on a refusal.
// The memory file is sealed first (no write, no resize, from anyone: the worker is gone, but a
// process it left behind could still hold the file), then mapped and read in place: nothing of
// it is copied. Where it cannot be sealed (a writable mapping of it survives somewhere) its bytes
// are copied out once, as before.
std::optional<Output> read_result(int fd, uint64_t max, const std::string& limit_name,
                                  std::string* why) {
  const bool sealed =
      ::fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) == 0;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size < 0) {
    *why = std::string("cannot read the importer's output (") + std::strerror(errno) + "); refused";
    return std::nullopt;
  }
  const auto size = static_cast<uint64_t>(st.st_size);
  if (size > max) {
    *why = "the importer's output is " + std::to_string(size) + " bytes, more than " + limit_name +
           "; refused unread";
    return std::nullopt;
  }
  std::vector<uint8_t> bytes(static_cast<std::size_t>(std::min<uint64_t>(size, kModelHeaderBytes)));
  if (!pread_full(fd, bytes.data(), bytes.size(), 0)) {
    *why = "cannot read the importer's output; refused";
    return std::nullopt;
  }
  if (std::string e = check_model_header(bytes, size); !e.empty()) {
    *why = "the importer's output is malformed (" + e + "); refused unread";
    return std::nullopt;
  }
  if (sealed) {
    // MAP_POPULATE: every page is read at once below; one call fills the page table.
    const auto n = static_cast<std::size_t>(size);
    void* m = ::mmap(nullptr, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (m != MAP_FAILED) {
      std::shared_ptr<const void> keep(m,
                                       [n](const void* p) { ::munmap(const_cast<void*>(p), n); });
      return Output{{static_cast<const uint8_t*>(m), n}, std::move(keep)};
    }
  }
  bytes.resize(static_cast<std::size_t>(size));
  if (!pread_full(fd, bytes.data() + kModelHeaderBytes, bytes.size() - kModelHeaderBytes,
                  kModelHeaderBytes)) {
    *why = "cannot read the importer's output; refused";
    return std::nullopt;
  }
  auto copy = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
  return Output{*copy, copy};
}

}  // namespace

std::vector<std::string> worker_places(const std::string& self) {
  const std::filesystem::path dir = std::filesystem::path(self).parent_path();
  std::vector<std::string> places{(dir / "skinview-import").string()};
#ifdef SKINVIEW_IMPORT_WORKER_RELATIVE
  places.push_back(
      (dir / SKINVIEW_IMPORT_WORKER_RELATIVE / "skinview-import").lexically_normal().string());
#endif
  return places;
}

std::string worker_path() {
  auto usable = [](const std::string& p) { return !p.empty() && ::access(p.c_str(), X_OK) == 0; };
  if (const char* env = std::getenv("SKINVIEW_IMPORT_WORKER"); env && usable(env)) return env;
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (const std::string& place : worker_places(self.string()))
      if (usable(place)) return place;
  }
#ifdef SKINVIEW_IMPORT_WORKER_BUILD_PATH
  if (usable(SKINVIEW_IMPORT_WORKER_BUILD_PATH)) return SKINVIEW_IMPORT_WORKER_BUILD_PATH;
#endif
  return {};
}

namespace {

// Workers that said they were done and may still be exiting (ImportProcess::poll).
std::mutex g_exiting_mutex;
std::vector<pid_t> g_exiting;

// How long a worker that said it was done may take to end before reap_finished_workers kills it
// (it runs no code after the line: this bounds only a worker that lied).
constexpr auto kExitingBound = std::chrono::seconds(2);

// Reaps the workers that have ended; with `bound`, waits for the others (killing any still there
// after kExitingBound) and reaps them too.
void reap_exiting(bool bound) {
  const std::lock_guard<std::mutex> lock(g_exiting_mutex);
  const auto deadline = std::chrono::steady_clock::now() + kExitingBound;
  std::erase_if(g_exiting, [&](pid_t pid) {
    int status = 0;
    for (int sleep_us = 100;;) {
      const pid_t r = ::waitpid(pid, &status, WNOHANG);
      if (r < 0 && errno == EINTR) continue;
      if (r != 0) return true;  // reaped, or not ours any more (ECHILD): either way done with
      if (!bound) return false;
      if (std::chrono::steady_clock::now() >= deadline) {
        ::kill(pid, SIGKILL);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        return true;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
      sleep_us = std::min(sleep_us * 2, 20000);
    }
  });
}

}  // namespace

void reap_finished_workers() { reap_exiting(true); }

ImportProcess::~ImportProcess() { cancel(); }

double ImportProcess::elapsed_seconds() const {
  if (!running()) return 0.0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

std::string ImportProcess::start(const std::string& path, const ImportOptions& options) {
  cancel();
  name_ = path;
  options_ = options;
  const int input = high_fd(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  std::string error = spawn(input, {"--file", path});
  if (input >= 0) ::close(input);
  return error;
}

std::string ImportProcess::start_from_memory(std::span<const uint8_t> bytes,
                                             const std::string& hint, const std::string& name,
                                             const ImportOptions& options) {
  cancel();
  name_ = name;
  options_ = options;
  // The bytes reach the child's stdin as a memory file: no pipe to keep fed, no deadlock.
  const int input = high_fd(::memfd_create("skinview-import-input", MFD_CLOEXEC));
  auto failed = [&] {
    const std::string e =
        name + ": cannot hand the bytes to the importer (" + std::strerror(errno) + ")";
    if (input >= 0) ::close(input);
    return e;
  };
  if (input < 0) return failed();
  std::size_t put = 0;
  while (put < bytes.size()) {
    const ssize_t n = ::write(input, bytes.data() + put, bytes.size() - put);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return failed();
    put += static_cast<std::size_t>(n);
  }
  if (::lseek(input, 0, SEEK_SET) != 0) return failed();
  std::string error = spawn(input, {"--stdin", hint, name});
  ::close(input);
  return error;
}

std::string ImportProcess::spawn(int stdin_fd, std::vector<std::string> what) {
  reap_exiting(false);  // earlier workers that have finished exiting
  const std::string worker = worker_path();
  if (worker.empty())
    return name_ + ": the import worker (skinview-import) was not found beside skinview";
  if (stdin_fd < 0) return name_ + ": cannot open /dev/null (" + std::strerror(errno) + ")";
  memory_limit_ =
      options_.memory_limit_bytes > 0 ? options_.memory_limit_bytes : default_import_memory_limit();
  int pipe_fds[2] = {-1, -1};
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0)
    return name_ + ": cannot start the importer (" + std::strerror(errno) + ")";
  output_fd_ = high_fd(pipe_fds[0]);
  const int output_write = high_fd(pipe_fds[1]);
  model_fd_ = high_fd(::memfd_create("skinview-model", MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (output_fd_ < 0 || output_write < 0 || model_fd_ < 0) {
    const std::string e = name_ + ": cannot start the importer (" + std::strerror(errno) + ")";
    if (output_write >= 0) ::close(output_write);
    close_fds();
    return e;
  }
  ::fcntl(output_fd_, F_SETFL, ::fcntl(output_fd_, F_GETFL) | O_NONBLOCK);

  // The CPU limit: a little above the wall-clock one, so it only acts if this side cannot (the
  // child keeps the limit if this process is stopped or gone).
  const double limit = options_.time_limit_s;
  const long cpu = limit > 0 && std::isfinite(limit) && limit < 1e7
                       ? static_cast<long>(std::ceil(limit)) + 2
                       : 0;
  std::vector<std::string> args = {worker,
                                   "--result-fd",
                                   std::to_string(worker::kResultFd),
                                   "--memory-limit",
                                   std::to_string(memory_limit_),
                                   "--cpu-limit",
                                   std::to_string(cpu),
                                   "--parent",
                                   std::to_string(::getpid())};
  for (const std::string& dir : options_.texture_paths) {
    args.push_back("--texture-path");
    args.push_back(dir);
  }
  for (const std::string& dir : options_.read_dirs) {
    args.push_back("--read-dir");
    args.push_back(dir);
  }
  args.insert(args.end(), what.begin(), what.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0);
  posix_spawn_file_actions_adddup2(&actions, output_write, 1);
  posix_spawn_file_actions_adddup2(&actions, output_write, 2);
  posix_spawn_file_actions_adddup2(&actions, model_fd_, worker::kResultFd);
  // Nothing else of this process (GL, X11, files) reaches the child.
  posix_spawn_file_actions_addclosefrom_np(&actions, worker::kResultFd + 1);
  // Default signal handling and an empty mask in the child, whatever this process set.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  // The parent's environment as it is. Not glibc's huge pages for malloc
  // (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, rounds 17 and 20b of BENCHMARKS.md): a fresh process
  // gets free huge pages the host has taken back after a few idle seconds, whose first touch costs
  // several times what 4-KiB pages cost; only back-to-back imports reuse warm ones.
  const int rc = ::posix_spawn(&pid, worker.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(output_write);
  if (rc != 0) {
    close_fds();
    return name_ + ": cannot start the importer " + worker + " (" + std::strerror(rc) + ")";
  }
  pid_ = pid;
  output_eof_ = false;
  output_tail_.clear();
  started_ = std::chrono::steady_clock::now();
  return {};
}

void ImportProcess::drain_output() {
  if (output_fd_ < 0 || output_eof_) return;
  char buf[16384];
  for (;;) {
    const ssize_t n = ::read(output_fd_, buf, sizeof buf);
    if (n > 0) {
      output_tail_.append(buf, static_cast<std::size_t>(n));
      if (output_tail_.size() > 2 * kOutputTail)
        output_tail_.erase(0, output_tail_.size() - kOutputTail);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) output_eof_ = true;
    return;  // EOF, EAGAIN or an error: nothing more now
  }
}

std::optional<ImportResult> ImportProcess::poll() {
  if (!running()) return std::nullopt;
  drain_output();
  int status = 0;
  pid_t done = ::waitpid(pid_, &status, WNOHANG);
  constexpr std::string_view kDone = worker::kDoneLine;
  if (done == 0 && output_eof_ && output_tail_.ends_with(kDone)) {
    // The worker wrote its whole result, said so, closed its output and is exiting: taken now,
    // as an exit status of 0, while the kernel tears the process down (worker_protocol.h).
    // Its result is read and checked as any other.
    output_tail_.resize(output_tail_.size() - kDone.size());
    {
      const std::lock_guard<std::mutex> lock(g_exiting_mutex);
      g_exiting.push_back(pid_);
    }
    // Reaped before this process ends too, so its CPU time counts in this process's children's
    // (getrusage, time(1), farm-bench) and no process is left behind.
    static const bool at_exit = std::atexit([] { reap_finished_workers(); }) == 0;
    (void)at_exit;
    pid_ = -1;
    ImportResult r = finish(0);
    close_fds();
    return r;
  }
  if (done == 0) {
    const double limit = options_.time_limit_s;
    if (!(limit > 0) || elapsed_seconds() < limit) return std::nullopt;
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    close_fds();
    ImportResult r;
    r.error = name_ + ": gave up after " + seconds_text(limit) + " s (--time-limit)";
    return r;
  }
  if (done < 0 && errno == EINTR) return std::nullopt;
  pid_ = -1;
  if (done < 0) {  // reaped by someone else (a SIGCHLD handler set to ignore): status unknown
    close_fds();
    ImportResult r;
    r.error = name_ + ": lost track of the importer process; refused";
    return r;
  }
  drain_output();
  // A worker that was gone before its line was seen: the line is not the child's output.
  if (output_tail_.ends_with(kDone)) output_tail_.resize(output_tail_.size() - kDone.size());
  ImportResult r = finish(status);
  close_fds();
  return r;
}

ImportResult ImportProcess::wait() {
  int idle_us = 50;
  for (;;) {
    if (std::optional<ImportResult> r = poll()) return std::move(*r);
    if (!running()) return ImportResult{};  // unreachable: poll() gives a result when it stops
    if (!output_eof_) {
      // Output or its end (the child closing its descriptors as it exits) wakes this up.
      pollfd p{output_fd_, POLLIN, 0};
      ::poll(&p, 1, 20);
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(idle_us));
      idle_us = std::min(idle_us * 2, 10000);
    }
  }
}

void ImportProcess::cancel() {
  if (running()) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  close_fds();
}

void ImportProcess::close_fds() {
  if (output_fd_ >= 0) ::close(output_fd_);
  if (model_fd_ >= 0) ::close(model_fd_);
  output_fd_ = model_fd_ = -1;
}

ImportResult ImportProcess::finish(int status) {
  ImportResult r;
  const std::string said = telling_line(output_tail_);
  const std::string quote = said.empty() ? std::string() : " (importer output: " + said + ")";
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const double ran =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (sig == SIGXCPU ||
        (sig == SIGKILL && options_.time_limit_s > 0 && ran >= options_.time_limit_s)) {
      r.error = name_ + ": gave up after " + seconds_text(options_.time_limit_s) +
                " s of CPU time (--time-limit)";
    } else if (sig == SIGXFSZ) {
      r.error = name_ + ": the importer's output passed " + mib_text(kMaxModelBytes) + "; refused";
    } else {
      r.error =
          name_ + ": the importer crashed (" + signal_name(sig) + ") reading it; refused" + quote;
    }
    return r;
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == worker::kExitOutOfMemory || (code != 0 && sanitizer_out_of_memory(output_tail_))) {
    r.error = name_ + ": the importer ran out of memory (limit " + mib_text(memory_limit_) +
              ") reading it; refused";
    return r;
  }
  if (code != 0) {
    const std::string fault = sanitizer_fault(output_tail_);
    r.error = name_ +
              (fault.empty() ? ": the importer failed (exit status " + std::to_string(code) + ")"
                             : ": the importer crashed (" + fault + ")") +
              " reading it; refused" + quote;
    return r;
  }
  // A stream larger than the worker's own memory limit cannot be one it built in memory
  // (write_model holds the whole stream): that limit bounds what is read, as the format's does.
  std::string why;
  const bool by_memory = memory_limit_ < kMaxModelBytes;
  std::optional<Output> output = read_result(
      model_fd_, by_memory ? memory_limit_ : kMaxModelBytes,
      by_memory ? "the memory limit of " + mib_text(memory_limit_) : "the format's limit", &why);
  if (!output) {
    r.error = name_ + ": " + why;
    return r;
  }
  r = read_model(output->bytes, name_, nullptr, output->keep);
  if (r.ok() && !said.empty()) r.report.notes.push_back("The importer printed: " + said);
  if (r.ok() && options_.keep_stream)
    r.stream = Stream<uint8_t>::borrow(output->bytes, output->keep);
  return r;
}

uint64_t default_import_memory_limit() noexcept {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  const uint64_t physical = pages > 0 && page > 0
                                ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page)
                                : uint64_t{8} << 30;
  return std::clamp<uint64_t>(physical / 2, uint64_t{1} << 30, uint64_t{4} << 30);
}

}  // namespace sv
