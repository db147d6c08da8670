// Shared by the tests of assimp's readers on hostile files (text_checks_test, x_reader_test):
// what "contained by the import worker" means for one import from memory -- a model the rest of
// skinview can use, or one line naming the file, that ended on its own (the file was read, or
// assimp refused it, or the worker's memory limit or a crash ended it), not at the worker's time
// limit. No wall-clock bound: a loaded machine makes every case slower, none of them wrong.
#pragma once

#include <span>
#include <string>

#include <gtest/gtest.h>

#include "io/import.h"
#include "usable_model.h"

namespace sv::test {

// Imports `text` from memory as `hint`, labelled `name`; returns the result after checking it.
inline ImportResult expect_contained(const std::string& text, const char* hint,
                                     const std::string& name, const ImportOptions& options = {}) {
  ImportResult r = import_model_from_memory(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()), hint,
      name, options);
  if (r.ok()) {
    expect_usable(*r.model, name);
  } else {
    EXPECT_EQ(r.error.rfind(name + ": ", 0), 0u) << r.error;
    EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    EXPECT_LT(r.error.size(), name.size() + 400) << r.error;
    EXPECT_EQ(r.error.find("gave up after"), std::string::npos)
        << "only the worker's time limit ended it: " << r.error;
  }
  return r;
}

}  // namespace sv::test
