// KernelFfnWorkerBatching, the operator: RECV polling by core 0 (need_schedule = 1), the sort of
// the expert ids (one core, or runs on several cores then FfnSortMerge's 4-way merge rounds),
// SyncAll, the gather on all cores but the last and group_list on the last
// (kernels/ffn_worker_batching/README.md).
#pragma once

#include <algorithm>
#include <vector>

#include "kernels/ffn_worker_batching/ffn_device.h"
#include "kernels/ffn_worker_batching/ffn_sort_kernel.h"

namespace ascend::ffn {

using namespace AscendC;

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
    sort_.Init(a, g_.plan, g_.workspace);
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
    sort_.MergeRounds();
    final_ = sort_.Final();
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
    DataCopy(sort_.Area(0)[static_cast<uint64_t>(r) * g_.plan.run_cap * 2], sorted,
             static_cast<uint32_t>(cap * 2));
    if (g_.plan.runs == 1) {
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      ws_.SetValue(kWsActual, static_cast<int32_t>(FfnSortMerge::CountValid(sorted, cap)));
    }
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
      DataCopyPad(prop, sort_.Area(final_)[static_cast<uint64_t>(base) * 2],
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
      DataCopyPad(prop, sort_.Area(final_)[static_cast<uint64_t>(base) * 2],
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
  FfnSortMerge sort_;
};

}  // namespace ascend::ffn
