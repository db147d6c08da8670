// skin_lbs_parallel hands out chunks of vertices to whichever thread is free: results must not
// depend on where the chunks fall, nor on which thread took which (meshes spanning several
// chunks, sizes that are not multiples of the chunk or of the 4-vertex batch, degenerate
// normals on the chunk edges).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/pose.h"
#include "anim/worker_pool.h"
#include "skin/skinning.h"

namespace sv {
namespace {

// `bones` entries with rotation, translation and non-uniform scale, and their normal palette.
void random_palette(std::mt19937& rng, int bones, std::vector<glm::mat4>& palette,
                    std::vector<glm::mat3>& normal_palette) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int b = 0; b < bones; ++b) {
    Transform t;
    t.translation = 3.0f * glm::vec3(u(rng), u(rng), u(rng));
    t.rotation = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng) + 0.1f));
    t.scale = glm::vec3(1.0f + 0.5f * u(rng), 1.0f + 0.5f * u(rng), 1.0f + 0.5f * u(rng));
    palette.push_back(to_matrix(t));
  }
  normal_palette.resize(palette.size());
  ASSERT_TRUE(build_normal_palette(palette, normal_palette));
}

TEST(SkinLbsSplit, ChunkedParallelMatchesSingleThreadBitForBit) {
  std::mt19937 rng(21u);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<glm::mat4> palette;
  std::vector<glm::mat3> normal_palette;
  random_palette(rng, 40, palette, normal_palette);
  for (const std::size_t n :
       {std::size_t{16383}, std::size_t{16385}, std::size_t{50001}, std::size_t{3 * 16384 + 6}}) {
    std::vector<glm::vec3> positions(n), normals(n);
    std::vector<glm::u16vec4> joints(n);
    std::vector<glm::vec4> weights(n);
    for (std::size_t v = 0; v < n; ++v) {
      positions[v] = 5.0f * glm::vec3(u(rng), u(rng), u(rng));
      // Zero normals around every chunk edge too (the exact route).
      normals[v] = (v % 16384) < 3 || (v % 16384) > 16381
                       ? glm::vec3(0.0f)
                       : glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 2.0f));
      for (int i = 0; i < 4; ++i) joints[v][i] = static_cast<uint16_t>(rng() % 40u);
      glm::vec4 w(u(rng) + 1.1f, u(rng) + 1.1f, u(rng) + 1.1f, u(rng) + 1.1f);
      weights[v] = w / (w.x + w.y + w.z + w.w);
    }
    const SkinInput in{positions, normals, joints, weights, -1};
    std::vector<glm::vec3> p1(n), n1(n);
    ASSERT_TRUE(skin_lbs(palette, normal_palette, in, p1, n1));
    for (const unsigned threads : {1u, 2u, 3u}) {
      WorkerPool pool(threads);
      for (int repeat = 0; repeat < 4; ++repeat) {
        std::vector<glm::vec3> p2(n, glm::vec3(7.0f)), n2(n, glm::vec3(7.0f));
        ASSERT_TRUE(skin_lbs_parallel(pool, palette, normal_palette, in, p2, n2));
        ASSERT_EQ(p1, p2) << threads << " threads, " << n << " vertices";
        ASSERT_EQ(n1, n2) << threads << " threads, " << n << " vertices";
      }
    }
  }
}

// Runs of vertices sharing their 4 joints (the importer's layout; the AVX-512 path skins them 16
// at a time) that straddle chunk edges: a run of exactly the minimum length split 3 + 3, one of
// 5 split 2 + 3 (too short either way), long runs split anywhere. Which path a vertex takes, and
// so its rounding, must not depend on where its chunk starts.
TEST(SkinLbsSplit, RunsAcrossChunkEdgesMatchSingleThreadBitForBit) {
  std::mt19937 rng(37u);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<glm::mat4> palette;
  std::vector<glm::mat3> normal_palette;
  random_palette(rng, 30, palette, normal_palette);
  constexpr std::size_t kChunk = 16384;
  const std::size_t n = 4 * kChunk + 100;
  std::vector<glm::vec3> positions(n), normals(n);
  std::vector<glm::u16vec4> joints(n);
  std::vector<glm::vec4> weights(n);
  // Runs of random length 1-400, then the edge cases written over them.
  auto random_set = [&] {
    glm::u16vec4 j;
    for (int i = 0; i < 4; ++i) j[i] = static_cast<uint16_t>(rng() % 30u);
    return j;
  };
  for (std::size_t v = 0; v < n;) {
    const std::size_t len = 1 + rng() % 400u;
    const glm::u16vec4 j = random_set();
    for (std::size_t k = 0; k < len && v < n; ++k) joints[v++] = j;
  }
  auto run_at = [&](std::size_t first, std::size_t len) {
    const glm::u16vec4 j = glm::u16vec4(static_cast<uint16_t>(first % 30u), 29, 28, 27);
    for (std::size_t v = first; v < first + len; ++v) joints[v] = j;
    joints[first - 1] = glm::u16vec4(0);  // distinct neighbours bound the run
    joints[first + len] = glm::u16vec4(1);
  };
  run_at(kChunk - 3, 6);
  run_at(2 * kChunk - 2, 5);
  run_at(3 * kChunk - 17, 40);
  for (std::size_t v = 0; v < n; ++v) {
    positions[v] = 5.0f * glm::vec3(u(rng), u(rng), u(rng));
    normals[v] =
        v % 97 == 0 ? glm::vec3(0.0f) : glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 2.0f));
    glm::vec4 w(u(rng) + 1.1f, u(rng) + 1.1f, u(rng) + 1.1f, u(rng) + 1.1f);
    weights[v] = w / (w.x + w.y + w.z + w.w);
  }
  const SkinInput in{positions, normals, joints, weights, -1};
  std::vector<glm::vec3> p1(n), n1(n);
  ASSERT_TRUE(skin_lbs(palette, normal_palette, in, p1, n1));
  for (const unsigned threads : {2u, 3u}) {
    WorkerPool pool(threads);
    for (int repeat = 0; repeat < 4; ++repeat) {
      std::vector<glm::vec3> p2(n, glm::vec3(7.0f)), n2(n, glm::vec3(7.0f));
      ASSERT_TRUE(skin_lbs_parallel(pool, palette, normal_palette, in, p2, n2));
      ASSERT_EQ(p1, p2) << threads << " threads";
      ASSERT_EQ(n1, n2) << threads << " threads";
    }
  }
}

// More threads than cores and tiny jobs: workers are often late, so the caller takes their
// parts; each part must still run exactly once per job, never twice, never with another job's
// context.
TEST(WorkerPoolSplit, LateWorkersPartsRunOnceOnTheCaller) {
  WorkerPool pool(4);
  struct Job {
    int id = 0;
    std::atomic<int> calls[4];
    std::atomic<int> wrong{0};
    std::atomic<int> on_caller{0};
    std::thread::id caller;
  };
  int total_on_caller = 0;
  for (int i = 0; i < 3000; ++i) {
    Job job;
    job.id = i;
    job.caller = std::this_thread::get_id();
    for (auto& c : job.calls) c.store(0);
    pool.run(
        [](void* c, unsigned part, unsigned parts) noexcept {
          auto& j = *static_cast<Job*>(c);
          if (parts != 4 || part >= 4) {
            ++j.wrong;
            return;
          }
          ++j.calls[part];
          if (part != 0 && std::this_thread::get_id() == j.caller) ++j.on_caller;
        },
        &job);
    ASSERT_EQ(job.wrong.load(), 0);
    for (const auto& c : job.calls) ASSERT_EQ(c.load(), 1) << "job " << i;
    total_on_caller += job.on_caller.load();
  }
  // Not asserted (it depends on the scheduler), only reported.
  std::printf("parts taken by the caller: %d of %d\n", total_on_caller, 3 * 3000);
}

}  // namespace
}  // namespace sv
