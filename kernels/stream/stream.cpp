// Host side of `stream`: tiling, inputs, launch, golden check, bandwidth figures.
#include <random>

#include "kernels/kernel.h"
#include "kernels/stream/stream_kernel.h"
#include "models/errors.h"

namespace ascend {

namespace {

void declare(Params& p) {
  p.declare(int_param("stream.cores", "cores", "1", 1, 96,
                      "cores streaming at once (at most die.aiv_count)", "workload"));
  p.declare(int_param("stream.bytes_per_core", "B", "1048576", 32, 1e12,
                      "bytes each core streams (a multiple of 32)", "workload"));
  p.declare(int_param("stream.tile_bytes", "B", "16384", 32, 1048576,
                      "bytes per DMA (a multiple of 32; buffer_num tiles must fit in UB)",
                      "workload"));
  p.declare(int_param("stream.buffer_num", "", "2", 1, 2,
                      "UB buffers per queue (2 = double buffer)", "workload"));
  p.declare(choice_param("stream.mode", "read", {"read", "copy"},
                         "read: GM->UB and a vector checksum; copy: GM->UB->GM", "workload"));
}

int dies(const Params& p) {
  return single_die(p, "stream");
}

std::string run(Simulation& sim, const Params& p) {
  kernels::StreamTiling t{};
  int cores = static_cast<int>(p.integer("stream.cores"));
  t.bytes_per_core = static_cast<uint64_t>(p.integer("stream.bytes_per_core"));
  t.tile_bytes = static_cast<uint32_t>(p.integer("stream.tile_bytes"));
  t.buffer_num = static_cast<uint32_t>(p.integer("stream.buffer_num"));
  t.read_only = p.text("stream.mode") == "read";
  if (t.bytes_per_core % 32 || t.tile_bytes % 32)
    throw SimError(kExitBadInput,
                   "stream.bytes_per_core and stream.tile_bytes must be multiples of 32 (got " +
                       std::to_string(t.bytes_per_core) + ", " + std::to_string(t.tile_bytes) +
                       ")");

  uint64_t total = t.bytes_per_core * static_cast<uint64_t>(cores);
  std::vector<int32_t> x(total / 4);
  std::mt19937 rng(static_cast<uint32_t>(p.integer("sim.seed")));
  for (int32_t& v : x) v = static_cast<int32_t>(rng());
  uint64_t out_bytes = t.read_only ? uint64_t{t.tile_bytes} * cores : total;
  uint64_t xa = sim.alloc(0, "stream.x", total), ya = sim.alloc(0, "stream.y", out_bytes);
  sim.write(xa, x.data(), total);

  KernelRecord& rec = sim.run_kernel("stream", cores, [&](int) {
    return [=] {
      AscendC::TPipe pipe;
      kernels::KernelStream k;
      k.Init(reinterpret_cast<GM_ADDR>(xa), reinterpret_cast<GM_ADDR>(ya), t, &pipe);
      k.Process();
    };
  });

  // Golden: copy -> y == x; read -> per core, lane j of the accumulator is the wrapping sum of
  // element j of every tile.
  std::vector<int32_t> y(out_bytes / 4), want(out_bytes / 4, 0);
  sim.read(ya, y.data(), out_bytes);
  if (t.read_only) {
    uint64_t lanes = t.tile_bytes / 4, per_core = t.bytes_per_core / 4;
    for (int c = 0; c < cores; ++c)
      for (uint64_t i = 0; i < per_core; ++i) {
        uint32_t& w = reinterpret_cast<uint32_t&>(want[c * lanes + i % lanes]);
        w += static_cast<uint32_t>(x[c * per_core + i]);
      }
  } else {
    want = x;
  }
  for (size_t i = 0; i < y.size(); ++i)
    if (y[i] != want[i])
      throw SimError(kExitCheckFailed, "stream: y[" + std::to_string(i) +
                                           "] = " + std::to_string(y[i]) + ", golden " +
                                           std::to_string(want[i]));

  double ns = model::ps_to_ns(rec.latency());
  rec.extra["bytes"] = total;
  rec.extra["bandwidth_GBps"] = ns > 0 ? static_cast<double>(total) / ns : 0.0;
  rec.extra["mode"] = p.text("stream.mode");
  return "outputs match the golden reference (" + std::to_string(y.size()) + " int32 words)";
}

}  // namespace

KernelDef stream_kernel_def() {
  return {"stream", "each core streams GM through UB; aggregate GM read bandwidth", declare, run,
          dies};
}

}  // namespace ascend
