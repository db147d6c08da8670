// What skinview (io/import_process.cpp) and the import worker (import/worker_main.cpp) agree on:
// the worker's command line, the descriptor it writes its model to, and its exit statuses.
//
//   skinview-import [--result-fd N] [--memory-limit BYTES] [--cpu-limit SECONDS]
//                   [--parent PID] [--read-dir DIR]... [--texture-path DIR]...
//                   (--file PATH | --stdin HINT NAME)
//
// --read-dir: a folder the worker's sandbox lets it read besides the model's own (repeatable;
// import/sandbox.h).
// --texture-path: a folder (besides the model's) whose tree textures may be read from
// (repeatable; import/images.h); the sandbox lets the worker read it too.
//   skinview-import --extensions     the extensions assimp reads, one per line, lower case
//   skinview-import --version        the assimp version the worker runs ("assimp 5.2.4")
//
// Run by hand, `skinview-import --result-fd 1 --file MODEL > model.svm` writes the flat binary
// model (io/model_format.h) to a file.
#pragma once

namespace sv::worker {

// The descriptor the parent hands the worker for its result (an anonymous memory file).
inline constexpr int kResultFd = 3;

// The worker's last output after its whole result is written (a model or an error line): it then
// closes its output and exits 0 at once, running no more code. The parent takes the result when it
// reads this line followed by the end of the output, without waiting for the kernel to tear the
// process down (unmapping a 1M-vertex model's ~360 MB took 30-55 ms here, BENCHMARKS.md round 36),
// and reaps it later (reap_finished_workers). Sanitizer builds do not say it: they exit normally,
// so LeakSanitizer runs and its verdict is the exit status. The result is checked in full either
// way (io/model_format.h): the line only saves the wait.
inline constexpr const char kDoneLine[] = "skinview-import: result written\n";

// Exit statuses besides 0 (a result was written: a model, or an error line).
inline constexpr int kExitOutOfMemory = 3;   // an allocation failed past the memory limit
inline constexpr int kExitUsage = 64;        // bad command line (a bug in the parent)
inline constexpr int kExitWriteFailed = 74;  // the result could not be written

// Test-only: with this variable in its environment the worker misbehaves on purpose before it
// reads the file, so tests can check that the parent contains each failure: "segv" (raises
// SIGSEGV), "abort", "hang" (blocks forever), "alloc" (allocates and touches memory until the
// limit stops it), "garbage" (writes a malformed model), "exit" (exits with status 7), "print"
// (prints 200 KiB to stdout and stderr, then imports normally), "linger" (imports normally, says
// kDoneLine, closes its output, then stays alive instead of exiting; not in sanitizer builds),
// "huge-output" (a sparse 3 GiB result with a header that states that size), "huge-garbage" (the
// same with a garbage header), "sandbox-probe" (tries, from inside the sandbox, to read outside the
// model's folder, write, exec, open sockets and ptrace, and writes what happened as its error line:
// worker_main.cpp). "FAULT:TEXT" misbehaves only for a model whose path (or label) contains TEXT: a
// window can open a good file, then a bad one. Items separated by commas ("segv:crash,hang:hang")
// each apply to their own files; the first that applies wins (`skinview check` meets a crashing and
// a hanging file in one run).
inline constexpr const char* kFaultVariable = "SKINVIEW_IMPORT_FAULT";

}  // namespace sv::worker
