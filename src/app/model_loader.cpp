#include "app/model_loader.h"

#include <span>
#include <utility>
#include <vector>

namespace sv {

ModelLoader::~ModelLoader() {
  if (lookup_.valid()) lookup_.wait();
  if (animations_job_.valid()) animations_job_.wait();
  finish_store();
}

void ModelLoader::finish_store() {
  if (store_.valid()) store_.wait();
}

void ModelLoader::cancel() {
  process_.cancel();
  if (lookup_.valid()) lookup_.wait();  // bounded: a local file of at most kMaxFileBytes
  lookup_ = {};
  // Bounded by the time limit of each file's import.
  if (animations_job_.valid()) animations_job_.wait();
  animations_job_ = {};
  key_.clear();
  refused_.clear();
}

std::string ModelLoader::start(const std::string& path) {
  cancel();
  path_ = path;
  started_ = std::chrono::steady_clock::now();
  if (import_cache_enabled(options_)) {
    lookup_ = std::async(std::launch::async, [path, options = options_] {
      finish_cache_stores();  // an --anim file's store in flight may be this file's entry
      return look_up_import(path, options);
    });
    return {};
  }
  return process_.start(path, options_);
}

double ModelLoader::elapsed_seconds() const {
  if (!busy()) return 0.0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

namespace {
std::vector<std::string> model_files(const std::string& path, const ImportResult& result) {
  std::vector<std::string> files{path};
  files.insert(files.end(), result.provenance.read_files.begin(),
               result.provenance.read_files.end());
  return files;
}
}  // namespace

std::optional<ModelLoader::Finished> ModelLoader::finish(ImportResult&& result) {
  // Every read goes through the job: the clip ranges saved beside the model are read there too.
  if (!result.ok()) {
    std::vector<std::string> files = model_files(path_, result);
    return Finished{path_, std::move(result), std::move(files)};
  }
  animations_job_ = std::async(std::launch::async, [r = std::move(result), sources = animations_,
                                                    options = options_, path = path_]() mutable {
    Finished done{path, {}, model_files(path, r)};
    add_animation_files(r, path, sources, options, &done.files);
    done.result = std::move(r);
    return done;
  });
  return std::nullopt;
}

std::optional<ModelLoader::Finished> ModelLoader::poll() {
  if (animations_job_.valid()) {
    if (animations_job_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
      return std::nullopt;
    return animations_job_.get();
  }
  if (lookup_.valid()) {
    if (lookup_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return std::nullopt;
    CacheLookup lookup = lookup_.get();
    if (lookup.result) return finish(std::move(*lookup.result));
    key_ = std::move(lookup.key);
    refused_ = std::move(lookup.refused);
    ImportOptions child = options_;
    child.keep_stream = !key_.empty();
    if (std::string e = process_.start(path_, child); !e.empty()) {
      ImportResult failed;
      failed.error = std::move(e);
      return Finished{path_, std::move(failed), {path_}};
    }
    return std::nullopt;
  }
  if (!process_.running()) return std::nullopt;
  std::optional<ImportResult> result = process_.poll();
  if (!result) return std::nullopt;
  if (result->ok() && !key_.empty() && !result->stream.empty()) {
    finish_store();  // one store at a time: each is a write of one model
    store_ = std::async(std::launch::async, [key = std::move(key_), path = path_,
                                             options = options_, stream = std::move(result->stream),
                                             files = result->provenance.read_files] {
      store_import(key, path, stream, files, options);
    });
    result->stream.clear();
  }
  key_.clear();
  if (result->ok() && !refused_.empty())
    result->report.notes.push_back(refused_entry_note(refused_));
  refused_.clear();
  return finish(std::move(*result));
}

}  // namespace sv
