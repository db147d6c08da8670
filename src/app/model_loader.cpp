#include "app/model_loader.h"

#include <utility>

namespace sv {

std::string ModelLoader::start(const std::string& path) {
  process_.cancel();
  return process_.start(path, options_);
}

std::optional<ModelLoader::Finished> ModelLoader::poll() {
  if (!process_.running()) return std::nullopt;
  std::string path = process_.name();
  std::optional<ImportResult> result = process_.poll();
  if (!result) return std::nullopt;
  return Finished{std::move(path), std::move(*result)};
}

}  // namespace sv
