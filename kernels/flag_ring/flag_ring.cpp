// `flag_ring`: the smallest cross-die kernel, and the scale probe. Every core of every rank writes
// one 32-B flag (its rank + 1) into slot `core` of the next rank's status window, then polls its
// own slot (MTE2 read, then the scalar looks) until the previous rank's flag arrives, clears it,
// and records what it saw. The check: every core saw exactly its predecessor's flag.
#include "api/kernel_operator.h"
#include "kernels/kernel.h"
#include "models/errors.h"
#include "sim/field_params.h"

namespace ascend {

namespace {

using namespace AscendC;

class KernelFlagRing {
 public:
  void Init(GM_ADDR seen) {
    uint32_t rank = GetRankId(), ranks = GetRankDim(), core = static_cast<uint32_t>(GetBlockIdx());
    next_.SetGlobalBuffer(
        reinterpret_cast<__gm__ int32_t*>(GetWindStateAddrByRankId((rank + 1) % ranks)) + core * 8,
        8);
    mine_.SetGlobalBuffer(
        reinterpret_cast<__gm__ int32_t*>(GetWindStateAddrByRankId(rank)) + core * 8, 8);
    seen_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(seen) + core, 1);
    pipe_.InitBuffer(out_, 32);
    pipe_.InitBuffer(in_, 32);
    rank_ = rank;
  }

  void Process() {
    LocalTensor<int32_t> flag = out_.Get<int32_t>();
    Duplicate(flag, static_cast<int32_t>(rank_ + 1), 8);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(next_, flag, 8);
    LocalTensor<int32_t> poll = in_.Get<int32_t>();
    int32_t value = 0;
    SimPollUntil([&] {
      DataCopy(poll, mine_, 8);
      SetFlag<HardEvent::MTE2_S>(0);
      WaitFlag<HardEvent::MTE2_S>(0);
      value = poll.GetValue(0);
      return value != 0;
    });
    seen_.SetValue(0, value);
    PipeBarrier<PIPE_ALL>();
  }

 private:
  uint32_t rank_ = 0;
  TPipe pipe_;
  TBuf<TPosition::VECCALC> out_, in_;
  GlobalTensor<int32_t> next_, mine_, seen_;
};

// The kernel's attributes, each bound to its parameter (sim/field_params.h).
struct FlagRingAttrs {
  int cores = 48;
};

const std::vector<FieldParam<FlagRingAttrs>>& attr_fields() {
  using A = FlagRingAttrs;
  static const std::vector<FieldParam<A>> fields = {field<A>(
      int_param("flag_ring.cores", "cores", kFromField, 1, 96, "cores per rank taking part",
                "workload"),
      [](A & a) -> auto& { return a.cores; })};
  return fields;
}

void declare(Params& p) {
  declare_fields(p, attr_fields());
}

int dies(const Params& p) {
  const int ranks = ep_ranks(p, 2);  // 0: the default, 2
  if (ranks < 2)
    throw SimError(kExitBadInput,
                   "flag_ring needs ep.world_size >= 2 (got " + p.text("ep.world_size") + ")");
  return ranks;
}

class FlagRingRun : public KernelRun {
 public:
  FlagRingRun(const Params& p, int ranks)
      : cores_(read_fields(p, attr_fields()).cores), ranks_(ranks) {}

  void place(Simulation& sim) override {
    for (int r = 0; r < ranks_; ++r) seen_.push_back(sim.alloc(r, "flag_ring.seen", 4ull * cores_));
  }

  void launch(Simulation& sim) override {
    sim.run_kernel("flag_ring", cores_, [&](int rank) {
      uint64_t s = seen_[rank];
      return [s] {
        KernelFlagRing k;
        k.Init(reinterpret_cast<GM_ADDR>(s));
        k.Process();
      };
    });
  }

  std::string check(Simulation& sim, bool) override {
    for (int r = 0; r < ranks_; ++r) {
      std::vector<int32_t> got(cores_);
      sim.read(seen_[r], got.data(), 4ull * cores_);
      int32_t want = (r + ranks_ - 1) % ranks_ + 1;
      for (int c = 0; c < cores_; ++c)
        if (got[c] != want)
          return "rank " + std::to_string(r) + " core " + std::to_string(c) + " saw flag " +
                 std::to_string(got[c]) + ", golden " + std::to_string(want);
    }
    return "";
  }

  std::string checked(bool) const override {
    return "every core saw its predecessor's flag (" + std::to_string(ranks_) + " ranks x " +
           std::to_string(cores_) + " cores)";
  }

 private:
  int cores_, ranks_;
  std::vector<uint64_t> seen_;
};

std::unique_ptr<KernelRun> plan(const Params& p, int ranks) {
  return std::make_unique<FlagRingRun>(p, ranks);
}

}  // namespace

ASCEND_SIM_KERNEL(flag_ring_kernel_def, 120);

KernelDef flag_ring_kernel_def() {
  return {"flag_ring", "every core writes a flag to the next rank and waits for its own", declare,
          dies, plan};
}

}  // namespace ascend
