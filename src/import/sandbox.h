// The import worker's sandbox, entered after its limits are set and before it reads a byte of the
// model, as browsers confine their renderers: whatever a hostile file makes assimp do, the
// process it runs in can read only what the import needs and can write, connect and start
// nothing.
//
// Layers, each applied when the kernel has it and skipped (and said so) when it does not:
//   landlock  the file system, read-only: the model's folder (as given and as resolved, a
//             symbolic link's target folder too), the folders the parent allows besides
//             (--read-dir, e.g. --texture-path), the shared libraries (/usr/lib, /lib, ...,
//             /etc/ld.so.cache), this process's own /proc/self and, in sanitizer builds, the
//             suppression files named in LSAN_/ASAN_/UBSAN_OPTIONS. Nothing may be written,
//             created, removed, renamed, truncated or executed anywhere (descriptors opened
//             before, the result memory file and the output pipe, keep working). From Landlock
//             ABI 4 TCP bind/connect are denied too, from ABI 6 signals to and abstract Unix
//             sockets of processes outside the sandbox. The ABI version the kernel offers is
//             asked first (landlock_create_ruleset(..., LANDLOCK_CREATE_RULESET_VERSION)) and
//             only the rights it knows are handled.
//   seccomp   a libseccomp filter that fails (EPERM) socket and socketpair (no network, no Unix
//             sockets), execve and execveat, ptrace, process_vm_readv/writev and io_uring_setup
//             (io_uring can open sockets and files past the filter); every other call is allowed.
//             Sanitizer builds allow ptrace: LeakSanitizer stops the process's threads with it at
//             exit.
//   rlimits   RLIMIT_NPROC 0 (no new process or thread; the kernel does not enforce it for root)
//             and RLIMIT_NOFILE kMaxOpenFiles. (The address-space, CPU, file-size and core limits
//             are set before, by worker_main.cpp.) Sanitizer builds leave NPROC alone for the
//             same LeakSanitizer thread.
// no_new_privs is set first (both Landlock and seccomp need it; no set-uid program can gain
// privileges from this process either).
//
// SKINVIEW_NO_SANDBOX=1 in the worker's environment (skinview passes its own) turns all three
// off, for debugging an import under strace or gdb; the report then says "off".
#pragma once

#include <string>
#include <vector>

namespace sv {

inline constexpr const char* kNoSandboxVariable = "SKINVIEW_NO_SANDBOX";
inline constexpr int kMaxOpenFiles = 64;

// Enters the sandbox, allowing reads below each of `read_dirs` (missing ones are skipped) besides
// the libraries. Returns the line for the import report: the layers in force, e.g. "landlock v7,
// seccomp, rlimits", or what is missing ("no landlock (not in this kernel), seccomp, rlimits"), or
// "off (SKINVIEW_NO_SANDBOX)". Never fails: a layer that cannot be applied is named, not fatal.
std::string enter_sandbox(const std::vector<std::string>& read_dirs);

}  // namespace sv
