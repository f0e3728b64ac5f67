// KernelFfnWorkerScheduler, NORM mode only: core 0 waits for the sessions of the micro-batch and
// fills the ScheduleContext's output area (the companion op FfnWorkerScheduler, reduced to what
// FfnWorkerBatching reads).
#pragma once

#include "kernels/ffn_worker_batching/ffn_device.h"

namespace ascend::ffn {

using namespace AscendC;

// NORM mode's FfnWorkerScheduler (core 0): collects out_num sessions of the current micro-batch
// and fills layer_ids_buf, session_ids_buf, micro_batch_ids_buf, expert_ids_buf and out_num.
class KernelFfnWorkerScheduler {
 public:
  __aicore__ void Init(const FfnArgs& args) {
    g_ = args;
    core_ = static_cast<int>(GetBlockIdx());
  }
  __aicore__ void Process() {
    if (core_ == 0) Collect();
    PipeBarrier<PIPE_ALL>();
    SyncAll();
  }

 private:
  void Collect() {
    const Attrs& a = g_.attrs;
    const int n = sessions(a);
    const int64_t words = info_words(a), eps = entries_per_session(a);
    GlobalTensor<uint64_t> ctx64;
    ctx64.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(g_.context), ctx::kBytes / 8);
    GlobalTensor<uint32_t> ctx32;
    ctx32.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(g_.context), ctx::kBytes / 4);
    int m = static_cast<int>(ctx64.GetValue(ctx::kPollingIndex / 8));
    GlobalTensor<int32_t> info, eids, lids, sids, mids;
    info.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(ctx64.GetValue(ctx::kTokenInfoBuf / 8)),
                         token_info_bytes(a) / 4);
    eids.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(ctx64.GetValue(ctx::kExpertIdsBuf / 8)),
                         static_cast<uint64_t>(a.attn) * eps);
    lids.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(ctx64.GetValue(ctx::kLayerIdsBuf / 8)),
                         a.attn);
    sids.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(ctx64.GetValue(ctx::kSessionIdsBuf / 8)),
                         a.attn);
    mids.SetGlobalBuffer(
        reinterpret_cast<__gm__ int32_t*>(ctx64.GetValue(ctx::kMicroBatchIdsBuf / 8)), a.attn);
    TPipe pipe;
    TBuf<TPosition::VECCALC> flags, lists;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> idQue;
    pipe.InitBuffer(flags, static_cast<uint32_t>(n) * 32);
    pipe.InitBuffer(lists, 3 * kMaxSessions * 4);
    pipe.InitBuffer(idQue, 2, kChunk * 4);
    LocalTensor<int32_t> fl = flags.Get<int32_t>();
    if (g_.stamps) g_.stamps[kCallStart] = SimNowPs();
    PollFlags(info, fl, n, m, a.micro_batches, words);
    if (g_.stamps) g_.stamps[kPollEnd] = SimNowPs();
    // The expert ids of every collected session, GM -> UB -> GM, double-buffered.
    for (int s = 0; s < n; ++s)
      for (int64_t i = 0; i < eps; i += kChunk) {
        uint32_t len = static_cast<uint32_t>(std::min<int64_t>(kChunk, eps - i));
        LocalTensor<int32_t> t = idQue.AllocTensor<int32_t>();
        DataCopyPad(t, info[(static_cast<uint64_t>(s) * a.micro_batches + m) * words + 2 + i],
                    DataCopyExtParams{1, len * 4, 0, 0, 0});
        idQue.EnQue(t);
        t = idQue.DeQue<int32_t>();
        DataCopyPad(eids[static_cast<uint64_t>(s) * eps + i], t,
                    DataCopyExtParams{1, len * 4, 0, 0, 0});
        idQue.FreeTensor(t);
      }
    LocalTensor<int32_t> l = lists.Get<int32_t>();
    for (int s = 0; s < n; ++s) {
      l.SetValue(static_cast<uint32_t>(s), fl.GetValue(static_cast<uint32_t>(s * 8 + 1)));
      l.SetValue(static_cast<uint32_t>(kMaxSessions + s), s);
      l.SetValue(static_cast<uint32_t>(2 * kMaxSessions + s), m);
    }
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    DataCopyExtParams p{1, static_cast<uint32_t>(n) * 4, 0, 0, 0};
    DataCopyPad(lids, l, p);
    DataCopyPad(sids, l[kMaxSessions], p);
    DataCopyPad(mids, l[2 * kMaxSessions], p);
    PipeBarrier<PIPE_ALL>();  // the flag buffer becomes the zeros below
    ClearFlags(info, fl, n, m, a.micro_batches, words);
    ctx32.SetValue(ctx::kOutNum / 4, static_cast<uint32_t>(n));
    ctx64.SetValue(ctx::kPollingIndex / 8, static_cast<uint64_t>((m + 1) % a.micro_batches));
    PipeBarrier<PIPE_ALL>();
  }
  static constexpr uint32_t kChunk = 4096;
  FfnArgs g_;
  int core_ = 0;
};

}  // namespace ascend::ffn
