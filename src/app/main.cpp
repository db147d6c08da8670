// skinview's entry point: parse the command line, run the chosen mode. With no mode flag the
// model is described as with --info (the viewer window will take over this path).
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "app/check.h"
#include "app/cli.h"
#include "app/compare.h"
#include "app/export_pose.h"
#include "app/record.h"
#include "app/viewer.h"
#include "io/import_cache.h"

namespace {

int run(int argc, char** argv) {
  try {
    // `skinview check ...` has a command line of its own (app/check.h); a model file named
    // "check" opens as ./check.
    if (argc >= 2 && std::string_view(argv[1]) == "check") return sv::run_check(argc - 1, argv + 1);
    CLI::App app{"skinview"};
    sv::Options options;
    sv::add_core_options(app, options);
    sv::ViewerOptions viewer;
    sv::add_viewer_options(app, viewer);
    sv::RecordOptions record;
    sv::add_record_options(app, record);
    if (int status = sv::parse_command_line(app, argc, argv); status >= 0) return status;
    if (!options.thumbnail.empty()) {
      if (std::string e = sv::thumbnail_request(&options, &viewer); !e.empty()) {
        std::cerr << "skinview: " << e << '\n';
        return sv::kExitBadInput;
      }
      if (record.any_given() || record.active()) {
        std::cerr
            << "skinview: --thumbnail writes one picture (no --record, --video or their options)\n";
        return sv::kExitBadInput;
      }
    }
    if (!record.active() && record.any_given()) {
      std::cerr
          << "skinview: --fps, --from, --to, --orbit and --loops are for --record and --video\n";
      return sv::kExitBadInput;
    }
    if (!options.compare.empty() && viewer.screenshot.empty() && !record.active())
      return sv::run_compare(options);
    if (record.active()) return sv::run_record(options, viewer, record);
    if (!options.export_pose.empty()) return sv::run_export_pose(options, viewer.up);
    if (options.dump) return sv::run_dump(options);
    if (options.info) return sv::run_info(options);
    if (!viewer.screenshot.empty()) return sv::run_screenshot(options, viewer);
    if (viewer.bench_frames > 0) return sv::run_bench_frames(options, viewer);
    if (viewer.soak > 0) return sv::run_soak(options, viewer);
    if (!viewer.more_models.empty()) {
      sv::print_error_line(viewer.more_models.front() +
                           ": only --soak takes more than one model file");
      return sv::kExitBadInput;
    }
    return sv::run_viewer(options, viewer);
  } catch (const std::exception& e) {
    sv::print_error_line(e.what());
  } catch (...) {
    std::cerr << "skinview: unexpected error\n";
  }
  return sv::kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  // The model cache's stores run beside the work (a first open's picture is drawn while its entry
  // is written), and the process waits for them before it exits: io/import_cache.h.
  sv::set_background_cache_stores(true);
  const int status = run(argc, argv);
  sv::finish_cache_stores();
  return status;
}
