// Host side of `pipeline`: tiling checks, inputs, launch, golden check.
#include <cstring>
#include <random>

#include "kernels/kernel.h"
#include "kernels/pipeline/pipeline_kernel.h"
#include "models/errors.h"

namespace ascend {

namespace {

void declare(Params& p) {
  p.declare(int_param("pipeline.tiles", "tiles", "64", 1, 1000000, "tiles the core processes",
                      "workload"));
  p.declare(int_param("pipeline.tile_bytes", "B", "16384", 256, 65536,
                      "bytes per tile (a multiple of 256: whole vector repeats)", "workload"));
  p.declare(int_param(
      "pipeline.vector_repeats", "repeats", "512", 1, 10000000,
      "256-B vector repeats of Compute per tile (at least tile_bytes/256: every element is "
      "scaled at least once)",
      "workload"));
  p.declare(int_param("pipeline.buffer_num", "", "2", 1, 2, "buffers per queue (2 = double buffer)",
                      "workload"));
}

int dies(const Params& p) {
  return single_die(p, "pipeline");
}

std::string run(Simulation& sim, const Params& p) {
  kernels::PipelineTiling t{};
  t.tiles = static_cast<uint32_t>(p.integer("pipeline.tiles"));
  t.tile_bytes = static_cast<uint32_t>(p.integer("pipeline.tile_bytes"));
  t.vector_repeats = static_cast<uint32_t>(p.integer("pipeline.vector_repeats"));
  t.buffer_num = static_cast<uint32_t>(p.integer("pipeline.buffer_num"));
  t.factor = 1.0009765625f;  // 1 + 2^-10: every scaling rounds, so the golden must follow exactly
  uint32_t per_tile = t.tile_bytes / 256;
  if (t.tile_bytes % 256)
    throw SimError(kExitBadInput, "pipeline.tile_bytes = " + std::to_string(t.tile_bytes) +
                                      " is not a multiple of 256");
  if (t.vector_repeats < per_tile)
    throw SimError(kExitBadInput, "pipeline.vector_repeats = " + std::to_string(t.vector_repeats) +
                                      " is below tile_bytes/256 = " + std::to_string(per_tile));

  uint64_t n = uint64_t{t.tiles} * (t.tile_bytes / 4);
  std::vector<float> x(n);
  std::mt19937 rng(static_cast<uint32_t>(p.integer("sim.seed")));
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  for (float& v : x) v = dist(rng);
  uint64_t xa = sim.alloc(0, "pipeline.x", n * 4), ya = sim.alloc(0, "pipeline.y", n * 4);
  sim.write(xa, x.data(), n * 4);

  KernelRecord& rec = sim.run_kernel("pipeline", 1, [&](int) {
    return [=] {
      AscendC::TPipe pipe;
      kernels::KernelPipeline k;
      k.Init(reinterpret_cast<GM_ADDR>(xa), reinterpret_cast<GM_ADDR>(ya), t, &pipe);
      k.Process();
    };
  });

  std::vector<float> y(n);
  sim.read(ya, y.data(), n * 4);
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t block = static_cast<uint32_t>((i % (t.tile_bytes / 4)) / 64);
    uint32_t times = t.vector_repeats / per_tile + (block < t.vector_repeats % per_tile ? 1 : 0);
    float want = x[i];
    for (uint32_t k = 0; k < times; ++k) want *= t.factor;
    if (std::memcmp(&want, &y[i], 4) != 0)
      throw SimError(kExitCheckFailed, "pipeline: y[" + std::to_string(i) +
                                           "] = " + std::to_string(y[i]) + ", golden " +
                                           std::to_string(want));
  }
  rec.extra["tiles"] = t.tiles;
  rec.extra["bytes"] = n * 4;
  rec.extra["buffer_num"] = t.buffer_num;
  return "outputs match the golden reference (" + std::to_string(n) + " fp32 values)";
}

}  // namespace

KernelDef pipeline_kernel_def() {
  return {"pipeline", "one core: MTE2 -> VECTOR -> MTE3 per tile; shows double buffering", declare,
          run, dies};
}

}  // namespace ascend
