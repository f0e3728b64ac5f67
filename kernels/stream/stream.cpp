// Host side of `stream`: tiling, inputs, launch, golden check, bandwidth figures.
#include <random>

#include "kernels/kernel.h"
#include "kernels/stream/stream_kernel.h"
#include "models/errors.h"
#include "sim/field_params.h"

namespace ascend {

namespace {

// The kernel's attributes, each bound to its parameter (sim/field_params.h).
// The tiling's fields are bound directly; the core count is the launch's.
struct StreamAttrs {
  int cores = 1;
  kernels::StreamTiling tiling;
};

const std::vector<FieldParam<StreamAttrs>>& attr_fields() {
  using A = StreamAttrs;
  static const std::vector<FieldParam<A>> fields = {
      field<A>(
          int_param("stream.cores", "cores", kFromField, 1, 96,
                    "cores streaming at once (at most die.aiv_count)", "workload"),
          [](A & a) -> auto& { return a.cores; }),
      field<A>(
          int_param("stream.bytes_per_core", "B", kFromField, 32, 1e12,
                    "bytes each core streams (a multiple of 32)", "workload"),
          [](A & a) -> auto& { return a.tiling.bytes_per_core; }),
      field<A>(
          int_param("stream.tile_bytes", "B", kFromField, 32, 1048576,
                    "bytes per DMA (a multiple of 32; buffer_num tiles must fit in UB)",
                    "workload"),
          [](A & a) -> auto& { return a.tiling.tile_bytes; }),
      field<A>(
          int_param("stream.buffer_num", "", kFromField, 1, 2,
                    "UB buffers per queue (2 = double buffer)", "workload"),
          [](A & a) -> auto& { return a.tiling.buffer_num; }),
      choice_field<A>(
          "stream.mode", {{"read", true}, {"copy", false}},
          "read: GM->UB and a vector checksum; copy: GM->UB->GM", "workload",
          [](A & a) -> auto& { return a.tiling.read_only; })};
  return fields;
}

void declare(Params& p) {
  declare_fields(p, attr_fields());
}

int dies(const Params& p) {
  return single_die(p, "stream");
}

class StreamRun : public KernelRun {
 public:
  explicit StreamRun(const Params& p)
      : p_(p), a_(read_fields(p, attr_fields())), cores_(a_.cores), t_(a_.tiling) {
    if (t_.bytes_per_core % 32 || t_.tile_bytes % 32)
      throw SimError(kExitBadInput,
                     "stream.bytes_per_core and stream.tile_bytes must be multiples of 32 (got " +
                         std::to_string(t_.bytes_per_core) + ", " + std::to_string(t_.tile_bytes) +
                         ")");
    total_ = t_.bytes_per_core * static_cast<uint64_t>(cores_);
    out_bytes_ = t_.read_only ? uint64_t{t_.tile_bytes} * cores_ : total_;
  }

  void place(Simulation& sim) override {
    x_.resize(total_ / 4);
    std::mt19937 rng(static_cast<uint32_t>(p_.integer("sim.seed")));
    for (int32_t& v : x_) v = static_cast<int32_t>(rng());
    xa_ = sim.alloc(0, "stream.x", total_);
    ya_ = sim.alloc(0, "stream.y", out_bytes_);
    sim.write(xa_, x_.data(), total_);
  }

  void launch(Simulation& sim) override {
    const uint64_t xa = xa_, ya = ya_;
    const kernels::StreamTiling t = t_;
    rec_ = &sim.run_kernel("stream", cores_, [&](int) {
      return [=] {
        AscendC::TPipe pipe;
        kernels::KernelStream k;
        k.Init(reinterpret_cast<GM_ADDR>(xa), reinterpret_cast<GM_ADDR>(ya), t, &pipe);
        k.Process();
      };
    });
  }

  void figures(Simulation&) override {
    double ns = model::ps_to_ns(rec_->latency());
    rec_->figure("bytes", "B", total_);
    rec_->figure("bandwidth_GBps", "GB/s", ns > 0 ? static_cast<double>(total_) / ns : 0.0);
    rec_->figure("mode", "name", t_.read_only ? "read" : "copy");
  }

  // Golden: copy -> y == x; read -> per core, lane j of the accumulator is the wrapping sum of
  // element j of every tile.
  std::string check(Simulation& sim, bool) override {
    std::vector<int32_t> y(out_bytes_ / 4), want(out_bytes_ / 4, 0);
    sim.read(ya_, y.data(), out_bytes_);
    if (t_.read_only) {
      uint64_t lanes = t_.tile_bytes / 4, per_core = t_.bytes_per_core / 4;
      for (int c = 0; c < cores_; ++c)
        for (uint64_t i = 0; i < per_core; ++i) {
          uint32_t& w = reinterpret_cast<uint32_t&>(want[c * lanes + i % lanes]);
          w += static_cast<uint32_t>(x_[c * per_core + i]);
        }
    } else {
      want = x_;
    }
    for (size_t i = 0; i < y.size(); ++i)
      if (y[i] != want[i])
        return "y[" + std::to_string(i) + "] = " + std::to_string(y[i]) + ", golden " +
               std::to_string(want[i]);
    return "";
  }

  std::string checked(bool) const override {
    return "outputs match the golden reference (" + std::to_string(out_bytes_ / 4) +
           " int32 words)";
  }

 private:
  const Params& p_;
  const StreamAttrs a_;
  const int cores_;
  const kernels::StreamTiling t_;
  uint64_t total_ = 0, out_bytes_ = 0, xa_ = 0, ya_ = 0;
  std::vector<int32_t> x_;
  KernelRecord* rec_ = nullptr;
};

std::unique_ptr<KernelRun> plan(const Params& p, int) {
  return std::make_unique<StreamRun>(p);
}

}  // namespace

ASCEND_SIM_KERNEL(stream_kernel_def, 80);

KernelDef stream_kernel_def() {
  KernelDef k{"stream", "each core streams GM through UB; aggregate GM read bandwidth", declare,
              dies, plan};
  k.shorthands = {seed_flag()};
  return k;
}

}  // namespace ascend
