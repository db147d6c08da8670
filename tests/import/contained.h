// Shared by the tests of assimp's readers on hostile files (text_checks_test, x_reader_test):
// what "contained by the import worker" means for one import from memory -- a model that
// validates, or one line naming the file, within 10 seconds.
#pragma once

#include <chrono>
#include <span>
#include <string>

#include <gtest/gtest.h>

#include "io/import.h"

namespace sv::test {

// Imports `text` from memory as `hint`, labelled `name`; returns the result after checking it.
inline ImportResult expect_contained(const std::string& text, const char* hint,
                                     const std::string& name, const ImportOptions& options = {}) {
  const auto start = std::chrono::steady_clock::now();
  ImportResult r = import_model_from_memory(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()), hint,
      name, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.ok()) {
    EXPECT_EQ(r.model->validate(), "");
  } else {
    EXPECT_EQ(r.error.rfind(name + ": ", 0), 0u) << r.error;
    EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    EXPECT_LT(r.error.size(), name.size() + 400) << r.error;
  }
  EXPECT_LT(seconds, 10.0) << r.error;
  return r;
}

}  // namespace sv::test
