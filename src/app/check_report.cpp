// `skinview check`'s reports (see check_report.h).
#include "app/check_report.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <set>

#include <nlohmann/json.hpp>

#include "app/cli.h"

namespace sv {
namespace {

using ordered = nlohmann::ordered_json;

ordered finding_json(const Finding& f) {
  ordered j;
  j["rule"] = f.rule;
  j["severity"] = severity_name(f.severity);
  j["message"] = f.message;
  if (!f.mesh.empty()) j["mesh"] = f.mesh;
  if (!f.joint.empty()) j["joint"] = f.joint;
  if (f.vertices >= 0) j["vertices"] = f.vertices;
  if (!f.clip.empty()) j["clip"] = f.clip;
  if (f.time >= 0.0) j["time"] = f.time;
  if (!f.method.empty()) j["method"] = f.method;
  return j;
}

// The member `key` of `j` as a string ("" when absent); false when present but not a string.
bool get_string(const nlohmann::json& j, const char* key, std::string* out) {
  const auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_string()) return false;
  *out = it->get<std::string>();
  return true;
}

std::string read_finding(const nlohmann::json& j, Finding* f) {
  if (!j.is_object()) return "a finding is not an object";
  std::string severity;
  if (!get_string(j, "rule", &f->rule) || f->rule.empty()) return "a finding has no rule";
  if (!get_string(j, "severity", &severity) || (severity != "error" && severity != "warning"))
    return "finding '" + f->rule + "' has no severity error|warning";
  f->severity = severity == "error" ? Severity::Error : Severity::Warning;
  if (!get_string(j, "message", &f->message) || !get_string(j, "mesh", &f->mesh) ||
      !get_string(j, "joint", &f->joint) || !get_string(j, "clip", &f->clip) ||
      !get_string(j, "method", &f->method))
    return "finding '" + f->rule + "' has a field of the wrong type";
  if (const auto it = j.find("vertices"); it != j.end()) {
    if (!it->is_number_integer()) return "finding '" + f->rule + "': vertices is not an integer";
    f->vertices = it->get<int64_t>();
  }
  if (const auto it = j.find("time"); it != j.end()) {
    if (!it->is_number()) return "finding '" + f->rule + "': time is not a number";
    f->time = it->get<double>();
  }
  return {};
}

std::string where_text(const Finding& f) {
  std::string w;
  auto add = [&w](const std::string& s) { w += (w.empty() ? "" : ", ") + s; };
  if (!f.mesh.empty()) add("mesh '" + f.mesh + "'");
  if (!f.joint.empty()) add("joint '" + f.joint + "'");
  if (f.vertices >= 0) add(std::to_string(f.vertices) + " vertices");
  if (!f.clip.empty()) add("clip '" + f.clip + "'");
  if (f.time >= 0.0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f s", f.time);
    add(buf);
  }
  if (!f.method.empty()) add(f.method);
  return w;
}

std::string finding_line(const Finding& f) {
  const std::string where = where_text(f);
  return where.empty() ? f.message : f.message + " (" + where + ")";
}

}  // namespace

const char* severity_name(Severity s) noexcept {
  return s == Severity::Error ? "error" : "warning";
}

uint32_t FileRecord::errors() const noexcept {
  uint32_t n = 0;
  for (const Finding& f : findings) n += f.severity == Severity::Error ? 1 : 0;
  return n;
}
uint32_t FileRecord::warnings() const noexcept {
  return static_cast<uint32_t>(findings.size()) - errors();
}

uint32_t CheckReport::errors() const noexcept {
  uint32_t n = 0;
  for (const FileRecord& r : files) n += r.errors();
  return n;
}
uint32_t CheckReport::warnings() const noexcept {
  uint32_t n = 0;
  for (const FileRecord& r : files) n += r.warnings();
  return n;
}
Finding import_finding(const std::string& error) {
  Finding f;
  f.rule = kImportRule;
  f.severity = Severity::Error;
  f.message = error;
  return f;
}

uint32_t CheckReport::failed_imports() const noexcept {
  uint32_t n = 0;
  for (const FileRecord& r : files) n += r.imported ? 0 : 1;
  return n;
}
void CheckReport::sort() {
  std::stable_sort(files.begin(), files.end(),
                   [](const FileRecord& a, const FileRecord& b) { return a.path < b.path; });
}

void write_check_json(const CheckReport& report, std::ostream& out) {
  ordered j;
  j["schema"] = kCheckSchema;
  j["rules"] = report.rules;
  ordered summary;
  summary["files"] = report.files.size();
  summary["failed_imports"] = report.failed_imports();
  summary["errors"] = report.errors();
  summary["warnings"] = report.warnings();
  j["summary"] = summary;
  ordered files = ordered::array();
  for (const FileRecord& r : report.files) {
    ordered f;
    f["path"] = r.path;
    f["imported"] = r.imported;
    f["errors"] = r.errors();
    f["warnings"] = r.warnings();
    ordered findings = ordered::array();
    for (const Finding& finding : r.findings) findings.push_back(finding_json(finding));
    f["findings"] = findings;
    files.push_back(f);
  }
  j["files"] = files;
  // Invalid UTF-8 in a path (file names are bytes) is replaced, never thrown.
  out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

std::string read_check_json(const std::string& text, CheckReport* into) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return "not a JSON object";
  const auto schema = j.find("schema");
  if (schema == j.end() || !schema->is_string() || schema->get<std::string>() != kCheckSchema)
    return std::string("not a skinview check report (schema ") + kCheckSchema + ")";
  const auto rules = j.find("rules");
  if (rules == j.end() || !rules->is_array()) return "no \"rules\" array";
  std::vector<std::string> ids;
  for (const nlohmann::json& id : *rules) {
    if (!id.is_string()) return "a rule id is not a string";
    ids.push_back(id.get<std::string>());
  }
  if (into->files.empty() && into->rules.empty())
    into->rules = ids;
  else if (ids != into->rules)
    return "checked under other rules than the reports before it";
  const auto files = j.find("files");
  if (files == j.end() || !files->is_array()) return "no \"files\" array";
  for (const nlohmann::json& f : *files) {
    FileRecord r;
    if (!f.is_object() || !get_string(f, "path", &r.path) || r.path.empty())
      return "a file record has no path";
    const auto imported = f.find("imported");
    if (imported == f.end() || !imported->is_boolean())
      return r.path + ": \"imported\" is not true or false";
    r.imported = imported->get<bool>();
    const auto findings = f.find("findings");
    if (findings == f.end() || !findings->is_array()) return r.path + ": no \"findings\" array";
    for (const nlohmann::json& fj : *findings) {
      Finding finding;
      if (std::string e = read_finding(fj, &finding); !e.empty()) return r.path + ": " + e;
      r.findings.push_back(std::move(finding));
    }
    into->files.push_back(std::move(r));
  }
  return {};
}

std::string merge_reports(std::vector<CheckReport> parts, CheckReport* out) {
  out->files.clear();
  out->rules.clear();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i == 0)
      out->rules = parts[i].rules;
    else if (parts[i].rules != out->rules)
      return "the reports were checked under other rules";
  }
  for (CheckReport& p : parts)
    for (FileRecord& r : p.files) out->files.push_back(std::move(r));
  out->sort();
  for (std::size_t i = 1; i < out->files.size(); ++i)
    if (out->files[i].path == out->files[i - 1].path)
      return out->files[i].path + ": in two of the reports (do the shards overlap?)";
  return {};
}

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n')
          out += '?';
        else
          out += c;
    }
  }
  return out;
}

void write_check_junit(const CheckReport& report, std::ostream& out) {
  const std::vector<std::string>& rules = report.rules;
  // Test cases per file: "import", then every rule in force when the import succeeded (no rule
  // runs on a file that was not imported).
  std::size_t tests = 0, failures = 0;
  for (const FileRecord& r : report.files) {
    tests += 1 + (r.imported ? rules.size() : 0);
    std::set<std::string> failed;
    for (const Finding& f : r.findings)
      if (f.severity == Severity::Error) failed.insert(f.rule);
    failures += failed.size();
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"skinview check\" tests=\"" << tests << "\" failures=\"" << failures
      << "\">\n"
      << "  <testsuite name=\"skinview check\" tests=\"" << tests << "\" failures=\"" << failures
      << "\" errors=\"0\" skipped=\"0\">\n";
  std::vector<std::string> cases;
  for (const FileRecord& r : report.files) {
    const std::string cls = xml_escape(r.path);
    cases.assign(1, kImportRule);
    if (r.imported) cases.insert(cases.end(), rules.begin(), rules.end());
    for (const std::string& rule : cases) {
      std::vector<const Finding*> errors, warnings;
      for (const Finding& f : r.findings)
        if (f.rule == rule) (f.severity == Severity::Error ? errors : warnings).push_back(&f);
      out << "    <testcase classname=\"" << cls << "\" name=\"" << xml_escape(rule) << "\"";
      if (errors.empty() && warnings.empty()) {
        out << "/>\n";
        continue;
      }
      out << ">\n";
      if (!errors.empty()) {
        out << "      <failure message=\"" << xml_escape(errors.front()->message) << "\">";
        for (const Finding* f : errors) out << xml_escape(finding_line(*f)) << "\n";
        out << "</failure>\n";
      }
      if (!warnings.empty()) {
        out << "      <system-out>";
        for (const Finding* f : warnings)
          out << "warning: " << xml_escape(finding_line(*f)) << "\n";
        out << "</system-out>\n";
      }
      out << "    </testcase>\n";
    }
  }
  out << "  </testsuite>\n</testsuites>\n";
}

void write_check_summary(const CheckReport& report, std::ostream& out) {
  for (const FileRecord& r : report.files) {
    if (r.imported && r.findings.empty()) continue;
    out << escape_line(r.path) << "\n";
    for (const Finding& f : r.findings) {
      const std::string where = where_text(f);
      out << "  " << (f.severity == Severity::Error ? "error  " : "warning") << " " << f.rule
          << ": " << escape_line(f.message)
          << (where.empty() ? "" : " [" + escape_line(where) + "]") << "\n";
    }
  }
  std::size_t clean = 0;
  for (const FileRecord& r : report.files) clean += r.imported && r.findings.empty() ? 1 : 0;
  out << report.files.size() << " file(s) checked: " << clean << " clean, "
      << report.failed_imports() << " not imported, " << report.errors() << " error(s), "
      << report.warnings() << " warning(s)\n";
}

}  // namespace sv
