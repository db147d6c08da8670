// What `skinview check` finds and how it reports it: a record per file (its findings, or why it
// could not be imported), written as the human summary, as JSON (schema "skinview-check/1",
// docs/check.md) and as JUnit XML (one test case per file and rule, as CI systems read it), and
// read back from JSON (--merge joins the reports of several shards into one).
//
// Records are kept sorted by path, and nothing in a record depends on when, where or how fast it
// was made (no times, no job counts): the same files checked under the same rules give the same
// bytes, so shards merged equal the unsharded run.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace sv {

enum class Severity : uint8_t { Warning, Error };
const char* severity_name(Severity s) noexcept;  // "warning" | "error"

// One rule broken in one file, and where. Each "where" field is optional: empty strings, and
// vertices < 0 / time < 0 mean "not said".
struct Finding {
  std::string rule;  // the rule's id, e.g. "max-influences" (docs/check.md lists them)
  Severity severity = Severity::Error;
  std::string message;  // one line
  std::string joint;
  std::string mesh;
  int64_t vertices = -1;  // how many vertices it concerns
  std::string clip;
  double time = -1.0;  // seconds into `clip`
  std::string method;  // a skinning method ("lbs", "dqs", "cor") for volume findings
};

// A file the importer could not read (it crashed, hung past --time-limit, ran out of memory, or
// refused the file) has one finding, rule "import", severity error, its one-line error as the
// message; no other rule runs on it.
inline constexpr const char* kImportRule = "import";
Finding import_finding(const std::string& error);

struct FileRecord {
  std::string path;               // as listed (the argument, or the folder argument joined with it)
  bool imported = false;          // false: the import failed (the "import" finding says why)
  std::vector<Finding> findings;  // in rule order
  uint32_t errors() const noexcept;
  uint32_t warnings() const noexcept;
};

struct CheckReport {
  std::vector<std::string> rules;  // the ids of the rules in force, in order (CheckRules)
  std::vector<FileRecord> files;   // sorted by path, each path once
  uint32_t errors() const noexcept;
  uint32_t warnings() const noexcept;
  uint32_t failed_imports() const noexcept;
  void sort();  // by path
};

inline constexpr const char* kCheckSchema = "skinview-check/1";

// The JSON report (docs/check.md): {"schema", "rules", "summary", "files"}, 2-space indented,
// keys in a fixed order.
void write_check_json(const CheckReport& report, std::ostream& out);
// Reads one such report and appends its files to `into`. "" or the one-line reason (not JSON,
// another schema, a field of the wrong type).
std::string read_check_json(const std::string& text, CheckReport* into);
// Joins reports: "" or the reason (a path in two of them: the shards overlap; other rules).
std::string merge_reports(std::vector<CheckReport> parts, CheckReport* out);

// JUnit XML: one <testsuite name="skinview check">, one <testcase classname=PATH name=RULE> per
// file and rule: "import" for every file, then each of report.rules for a file that was imported. A
// passing rule is an empty test case; a broken one holds a <failure> for its errors and, as CI
// systems show warnings, <system-out> lines for its warnings.
void write_check_junit(const CheckReport& report, std::ostream& out);

// The terminal's summary: every file with a finding and its findings, then one line of totals.
void write_check_summary(const CheckReport& report, std::ostream& out);

// XML text and attribute escaping (&, <, >, ", '; control characters other than tab and newline
// become '?', which XML 1.0 cannot hold).
std::string xml_escape(const std::string& text);

}  // namespace sv
