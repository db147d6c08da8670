#include "json_file.h"

#include <fstream>
#include <iterator>

namespace sv::test {

nlohmann::json parse_json(std::string_view text) {
  return nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
}

nlohmann::json read_json_file(const std::string& path) {
  // Whole file first: parsing from memory (an iterator adapter) is several times quicker than
  // nlohmann's character-at-a-time stream adapter.
  std::ifstream in(path, std::ios::binary);
  if (!in) return nlohmann::json(nlohmann::json::value_t::discarded);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return parse_json(text);
}

}  // namespace sv::test
