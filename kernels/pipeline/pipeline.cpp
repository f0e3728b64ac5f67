// Host side of `pipeline`: tiling checks, inputs, launch, golden check.
#include <cstring>
#include <random>

#include "kernels/kernel.h"
#include "kernels/pipeline/pipeline_kernel.h"
#include "models/errors.h"
#include "sim/field_params.h"

namespace ascend {

namespace {

// The tiling's fields, each bound to its parameter (sim/field_params.h).
const std::vector<FieldParam<kernels::PipelineTiling>>& attr_fields() {
  using T = kernels::PipelineTiling;
  static const std::vector<FieldParam<T>> fields = {
      field<T>(
          int_param("pipeline.tiles", "tiles", kFromField, 1, 1000000, "tiles the core processes",
                    "workload"),
          [](T & t) -> auto& { return t.tiles; }),
      field<T>(
          int_param("pipeline.tile_bytes", "B", kFromField, 256, 65536,
                    "bytes per tile (a multiple of 256: whole vector repeats)", "workload"),
          [](T & t) -> auto& { return t.tile_bytes; }),
      field<T>(
          int_param("pipeline.vector_repeats", "repeats", kFromField, 1, 10000000,
                    "256-B vector repeats of Compute per tile (at least tile_bytes/256: "
                    "every element is scaled at least once)",
                    "workload"),
          [](T & t) -> auto& { return t.vector_repeats; }),
      field<T>(
          int_param("pipeline.buffer_num", "", kFromField, 1, 2,
                    "buffers per queue (2 = double buffer)", "workload"),
          [](T & t) -> auto& { return t.buffer_num; })};
  return fields;
}

void declare(Params& p) {
  declare_fields(p, attr_fields());
}

int dies(const Params& p) {
  return single_die(p, "pipeline");
}

class PipelineRun : public KernelRun {
 public:
  explicit PipelineRun(const Params& p) : p_(p), t_(read_fields(p, attr_fields())) {
    per_tile_ = t_.tile_bytes / 256;
    if (t_.tile_bytes % 256)
      throw SimError(kExitBadInput, "pipeline.tile_bytes = " + std::to_string(t_.tile_bytes) +
                                        " is not a multiple of 256");
    if (t_.vector_repeats < per_tile_)
      throw SimError(kExitBadInput,
                     "pipeline.vector_repeats = " + std::to_string(t_.vector_repeats) +
                         " is below tile_bytes/256 = " + std::to_string(per_tile_));
    n_ = uint64_t{t_.tiles} * (t_.tile_bytes / 4);
  }

  void place(Simulation& sim) override {
    x_.resize(n_);
    std::mt19937 rng(static_cast<uint32_t>(p_.integer("sim.seed")));
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    for (float& v : x_) v = dist(rng);
    xa_ = sim.alloc(0, "pipeline.x", n_ * 4);
    ya_ = sim.alloc(0, "pipeline.y", n_ * 4);
    sim.write(xa_, x_.data(), n_ * 4);
  }

  void launch(Simulation& sim) override {
    const uint64_t xa = xa_, ya = ya_;
    const kernels::PipelineTiling t = t_;
    rec_ = &sim.run_kernel("pipeline", 1, [&](int) {
      return [=] {
        AscendC::TPipe pipe;
        kernels::KernelPipeline k;
        k.Init(reinterpret_cast<GM_ADDR>(xa), reinterpret_cast<GM_ADDR>(ya), t, &pipe);
        k.Process();
      };
    });
  }

  void figures(Simulation&) override {
    rec_->figure("tiles", "count", t_.tiles);
    rec_->figure("bytes", "B", n_ * 4);
    rec_->figure("buffer_num", "count", t_.buffer_num);
  }

  std::string check(Simulation& sim, bool) override {
    std::vector<float> y(n_);
    sim.read(ya_, y.data(), n_ * 4);
    for (uint64_t i = 0; i < n_; ++i) {
      uint32_t block = static_cast<uint32_t>((i % (t_.tile_bytes / 4)) / 64);
      uint32_t times =
          t_.vector_repeats / per_tile_ + (block < t_.vector_repeats % per_tile_ ? 1 : 0);
      float want = x_[i];
      for (uint32_t k = 0; k < times; ++k) want *= t_.factor;
      if (std::memcmp(&want, &y[i], 4) != 0)
        return "y[" + std::to_string(i) + "] = " + std::to_string(y[i]) + ", golden " +
               std::to_string(want);
    }
    return "";
  }

  std::string checked(bool) const override {
    return "outputs match the golden reference (" + std::to_string(n_) + " fp32 values)";
  }

 private:
  const Params& p_;
  const kernels::PipelineTiling t_;
  uint32_t per_tile_ = 1;
  uint64_t n_ = 0, xa_ = 0, ya_ = 0;
  std::vector<float> x_;
  KernelRecord* rec_ = nullptr;
};

std::unique_ptr<KernelRun> plan(const Params& p, int) {
  return std::make_unique<PipelineRun>(p);
}

}  // namespace

ASCEND_SIM_KERNEL(pipeline_kernel_def, 70);

KernelDef pipeline_kernel_def() {
  KernelDef k{"pipeline", "one core: MTE2 -> VECTOR -> MTE3 per tile; shows double buffering",
              declare, dies, plan};
  k.shorthands = {seed_flag()};
  return k;
}

}  // namespace ascend
