// Host side of `reduce_sum`: its parameters, inputs, launch, figures and golden check. The whole
// kernel is this folder: it registers itself (ASCEND_SIM_KERNEL below).
#include <cstring>
#include <random>
#include <utility>

#include "kernels/kernel.h"
#include "kernels/reduce_sum/reduce_sum_kernel.h"
#include "models/errors.h"
#include "sim/field_params.h"

namespace ascend {

namespace {

// The kernel's attributes, each bound to its parameter (sim/field_params.h): declared once, with
// the field's initializer as its default, and read as fields.
struct ReduceSumAttrs {
  kernels::ReduceSumTiling tiling;
  int cores = 8;
};

const std::vector<FieldParam<ReduceSumAttrs>>& attr_fields() {
  using A = ReduceSumAttrs;
  static const std::vector<FieldParam<A>> fields = {
      field<A>(
          int_param("reduce_sum.rows", "rows", kFromField, 1, 1000000, "rows of x (summed over)",
                    "workload"),
          [](A & a) -> auto& { return a.tiling.rows; }),
      field<A>(
          int_param("reduce_sum.cols", "columns", kFromField, 64, 100000000,
                    "columns of x (a multiple of 64: 256-B units)", "workload"),
          [](A & a) -> auto& { return a.tiling.cols; }),
      field<A>(
          int_param("reduce_sum.tile_cols", "columns", kFromField, 64, 16384,
                    "columns per DMA and per Add (a multiple of 64)", "workload"),
          [](A & a) -> auto& { return a.tiling.tile_cols; }),
      field<A>(
          int_param("reduce_sum.cores", "cores", kFromField, 1, 96,
                    "cores the columns are split over (at most die.aiv_count)", "workload"),
          [](A & a) -> auto& { return a.cores; }),
      field<A>(
          int_param("reduce_sum.buffer_num", "", kFromField, 1, 2,
                    "VECIN buffers (2 = double buffer)", "workload"),
          [](A & a) -> auto& { return a.tiling.buffer_num; })};
  return fields;
}

void declare(Params& p) {
  declare_fields(p, attr_fields());
}

int dies(const Params& p) {
  return single_die(p, "reduce_sum");
}

class ReduceSumRun : public KernelRun {
 public:
  explicit ReduceSumRun(const Params& p)
      : p_(p), a_(read_fields(p, attr_fields())), t_(a_.tiling), cores_(a_.cores) {
    for (auto [key, value] : {std::pair<const char*, uint32_t>{"reduce_sum.cols", t_.cols},
                              {"reduce_sum.tile_cols", t_.tile_cols}})
      if (value % kernels::KernelColumnSum::kUnit)
        throw SimError(kExitBadInput, std::string(key) + " = " + std::to_string(value) +
                                          " is not a multiple of 64");
  }

  // x: uniform in [-1, 1); its sums round at every add, so the golden must add in the kernel's
  // order to match bit for bit.
  void place(Simulation& sim) override {
    const uint64_t n = uint64_t{t_.rows} * t_.cols;
    x_.resize(n);
    std::mt19937 rng(static_cast<uint32_t>(p_.integer("sim.seed")));
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (float& v : x_) v = dist(rng);
    xa_ = sim.alloc(0, "reduce_sum.x", n * 4);
    ya_ = sim.alloc(0, "reduce_sum.y", uint64_t{t_.cols} * 4);
    sim.write(xa_, x_.data(), n * 4);
  }

  void launch(Simulation& sim) override {
    const uint64_t xa = xa_, ya = ya_;
    const kernels::ReduceSumTiling t = t_;
    rec_ = &sim.run_kernel("reduce_sum", cores_, [&](int) {
      return [=] {
        AscendC::TPipe pipe;
        kernels::KernelColumnSum k;
        k.Init(reinterpret_cast<GM_ADDR>(xa), reinterpret_cast<GM_ADDR>(ya), t, &pipe);
        k.Process();
      };
    });
  }

  void figures(Simulation&) override {
    const double ns = model::ps_to_ns(rec_->latency());
    const uint64_t bytes = uint64_t{t_.rows} * t_.cols * 4;
    rec_->figure("bytes", "B", bytes);
    rec_->figure("bandwidth_GBps", "GB/s", ns > 0 ? static_cast<double>(bytes) / ns : 0.0);
  }

  // Golden: per column, +0 then every row added in order in fp32.
  std::string check(Simulation& sim, bool) override {
    std::vector<float> y(t_.cols), want(t_.cols, 0.0f);
    sim.read(ya_, y.data(), uint64_t{t_.cols} * 4);
    for (uint32_t r = 0; r < t_.rows; ++r)
      for (uint32_t c = 0; c < t_.cols; ++c) want[c] += x_[uint64_t{r} * t_.cols + c];
    for (uint32_t c = 0; c < t_.cols; ++c)
      if (std::memcmp(&y[c], &want[c], 4) != 0)
        return "y[" + std::to_string(c) + "] = " + std::to_string(y[c]) + ", golden " +
               std::to_string(want[c]);
    return "";
  }

  std::string checked(bool) const override {
    return "outputs match the golden reference (" + std::to_string(t_.cols) + " fp32 sums)";
  }

 private:
  const Params& p_;
  const ReduceSumAttrs a_;
  const kernels::ReduceSumTiling t_;
  const int cores_;
  uint64_t xa_ = 0, ya_ = 0;
  std::vector<float> x_;
  KernelRecord* rec_ = nullptr;
};

std::unique_ptr<KernelRun> plan(const Params& p, int) {
  return std::make_unique<ReduceSumRun>(p);
}

}  // namespace

ASCEND_SIM_KERNEL(reduce_sum_kernel_def, 75);

KernelDef reduce_sum_kernel_def() {
  KernelDef k{"reduce_sum", "column sums of an fp32 matrix over several cores (a small example)",
              declare, dies, plan};
  k.shorthands = {seed_flag()};
  return k;
}

}  // namespace ascend
