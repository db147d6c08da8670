// `skinview check --html DIR` (see check_html.h).
#include "app/check_html.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

extern char** environ;

namespace sv {
namespace {

namespace fs = std::filesystem;

std::string seconds_text(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", t);
  return buf;
}

// Runs `args` (args[0] an executable path) with stdin, stdout and stderr on /dev/null; true when
// it exited 0 within `limit_s` (past it, it is killed).
bool run_quietly(const std::vector<std::string>& args, double limit_s) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit_s);
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0) return false;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

const Finding* leading_finding(const FileRecord& r) {
  for (const Finding& f : r.findings)
    if (f.severity == Severity::Error) return &f;
  return r.findings.empty() ? nullptr : &r.findings.front();
}

std::string html(const std::string& text) { return xml_escape(text); }

}  // namespace

std::vector<std::string> thumbnail_view(const FileRecord& record) {
  const Finding* f = leading_finding(record);
  if (!f) return {};
  const std::string& rule = f->rule;
  if (rule == "weight-sum" || rule == "unweighted-vertices") return {"--view", "weight-sum"};
  if (rule == "max-influences") return {"--view", "influences"};
  if (rule == "rest-bind") return {"--rest-pose", "--skeleton"};
  if (rule == "unused-bones" && !f->joint.empty())
    return {"--view", "weights", "--bone", f->joint, "--skeleton"};
  if (rule == "volume-change" && !f->clip.empty()) {
    std::vector<std::string> v{"--clip", f->clip};
    if (f->time >= 0.0) v.insert(v.end(), {"--time", seconds_text(f->time)});
    if (!f->method.empty()) v.insert(v.end(), {"--method", f->method});
    return v;
  }
  if (rule == "joint-scale") {
    std::vector<std::string> v{"--skeleton"};
    if (!f->clip.empty()) v.insert(v.end(), {"--clip", f->clip});
    if (!f->clip.empty() && f->time >= 0.0) v.insert(v.end(), {"--time", seconds_text(f->time)});
    return v;
  }
  if (rule == "texture-paths") return {};
  return {"--skeleton"};
}

std::string write_check_html(const CheckReport& report, const std::string& dir,
                             const std::string& exe, unsigned jobs) {
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "thumbs", ec);
  if (ec) return dir + ": cannot create the folder (" + ec.message() + ")";

  // The files that get a thumbnail: imported, with an error.
  std::vector<std::size_t> pictured;
  for (std::size_t i = 0; i < report.files.size(); ++i)
    if (report.files[i].imported && report.files[i].errors() > 0) pictured.push_back(i);
  std::vector<uint8_t> made(report.files.size(), 0);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t k; (k = next.fetch_add(1)) < pictured.size();) {
      const std::size_t i = pictured[k];
      const std::string png = (fs::path(dir) / "thumbs" / (std::to_string(i) + ".png")).string();
      std::vector<std::string> args{
          exe,
          report.files[i].path,
          "--screenshot",
          png,
          "--size",
          std::to_string(kThumbnailSize) + "x" + std::to_string(kThumbnailSize)};
      const std::vector<std::string> view = thumbnail_view(report.files[i]);
      args.insert(args.end(), view.begin(), view.end());
      made[i] = run_quietly(args, kThumbnailSeconds) && fs::exists(png) ? 1 : 0;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::max(1u, jobs) && t < pictured.size(); ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();

  const std::string page = (fs::path(dir) / "index.html").string();
  std::ofstream out(page, std::ios::binary | std::ios::trunc);
  if (!out) return page + ": cannot open for writing";
  out << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>skinview check</title>\n"
         "<style>body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}"
         "td,th{border:1px solid #ccc;padding:4px;vertical-align:top}"
         ".error{color:#b00}.warning{color:#a60}img{width:256px;height:256px}</style>\n"
         "</head><body>\n<h1>skinview check</h1>\n";
  std::size_t clean = 0;
  for (const FileRecord& r : report.files) clean += r.imported && r.findings.empty() ? 1 : 0;
  out << "<p>" << report.files.size() << " file(s) checked: " << clean << " clean, "
      << report.failed_imports() << " not imported, " << report.errors() << " error(s), "
      << report.warnings() << " warning(s). Rules:";
  for (const std::string& rule : report.rules) out << " " << html(rule);
  out << ".</p>\n<table>\n<tr><th>file</th><th>findings</th><th>view</th></tr>\n";
  for (std::size_t i = 0; i < report.files.size(); ++i) {
    const FileRecord& r = report.files[i];
    if (r.imported && r.findings.empty()) continue;
    out << "<tr id=\"f" << i << "\"><td>" << html(r.path) << "</td><td><ul>\n";
    for (const Finding& f : r.findings) {
      out << "<li class=\"" << severity_name(f.severity) << "\">" << severity_name(f.severity)
          << " <b>" << html(f.rule) << "</b>: " << html(f.message);
      std::string where;
      if (!f.mesh.empty()) where += " mesh '" + f.mesh + "'";
      if (!f.joint.empty()) where += " joint '" + f.joint + "'";
      if (!f.clip.empty()) where += " clip '" + f.clip + "'";
      if (f.time >= 0.0) where += " at " + seconds_text(f.time) + " s";
      if (!f.method.empty()) where += " (" + f.method + ")";
      if (!where.empty()) out << " <i>[" << html(where.substr(1)) << "]</i>";
      out << "</li>\n";
    }
    out << "</ul></td><td>";
    if (made[i]) {
      std::string caption;
      for (const std::string& a : thumbnail_view(r)) caption += (caption.empty() ? "" : " ") + a;
      out << "<img src=\"thumbs/" << i << ".png\" alt=\"thumbnail\"><br><code>"
          << html(caption.empty() ? "shaded" : caption) << "</code>";
    } else if (r.imported && r.errors() > 0) {
      out << "no picture (the renderer needs a display, or it failed)";
    }
    out << "</td></tr>\n";
  }
  out << "</table>\n</body></html>\n";
  out.close();
  if (!out) return page + ": write failed";
  return {};
}

}  // namespace sv
