// `skinview check` (see check.h): the command line, the file list, the pool, the reports.
#include "app/check.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include <CLI/CLI.hpp>

#include "app/app_common.h"
#include "app/check_html.h"
#include "app/check_report.h"
#include "app/check_rules.h"
#include "app/cli.h"
#include "io/import.h"

namespace sv {
namespace {

namespace fs = std::filesystem;

struct CheckArgs {
  std::vector<std::string> paths;
  unsigned jobs = 0;  // 0: the cores
  std::string rules;
  std::string json;
  std::string junit;
  std::string html;
  std::string shard;
  bool merge = false;
  bool no_progress = false;
  Options import;  // --time-limit, --memory-limit, --no-cache, --texture-path
};

std::string lower_extension(const fs::path& p) {
  std::string e = p.extension().string();
  if (!e.empty()) e.erase(0, 1);
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

// Writes `text` to `path` ("-": stdout). "" or why not.
template <typename Write>
std::string write_report(const std::string& path, Write write) {
  if (path == "-") {
    write(std::cout);
    std::cout.flush();
    return std::cout ? std::string() : "stdout: write failed";
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return path + ": cannot open for writing";
  write(out);
  out.close();
  return out ? std::string() : path + ": write failed";
}

// The progress line on a terminal: "[ 12/340] path", redrawn in place.
class Progress {
 public:
  Progress(bool on, std::size_t total) : on_(on), total_(total) {}
  void done(const std::string& path) {
    if (!on_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    ++done_;
    std::string name = escape_line(path);
    if (name.size() > 60) name = "..." + name.substr(name.size() - 57);
    std::printf("\r\033[K[%zu/%zu] %s", done_, total_, name.c_str());
    std::fflush(stdout);
  }
  void finish() {
    if (!on_) return;
    std::printf("\r\033[K");
    std::fflush(stdout);
  }

 private:
  bool on_;
  std::size_t total_;
  std::size_t done_ = 0;
  std::mutex mutex_;
};

FileRecord check_file(const std::string& path, const CheckRules& rules,
                      const ImportOptions& options) {
  FileRecord record;
  record.path = path;
  const ImportResult r = import_model(path, options);
  if (!r.ok()) {
    record.findings.push_back(import_finding(r.error));
    return record;
  }
  record.imported = true;
  record.findings = apply_check_rules(rules, path, r);
  return record;
}

int finish(const CheckReport& report, const CheckArgs& a, double seconds, bool ran) {
  for (const auto& [path, write] :
       {std::pair<std::string, void (*)(const CheckReport&, std::ostream&)>{a.json,
                                                                            write_check_json},
        {a.junit, write_check_junit}}) {
    if (path.empty()) continue;
    // The function pointer by value: clang 14 (the sanitizer pass's compiler) cannot capture a
    // structured binding.
    if (std::string e = write_report(path, [&report, w = write](std::ostream& o) { w(report, o); });
        !e.empty()) {
      print_error_line(e);
      return kExitBadInput;
    }
  }
  if (!a.html.empty()) {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    const unsigned jobs = a.jobs ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
    if (std::string e = write_check_html(report, a.html, ec ? std::string() : self.string(), jobs);
        !e.empty()) {
      print_error_line(e);
      return kExitBadInput;
    }
  }
  // The summary goes to stdout unless the JSON does.
  std::ostream& human = a.json == "-" || a.junit == "-" ? std::cerr : std::cout;
  write_check_summary(report, human);
  if (ran && seconds > 0.0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.2f s, %.2f files/s\n", seconds,
                  static_cast<double>(report.files.size()) / seconds);
    human << buf;
  }
  human.flush();
  return report.errors() > 0 ? kExitCheckFailed : kExitOk;
}

int run_merge(const CheckArgs& a) {
  if (a.paths.empty()) return bad_input("check --merge: name the JSON reports to join");
  std::vector<CheckReport> parts;
  for (const std::string& path : a.paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return bad_input(path + ": cannot open the report");
    std::ostringstream text;
    text << in.rdbuf();
    CheckReport part;
    if (std::string e = read_check_json(text.str(), &part); !e.empty())
      return bad_input(path + ": " + e);
    parts.push_back(std::move(part));
  }
  CheckReport report;
  if (std::string e = merge_reports(std::move(parts), &report); !e.empty()) return bad_input(e);
  return finish(report, a, 0.0, false);
}

}  // namespace

uint64_t path_hash(std::string_view path) noexcept {
  uint64_t h = 14695981039346656037ull;
  for (char c : path) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

bool in_shard(std::string_view path, uint32_t index, uint32_t count) noexcept {
  return count <= 1 || path_hash(path) % count == index - 1;
}

bool parse_shard(const std::string& text, uint32_t* index, uint32_t* count) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) return false;
  const char* b = text.data();
  const char* e = b + text.size();
  uint32_t i = 0, n = 0;
  auto r1 = std::from_chars(b, b + slash, i);
  auto r2 = std::from_chars(b + slash + 1, e, n);
  if (r1.ec != std::errc() || r1.ptr != b + slash || r2.ec != std::errc() || r2.ptr != e)
    return false;
  if (i < 1 || n < 1 || i > n || n > 100000) return false;
  *index = i;
  *count = n;
  return true;
}

std::string collect_model_files(const std::vector<std::string>& paths,
                                const std::vector<std::string>& extensions,
                                std::vector<std::string>* files) {
  for (const std::string& path : paths) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) return path + ": no such file or folder";
    if (!fs::is_directory(st)) {
      files->push_back(path);
      continue;
    }
    // Symbolic links to folders are not followed (a loop would never end); links to files are.
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
    if (ec) return path + ": cannot list the folder (" + ec.message() + ")";
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) return path + ": cannot list the folder (" + ec.message() + ")";
      std::error_code fec;
      if (!it->is_regular_file(fec)) continue;
      const std::string ext = lower_extension(it->path());
      if (std::binary_search(extensions.begin(), extensions.end(), ext))
        files->push_back(it->path().string());
    }
  }
  std::sort(files->begin(), files->end());
  files->erase(std::unique(files->begin(), files->end()), files->end());
  return {};
}

int run_check(int argc, char** argv) {
  CLI::App app{
      "skinview check: the rig checks over files and folders of models (a report for "
      "people, --json and --junit for CI)",
      "skinview check"};
  CheckArgs a;
  app.add_option("paths", a.paths,
                 "Model files, or folders searched recursively for the files skinview opens "
                 "(with --merge: the JSON reports to join)")
      ->type_name("PATH");
  app.add_option("--jobs,-j", a.jobs, "Files imported at once (default: the cores)")
      ->type_name("N")
      ->check(CLI::Range(1u, 1024u));
  app.add_option("--rules", a.rules,
                 "Rules file (TOML when named *.toml, else JSON): docs/check.md")
      ->type_name("FILE");
  app.add_option("--json", a.json, "Write the JSON report (one record per file), - for stdout")
      ->type_name("FILE");
  app.add_option("--junit", a.junit, "Write a JUnit XML report (a test case per file and rule)")
      ->type_name("FILE");
  app.add_option("--html", a.html,
                 "Write DIR/index.html: the findings, and a thumbnail of each file with an error "
                 "in the view that shows it (needs a display)")
      ->type_name("DIR");
  app.add_option("--shard", a.shard,
                 "Check only part I of N of the files (by path hash; N runs cover each once)")
      ->type_name("I/N");
  app.add_flag("--merge", a.merge, "Join the JSON reports named as paths into one report");
  app.add_flag("--no-progress", a.no_progress, "No progress line, even on a terminal");
  app.add_option("--time-limit", a.import.time_limit,
                 "Seconds one file's import may take; past it the file is a finding (default 120)")
      ->type_name("S")
      ->check(CLI::Range(0.0, 1e6));
  app.add_option("--memory-limit", a.import.memory_limit_mib,
                 "MiB one file's import may use (default: half the memory, at most 4096)")
      ->type_name("MIB")
      ->check(CLI::Range(0.0, 1e9));
  app.add_flag("--no-cache", a.import.no_cache, "Run the importer for every file; store nothing");
  app.add_option("--texture-path", a.import.texture_paths,
                 "Another folder textures may be read from (repeatable)")
      ->type_name("DIR");
  if (int status = parse_command_line(app, argc, argv); status >= 0) return status;

  if (a.json == "-" && a.junit == "-")
    return bad_input("check: --json and --junit cannot both write to stdout");
  if (a.merge) {
    if (!a.shard.empty() || !a.rules.empty())
      return bad_input("check --merge joins reports: no --shard or --rules");
    return run_merge(a);
  }
  if (a.paths.empty()) return bad_input("check: name the files or folders to check (see --help)");
  uint32_t shard = 1, shards = 1;
  if (!a.shard.empty() && !parse_shard(a.shard, &shard, &shards))
    return bad_input("bad --shard '" + a.shard + "' (need I/N with 1 <= I <= N)");
  CheckRules rules;
  if (!a.rules.empty())
    if (std::string e = load_check_rules(a.rules, &rules); !e.empty()) return bad_input(e);

  const std::vector<std::string>& extensions = supported_extensions();
  if (extensions.empty())
    return bad_input("check: the import worker (skinview-import) cannot be run");
  std::vector<std::string> all;
  if (std::string e = collect_model_files(a.paths, extensions, &all); !e.empty())
    return bad_input(e);
  if (all.empty()) return bad_input("check: no model file found under the paths given");
  std::vector<std::string> files;
  for (const std::string& f : all)
    if (in_shard(f, shard, shards)) files.push_back(f);

  const ImportOptions options = import_options(a.import);
  CheckReport report;
  report.rules = rules.enabled_ids();
  report.files.resize(files.size());
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned jobs =
      static_cast<unsigned>(std::min<std::size_t>(a.jobs ? a.jobs : cores, files.size()));
  Progress progress(!a.no_progress && ::isatty(STDOUT_FILENO) && a.json != "-" && a.junit != "-",
                    files.size());
  std::atomic<std::size_t> next{0};
  const auto started = std::chrono::steady_clock::now();
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < files.size();) {
      report.files[i] = check_file(files[i], rules, options);
      progress.done(files[i]);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < jobs; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  progress.finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  report.sort();
  return finish(report, a, seconds, true);
}

}  // namespace sv
