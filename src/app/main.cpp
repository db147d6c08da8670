// skinview's entry point: parse the command line, run the chosen mode. With no mode flag the
// model is described as with --info (the viewer window will take over this path).
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>

#include "app/cli.h"
#include "app/viewer.h"

// A ceiling on any single allocation: half the machine's physical memory. assimp's readers size
// arrays by counts read from the file (a corrupt X or FBX file asks for tens of gigabytes); on a
// machine with enough overcommit the allocation would succeed and its zero-filling would drive
// the machine into swap or the OOM killer. Above the ceiling operator new throws
// std::bad_alloc instead, which assimp turns into a failed read and skinview into a one-line
// error. Replaces the global operator new for the whole program (libassimp included); the
// sanitizer builds keep their own allocator, which has its own limits.
#if defined(__SANITIZE_ADDRESS__)
#define SV_ALLOCATION_CEILING 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SV_ALLOCATION_CEILING 0
#endif
#endif
#ifndef SV_ALLOCATION_CEILING
#define SV_ALLOCATION_CEILING 1
#endif
#if SV_ALLOCATION_CEILING
namespace {
std::size_t allocation_ceiling() noexcept {
  static std::atomic<std::size_t> ceiling{0};
  std::size_t c = ceiling.load(std::memory_order_relaxed);
  if (c == 0) {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
    c = pages > 0 && page > 0 ? static_cast<std::size_t>(pages) / 2 * static_cast<std::size_t>(page)
                              : std::size_t{1} << 34;
    ceiling.store(c, std::memory_order_relaxed);
  }
  return c;
}
}  // namespace

void* operator new(std::size_t size) {
  if (size > allocation_ceiling()) throw std::bad_alloc();
  for (;;) {
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}
#endif

int main(int argc, char** argv) {
  try {
    CLI::App app{"skinview"};
    sv::Options options;
    sv::add_core_options(app, options);
    sv::ViewerOptions viewer;
    sv::add_viewer_options(app, viewer);
    if (int status = sv::parse_command_line(app, argc, argv); status >= 0) return status;
    if (options.dump) return sv::run_dump(options);
    if (options.info) return sv::run_info(options);
    if (!viewer.screenshot.empty()) return sv::run_screenshot(options, viewer);
    if (viewer.bench_frames > 0) return sv::run_bench_frames(options, viewer);
    if (viewer.soak > 0) return sv::run_soak(options, viewer);
    if (!viewer.more_models.empty()) {
      std::cerr << "skinview: " << viewer.more_models.front()
                << ": only --soak takes more than one model file\n";
      return sv::kExitBadInput;
    }
    return sv::run_viewer(options, viewer);
  } catch (const std::exception& e) {
    std::cerr << "skinview: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "skinview: unexpected error\n";
  }
  return sv::kExitBadInput;
}
