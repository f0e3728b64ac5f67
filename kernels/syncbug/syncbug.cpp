// `syncbug`: a correct little kernel and the classic ways to break its synchronisation, so that a
// kernel engineer can see what each bug looks like on the simulator. Every core loads its tile in
// two halves through one UB buffer, doubles each half on VECTOR, stores it, then all cores meet
// in a SyncAll.
//   none           correct: the check passes, and --racecheck finds nothing
//   missing_flag   no MTE2->V flag: the vector op reads the UB before the copy lands (exit 4;
//                  --racecheck names the two instructions, exit 6)
//   no_reuse_wait  no MTE3->MTE2 flag before the second half reuses the buffer: the load may
//                  overwrite bytes the store has not read yet. At the default timing the store
//                  happens to read first, so the check passes; --racecheck catches it (exit 6)
//   unset_flag     WaitFlag<MTE2_V> with no SetFlag: deadlock report (exit 3)
//   skip_syncall   the last core never reaches SyncAll: deadlock report (exit 3)
#include <random>

#include "api/kernel_operator.h"
#include "kernels/kernel.h"
#include "models/errors.h"
#include "sim/field_params.h"

namespace ascend {

namespace {

using namespace AscendC;

constexpr uint32_t kTile = 4096;  // fp32 elements per core
constexpr uint32_t kHalf = kTile / 2;

class KernelSyncBug {
 public:
  void Init(GM_ADDR x, GM_ADDR y, const std::string& bug) {
    bug_ = bug;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + GetBlockIdx() * kTile, kTile);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + GetBlockIdx() * kTile, kTile);
    pipe_.InitBuffer(buf_, kHalf * sizeof(float));
  }
  void Process() {
    LocalTensor<float> t = buf_.Get<float>();
    for (uint32_t half = 0; half < 2; ++half) {
      if (half > 0 && bug_ != "no_reuse_wait") {  // the store has read the buffer
        SetFlag<HardEvent::MTE3_MTE2>(0);
        WaitFlag<HardEvent::MTE3_MTE2>(0);
      }
      DataCopy(t, xGm_[half * kHalf], kHalf);
      if (bug_ != "missing_flag") {
        if (bug_ != "unset_flag") SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
      }
      Muls(t, t, 2.0f, kHalf);
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopy(yGm_[half * kHalf], t, kHalf);
    }
    PipeBarrier<PIPE_ALL>();
    if (bug_ == "skip_syncall" && GetBlockIdx() == GetBlockNum() - 1) return;
    SyncAll();
  }

 private:
  std::string bug_;
  TPipe pipe_;
  TBuf<TPosition::VECCALC> buf_;
  GlobalTensor<float> xGm_, yGm_;
};

// The kernel's attributes, each bound to its parameter (sim/field_params.h).
struct SyncBugAttrs {
  int cores = 4;
  std::string bug = "none";
};

const std::vector<FieldParam<SyncBugAttrs>>& attr_fields() {
  using A = SyncBugAttrs;
  static const std::vector<FieldParam<A>> fields = {
      field<A>(
          int_param("syncbug.cores", "cores", kFromField, 1, 96, "cores running the kernel",
                    "workload"),
          [](A & a) -> auto& { return a.cores; }),
      field<A>(
          choice_param("syncbug.bug", kFromField,
                       {"none", "missing_flag", "no_reuse_wait", "unset_flag", "skip_syncall"},
                       "which synchronisation bug to plant", "workload"),
          [](A & a) -> auto& { return a.bug; })};
  return fields;
}

void declare(Params& p) {
  declare_fields(p, attr_fields());
}

int dies(const Params& p) {
  return single_die(p, "syncbug");
}

class SyncBugRun : public KernelRun {
 public:
  explicit SyncBugRun(const Params& p) : SyncBugRun(p, read_fields(p, attr_fields())) {}
  SyncBugRun(const Params& p, const SyncBugAttrs& a)
      : p_(p), cores_(a.cores), bug_(a.bug), n_(uint64_t{kTile} * static_cast<uint64_t>(cores_)) {}

  void place(Simulation& sim) override {
    x_.resize(n_);
    std::mt19937 rng(static_cast<uint32_t>(p_.integer("sim.seed")));
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (float& v : x_) v = dist(rng);
    xa_ = sim.alloc(0, "syncbug.x", n_ * 4);
    ya_ = sim.alloc(0, "syncbug.y", n_ * 4);
    sim.write(xa_, x_.data(), n_ * 4);
  }

  void launch(Simulation& sim) override {
    const uint64_t xa = xa_, ya = ya_;
    const std::string bug = bug_;
    sim.run_kernel("syncbug", cores_, [&](int) {
      return [=] {
        KernelSyncBug k;
        k.Init(reinterpret_cast<GM_ADDR>(xa), reinterpret_cast<GM_ADDR>(ya), bug);
        k.Process();
      };
    });
  }

  std::string check(Simulation& sim, bool) override {
    std::vector<float> y(n_);
    sim.read(ya_, y.data(), n_ * 4);
    for (uint64_t i = 0; i < n_; ++i)
      if (y[i] != x_[i] * 2.0f)
        return "tensor y, row " + std::to_string(i / kTile) + " (core), column " +
               std::to_string(i % kTile) + ": " + std::to_string(y[i]) + ", golden " +
               std::to_string(x_[i] * 2.0f);
    return "";
  }

  std::string checked(bool) const override {
    return "outputs match the golden reference (" + std::to_string(n_) + " fp32 values)";
  }

 private:
  const Params& p_;
  int cores_;
  std::string bug_;
  uint64_t n_, xa_ = 0, ya_ = 0;
  std::vector<float> x_;
};

std::unique_ptr<KernelRun> plan(const Params& p, int) {
  return std::make_unique<SyncBugRun>(p);
}

}  // namespace

ASCEND_SIM_KERNEL(syncbug_kernel_def, 90);

KernelDef syncbug_kernel_def() {
  KernelDef k{"syncbug", "plants a synchronisation bug (syncbug.bug) to show how it is reported",
              declare, dies, plan};
  k.shorthands = {seed_flag()};
  return k;
}

}  // namespace ascend
