// Device code of the attention-FFN split, written against the Ascend C facade:
//  - KernelAttentionToFfn   an attention rank sends one micro-batch's token rows and its
//                           descriptor (layer id, expert ids) into every FFN rank's buffers,
//                           flag last (the AttentionToFFN role);
//  - KernelFfnWorkerScheduler  NORM mode only: core 0 waits for the sessions of the micro-batch
//                           and fills the ScheduleContext's output area (the companion op
//                           FfnWorkerScheduler, reduced to what FfnWorkerBatching reads);
//  - KernelFfnWorkerBatching  the operator: RECV polling by core 0 (need_schedule = 1), the sort
//                           of the expert ids (one core, or runs on several cores then 4-way
//                           merge rounds), SyncAll, the gather on all cores but the last and
//                           group_list on the last (kernels/ffn_worker_batching/README.md).
#pragma once

#include <algorithm>
#include <vector>

#include "kernels/ffn_worker_batching/ffn_tiling.h"
#include "sim/api/kernel_operator.h"

namespace ascend::ffn {

using namespace AscendC;

// Stamps of one batching call on one FFN rank (ps, simulator instrumentation).
enum Stamp { kCallStart, kPollEnd, kSortEnd, kGatherEnd, kGroupEnd, kCallEnd, kStamps };

// The FFN rank's workspace (GM): control words, then two areas of sort proposals.
constexpr uint64_t kWsMicroBatch = 0, kWsActual = 8, kWsDoneCalls = 16;  // int32 word index
constexpr uint64_t kWsLayers = 128;                                      // int32[A]
constexpr uint64_t kWsCtrlBytes = 8192;
inline uint64_t workspace_bytes(const SortPlan& p) {
  return kWsCtrlBytes + 2 * static_cast<uint64_t>(p.ws_elements) * 8;
}

// The padded length of sort run r (pieces of the per-session id lists, each padded to 8
// elements, the run padded to 32): every core derives it the same way.
inline int64_t run_padded(const Attrs& a, const SortPlan& p, int64_t r) {
  const int64_t y = call_rows(a), eps = entries_per_session(a);
  int64_t lo = r * p.run_len, hi = std::min(y, lo + p.run_len), n = 0;
  for (int64_t s0 = lo; s0 < hi;) {
    int64_t s1 = std::min(hi, (s0 / eps + 1) * eps);
    n += (s1 - s0 + 7) / 8 * 8;
    s0 = s1;
  }
  return (n + 31) / 32 * 32;
}

// ------------------------------------------------------------------ AttentionToFFN

struct AttnArgs {
  GM_ADDR x;     // [L][M][BS] rows of payload_bytes (int8 rows followed by their fp32 scale)
  GM_ADDR desc;  // [L][M][F][1 + BS x K'] int32: layer id, then the expert ids for FFN rank f
  std::vector<GM_ADDR> info, data;  // every FFN rank's token_info_buf and token_data_buf
  std::vector<GM_ADDR> ffn_ws;      // every FFN rank's workspace (its done-call counter)
  Attrs attrs;
  int session = 0;                // this attention rank's index a
  uint64_t start_delay_ps = 0;    // the staggered start of this rank
  uint64_t compute_ps = 0;        // attention compute before each micro-batch
  bool drop = false;              // what-if: this rank never sends (a missing flag)
  uint64_t* landed_ps = nullptr;  // per call: when the last flag of this rank had landed
};

class KernelAttentionToFfn {
 public:
  __aicore__ void Init(const AttnArgs& args) {
    g_ = args;
    const Attrs& a = g_.attrs;
    core_ = static_cast<int>(GetBlockIdx());
    cores_ = static_cast<int>(GetBlockNum());
    k_ = selected(a);
    eps_ = entries_per_session(a);
    pb_ = static_cast<uint32_t>(payload_bytes(a));
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(g_.x),
                         static_cast<uint64_t>(a.layers) * a.micro_batches * a.bs * pb_);
    descGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.desc),
                            static_cast<uint64_t>(a.layers) * a.micro_batches * a.ffn * (1 + eps_));
    pipe_.InitBuffer(rowQue_, static_cast<uint8_t>(g_.attrs.buffer_num), pb_);
    pipe_.InitBuffer(ids_, kIdsChunk * 4);
    pipe_.InitBuffer(small_, 64);
  }

  __aicore__ void Process() {
    const Attrs& a = g_.attrs;
    for (int l = 0; l < a.layers; ++l)
      for (int m = 0; m < a.micro_batches; ++m) Send(l, m, l * a.micro_batches + m);
  }

 private:
  static constexpr uint32_t kIdsChunk = 4096;  // int32 ids per UB chunk

  uint64_t Cycles(uint64_t ps) const {
    return SimCyclesIn(ps);
  }

  void Send(int l, int m, int call) {
    const Attrs& a = g_.attrs;
    if (core_ == 0) {
      uint64_t wait = g_.compute_ps + (call == 0 ? g_.start_delay_ps : 0);
      if (wait) SimStall(Cycles(wait));  // the attention's own compute
      if (l > 0) WaitFfnDone((l - 1) * a.micro_batches + m + 1);
    }
    SyncAll();
    if (g_.drop) return;
    cur_row_base_ = (static_cast<uint64_t>(l) * a.micro_batches + m) * a.bs;  // x rows of (l, m)
    auto [t0, t1] = split_to_core(a.bs, cores_, core_);
    for (int f = 0; f < a.ffn; ++f) {
      uint64_t desc = DescBase(l, m, f);
      for (int64_t c0 = t0; c0 < t1; c0 += kIdsChunk / k_) {
        int64_t c1 = std::min<int64_t>(t1, c0 + kIdsChunk / k_);
        LocalTensor<int32_t> ids = ids_.Get<int32_t>();
        DataCopyPad(ids, descGm_[desc + 1 + c0 * k_],
                    DataCopyExtParams{1, static_cast<uint32_t>((c1 - c0) * k_ * 4), 0, 0, 0});
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
        for (int64_t b = c0; b < c1; ++b) SendToken(ids, b, b - c0, f, m);
        PipeBarrier<PIPE_ALL>();  // the ids buffer is reloaded next
      }
    }
    PipeBarrier<PIPE_ALL>();
    SyncAll();  // every row has landed before any descriptor is written
    if (core_ == 0) {
      for (int f = 0; f < a.ffn; ++f) WriteDescriptor(l, m, f);
      PipeBarrier<PIPE_ALL>();
      if (g_.landed_ps) g_.landed_ps[call] = SimNowPs();
    }
  }

  uint64_t DescBase(int l, int m, int f) const {
    const Attrs& a = g_.attrs;
    return ((static_cast<uint64_t>(l) * a.micro_batches + m) * a.ffn + f) * (1 + eps_);
  }

  void SendToken(const LocalTensor<int32_t>& ids, int64_t b, int64_t local, int f, int m) {
    const Attrs& a = g_.attrs;
    bool any = false;
    for (int k = 0; k < k_ && !any; ++k)
      any = ids.GetValue(static_cast<uint32_t>(local * k_ + k)) < kMaskId;
    if (!any) return;
    LocalTensor<uint8_t> row = rowQue_.AllocTensor<uint8_t>();
    {
      PayloadScope payload;
      DataCopyPad(row, xGm_[XRow(b) * pb_], DataCopyExtParams{1, pb_, 0, 0, 0});
    }
    rowQue_.EnQue(row);
    row = rowQue_.DeQue<uint8_t>();
    GlobalTensor<uint8_t> dst;
    dst.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(g_.data[f]), token_data_bytes(a));
    for (int k = 0; k < k_; ++k) {
      if (ids.GetValue(static_cast<uint32_t>(local * k_ + k)) >= kMaskId) continue;
      uint64_t slot =
          ((static_cast<uint64_t>(g_.session) * a.micro_batches + m) * a.bs + b) * k_ + k;
      PayloadScope payload;
      DataCopyPad(dst[slot * token_size(a)], row, DataCopyExtParams{1, pb_, 0, 0, 0});
    }
    rowQue_.FreeTensor(row);
  }
  uint64_t XRow(int64_t b) const { return cur_row_base_ + static_cast<uint64_t>(b); }

  // Layer id and expert ids first, then (after they have landed) the flag.
  void WriteDescriptor(int l, int m, int f) {
    const Attrs& a = g_.attrs;
    GlobalTensor<int32_t> info;
    info.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.info[f]),
                         static_cast<uint64_t>(a.attn) * a.micro_batches * info_words(a));
    uint64_t slot = (static_cast<uint64_t>(g_.session) * a.micro_batches + m) * info_words(a);
    uint64_t desc = DescBase(l, m, f);
    LocalTensor<int32_t> ids = ids_.Get<int32_t>();
    for (int64_t i = 0; i < 1 + eps_; i += kIdsChunk) {
      uint32_t n = static_cast<uint32_t>(std::min<int64_t>(kIdsChunk, 1 + eps_ - i));
      DataCopyPad(ids, descGm_[desc + i], DataCopyExtParams{1, n * 4, 0, 0, 0});
      SetFlag<HardEvent::MTE2_MTE3>(0);
      WaitFlag<HardEvent::MTE2_MTE3>(0);
      DataCopyPad(info[slot + 1 + i], ids, DataCopyExtParams{1, n * 4, 0, 0, 0});
      SetFlag<HardEvent::MTE3_MTE2>(0);
      WaitFlag<HardEvent::MTE3_MTE2>(0);
    }
    PipeBarrier<PIPE_MTE3>();  // the descriptor has landed before the flag goes
    LocalTensor<int32_t> flag = small_.Get<int32_t>();
    flag.SetValue(0, 1);
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    DataCopyPad(info[slot], flag, DataCopyExtParams{1, 4, 0, 0, 0});
    SetFlag<HardEvent::MTE3_S>(0);
    WaitFlag<HardEvent::MTE3_S>(0);
  }

  // Flow control across layers: micro-batch m of layer l + 1 reuses the slot of layer l, so the
  // rank waits until every FFN rank has finished that call (stands for the FFN->attention
  // return, which is not modelled). A remote read of each FFN rank's done-call counter.
  void WaitFfnDone(int calls) {
    const Attrs& a = g_.attrs;
    LocalTensor<int32_t> w = small_.Get<int32_t>();
    for (int f = 0; f < a.ffn; ++f) {
      GlobalTensor<int32_t> ws;
      ws.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.ffn_ws[f]), kWsCtrlBytes / 4);
      int32_t done = -1;
      while (done < calls) {
        DataCopy(w, ws[kWsDoneCalls], 8);
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
        done = w.GetValue(0);
      }
    }
  }

  AttnArgs g_;
  int core_ = 0, cores_ = 1, k_ = 2;
  int64_t eps_ = 0;
  uint32_t pb_ = 0;
  uint64_t cur_row_base_ = 0;
  TPipe pipe_;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> rowQue_;
  TBuf<TPosition::VECCALC> ids_, small_;
  GlobalTensor<uint8_t> xGm_;
  GlobalTensor<int32_t> descGm_;
};

// ------------------------------------------------------------------ FfnWorkerBatching

struct FfnArgs {
  GM_ADDR context;  // the 1024-B ScheduleContext
  GM_ADDR y, group_list, session_ids, micro_batch_ids, token_ids, expert_offsets, dynamic_scale,
      actual_token_num;
  GM_ADDR workspace;
  Attrs attrs;  // the operator's attributes (expert_num, max_out_shape, token_dtype, ...)
  SortPlan plan;
  int call = 0;
  uint64_t* stamps = nullptr;  // [kStamps] for this call (core 0 and the phase owners write)
  uint64_t* gather_end = nullptr;
};

// Core 0 polls the flag words {flag, layer_id} of sessions [0, n) at micro-batch m with one
// strided DMA per poll until they sum to n. `buf` holds n 32-B slots. Returns the polls made.
inline int64_t PollFlags(const GlobalTensor<int32_t>& info, const LocalTensor<int32_t>& buf, int n,
                         int m, int mbs, int64_t words) {
  int64_t polls = 0;
  int32_t sum = -1;
  uint32_t gap = static_cast<uint32_t>(mbs * words * 4 - 8);
  while (sum != n) {
    DataCopyPad(buf, info[static_cast<uint64_t>(m) * words],
                DataCopyExtParams{static_cast<uint16_t>(n), 8, gap, 0, 0});
    SetFlag<HardEvent::MTE2_S>(0);
    WaitFlag<HardEvent::MTE2_S>(0);
    sum = 0;
    for (int s = 0; s < n; ++s) sum += buf.GetValue(static_cast<uint32_t>(s * 8));
    ++polls;
  }
  return polls;
}

// Clears the flags of sessions [0, n) at micro-batch m (one strided DMA of zeros).
inline void ClearFlags(const GlobalTensor<int32_t>& info, const LocalTensor<int32_t>& zeros, int n,
                       int m, int mbs, int64_t words) {
  Duplicate(zeros, 0, static_cast<uint32_t>(n) * 8);
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
  DataCopyPad(info[static_cast<uint64_t>(m) * words], zeros,
              DataCopyExtParams{static_cast<uint16_t>(n), 4, 0,
                                static_cast<uint32_t>(mbs * words * 4 - 4), 0});
}

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

class KernelFfnWorkerBatching {
 public:
  __aicore__ void Init(const FfnArgs& args) {
    g_ = args;
    const Attrs& a = g_.attrs;
    core_ = static_cast<int>(GetBlockIdx());
    cores_ = static_cast<int>(GetBlockNum());
    // Init reads the ScheduleContext with the scalar unit, as the real kernel's Init does.
    ctx32_.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(g_.context), ctx::kBytes / 4);
    ctx64_.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(g_.context), ctx::kBytes / 8);
    mbs_ = static_cast<int>(ctx32_.GetValue(ctx::kMicroBatchNum / 4));
    bs_ = static_cast<int>(ctx32_.GetValue(ctx::kMicroBatchSize / 4));
    k_ = static_cast<int>(ctx32_.GetValue(ctx::kSelectedExpertNum / 4));
    hs_ = ctx32_.GetValue(ctx::kAttnToFfnTokenSize / 4);
    if (mbs_ != a.micro_batches || bs_ != a.bs || k_ != selected(a) || hs_ != token_size(a))
      detail::fault("FfnWorkerBatching: the ScheduleContext disagrees with the attributes");
    eps_ = static_cast<int64_t>(bs_) * k_;
    words_ = 2 + eps_;
    n_ = a.recv ? a.attn : static_cast<int>(ctx32_.GetValue(ctx::kOutNum / 4));
    if (n_ != sessions(a)) detail::fault("FfnWorkerBatching: out_num disagrees with the tiling");
    y_rows_ = static_cast<int64_t>(n_) * eps_;
    rb_ = static_cast<uint32_t>(row_bytes(a));
    int8_ = a.dtype == TokenDtype::Int8;
    e_loc_ = local_experts(a);
    info_.SetGlobalBuffer(
        reinterpret_cast<__gm__ int32_t*>(ctx64_.GetValue(ctx::kTokenInfoBuf / 8)),
        token_info_bytes(a) / 4);
    data_.SetGlobalBuffer(
        reinterpret_cast<__gm__ uint8_t*>(ctx64_.GetValue(ctx::kTokenDataBuf / 8)),
        token_data_bytes(a));
    ws_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.workspace),
                        workspace_bytes(g_.plan) / 4);
    area_[0].SetGlobalBuffer(reinterpret_cast<__gm__ float*>(g_.workspace + kWsCtrlBytes),
                             g_.plan.ws_elements * 2);
    area_[1].SetGlobalBuffer(
        reinterpret_cast<__gm__ float*>(g_.workspace + kWsCtrlBytes + g_.plan.ws_elements * 8),
        g_.plan.ws_elements * 2);
    if (!a.recv) {
      eids_.SetGlobalBuffer(
          reinterpret_cast<__gm__ int32_t*>(ctx64_.GetValue(ctx::kExpertIdsBuf / 8)),
          static_cast<uint64_t>(a.attn) * eps_);
      layer_src_ = ctx64_.GetValue(ctx::kLayerIdsBuf / 8);
      sess_src_ = ctx64_.GetValue(ctx::kSessionIdsBuf / 8);
      mb_src_ = ctx64_.GetValue(ctx::kMicroBatchIdsBuf / 8);
    } else {
      layer_src_ = reinterpret_cast<uint64_t>(g_.workspace) + kWsLayers * 4;
    }
  }

  __aicore__ void Process() {
    const Attrs& a = g_.attrs;
    if (a.recv && core_ == 0) Poll();
    PipeBarrier<PIPE_ALL>();
    SyncAll();
    m_ = a.recv ? ws_.GetValue(kWsMicroBatch) : -1;
    // ---- sort: runs on the sort cores, then 4-way merge rounds
    const SortPlan& p = g_.plan;
    for (int64_t r = core_; core_ < p.sort_cores && r < p.runs; r += p.sort_cores) SortRun(r);
    PipeBarrier<PIPE_ALL>();
    SyncAll();
    int64_t lists = p.runs, stride = p.run_cap;
    for (int round = 0; round < p.merge_rounds; ++round) {
      int64_t merges = lists / 4;
      for (int64_t j = core_; j < merges; j += cores_) Merge(round, j, stride);
      lists = merges;
      stride *= 4;
      PipeBarrier<PIPE_ALL>();
      SyncAll();
    }
    final_ = p.merge_rounds % 2;
    if (core_ == 0 && g_.stamps) g_.stamps[kSortEnd] = SimNowPs();
    actual_ = ws_.GetValue(kWsActual);
    // ---- gather on every core but the last; group_list on the last
    int gather_cores = cores_ > 1 ? cores_ - 1 : 1;
    if (core_ < gather_cores) {
      Gather(gather_cores);
      PipeBarrier<PIPE_ALL>();
      if (g_.gather_end) g_.gather_end[core_] = SimNowPs();
    }
    if (core_ == cores_ - 1) {
      GroupList();
      PipeBarrier<PIPE_ALL>();
      if (g_.stamps) g_.stamps[kGroupEnd] = SimNowPs();
    }
    PipeBarrier<PIPE_ALL>();
    SyncAll();
    if (core_ == 0) {
      ws_.SetValue(kWsDoneCalls, g_.call + 1);  // read by the attention ranks (flow control)
      if (g_.stamps) g_.stamps[kCallEnd] = SimNowPs();
    }
  }

 private:
  // ---- RECV: wait for all A sessions of micro-batch m = polling_index, then advance it
  void Poll() {
    const Attrs& a = g_.attrs;
    if (g_.stamps) g_.stamps[kCallStart] = SimNowPs();
    int m = static_cast<int>(ctx64_.GetValue(ctx::kPollingIndex / 8));
    TPipe pipe;
    TBuf<TPosition::VECCALC> flags, layers;
    pipe.InitBuffer(flags, static_cast<uint32_t>(a.attn) * 32);
    pipe.InitBuffer(layers, kMaxSessions * 4);
    LocalTensor<int32_t> fl = flags.Get<int32_t>();
    PollFlags(info_, fl, a.attn, m, mbs_, words_);
    if (g_.stamps) g_.stamps[kPollEnd] = SimNowPs();
    ctx64_.SetValue(ctx::kPollingIndex / 8, static_cast<uint64_t>((m + 1) % mbs_));
    LocalTensor<int32_t> l = layers.Get<int32_t>();
    for (int s = 0; s < a.attn; ++s)
      l.SetValue(static_cast<uint32_t>(s), fl.GetValue(static_cast<uint32_t>(s * 8 + 1)));
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    DataCopyPad(ws_[kWsLayers], l,
                DataCopyExtParams{1, static_cast<uint32_t>(a.attn) * 4, 0, 0, 0});
    ws_.SetValue(kWsMicroBatch, m);
    PipeBarrier<PIPE_ALL>();
    // The descriptors are consumed: the flags go back to 0 (the ids are reset by the sort).
    ClearFlags(info_, fl, a.attn, m, mbs_, words_);
    PipeBarrier<PIPE_ALL>();
  }

  // ---- one sort run: the ids of its pieces (padded to 8 with INT_MAX), keys -(layer offset +
  // id) as fp32, a full Sort with the flat entry index, the proposals to the workspace
  void SortRun(int64_t r) {
    const Attrs& a = g_.attrs;
    const SortPlan& p = g_.plan;
    const int64_t lo = r * p.run_len, hi = std::min(y_rows_, lo + p.run_len);
    const int64_t cap = run_padded(a, p, r);
    if (cap == 0) return;
    TPipe pipe;
    TBuf<TPosition::VECCALC> idsB, idxB, sortedB, tmpB, layerB;
    pipe.InitBuffer(idsB, static_cast<uint32_t>(cap) * 4);
    pipe.InitBuffer(idxB, static_cast<uint32_t>(cap) * 4);
    pipe.InitBuffer(sortedB, static_cast<uint32_t>(cap) * 8);
    pipe.InitBuffer(tmpB, static_cast<uint32_t>(cap) * 8);
    pipe.InitBuffer(layerB, kMaxSessions * 4);
    LocalTensor<int32_t> ids = idsB.Get<int32_t>(), idx = idxB.Get<int32_t>();
    LocalTensor<float> sorted = sortedB.Get<float>(), tmp = tmpB.Get<float>();
    LocalTensor<int32_t> layers = layerB.Get<int32_t>();
    GlobalTensor<int32_t> lsrc;
    lsrc.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(layer_src_), n_);
    DataCopyPad(layers, lsrc, DataCopyExtParams{1, static_cast<uint32_t>(n_) * 4, 0, 0, 0});
    struct Piece {
      int64_t off, n, s, first;
    };
    std::vector<Piece> pieces;
    int64_t off = 0;
    for (int64_t s0 = lo; s0 < hi;) {
      int64_t s = s0 / eps_, s1 = std::min(hi, (s + 1) * eps_), n = s1 - s0;
      uint64_t src = a.recv ? (static_cast<uint64_t>(s) * mbs_ + m_) * words_ + 2 + (s0 - s * eps_)
                            : static_cast<uint64_t>(s0);
      DataCopyPadExtParams<int32_t> pad{true, 0, static_cast<uint8_t>((n + 7) / 8 * 8 - n), kPadId};
      DataCopyPad(ids[static_cast<uint32_t>(off)], a.recv ? info_[src] : eids_[src],
                  DataCopyExtParams{1, static_cast<uint32_t>(n * 4), 0, 0, 0}, pad);
      pieces.push_back({off, n, s, s0});
      off += (n + 7) / 8 * 8;
      s0 = s1;
    }
    if (off < cap)
      Duplicate(ids[static_cast<uint32_t>(off)], kPadId, static_cast<uint32_t>(cap - off));
    if (a.recv) {  // RECV consumes the descriptors: the ids go back to INT_MAX
      Duplicate(tmp.ReinterpretCast<int32_t>(), kPadId, static_cast<uint32_t>(cap));
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      SetFlag<HardEvent::MTE2_MTE3>(0);
      WaitFlag<HardEvent::MTE2_MTE3>(0);
      for (const Piece& pc : pieces)
        DataCopyPad(info_[(static_cast<uint64_t>(pc.s) * mbs_ + m_) * words_ + 2 +
                          (pc.first - pc.s * eps_)],
                    tmp.ReinterpretCast<int32_t>(),
                    DataCopyExtParams{1, static_cast<uint32_t>(pc.n * 4), 0, 0, 0});
      SetFlag<HardEvent::MTE3_V>(0);
      WaitFlag<HardEvent::MTE3_V>(0);
    }
    SetFlag<HardEvent::MTE2_S>(0);
    WaitFlag<HardEvent::MTE2_S>(0);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    LocalTensor<float> keys = ids.ReinterpretCast<float>();
    Cast(keys, ids, RoundMode::CAST_RINT, static_cast<uint32_t>(cap));
    for (const Piece& pc : pieces) {
      int32_t layer = layers.GetValue(static_cast<uint32_t>(pc.s));
      uint32_t len = static_cast<uint32_t>((pc.n + 7) / 8 * 8);
      if (layer != 0)
        Adds(keys[static_cast<uint32_t>(pc.off)], keys[static_cast<uint32_t>(pc.off)],
             static_cast<float>(layer) * static_cast<float>(e_loc_), len);
      CreateVecIndex(idx[static_cast<uint32_t>(pc.off)], static_cast<int32_t>(pc.first), len);
    }
    if (off < cap) Duplicate(idx[static_cast<uint32_t>(off)], 0, static_cast<uint32_t>(cap - off));
    Muls(keys, keys, -1.0f, static_cast<uint32_t>(cap));
    Sort<float, true>(sorted, keys, idx.ReinterpretCast<uint32_t>(), tmp,
                      static_cast<int32_t>(cap / 32));
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(area_[0][static_cast<uint64_t>(r) * g_.plan.run_cap * 2], sorted,
             static_cast<uint32_t>(cap * 2));
    if (g_.plan.runs == 1) {
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      ws_.SetValue(kWsActual, static_cast<int32_t>(CountValid(sorted, cap)));
    }
    PipeBarrier<PIPE_ALL>();
  }

  // Valid proposals come first (keys > -1e6): a binary search on the scalar unit.
  static int64_t CountValid(const LocalTensor<float>& props, int64_t n) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
      int64_t mid = (lo + hi) / 2;
      if (props.GetValue(static_cast<uint32_t>(2 * mid)) > -static_cast<float>(kMaskId))
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }

  // Lengths of the lists of a merge round (round 0: the runs).
  int64_t ListLen(int round, int64_t q) const {
    int64_t per = 1;
    for (int i = 0; i < round; ++i) per *= 4;
    int64_t n = 0;
    for (int64_t r = q * per; r < (q + 1) * per && r < g_.plan.runs; ++r)
      n += run_padded(g_.attrs, g_.plan, r);
    return n;
  }

  // ---- merge j of a round: lists 4j..4j+3 (area round % 2) into list j (the other area),
  // streamed through UB in blocks with MrgSort's exhausted suspension.
  void Merge(int round, int64_t j, int64_t stride) {
    const bool last = round == g_.plan.merge_rounds - 1;
    const GlobalTensor<float>& in = area_[round % 2];
    const GlobalTensor<float>& out = area_[(round + 1) % 2];
    TPipe pipe;
    TBuf<TPosition::VECCALC> listB[4], outB;
    for (auto& b : listB) pipe.InitBuffer(b, kMergeBlock * 8);
    pipe.InitBuffer(outB, 4 * kMergeBlock * 8);
    int64_t base[4], len[4], pos[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; ++i) {
      base[i] = (4 * j + i) * stride;
      len[i] = ListLen(round, 4 * j + i);
    }
    int64_t out_pos = 0, valid = 0;
    bool out_busy = false;
    LocalTensor<float> o = outB.Get<float>();
    while (true) {
      int act[4], na = 0;
      for (int i = 0; i < 4; ++i)
        if (pos[i] < len[i]) act[na++] = i;
      if (na == 0) break;
      uint16_t cnt[4] = {0, 0, 0, 0};
      for (int q = 0; q < na; ++q) {
        int i = act[q];
        cnt[q] = static_cast<uint16_t>(std::min<int64_t>(kMergeBlock, len[i] - pos[i]));
        DataCopyPad(listB[q].Get<float>(), in[static_cast<uint64_t>(base[i] + pos[i]) * 2],
                    DataCopyExtParams{1, cnt[q] * 8u, 0, 0, 0});
      }
      SetFlag<HardEvent::MTE2_V>(0);
      WaitFlag<HardEvent::MTE2_V>(0);
      if (out_busy) WaitFlag<HardEvent::MTE3_V>(2);
      uint16_t used[4] = {0, 0, 0, 0};
      uint32_t total = 0;
      LocalTensor<float> src = o;
      if (na == 1) {  // one list left: its block goes straight out
        src = listB[0].Get<float>();
        used[0] = cnt[0];
      } else {
        MrgSortSrcList<float> l{listB[0].Get<float>(), listB[1].Get<float>(), listB[2].Get<float>(),
                                listB[3].Get<float>()};
        MrgSort<float, true>(o, l, cnt, static_cast<uint16_t>((1u << na) - 1));
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        GetMrgSortResult(used[0], used[1], used[2], used[3]);
      }
      for (int q = 0; q < na; ++q) {
        pos[act[q]] += used[q];
        total += used[q];
      }
      if (last) valid += CountValid(src, total);
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopyPad(out[static_cast<uint64_t>(j * 4 * stride + out_pos) * 2], src,
                  DataCopyExtParams{1, total * 8, 0, 0, 0});
      out_pos += total;
      SetFlag<HardEvent::MTE3_V>(2);
      out_busy = true;
      // the list buffers are reloaded next: after the merge read them and the store left
      SetFlag<HardEvent::V_MTE2>(0);
      WaitFlag<HardEvent::V_MTE2>(0);
      SetFlag<HardEvent::MTE3_MTE2>(0);
      WaitFlag<HardEvent::MTE3_MTE2>(0);
    }
    if (out_busy) WaitFlag<HardEvent::MTE3_V>(2);
    if (last) ws_.SetValue(kWsActual, static_cast<int32_t>(valid));
    PipeBarrier<PIPE_ALL>();
  }

  // ---- gather: rows [i0, i1) of this core in loops of 128, each row one token through a
  // double-buffered queue; the per-row ids and scales leave once per loop
  void Gather(int gather_cores) {
    const Attrs& a = g_.attrs;
    auto [i0, i1] = split_to_core(actual_, gather_cores, core_);
    if (i0 >= i1) return;
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> rowQue;
    TBuf<TPosition::VECCALC> propB, outB, scaleB, sessB;
    pipe.InitBuffer(rowQue, static_cast<uint8_t>(a.buffer_num), rb_);
    pipe.InitBuffer(propB, kGatherLoop * 8);
    pipe.InitBuffer(outB, 4 * kGatherLoop * 4);
    pipe.InitBuffer(scaleB, kGatherLoop * 32);
    if (!a.recv) pipe.InitBuffer(sessB, 2 * kMaxSessions * 4);
    LocalTensor<int32_t> sess = a.recv ? LocalTensor<int32_t>() : sessB.Get<int32_t>();
    if (!a.recv) {
      GlobalTensor<int32_t> s, mb;
      s.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(sess_src_), n_);
      mb.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(mb_src_), n_);
      DataCopyExtParams p{1, static_cast<uint32_t>(n_) * 4, 0, 0, 0};
      DataCopyPad(sess, s, p);
      DataCopyPad(sess[kMaxSessions], mb, p);
    }
    GlobalTensor<uint8_t> y, scale;
    y.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(g_.y),
                      static_cast<uint64_t>(y_rows_) * rb_);
    if (int8_)
      scale.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(g_.dynamic_scale), y_rows_ * 4);
    GlobalTensor<int32_t> outs[4];
    GM_ADDR dst[4] = {g_.session_ids, g_.micro_batch_ids, g_.token_ids, g_.expert_offsets};
    for (int i = 0; i < 4; ++i)
      outs[i].SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(dst[i]), y_rows_);
    LocalTensor<float> prop = propB.Get<float>();
    LocalTensor<int32_t> ids = outB.Get<int32_t>();
    LocalTensor<float> sc = scaleB.Get<float>();
    bool pending = false;
    for (int64_t base = i0; base < i1; base += kGatherLoop) {
      uint32_t n = static_cast<uint32_t>(std::min<int64_t>(kGatherLoop, i1 - base));
      DataCopyPad(prop, area_[final_][static_cast<uint64_t>(base) * 2],
                  DataCopyExtParams{1, n * 8, 0, 0, 0});
      if (pending) WaitFlag<HardEvent::MTE3_S>(1);  // last loop's ids and scales have left
      SetFlag<HardEvent::MTE2_S>(0);
      WaitFlag<HardEvent::MTE2_S>(0);
      for (uint32_t j = 0; j < n; ++j) {
        int64_t flat = prop.ReinterpretCast<int32_t>().GetValue(2 * j + 1);
        int64_t s = flat / eps_, rem = flat % eps_;
        int32_t b = static_cast<int32_t>(rem / k_), k = static_cast<int32_t>(rem % k_);
        int32_t session =
            a.recv ? static_cast<int32_t>(s) : sess.GetValue(static_cast<uint32_t>(s));
        int32_t mb = a.recv ? m_ : sess.GetValue(static_cast<uint32_t>(kMaxSessions + s));
        uint64_t src = (((static_cast<uint64_t>(session) * mbs_ + mb) * bs_ + b) * k_ + k) * hs_;
        LocalTensor<uint8_t> row = rowQue.AllocTensor<uint8_t>();
        {
          PayloadScope payload;
          DataCopyPad(row, data_[src], DataCopyExtParams{1, rb_, 0, 0, 0});
          if (int8_)
            DataCopyPad(sc[j * 8].ReinterpretCast<uint8_t>(), data_[src + rb_],
                        DataCopyExtParams{1, 4, 0, 0, 0});
        }
        rowQue.EnQue(row);
        row = rowQue.DeQue<uint8_t>();
        {
          PayloadScope payload;
          DataCopyPad(y[static_cast<uint64_t>(base + j) * rb_], row,
                      DataCopyExtParams{1, rb_, 0, 0, 0});
        }
        rowQue.FreeTensor(row);
        ids.SetValue(j, session);
        ids.SetValue(kGatherLoop + j, mb);
        ids.SetValue(2 * kGatherLoop + j, b);
        ids.SetValue(3 * kGatherLoop + j, k);
      }
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      for (int i = 0; i < 4; ++i)
        DataCopyPad(outs[i][static_cast<uint64_t>(base)], ids[i * kGatherLoop],
                    DataCopyExtParams{1, n * 4, 0, 0, 0});
      if (int8_) {
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        PayloadScope payload;
        DataCopyPad(scale[static_cast<uint64_t>(base) * 4], sc.ReinterpretCast<uint8_t>(),
                    DataCopyExtParams{static_cast<uint16_t>(n), 4, 0, 0, 0});
      }
      SetFlag<HardEvent::MTE3_S>(1);
      pending = true;
    }
    if (pending) WaitFlag<HardEvent::MTE3_S>(1);
  }

  // ---- group_list: one [expert_id, count] per run of equal sorted ids, then [0, 0] rows;
  // actual_token_num
  void GroupList() {
    const int64_t rows = expert_num(g_.attrs);
    TPipe pipe;
    TBuf<TPosition::VECCALC> propB, glB;
    pipe.InitBuffer(propB, kMergeBlock * 8);
    pipe.InitBuffer(glB, kGlRows * 16);
    GlobalTensor<int64_t> gl, actual;
    gl.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(g_.group_list), rows * 2);
    actual.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(g_.actual_token_num), 1);
    LocalTensor<float> prop = propB.Get<float>();
    LocalTensor<int64_t> out = glB.Get<int64_t>();
    int64_t row = 0, flushed = 0;
    bool pending = false;
    auto flush = [&](int64_t upto) {  // rows [flushed, upto) leave from the buffer
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      DataCopyPad(gl[static_cast<uint64_t>(flushed) * 2], out,
                  DataCopyExtParams{1, static_cast<uint32_t>((upto - flushed) * 16), 0, 0, 0});
      SetFlag<HardEvent::MTE3_S>(1);
      WaitFlag<HardEvent::MTE3_S>(1);
      flushed = upto;
    };
    auto emit = [&](int64_t id, int64_t count) {
      out.SetValue(static_cast<uint32_t>(2 * (row - flushed)), id);
      out.SetValue(static_cast<uint32_t>(2 * (row - flushed) + 1), count);
      ++row;
      if (row - flushed == kGlRows) flush(row);
    };
    int64_t cur = -1, count = 0;
    for (int64_t base = 0; base < actual_; base += kMergeBlock) {
      uint32_t n = static_cast<uint32_t>(std::min<int64_t>(kMergeBlock, actual_ - base));
      if (pending) {
        SetFlag<HardEvent::S_MTE2>(0);
        WaitFlag<HardEvent::S_MTE2>(0);
      }
      DataCopyPad(prop, area_[final_][static_cast<uint64_t>(base) * 2],
                  DataCopyExtParams{1, n * 8, 0, 0, 0});
      SetFlag<HardEvent::MTE2_S>(0);
      WaitFlag<HardEvent::MTE2_S>(0);
      pending = true;
      for (uint32_t j = 0; j < n; ++j) {
        auto id = static_cast<int64_t>(-prop.GetValue(2 * j));
        if (id != cur) {
          if (count) emit(cur, count);
          cur = id;
          count = 0;
        }
        ++count;
      }
    }
    if (count) emit(cur, count);
    // the remaining rows are [0, 0]
    while (row < rows) {
      int64_t upto = std::min(rows, flushed + kGlRows);
      for (; row < upto; ++row) {
        out.SetValue(static_cast<uint32_t>(2 * (row - flushed)), 0);
        out.SetValue(static_cast<uint32_t>(2 * (row - flushed) + 1), 0);
      }
      flush(upto);
    }
    if (flushed < row) flush(row);
    actual.SetValue(0, actual_);
  }

  static constexpr int64_t kGlRows = 256;
  FfnArgs g_;
  int core_ = 0, cores_ = 1, mbs_ = 1, bs_ = 1, k_ = 2, n_ = 0, m_ = 0, final_ = 0, e_loc_ = 1;
  uint32_t hs_ = 0, rb_ = 0;
  bool int8_ = false;
  int64_t eps_ = 0, words_ = 0, y_rows_ = 0, actual_ = 0;
  uint64_t layer_src_ = 0, sess_src_ = 0, mb_src_ = 0;
  GlobalTensor<uint32_t> ctx32_;
  GlobalTensor<uint64_t> ctx64_;
  GlobalTensor<int32_t> info_, eids_, ws_;
  GlobalTensor<uint8_t> data_;
  GlobalTensor<float> area_[2];
};

}  // namespace ascend::ffn
