// `dma_probe`: calibration of one core's DMA engines. Core 0 of rank 0 times one lone DMA of
// dma_probe.bytes, from its issue to the flag that says it is done: GM -> UB on MTE2 (read) or
// UB -> GM on MTE3 (write), the measurement of Huawei's mskpp per-instruction tables. The bytes
// then go the other way, untimed, and the destination is checked against the source.
#include "api/kernel_operator.h"
#include "kernels/kernel.h"
#include "models/errors.h"
#include "sim/field_params.h"

namespace ascend {

namespace {

using namespace AscendC;

struct DmaProbeTimes {  // filled by the kernel (simulator instrumentation)
  uint64_t start = 0, done = 0;
};

uint8_t pattern(uint64_t i) {
  return static_cast<uint8_t>(i * 13 + 7);
}

class KernelDmaProbe {
 public:
  void Init(GM_ADDR src, GM_ADDR dst, uint32_t bytes, bool write, DmaProbeTimes* times) {
    bytes_ = bytes;
    write_ = write;
    times_ = times;
    srcGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(src), bytes);
    dstGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(dst), bytes);
    pipe_.InitBuffer(buf_, bytes);
  }

  void Process() {
    LocalTensor<uint8_t> ub = buf_.Get<uint8_t>();
    if (!write_) {
      Timed([&] { DataCopy(ub, srcGm_, bytes_); }, HardEvent::MTE2_S);
      SetFlag<HardEvent::MTE2_MTE3>(0);
      WaitFlag<HardEvent::MTE2_MTE3>(0);
      DataCopy(dstGm_, ub, bytes_);
    } else {
      DataCopy(ub, srcGm_, bytes_);
      SetFlag<HardEvent::MTE2_MTE3>(0);
      WaitFlag<HardEvent::MTE2_MTE3>(0);
      Timed([&] { DataCopy(dstGm_, ub, bytes_); }, HardEvent::MTE3_S);
    }
    PipeBarrier<PIPE_ALL>();
  }

 private:
  // Issue into an idle core, so that the engine starts the DMA when it is issued.
  template <class F>
  void Timed(F issue, HardEvent done) {
    PipeBarrier<PIPE_ALL>();
    times_->start = SimNowPs();
    issue();
    if (done == HardEvent::MTE2_S) {
      SetFlag<HardEvent::MTE2_S>(0);
      WaitFlag<HardEvent::MTE2_S>(0);
    } else {
      SetFlag<HardEvent::MTE3_S>(0);
      WaitFlag<HardEvent::MTE3_S>(0);
    }
    times_->done = SimNowPs();
  }

  uint32_t bytes_ = 0;
  bool write_ = false;
  DmaProbeTimes* times_ = nullptr;
  TPipe pipe_;
  TBuf<TPosition::VECCALC> buf_;
  GlobalTensor<uint8_t> srcGm_, dstGm_;
};

// The kernel's attributes, each bound to its parameter (sim/field_params.h).
struct DmaProbeAttrs {
  uint32_t bytes = 16384;
  std::string dir = "read";
};

const std::vector<FieldParam<DmaProbeAttrs>>& attr_fields() {
  using A = DmaProbeAttrs;
  static const std::vector<FieldParam<A>> fields = {
      field<A>(
          int_param("dma_probe.bytes", "B", kFromField, 32, 196608,
                    "bytes of the timed DMA (a multiple of 32, at most the UB)", "workload"),
          [](A & a) -> auto& { return a.bytes; }),
      field<A>(
          choice_param("dma_probe.dir", kFromField, {"read", "write"},
                       "read: GM -> UB on MTE2; write: UB -> GM on MTE3", "workload"),
          [](A & a) -> auto& { return a.dir; })};
  return fields;
}

void declare(Params& p) {
  declare_fields(p, attr_fields());
}

int dies(const Params& p) {
  return single_die(p, "dma_probe");
}

class DmaProbeRun : public KernelRun {
 public:
  explicit DmaProbeRun(const Params& p) : DmaProbeRun(p, read_fields(p, attr_fields())) {}
  DmaProbeRun(const Params& p, const DmaProbeAttrs& a) : bytes_(a.bytes), write_(a.dir == "write") {
    if (bytes_ % 32)
      throw SimError(kExitBadInput, "dma_probe.bytes = " + std::to_string(bytes_) +
                                        " is not a multiple of 32 (UB blocks are 32 B)");
    uint64_t ub = static_cast<uint64_t>(p.integer("ub.size_KiB")) * 1024;
    if (bytes_ > ub)
      throw SimError(kExitBadInput,
                     "dma_probe.bytes = " + std::to_string(bytes_) +
                         " does not fit the UB (ub.size_KiB = " + std::to_string(ub / 1024) + ")");
  }

  void place(Simulation& sim) override {
    std::vector<uint8_t> src(bytes_);
    for (uint32_t i = 0; i < bytes_; ++i) src[i] = pattern(i);
    src_ = sim.alloc(0, "dma_probe.src", bytes_);
    dst_ = sim.alloc(0, "dma_probe.dst", bytes_);
    sim.write(src_, src.data(), src.size());
  }

  void launch(Simulation& sim) override {
    const uint64_t src = src_, dst = dst_;
    const uint32_t bytes = bytes_;
    const bool write = write_;
    rec_ = &sim.run_kernel("dma_probe", 1, [&](int) {
      return [=, times = &times_] {
        KernelDmaProbe k;
        k.Init(reinterpret_cast<GM_ADDR>(src), reinterpret_cast<GM_ADDR>(dst), bytes, write, times);
        k.Process();
      };
    });
  }

  void figures(Simulation&) override {
    double ns = model::ps_to_ns(times_.done - times_.start);
    rec_->figure("bytes", "B", bytes_);
    rec_->figure("dir", "name", write_ ? "write" : "read");
    rec_->figure("instr_ns", "ns", ns);
    rec_->figure("bandwidth_GBps", "GB/s", ns > 0 ? bytes_ / ns : 0.0);
  }

  std::string check(Simulation& sim, bool) override {
    std::vector<uint8_t> got(bytes_);
    sim.read(dst_, got.data(), bytes_);
    for (uint32_t i = 0; i < bytes_; ++i)
      if (got[i] != pattern(i))
        return "dst byte " + std::to_string(i) + " = " + std::to_string(got[i]) + ", golden " +
               std::to_string(pattern(i));
    return "";
  }

  std::string checked(bool) const override {
    return "the destination holds every byte of the source (" + std::to_string(bytes_) + " B)";
  }

 private:
  uint32_t bytes_;
  bool write_;
  uint64_t src_ = 0, dst_ = 0;
  DmaProbeTimes times_;
  KernelRecord* rec_ = nullptr;
};

std::unique_ptr<KernelRun> plan(const Params& p, int) {
  return std::make_unique<DmaProbeRun>(p);
}

}  // namespace

ASCEND_SIM_KERNEL(dma_probe_kernel_def, 110);

KernelDef dma_probe_kernel_def() {
  return {"dma_probe", "one core times one lone DMA (MTE2 read or MTE3 write) by size", declare,
          dies, plan};
}

}  // namespace ascend
