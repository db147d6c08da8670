// Shared by the suites that check how skinview contains a failing import worker: the worker made
// to misbehave on purpose (io/worker_protocol.h, kFaultVariable) for the life of a scope, and a
// count of this process's live child processes (none may be left behind).
#pragma once

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "io/worker_protocol.h"

namespace sv::test {

// Sets SKINVIEW_IMPORT_FAULT=`fault` for workers started while it lives (the variable reaches
// them through the environment), and removes it after.
class WorkerFault {
 public:
  explicit WorkerFault(const char* fault) { ::setenv(worker::kFaultVariable, fault, 1); }
  ~WorkerFault() { ::unsetenv(worker::kFaultVariable); }
  WorkerFault(const WorkerFault&) = delete;
  WorkerFault& operator=(const WorkerFault&) = delete;
};

// Child processes of this process that still exist (running or not yet reaped), from
// /proc/self/task/*/children.
// Sends `sig` to every child process of this one (their pids from /proc/self/task/*/children).
inline void signal_children(int sig) {
  DIR* tasks = ::opendir("/proc/self/task");
  if (!tasks) return;
  while (dirent* e = ::readdir(tasks)) {
    if (e->d_name[0] == '.') continue;
    std::ifstream children(std::string("/proc/self/task/") + e->d_name + "/children");
    for (long pid = 0; children >> pid;) ::kill(static_cast<pid_t>(pid), sig);
  }
  ::closedir(tasks);
}

inline int child_process_count() {
  int count = 0;
  DIR* tasks = ::opendir("/proc/self/task");
  if (!tasks) return -1;
  while (dirent* e = ::readdir(tasks)) {
    if (e->d_name[0] == '.') continue;
    std::ifstream children(std::string("/proc/self/task/") + e->d_name + "/children");
    for (std::string pid; children >> pid;) ++count;
  }
  ::closedir(tasks);
  return count;
}

}  // namespace sv::test
