// `ub_write`: calibration of the fabric. Rank 0's core 0 first times one lone 512-B write into
// rank ub_write.dst's HCCL window; then ub_write.cores cores of rank 0 write ub_write.bytes in
// ub_write.chunk_bytes pieces into that window (contiguous shares per core), and the bandwidth of
// that bulk phase is reported. Each core's data is checked in the destination window.
#include "api/kernel_operator.h"
#include "kernels/kernel.h"
#include "models/errors.h"
#include "sim/field_params.h"

namespace ascend {

namespace {

using namespace AscendC;

struct UbWriteTiling {
  uint32_t cores = 1;
  uint64_t bytes = 1048576;
  uint32_t chunk = 16384;
  uint32_t dst = 1;
};

struct UbWriteTimes {  // filled by the kernel (simulator instrumentation)
  uint64_t probe_start = 0, probe_landed = 0, probe_done = 0, bulk_start = 0, bulk_done = 0;
};

uint8_t pattern(uint32_t core, uint64_t i) {
  return static_cast<uint8_t>(core * 37 + i * 11 + 5);
}

class KernelUbWrite {
 public:
  void Init(GM_ADDR src, const UbWriteTiling& t, UbWriteTimes* times) {
    t_ = t;
    times_ = times;
    uint32_t core = static_cast<uint32_t>(GetBlockIdx());
    share_ = t.bytes / t.cores;
    srcGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(src) + core * t.chunk, t.chunk);
    dstGm_.SetGlobalBuffer(GetWindAddrByRankId(t.dst), GetWindSize());
    pipe_.InitBuffer(buf_, t.chunk);
  }

  void Process() {
    uint32_t core = static_cast<uint32_t>(GetBlockIdx());
    LocalTensor<uint8_t> data = buf_.Get<uint8_t>();
    DataCopy(data, srcGm_, t_.chunk);
    SetFlag<HardEvent::MTE2_MTE3>(0);
    WaitFlag<HardEvent::MTE2_MTE3>(0);
    if (core == 0) {  // the lone 512-B write, timed from the start of its DMA
      PipeBarrier<PIPE_ALL>();
      DataCopy(dstGm_[t_.bytes], data, 512);
      times_->probe_start = SimNowPs();  // issued; the idle engine starts the DMA now
      SetFlag<HardEvent::MTE3_S>(0);
      WaitFlag<HardEvent::MTE3_S>(0);
      times_->probe_done = SimNowPs();
      times_->probe_landed = SimLastWriteLandedPs();
    }
    SyncAll();
    if (core == 0) times_->bulk_start = SimNowPs();
    for (uint64_t off = 0; off < share_; off += t_.chunk)
      DataCopy(dstGm_[core * share_ + off], data,
               static_cast<uint32_t>(std::min<uint64_t>(t_.chunk, share_ - off)));
    PipeBarrier<PIPE_ALL>();
    SyncAll();
    if (core == 0) times_->bulk_done = SimNowPs();
  }

 private:
  UbWriteTiling t_{};
  UbWriteTimes* times_ = nullptr;
  uint64_t share_ = 0;
  TPipe pipe_;
  TBuf<TPosition::VECCALC> buf_;
  GlobalTensor<uint8_t> srcGm_, dstGm_;
};

// The tiling's fields, each bound to its parameter (sim/field_params.h).
const std::vector<FieldParam<UbWriteTiling>>& attr_fields() {
  using T = UbWriteTiling;
  static const std::vector<FieldParam<T>> fields = {
      field<T>(
          int_param("ub_write.cores", "cores", kFromField, 1, 96, "cores of rank 0 that write",
                    "workload"),
          [](T & t) -> auto& { return t.cores; }),
      field<T>(
          int_param("ub_write.bytes", "B", kFromField, 512, 1e11,
                    "bytes written in all (split evenly over the cores; a multiple of 32 x "
                    "cores)",
                    "workload"),
          [](T & t) -> auto& { return t.bytes; }),
      field<T>(
          int_param("ub_write.chunk_bytes", "B", kFromField, 32, 131072,
                    "bytes per DMA (a multiple of 32)", "workload"),
          [](T & t) -> auto& { return t.chunk; }),
      field<T>(
          int_param("ub_write.dst", "rank", kFromField, 0, 767,
                    "destination rank (< ep.world_size): 1 is the other die of the chip, "
                    "2..15 the same node, 16 and up another node (a3)",
                    "workload"),
          [](T & t) -> auto& { return t.dst; })};
  return fields;
}

void declare(Params& p) {
  declare_fields(p, attr_fields());
}

int dies(const Params& p) {
  return ep_ranks(p, 2);
}

class UbWriteRun : public KernelRun {
 public:
  UbWriteRun(const Params& p, int ranks) : t_(read_fields(p, attr_fields())) {
    if (t_.dst >= static_cast<uint32_t>(ranks))
      throw SimError(kExitBadInput,
                     "ub_write.dst = " + std::to_string(t_.dst) +
                         " is not a rank of ep.world_size = " + std::to_string(ranks));
    if (t_.chunk % 32 || t_.bytes % (32ull * t_.cores))
      throw SimError(kExitBadInput,
                     "ub_write.chunk_bytes must be a multiple of 32 and ub_write.bytes a "
                     "multiple of 32 x ub_write.cores");
    require_window(p, "ub_write", t_.bytes + 512, "ub_write.bytes + 512");
  }

  void place(Simulation& sim) override {
    std::vector<uint8_t> src(uint64_t{t_.chunk} * t_.cores);
    for (uint32_t c = 0; c < t_.cores; ++c)
      for (uint32_t i = 0; i < t_.chunk; ++i) src[uint64_t{c} * t_.chunk + i] = pattern(c, i);
    sa_ = sim.alloc(0, "ub_write.src", src.size());
    sim.write(sa_, src.data(), src.size());
  }

  void launch(Simulation& sim) override {
    const uint64_t sa = sa_;
    const UbWriteTiling t = t_;
    rec_ = &sim.run_kernel("ub_write", static_cast<int>(t.cores), [&](int rank) {
      return [=, times = &times_] {
        if (rank != 0) return;
        KernelUbWrite k;
        k.Init(reinterpret_cast<GM_ADDR>(sa), t, times);
        k.Process();
      };
    });
  }

  void figures(Simulation& sim) override {
    double bulk_ns = model::ps_to_ns(times_.bulk_done - times_.bulk_start);
    rec_->figure("bytes", "B", t_.bytes);
    rec_->figure("bandwidth_GBps", "GB/s",
                 bulk_ns > 0 ? static_cast<double>(t_.bytes) / bulk_ns : 0.0);
    // One-way, as published latencies are: DMA start to the bytes landing at the target. The
    // core's DMA completes when the acknowledgement is back (fabric.write_response_ratio).
    rec_->figure("first_write_512B_latency_ns", "ns",
                 model::ps_to_ns(times_.probe_landed - times_.probe_start));
    rec_->figure("first_write_512B_completion_ns", "ns",
                 model::ps_to_ns(times_.probe_done - times_.probe_start));
    rec_->figure(
        "link_class", "name",
        t_.dst == 0 ? "local" : sim.cluster().fabric().link_class(0, static_cast<int>(t_.dst)));
  }

  std::string check(Simulation& sim, bool) override {
    uint64_t share = t_.bytes / t_.cores;
    std::vector<uint8_t> got(t_.bytes);
    sim.read(sim.window(static_cast<int>(t_.dst)), got.data(), t_.bytes);
    for (uint64_t i = 0; i < t_.bytes; ++i) {
      uint32_t core = static_cast<uint32_t>(i / share);
      uint8_t want = pattern(core, (i % share) % t_.chunk);
      if (got[i] != want)
        return "rank " + std::to_string(t_.dst) + " window byte " + std::to_string(i) + " = " +
               std::to_string(got[i]) + ", golden " + std::to_string(want);
    }
    return "";
  }

  std::string checked(bool) const override {
    return "the destination window holds every byte written (" + std::to_string(t_.bytes) + " B)";
  }

 private:
  UbWriteTiling t_;
  uint64_t sa_ = 0;
  UbWriteTimes times_;
  KernelRecord* rec_ = nullptr;
};

std::unique_ptr<KernelRun> plan(const Params& p, int ranks) {
  return std::make_unique<UbWriteRun>(p, ranks);
}

}  // namespace

ASCEND_SIM_KERNEL(ub_write_kernel_def, 100);

KernelDef ub_write_kernel_def() {
  return {"ub_write", "rank 0 writes into another rank's window: 512-B latency and bandwidth",
          declare, dies, plan};
}

}  // namespace ascend
