#include "import/sandbox.h"

#include <fcntl.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "io/sanitizer_build.h"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_add_rule
#define SYS_landlock_add_rule 445
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif

namespace sv {
namespace {

// Landlock's ABI, spelled out here rather than taken from <linux/landlock.h>: the build machine's
// kernel headers may be older than the kernel the worker runs on (Debian 12's know ABI 2), and
// these numbers are fixed by the kernel's ABI.
constexpr uint32_t kCreateRulesetVersion = 1u << 0;
constexpr uint32_t kRulePathBeneath = 1;
constexpr uint64_t kFsReadFile = 1ull << 2;
constexpr uint64_t kFsReadDir = 1ull << 3;
constexpr uint64_t kFsAbi1 = (1ull << 13) - 1;      // EXECUTE .. MAKE_SYM
constexpr uint64_t kFsRefer = 1ull << 13;           // ABI 2
constexpr uint64_t kFsTruncate = 1ull << 14;        // ABI 3
constexpr uint64_t kFsIoctlDev = 1ull << 15;        // ABI 5
constexpr uint64_t kNetBindTcp = 1ull << 0;         // ABI 4
constexpr uint64_t kNetConnectTcp = 1ull << 1;      // ABI 4
constexpr uint64_t kScopeAbstractUnix = 1ull << 0;  // ABI 6
constexpr uint64_t kScopeSignal = 1ull << 1;        // ABI 6

struct RulesetAttr {
  uint64_t handled_access_fs = 0;
  uint64_t handled_access_net = 0;  // ABI 4
  uint64_t scoped = 0;              // ABI 6
};

struct __attribute__((packed)) PathBeneathAttr {
  uint64_t allowed_access = 0;
  int32_t parent_fd = -1;
};

// What the worker may read besides the model: the dynamic loader's cache and the libraries (a
// late dlopen, glibc's gconv modules), and its own /proc entry (sanitizers read /proc/self/maps).
constexpr const char* kSystemReadPaths[] = {
    "/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib", "/etc/ld.so.cache", "/proc/self"};

std::string landlock(const std::vector<std::string>& read_dirs) {
  const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
  if (abi < 0) {
    if (errno == ENOSYS) return "no landlock (not in this kernel)";
    if (errno == EOPNOTSUPP) return "no landlock (turned off in this kernel)";
    return std::string("no landlock (") + std::strerror(errno) + ")";
  }
  RulesetAttr attr;
  attr.handled_access_fs = kFsAbi1;
  if (abi >= 2) attr.handled_access_fs |= kFsRefer;
  if (abi >= 3) attr.handled_access_fs |= kFsTruncate;
  if (abi >= 5) attr.handled_access_fs |= kFsIoctlDev;
  if (abi >= 4) attr.handled_access_net = kNetBindTcp | kNetConnectTcp;
  if (abi >= 6) attr.scoped = kScopeAbstractUnix | kScopeSignal;
  const int ruleset =
      static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0u));
  if (ruleset < 0) return std::string("no landlock (refused: ") + std::strerror(errno) + ")";
  auto allow = [&](const std::string& path) {
    PathBeneathAttr rule;
    rule.parent_fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
    if (rule.parent_fd < 0) return;  // missing: nothing to allow
    // A file takes only the rights that apply to files.
    rule.allowed_access = kFsReadFile | kFsReadDir;
    if (::syscall(SYS_landlock_add_rule, ruleset, kRulePathBeneath, &rule, 0u) != 0 &&
        errno == EINVAL) {
      rule.allowed_access = kFsReadFile;
      ::syscall(SYS_landlock_add_rule, ruleset, kRulePathBeneath, &rule, 0u);
    }
    ::close(rule.parent_fd);
  };
  for (const char* p : kSystemReadPaths) allow(p);
  // Sanitizer builds: the suppression files the sanitizers read lazily, at the first report (a
  // leak in libassimp found at exit), after the sandbox is up.
  if (SV_SANITIZER_BUILD) {
    for (const char* var : {"LSAN_OPTIONS", "ASAN_OPTIONS", "UBSAN_OPTIONS"}) {
      const char* v = std::getenv(var);
      const std::string options = v != nullptr ? v : "";
      for (std::size_t at = options.find("suppressions="); at != std::string::npos;
           at = options.find("suppressions=", at + 1)) {
        const std::size_t from = at + 13;
        allow(options.substr(from, options.find_first_of(": ", from) - from));
      }
    }
  }
  for (const std::string& d : read_dirs)
    if (!d.empty()) allow(d);
  const long rc = ::syscall(SYS_landlock_restrict_self, ruleset, 0u);
  const int err = errno;
  ::close(ruleset);
  if (rc != 0) return std::string("no landlock (refused: ") + std::strerror(err) + ")";
  return "landlock v" + std::to_string(abi);
}

std::string seccomp() {
  scmp_filter_ctx ctx = ::seccomp_init(SCMP_ACT_ALLOW);
  if (ctx == nullptr) return "no seccomp (unavailable)";
  std::vector<int> denied = {SCMP_SYS(socket),           SCMP_SYS(socketpair),
                             SCMP_SYS(execve),           SCMP_SYS(execveat),
                             SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev),
                             SCMP_SYS(io_uring_setup)};
  if (!SV_SANITIZER_BUILD) denied.push_back(SCMP_SYS(ptrace));
  int rc = 0;
  for (int call : denied) {
    // A call this architecture lacks (__NR_SCMP_ERROR or a pseudo number) is skipped.
    if (call < 0) continue;
    rc = ::seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), call, 0);
    if (rc != 0) break;
  }
  if (rc == 0) rc = ::seccomp_load(ctx);
  ::seccomp_release(ctx);
  if (rc != 0) return std::string("no seccomp (refused: ") + std::strerror(-rc) + ")";
  return SV_SANITIZER_BUILD ? "seccomp (ptrace allowed: sanitizer build)" : "seccomp";
}

std::string rlimits() {
  auto lower = [](int resource, rlim_t value) {
    rlimit r{};
    if (::getrlimit(resource, &r) != 0) return false;
    r.rlim_cur = std::min(r.rlim_cur, value);
    r.rlim_max = std::min(r.rlim_max, value);
    return ::setrlimit(resource, &r) == 0;
  };
  bool ok = lower(RLIMIT_NOFILE, kMaxOpenFiles);
  std::string note;
  if (!SV_SANITIZER_BUILD) {
    ok = lower(RLIMIT_NPROC, 0) && ok;
    if (::geteuid() == 0) note = " (NPROC not enforced for root)";
  } else {
    note = " (NPROC not set: sanitizer build)";
  }
  return ok ? "rlimits" + note : "no rlimits (refused)";
}

}  // namespace

std::string enter_sandbox(const std::vector<std::string>& read_dirs) {
  const char* off = std::getenv(kNoSandboxVariable);
  if (off != nullptr && off[0] != '\0' && std::strcmp(off, "0") != 0)
    return std::string("off (") + kNoSandboxVariable + ")";
  ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  // Landlock first: it opens the allowed folders, which the seccomp filter would not stop, but
  // the order keeps each layer independent of the other's success.
  const std::string fs = landlock(read_dirs);
  const std::string calls = seccomp();
  const std::string limits = rlimits();
  return fs + ", " + calls + ", " + limits;
}

}  // namespace sv
