// Device code of MoeDistributeDispatch (A3 fullmesh_v1, the [OLD] semantics of
// [OLD], docs/sources.md), written against the Ascend C facade.
//
// Every AIV core of every rank runs Process():
//  1. InitWinState  read this core's dataState word, store its negation (the 0/1 window flip)
//  2. send          for each (token, k) entry of this core's share: MTE2 the token -> optional
//                   dynamic int8 quantization on VECTOR -> the (rank, token, k) triple -> MTE3 of
//                   the whole record into slot j of block (myRank, localExpert) of the
//                   destination's window. The last cores send to shared-expert ranks instead.
//  3. SetStatus     PIPE_ALL + SyncAll, then one 32-B block {1.0f, count} per destination expert
//  4. WaitDispatch  poll this core's share of the own status blocks until every flag is 1.0,
//                   clear the flags, publish the received count in a GM workspace, SyncAll
//  5. LocalWindowCopy  prefix of the earlier cores' counts, then copy every received record into
//                   expandX / dynamicScales / assistInfoForCombine; epRecvCounts (cumulative)
//  6. token counts  after SyncAll, the last core derives expertTokenNums from epRecvCounts
// V3 ([V3-API], [OLD]): with a 2-D mask or special experts the scalar compacts
// the (token, k) list to the valid MoE entries first (the real kernel: GatherMask); smooth scales
// multiply the token before each destination's quantization; [NEW] expert scales ride in the
// record after the triple; with elasticInfo the kernel works in the new rank space and turns
// every destination into a die (Table2) before any window address is looked up.
// TP = 2 ([OLD]): the local copy also writes every received record into
// the TP peer's window; then each core hands its peer core {1.0f, count, prefix} (and its
// cumulative counts), waits for the peer's, and copies the peer's records after its own rows:
// expandX = [own received | peer's received], epRecvCounts = [own | peer's], tpRecvCounts.
#pragma once

#include <vector>

#include "api/kernel_operator.h"
#include "kernels/common/device.h"
#include "kernels/common/elastic.h"
#include "kernels/dispatch/dispatch_quant.h"
#include "kernels/dispatch/dispatch_tiling.h"

namespace ascend::dispatch {

using namespace AscendC;

struct DeviceArgs {
  GM_ADDR x, expert_ids;
  GM_ADDR expand_x, dynamic_scales, assist_info, expert_token_nums, ep_recv_counts;
  GM_ADDR workspace;  // cores x 512 B: each core's received count, for the prefix sum
  Attrs attrs;
  int buffer_num = 2;                 // after the UB fallback
  bool window_flip = true;            // 0/1 halves on consecutive calls
  uint64_t* phase_ps = nullptr;       // per core: 5 timestamps (start, sent, status, waited, done)
  uint64_t stall_before_copy_ps = 0;  // what-if: this rank stalls before its local copy
  int active_tokens = 0;              // this rank's 1-D mask: the first N tokens are active
  const SendShare* send_shares = nullptr;  // [core]: the send split's plan (send_plan)
  // V3 inputs and output (nullptr when not given; attrs say which are).
  GM_ADDR x_active_mask = nullptr;   // (BS, K) bool: attrs.mask_2d
  GM_ADDR expert_scales = nullptr;   // (BS, K) fp32: attrs.expert_scales
  GM_ADDR scales = nullptr;          // (sharedExpertNum + E, H) fp32: attrs.smooth_scales
  GM_ADDR elastic_info = nullptr;    // (4 + 2 W0) int32: attrs.elastic_world
  GM_ADDR expand_scales = nullptr;   // (A,) fp32: attrs.expert_scales
  GM_ADDR tp_recv_counts = nullptr;  // (tp,) int32: attrs.tp = 2
};

template <class T>
class KernelDispatch {
 public:
  __aicore__ void Init(const DeviceArgs& args) {
    g_ = args;
    stamps_ = common::PhaseStamps(g_.phase_ps, 5);
    const Attrs& a = g_.attrs;
    die_ = GetRankId();
    core_ = static_cast<int>(GetBlockIdx());
    cores_ = static_cast<int>(GetBlockNum());
    UbPlan ub = ub_plan(a);
    if (a.elastic_world) {  // W, S and E of the new EP group, and this die's rank in it
      pipe_.InitBuffer(elastic_, ub.elastic);
      table_.Init(g_.elastic_info, a.elastic_world, elastic_.Get<int32_t>());
      if (table_.ScaledDown()) {
        g_.attrs.ep = table_.World();
        g_.attrs.shared_expert_ranks = table_.SharedRanks();
        g_.attrs.experts = table_.Experts();
      }
    }
    rank_ = table_.NewRank(die_);
    if (a.tp == 2) {
      tp_rank_ = static_cast<int>(GetRankId(COMM_TP_IDX));
      pipe_.InitBuffer(tpCounts_, ub.tp_counts);
    }
    moe_l_ = a.experts / (a.ep - a.shared_expert_ranks);
    shared_cores_ = shared_send_cores(a);
    n_bs_ = g_.active_tokens;
    n_entries_ = n_bs_ * a.topk;
    rec_bytes_ = static_cast<uint32_t>(record_bytes(a));
    data_bytes_ = static_cast<uint32_t>(data_bytes(a));
    slot_ = slot_bytes(a);
    my_l_ = local_experts(a, rank_);

    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(g_.x), static_cast<uint64_t>(a.bs) * a.hidden);
    idsGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.expert_ids),
                           static_cast<uint64_t>(a.bs) * a.topk);
    workGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.workspace), cores_ * 128ull);

    share_ = core_ < cores_ - shared_cores_ ? g_.send_shares[core_] : SendShare{};
    if (a.expert_scales)
      escalesGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(g_.expert_scales),
                                 static_cast<uint64_t>(a.bs) * a.topk);
    if (a.smooth_scales)
      smoothGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(g_.scales),
                                static_cast<uint64_t>(a.shared_experts + experts0(a)) * a.hidden);
    pipe_.InitBuffer(ids_, ub.ids);
    pipe_.InitBuffer(status_, ub.status);
    pipe_.InitBuffer(small_, ub.small);
    pipe_.InitBuffer(bindQue_, g_.buffer_num, ub.record);  // records GM -> UB -> GM
    if (a.quant) {
      if (int8_on_wire(a)) pipe_.InitBuffer(inQue_, g_.buffer_num, ub.token);
      pipe_.InitBuffer(recQue_, g_.buffer_num, ub.record);
      pipe_.InitBuffer(f32_, ub.f32);
      pipe_.InitBuffer(abs_, ub.abs);
      pipe_.InitBuffer(f16_, ub.f16);
    }
    if (ub.triples) pipe_.InitBuffer(triples_, ub.triples);
    if (ub.count) {
      pipe_.InitBuffer(dup_, ub.count);
      pipe_.InitBuffer(diff_, ub.count);
    }
    if (ub.index) pipe_.InitBuffer(index_, ub.index);
    if (ub.mask) pipe_.InitBuffer(mask_, ub.mask);
    if (ub.escales) pipe_.InitBuffer(escales_, ub.escales);
  }

  __aicore__ void Process() {
    Stamp(0);
    data_state_ = common::FlipWinState(kStateWordBase, g_.window_flip);
    LoadIds();
    if (core_ < cores_ - shared_cores_) {
      SendToMoeExperts();
    } else {
      SendToSharedExperts();
    }
    DrainSendFlags();
    SetStatus();  // stamps 1 (every send has landed) and 2
    WaitDispatch();
    Stamp(3);
    common::StallPs(g_.stall_before_copy_ps);
    LocalWindowCopy();
    if (g_.attrs.tp == 2) {
      AllGatherSetStatusAndWait();
      AllGatherProcessOut();
    }
    SyncAll();
    if (core_ == cores_ - 1) TokenCounts();
    PipeBarrier<PIPE_ALL>();  // what the kernel's end waits for anyway
    Stamp(4);
  }

 private:
  // Phase boundaries, at points where the kernel has already synchronized.
  void Stamp(int i) const { stamps_.Stamp(i); }

  // Window addresses of a rank of the EP group: its die's (Table2 after a scale-down).
  GM_ADDR DataSlot(int dst_rank, int block, int j) const {
    return GetWindAddrByRankId(table_.Die(dst_rank)) + data_state_ * (GetWindSize() / 2) +
           combine_area_bytes(g_.attrs) + (static_cast<uint64_t>(block) * g_.attrs.bs + j) * slot_;
  }
  GM_ADDR StatusArea(int rank) const {
    return GetWindStateAddrByRankId(table_.Die(rank)) + data_state_ * kStatusHalf;
  }

  // ---- the expert ids, for the vector counts (and the scalar reads of the send loop)
  void LoadIds() {
    const Attrs& a = g_.attrs;
    LocalTensor<int32_t> ids = ids_.Get<int32_t>();
    if (n_entries_ > 0) {
      DataCopyPad(ids, idsGm_,
                  DataCopyExtParams{1, static_cast<uint32_t>(4 * n_entries_), 0, 0, 0});
    }
    if (a.mask_2d && n_entries_ > 0)
      DataCopyPad(mask_.Get<uint8_t>(), maskGm(),
                  DataCopyExtParams{1, static_cast<uint32_t>(n_entries_), 0, 0, 0});
    if (a.expert_scales && n_entries_ > 0)
      DataCopyPad(escales_.Get<float>(), escalesGm_,
                  DataCopyExtParams{1, static_cast<uint32_t>(4 * n_entries_), 0, 0, 0});
    SetFlag<HardEvent::MTE2_S>(0);
    WaitFlag<HardEvent::MTE2_S>(0);
    if (compacts(a)) Compact();
    // The token split (fullmesh_v2) numbers its slots from the entries before its share, counted
    // by the scalar; the entry split counts each slot on VECTOR (SlotOf), and SetStatus its totals.
    if (!share_.whole_tokens) return;
    before_.assign(a.experts, 0);
    for (int64_t i = 0; i < share_.begin; ++i) ++before_[ids.GetValue(static_cast<uint32_t>(i))];
  }

  GlobalTensor<uint8_t> maskGm() const {
    GlobalTensor<uint8_t> m;
    m.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(g_.x_active_mask),
                      static_cast<uint64_t>(g_.attrs.bs) * g_.attrs.topk);
    return m;
  }

  // ---- 1. masks ([OLD]): the scalar compacts the id list in place to the
  // entries whose 2-D flag is set and whose expert is a MoE one (special experts never leave the
  // rank), keeping each one's original index; with a 2-D mask the active tokens are those with
  // any flag set. The vector counts then run over the compacted list.
  void Compact() {
    const Attrs& a = g_.attrs;
    LocalTensor<int32_t> ids = ids_.Get<int32_t>(), index = index_.Get<int32_t>();
    LocalTensor<int32_t> tokens = TokenList();
    LocalTensor<uint8_t> mask = mask_.Get<uint8_t>();
    int64_t n = 0;
    int active = 0;
    for (int t = 0; t < n_bs_; ++t) {
      bool any = !a.mask_2d;
      for (int k = 0; k < a.topk; ++k) {
        uint32_t i = static_cast<uint32_t>(t * a.topk + k);
        bool on = !a.mask_2d || mask.GetValue(i) != 0;
        any = any || on;
        int32_t e = ids.GetValue(i);
        if (!on || e >= a.experts) continue;
        ids.SetValue(static_cast<uint32_t>(n), e);
        index.SetValue(static_cast<uint32_t>(n++), static_cast<int32_t>(i));
      }
      if (any && a.mask_2d) tokens.SetValue(static_cast<uint32_t>(active++), t);
    }
    n_entries_ = n;
    if (a.mask_2d) n_bs_ = active;
    SetFlag<HardEvent::S_V>(0);  // the vector counts read the compacted list
    WaitFlag<HardEvent::S_V>(0);
  }
  LocalTensor<int32_t> TokenList() {
    const Attrs& a = g_.attrs;
    return index_.Get<int32_t>()[static_cast<uint32_t>(align_up(4ull * a.bs * a.topk, 32) / 4)];
  }
  // The original (token, k) index of compacted entry idx.
  int64_t Original(int64_t idx) {
    return compacts(g_.attrs) ? index_.Get<int32_t>().GetValue(static_cast<uint32_t>(idx)) : idx;
  }
  // The token of active token i (the 2-D mask skips tokens without a flag).
  int ActiveToken(int i) {
    return g_.attrs.mask_2d ? TokenList().GetValue(static_cast<uint32_t>(i)) : i;
  }

  // ---- 2. send: this core's share of the entries, as the host's send split planned it
  void SendToMoeExperts() {
    const Attrs& a = g_.attrs;
    LocalTensor<int32_t> ids = ids_.Get<int32_t>();
    if (share_.whole_tokens) {
      for (int64_t t = share_.begin / a.topk; t < share_.end / a.topk; ++t)
        SendToken(static_cast<int>(t), ids);
      return;
    }
    for (int64_t idx = share_.begin; idx < share_.end; ++idx) {
      int32_t e = ids.GetValue(static_cast<uint32_t>(idx));
      int dst = e / moe_l_ + a.shared_expert_ranks;
      if (share_.rank_stride && dst % share_.rank_stride != share_.rank_pick) continue;
      int j = SlotOf(idx, e);
      int64_t entry = Original(idx);
      int t = static_cast<int>(entry / a.topk), k = static_cast<int>(entry % a.topk);
      SendRecord(t, k, DataSlot(dst, rank_ * moe_l_ + e % moe_l_, j), a.shared_experts + e);
    }
  }

  // The slot of entry idx: how many entries before it chose expert e, counted on VECTOR over the
  // id list as the real kernel's CalTokenSendExpertCnt does, once per entry: Duplicate e, Sub
  // from the ids, Abs, Mins 1 (0 where equal, 1 elsewhere), ReduceSum of those words as fp32 (the
  // 0/1 words are denormals, summed exactly; the sum's bits read as int32 are the count) = the
  // entries of other experts; the scalar waits for it (V_S). Lists longer than kCountChunk are
  // counted in several passes.
  int SlotOf(int64_t idx, int32_t e) { return static_cast<int>(idx - CountOthers(idx, e)); }
  // How many of the first n ids are not e.
  int64_t CountOthers(int64_t n_ids, int32_t e) {
    LocalTensor<int32_t> ids = ids_.Get<int32_t>();
    LocalTensor<int32_t> dup = dup_.Get<int32_t>(), diff = diff_.Get<int32_t>();
    int64_t others = 0;
    for (int64_t c0 = 0; c0 < n_ids; c0 += kCountChunk) {
      uint32_t n = static_cast<uint32_t>(std::min<int64_t>(kCountChunk, n_ids - c0));
      Duplicate(dup, e, n);
      Sub(diff, ids[static_cast<uint32_t>(c0)], dup, n);
      Abs(diff, diff, n);
      Mins(diff, diff, 1, n);
      LocalTensor<float> bits = diff.template ReinterpretCast<float>();
      ReduceSum(dup.template ReinterpretCast<float>(), bits, bits, n);
      SetFlag<HardEvent::V_S>(1);
      WaitFlag<HardEvent::V_S>(1);
      others += dup.GetValue(0);
    }
    return others;
  }

  // Every SetFlag is matched by a WaitFlag before the phase ends, so that no flag outlives it
  // (the next call in the same launch would be released by it).
  void DrainSendFlags() {
    for (int b = 0; b < 2; ++b)
      if (buf_sent_[b]) WaitFlag<HardEvent::MTE3_S>(b);
    buf_sent_[0] = buf_sent_[1] = false;
  }

  void SendToSharedExperts() {
    const Attrs& a = g_.attrs;
    int r = a.shared_expert_ranks / a.shared_experts;  // ranks per shared expert
    auto [begin, end] = split_to_core(static_cast<int64_t>(n_bs_) * a.shared_experts, shared_cores_,
                                      core_ - (cores_ - shared_cores_));
    for (int64_t i = begin; i < end; ++i) {
      int s = static_cast<int>(i / n_bs_), j = static_cast<int>(i % n_bs_);
      int dst = rank_ % r + s * r;
      SendRecord(ActiveToken(j), a.topk + s, DataSlot(dst, rank_, j), s);
    }
  }

  // One record: the token (quantized or not), its scale, its triple (and [NEW] its expert scale),
  // sent as one DMA. `smooth_row`: the row of the smooth scales for this destination.
  void SendRecord(int t, int k, GM_ADDR dst, int smooth_row) {
    const Attrs& a = g_.attrs;
    GlobalTensor<uint8_t> out;
    out.SetGlobalBuffer(dst, rec_bytes_);
    float scale = 0;
    LocalTensor<uint8_t> rec = ReadToken(t, &scale, smooth_row);
    int buf = NextBuf();
    if (int8_on_wire(a)) rec.template ReinterpretCast<float>().SetValue(data_bytes_ / 4, scale);
    LocalTensor<int32_t> triple = rec[data_bytes_ + 32].template ReinterpretCast<int32_t>();
    triple.SetValue(0, rank_);
    triple.SetValue(1, t);
    triple.SetValue(2, k);
    if (a.expert_scales) triple.template ReinterpretCast<float>().SetValue(8, ExpertScale(t, k));
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    {
      PayloadScope payload(data_bytes_ + 32);  // the token and its scale; the triple always moves
      DataCopyPad(out, rec, DataCopyExtParams{1, rec_bytes_, 0, 0, 0});
    }
    SetFlag<HardEvent::MTE3_S>(buf);
    buf_sent_[buf] = true;
    FreeRecord(rec);
  }

  // The token split: the token is read (and quantized) once; its K records leave from the same
  // UB buffer, each as one DMA of data and scale and one of its triple (from triples_).
  void SendToken(int t, const LocalTensor<int32_t>& ids) {
    const Attrs& a = g_.attrs;
    float scale = 0;
    LocalTensor<uint8_t> rec = ReadToken(t, &scale, -1);
    int buf = NextBuf();
    if (int8_on_wire(a)) rec.template ReinterpretCast<float>().SetValue(data_bytes_ / 4, scale);
    const uint32_t stride = static_cast<uint32_t>(align_up(tail_bytes(a), 32) / 4);  // int32s
    LocalTensor<int32_t> triples = triples_.Get<int32_t>()[buf * stride * a.topk];
    for (int k = 0; k < a.topk; ++k) {
      triples.SetValue(k * stride, rank_);
      triples.SetValue(k * stride + 1, t);
      triples.SetValue(k * stride + 2, k);
      if (a.expert_scales)
        triples.template ReinterpretCast<float>().SetValue(k * stride + 8, ExpertScale(t, k));
    }
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    for (int k = 0; k < a.topk; ++k) {
      int32_t e = ids.GetValue(static_cast<uint32_t>(t * a.topk + k));
      GM_ADDR slot =
          DataSlot(e / moe_l_ + a.shared_expert_ranks, rank_ * moe_l_ + e % moe_l_, before_[e]++);
      GlobalTensor<uint8_t> out;
      out.SetGlobalBuffer(slot, rec_bytes_);
      {
        PayloadScope payload;
        DataCopyPad(out, rec, DataCopyExtParams{1, data_bytes_ + 32, 0, 0, 0});
      }
      DataCopyPad(out[data_bytes_ + 32], triples[k * stride].template ReinterpretCast<uint8_t>(),
                  DataCopyExtParams{1, static_cast<uint32_t>(tail_bytes(a)), 0, 0, 0});
    }
    SetFlag<HardEvent::MTE3_S>(buf);
    buf_sent_[buf] = true;
    FreeRecord(rec);
  }

  // [NEW] expertScales[t, k] (loaded with the ids); a shared expert's row carries 1 (combine adds
  // shared experts unweighted).
  float ExpertScale(int t, int k) {
    const Attrs& a = g_.attrs;
    if (k >= a.topk) return 1.0f;
    return escales_.Get<float>().GetValue(static_cast<uint32_t>(t * a.topk + k));
  }

  // MTE2 of token t into a record buffer, quantized on VECTOR when int8 goes on the wire (its
  // scale in *scale; with smooth scales, row `smooth_row` of them first); the buffer is dequeued,
  // ready for the scalar and MTE3.
  LocalTensor<uint8_t> ReadToken(int t, float* scale, int smooth_row) {
    const Attrs& a = g_.attrs;
    LocalTensor<uint8_t> rec;
    if (!int8_on_wire(a)) {
      LocalTensor<T> tok = bindQue_.AllocTensor<T>();
      {
        PayloadScope payload;
        DataCopyPad(tok, xGm_[static_cast<uint64_t>(t) * a.hidden],
                    DataCopyExtParams{1, static_cast<uint32_t>(a.hidden * sizeof(T)), 0, 0, 0});
      }
      bindQue_.EnQue(tok);
      rec = bindQue_.DeQue<T>().template ReinterpretCast<uint8_t>();
    } else {
      LocalTensor<T> tok = inQue_.AllocTensor<T>();
      {
        PayloadScope payload;
        DataCopyPad(tok, xGm_[static_cast<uint64_t>(t) * a.hidden],
                    DataCopyExtParams{1, static_cast<uint32_t>(a.hidden * sizeof(T)), 0, 0, 0});
      }
      inQue_.EnQue(tok);
      tok = inQue_.DeQue<T>();
      *scale = Quantize(tok, g_.attrs.smooth_scales ? smooth_row : -1);
      inQue_.FreeTensor(tok);
      rec = recQue_.DeQue<uint8_t>();
    }
    return rec;
  }

  // The scalar fills a record buffer's tail; it must not touch a buffer an earlier DMA still
  // reads. Returns the buffer's flag id, after waiting for its last send.
  int NextBuf() {
    int buf = next_buf_;
    next_buf_ = (next_buf_ + 1) % g_.buffer_num;
    if (buf_sent_[buf]) WaitFlag<HardEvent::MTE3_S>(buf);
    return buf;
  }

  void FreeRecord(const LocalTensor<uint8_t>& rec) {
    if (int8_on_wire(g_.attrs)) {
      recQue_.FreeTensor(rec);
    } else {
      bindQue_.FreeTensor(rec.template ReinterpretCast<T>());
    }
  }

  // quantMode 2: xf = fp32(x); d = 127 / max|xf|; q = trunc_int8(round_half(rint_int32(xf * d)));
  // the record carries 1/d. The int8 row goes into a record buffer of recQue_ (enqueued).
  // `smooth_row` >= 0: that row of the smooth scales comes into the |x| buffer first (after the
  // previous quantization's last read of it) and multiplies the token in fp32.
  float Quantize(const LocalTensor<T>& tok, int smooth_row = -1) {
    PayloadScope payload;
    uint32_t h = static_cast<uint32_t>(g_.attrs.hidden);
    LocalTensor<half> xh = f16_.Get<half>();
    LocalTensor<float> smooth;
    if (smooth_row >= 0) {
      smooth = abs_.Get<float>();
      SetFlag<HardEvent::V_MTE2>(2);
      WaitFlag<HardEvent::V_MTE2>(2);
      DataCopyPad(smooth, smoothGm_[static_cast<uint64_t>(smooth_row) * h],
                  DataCopyExtParams{1, 4 * h, 0, 0, 0});
      SetFlag<HardEvent::MTE2_V>(2);
      WaitFlag<HardEvent::MTE2_V>(2);
    }
    float scale = QuantizeToHalf(tok, f32_.Get<float>(), abs_.Get<float>(), small_.Get<float>(), xh,
                                 h, smooth_row >= 0 ? &smooth : nullptr);
    LocalTensor<uint8_t> rec = recQue_.AllocTensor<uint8_t>();
    Cast(rec.template ReinterpretCast<int8_t>(), xh, RoundMode::CAST_TRUNC, h);
    recQue_.EnQue(rec);
    return scale;
  }

  // ---- 3. SetStatus: counts per destination (each MoE expert's on VECTOR, while the last sends
  // are in flight), then one {1.0f, count} block to each
  void SetStatus() {
    const Attrs& a = g_.attrs;
    int targets = a.shared_expert_ranks + a.experts;
    auto [begin, end] = split_to_core(targets, cores_, core_);
    std::vector<int> counts;
    for (int64_t i = std::max<int64_t>(begin, a.shared_expert_ranks); i < end; ++i)
      counts.push_back(static_cast<int>(
          n_entries_ - CountOthers(n_entries_, static_cast<int32_t>(i - a.shared_expert_ranks))));
    PipeBarrier<PIPE_ALL>();
    Stamp(1);
    SyncAll();  // every core's data has landed before any flag is written
    LocalTensor<int32_t> blk = status_.Get<int32_t>();
    // Words 2..7 of every block are zero, so that a receiver may sum whole blocks.
    Duplicate(blk, 0, 64 * 8);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    int r = a.shared_experts ? a.shared_expert_ranks / a.shared_experts : 1;
    for (int64_t i = begin; i < end; ++i) {
      int dst, count;
      uint64_t pos;
      if (i < a.shared_expert_ranks) {
        dst = static_cast<int>(i);
        count = (dst % r == rank_ % r) ? n_bs_ : 0;
        pos = 32ull * rank_;
      } else {
        int e = static_cast<int>(i - a.shared_expert_ranks);
        dst = e / moe_l_ + a.shared_expert_ranks;
        count = counts[static_cast<size_t>(i - std::max<int64_t>(begin, a.shared_expert_ranks))];
        pos = 32ull * rank_ + 32ull * a.ep * (e % moe_l_);
      }
      int slot = static_cast<int>((i - begin) % 64);
      if (slot == 0 && i > begin) WaitFlag<HardEvent::MTE3_S>(7);  // the 64 UB blocks are reused
      LocalTensor<int32_t> b = blk[slot * 8];
      b.template ReinterpretCast<float>().SetValue(0, 1.0f);
      b.SetValue(1, count);
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      GlobalTensor<int32_t> out;
      out.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(StatusArea(dst) + pos), 8);
      DataCopy(out, b, 8);
      if (slot == 63 && i + 1 < end) SetFlag<HardEvent::MTE3_S>(7);
    }
    // WaitDispatch polls into the same status_ buffer: its first MTE2 must not overwrite blocks
    // that queued MTE3 writes have not read yet (Ascend C's SyncFunc<HardEvent::MTE3_MTE2>).
    SetFlag<HardEvent::MTE3_MTE2>(0);
    WaitFlag<HardEvent::MTE3_MTE2>(0);
    Stamp(2);
  }

  // ---- 4. WaitDispatch: this core's share of the receive blocks (index localExpert x W + src)
  void WaitDispatch() {
    const Attrs& a = g_.attrs;
    int blocks = is_shared_rank(a, rank_) ? a.ep : a.ep * my_l_;
    auto [begin, end] = split_to_core(blocks, cores_, core_);
    recv_begin_ = begin;
    recv_counts_.assign(end - begin, 0);
    int my_sum = 0;
    LocalTensor<int32_t> blk = status_.Get<int32_t>();
    GlobalTensor<int32_t> area;
    area.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(StatusArea(rank_)), blocks * 8ull);
    // A poll: MTE2 the blocks, ReduceSum their words on VECTOR (the flags are 1.0f; the counts,
    // read as floats, are denormals far below 0.5), and the scalar compares the sum with n.
    LocalTensor<float> words = blk.template ReinterpretCast<float>();
    LocalTensor<float> sum = small_.Get<float>();
    for (int64_t c0 = begin; c0 < end; c0 += 64) {
      int n = static_cast<int>(std::min<int64_t>(64, end - c0));
      SimPollUntil([&] {
        DataCopy(blk, area[c0 * 8], n * 8);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        ReduceSum(sum, words, words, static_cast<uint32_t>(n * 8));
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        float s = sum.GetValue(0);
        return s > static_cast<float>(n) - 0.5f && s < static_cast<float>(n) + 0.5f;
      });
      for (int b = 0; b < n; ++b) {
        recv_counts_[c0 - begin + b] = blk.GetValue(b * 8 + 1);
        my_sum += recv_counts_[c0 - begin + b];
        blk.template ReinterpretCast<float>().SetValue(b * 8,
                                                       0.0f);  // clear the flag, keep the count
      }
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      DataCopy(area[c0 * 8], blk, n * 8);
      SetFlag<HardEvent::MTE3_MTE2>(0);
      WaitFlag<HardEvent::MTE3_MTE2>(0);
    }
    workGm_.SetValue(core_ * 128ull, my_sum);
    PipeBarrier<PIPE_ALL>();
    SyncAll();
  }

  // ---- 5. LocalWindowCopy
  void LocalWindowCopy() {
    const Attrs& a = g_.attrs;
    // The prefix of the earlier cores' counts: one strided DMA of their workspace words.
    // With TP the own total too (the peer's rows follow it): every core's word.
    int row = 0;
    const int words = a.tp == 2 ? cores_ : core_;
    if (words > 0) {
      LocalTensor<int32_t> sums = small_.Get<int32_t>();
      DataCopyPad(sums, workGm_, DataCopyExtParams{static_cast<uint16_t>(words), 4, 508, 0, 0});
      SetFlag<HardEvent::MTE2_S>(0);
      WaitFlag<HardEvent::MTE2_S>(0);
      for (int c = 0; c < core_; ++c) row += sums.GetValue(c * 8);
      own_total_ = row;
      for (int c = core_; c < words; ++c) own_total_ += sums.GetValue(c * 8);
    }
    my_prefix_ = row;
    GlobalTensor<int32_t> recv;
    int blocks = is_shared_rank(a, rank_) ? a.ep : a.ep * my_l_;
    recv.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.ep_recv_counts), blocks);
    GlobalTensor<uint8_t> ex = OutRows(g_.expand_x, out_row_bytes(a)), sc, as;
    as.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(g_.assist_info),
                       static_cast<uint64_t>(capacity_rows(a, rank_)) * 128 * 4);
    if (a.quant) sc = OutRows(g_.dynamic_scales, 4);
    GlobalTensor<uint8_t> es;
    if (a.expert_scales)
      es.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(g_.expand_scales),
                         static_cast<uint64_t>(capacity_rows(a, rank_)) * 4);
    LocalTensor<int32_t> staged;
    if (a.tp == 2) staged = tpCounts_.Get<int32_t>();
    for (size_t b = 0; b < recv_counts_.size(); ++b) {
      int64_t i = recv_begin_ + static_cast<int64_t>(b);
      int local_expert = static_cast<int>(i / a.ep), src = static_cast<int>(i % a.ep);
      int block = is_shared_rank(a, rank_) ? src : src * my_l_ + local_expert;
      for (int j = 0; j < recv_counts_[b]; ++j, ++row) {
        GlobalTensor<uint8_t> slot;
        slot.SetGlobalBuffer(GetWindAddrByRankId(die_) + data_state_ * (GetWindSize() / 2) +
                                 combine_area_bytes(a) +
                                 (static_cast<uint64_t>(block) * a.bs + j) * slot_,
                             rec_bytes_);
        LocalTensor<uint8_t> r = bindQue_.AllocTensor<uint8_t>();
        {
          PayloadScope payload(data_bytes_ + 32);
          DataCopyPad(r, slot, DataCopyExtParams{1, rec_bytes_, 0, 0, 0});
        }
        bindQue_.EnQue(r);
        r = bindQue_.DeQue<uint8_t>();
        if (a.tp == 2) {  // the record also goes to the TP peer's window, at the same row
          GlobalTensor<uint8_t> peer;
          peer.SetGlobalBuffer(TpSlot(1 - tp_rank_, row), rec_bytes_);
          PayloadScope payload(data_bytes_ + 32);
          DataCopyPad(peer, r, DataCopyExtParams{1, rec_bytes_, 0, 0, 0});
        }
        StoreRow(r, ex, sc, row);
        DataCopyPad(as[static_cast<uint64_t>(row) * 12], r[data_bytes_ + 32],
                    DataCopyExtParams{1, 12, 0, 0, 0});
        if (a.expert_scales)
          DataCopyPad(es[static_cast<uint64_t>(row) * 4], r[data_bytes_ + 64],
                      DataCopyExtParams{1, 4, 0, 0, 0});
        bindQue_.FreeTensor(r);
      }
      recv.SetValue(static_cast<uint64_t>(i), row);  // cumulative
      if (a.tp == 2) staged.SetValue(static_cast<uint32_t>(b), row);
    }
    my_count_ = row - my_prefix_;
    // With TP the staged cumulative counts go to the peer's TP status right behind the records,
    // before the barrier, as the reference's LocalWindowCopy ends. The write still starts only
    // when the last record's has completed (the FreeTensor's SetFlag is ahead of it on MTE3).
    if (a.tp == 2 && !recv_counts_.empty()) {
      GlobalTensor<int32_t> to_peer;
      to_peer.SetGlobalBuffer(
          reinterpret_cast<__gm__ int32_t*>(TpStatus(1 - tp_rank_) + kTpCountsOffset),
          recv_blocks());
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      DataCopyPad(to_peer[static_cast<uint64_t>(recv_begin_)], staged,
                  DataCopyExtParams{1, 4 * static_cast<uint32_t>(recv_counts_.size()), 0, 0, 0});
    }
    DrainSendFlags();
    PipeBarrier<PIPE_ALL>();
  }

  // A received record (in UB) into expandX row `row` (and its dynamic scale): as it came, or
  // quantized here (quant_before_send = 0).
  void StoreRow(const LocalTensor<uint8_t>& r, const GlobalTensor<uint8_t>& ex,
                const GlobalTensor<uint8_t>& sc, int row) {
    const Attrs& a = g_.attrs;
    uint64_t out_row = out_row_bytes(a);
    if (a.quant && !int8_on_wire(a)) {
      StoreQuantized(r, ex[static_cast<uint64_t>(row) * out_row],
                     sc[static_cast<uint64_t>(row) * 4]);
    } else {
      PayloadScope payload;
      DataCopyPad(ex[static_cast<uint64_t>(row) * out_row], r,
                  DataCopyExtParams{1, static_cast<uint32_t>(out_row), 0, 0, 0});
      if (a.quant)
        DataCopyPad(sc[static_cast<uint64_t>(row) * 4], r[data_bytes_],
                    DataCopyExtParams{1, 4, 0, 0, 0});
    }
  }

  // ---- 8. TP = 2 AllGatherV ([OLD] IsNeedAllgather)
  // The TP communicator's windows of TP rank `tp` (this die's or its peer's), this call's half.
  GM_ADDR TpSlot(int tp, int row) const {
    return GetWindAddrByRankId(static_cast<uint32_t>(tp), COMM_TP_IDX) +
           data_state_ * (GetWindSize() / 2) + static_cast<uint64_t>(row) * slot_;
  }
  GM_ADDR TpStatus(int tp) const {
    return GetWindStateAddrByRankId(static_cast<uint32_t>(tp), COMM_TP_IDX) +
           data_state_ * kStatusHalf;
  }

  // The reference's AllGatherSetStatusAndWait and AllgatherProcessOut run only on the cores that
  // have receive blocks (the others return): with L = 1 that is W of the cores. Each hands the
  // peer's core of the same number {1.0f, its own count, its prefix} once its records and counts
  // have landed (PIPE_ALL), waits for that write to complete (MTE3 -> S), then spins on its own
  // block until the peer's core has done the same, clears it, and takes the peer's cumulative
  // counts of its blocks (the same split on both) into epRecvCounts[W x L + i].
  void AllGatherSetStatusAndWait() {
    if (recv_counts_.empty()) return;
    const int peer = 1 - tp_rank_;
    const uint32_t n = static_cast<uint32_t>(recv_counts_.size());
    const uint64_t blocks = recv_blocks();
    GlobalTensor<int32_t> staged_here, recv;
    staged_here.SetGlobalBuffer(
        reinterpret_cast<__gm__ int32_t*>(TpStatus(tp_rank_) + kTpCountsOffset), blocks);
    recv.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.ep_recv_counts), 2 * blocks);
    LocalTensor<int32_t> staged = tpCounts_.Get<int32_t>(), blk = status_.Get<int32_t>();
    Duplicate(blk, 0, 24);  // [0, 8) the block to send, [8, 16) the polled one, [16, 24) zeros
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    blk.template ReinterpretCast<float>().SetValue(0, 1.0f);
    blk.SetValue(1, my_count_);
    blk.SetValue(2, my_prefix_);
    PipeBarrier<PIPE_ALL>();  // the records and the counts have landed before the flag
    GlobalTensor<int32_t> peer_flag, own_flag;
    peer_flag.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(TpStatus(peer) + core_ * 512ull),
                              8);
    own_flag.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(TpStatus(tp_rank_) + core_ * 512ull),
                             8);
    DataCopy(peer_flag, blk, 8);
    SetFlag<HardEvent::MTE3_S>(0);  // the reference's SyncFunc<MTE3_S> after the flag's write
    WaitFlag<HardEvent::MTE3_S>(0);
    LocalTensor<int32_t> got = blk[8];
    SimPollUntil([&] {
      DataCopy(got, own_flag, 8);
      SetFlag<HardEvent::MTE2_S>(0);
      WaitFlag<HardEvent::MTE2_S>(0);
      return got.template ReinterpretCast<float>().GetValue(0) == 1.0f;
    });
    peer_count_ = got.GetValue(1);
    peer_prefix_ = got.GetValue(2);
    DataCopy(own_flag, blk[16], 8);  // cleared for this half's next use
    DataCopyPad(staged, staged_here[static_cast<uint64_t>(recv_begin_)],
                DataCopyExtParams{1, 4 * n, 0, 0, 0});
    SetFlag<HardEvent::MTE2_MTE3>(0);
    WaitFlag<HardEvent::MTE2_MTE3>(0);
    DataCopyPad(recv[blocks + static_cast<uint64_t>(recv_begin_)], staged,
                DataCopyExtParams{1, 4 * n, 0, 0, 0});
  }

  // The peer core's records (its own count of them, not more), from this die's TP window, into
  // expandX rows own total + its prefix + i (dynamicScales in the same order); the last core with
  // receive blocks writes tpRecvCounts.
  void AllGatherProcessOut() {
    if (recv_counts_.empty()) return;
    const Attrs& a = g_.attrs;
    GlobalTensor<uint8_t> ex = OutRows(g_.expand_x, out_row_bytes(a)), sc;
    if (a.quant) sc = OutRows(g_.dynamic_scales, 4);
    for (int j = 0; j < peer_count_; ++j) {
      GlobalTensor<uint8_t> slot;
      slot.SetGlobalBuffer(TpSlot(tp_rank_, peer_prefix_ + j), rec_bytes_);
      LocalTensor<uint8_t> r = bindQue_.AllocTensor<uint8_t>();
      {
        PayloadScope payload(data_bytes_ + 32);
        DataCopyPad(r, slot, DataCopyExtParams{1, rec_bytes_, 0, 0, 0});
      }
      bindQue_.EnQue(r);
      r = bindQue_.DeQue<uint8_t>();
      StoreRow(r, ex, sc, own_total_ + peer_prefix_ + j);
      bindQue_.FreeTensor(r);
    }
    DrainSendFlags();
    const int last = static_cast<int>(std::min<uint64_t>(recv_blocks(), cores_)) - 1;
    if (core_ == last) {
      GlobalTensor<int32_t> tp_counts;
      tp_counts.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.tp_recv_counts), 2);
      tp_counts.SetValue(static_cast<uint64_t>(tp_rank_), own_total_);
      tp_counts.SetValue(static_cast<uint64_t>(1 - tp_rank_), peer_prefix_ + peer_count_);
    }
    PipeBarrier<PIPE_ALL>();
  }

  // An output of tp x A rows of `row_bytes` (expandX, dynamicScales).
  GlobalTensor<uint8_t> OutRows(GM_ADDR base, uint64_t row_bytes) const {
    GlobalTensor<uint8_t> t;
    t.SetGlobalBuffer(
        reinterpret_cast<__gm__ uint8_t*>(base),
        static_cast<uint64_t>(g_.attrs.tp) * capacity_rows(g_.attrs, rank_) * row_bytes);
    return t;
  }
  // The receive blocks of this rank: W (shared rank) or W x L.
  uint64_t recv_blocks() const {
    return static_cast<uint64_t>(is_shared_rank(g_.attrs, rank_) ? g_.attrs.ep
                                                                 : g_.attrs.ep * my_l_);
  }

  // What-if (quantize after receiving): the received token is quantized here, its int8 row and
  // scale stored from a recQue_ buffer whose tail the scalar fills (guarded like SendRecord's).
  void StoreQuantized(const LocalTensor<uint8_t>& token, const GlobalTensor<uint8_t>& row,
                      const GlobalTensor<uint8_t>& scale_out) {
    // The record queue hands the buffer from MTE2 to MTE3; the vector reads it too, so it must
    // wait for the copy-in itself.
    SetFlag<HardEvent::MTE2_V>(1);
    WaitFlag<HardEvent::MTE2_V>(1);
    float scale = Quantize(token.template ReinterpretCast<T>());
    LocalTensor<uint8_t> q = recQue_.DeQue<uint8_t>();
    int buf = NextBuf();
    uint32_t h = static_cast<uint32_t>(g_.attrs.hidden), scale_at = (h + 31) / 32 * 32;
    q.template ReinterpretCast<float>().SetValue(scale_at / 4, scale);
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    {
      PayloadScope payload;
      DataCopyPad(row, q, DataCopyExtParams{1, h, 0, 0, 0});
      DataCopyPad(scale_out, q[scale_at], DataCopyExtParams{1, 4, 0, 0, 0});
    }
    SetFlag<HardEvent::MTE3_S>(buf);
    buf_sent_[buf] = true;
    recQue_.FreeTensor(q);
  }

  // ---- 6. expertTokenNums from the cumulative epRecvCounts (last core)
  void TokenCounts() {
    const Attrs& a = g_.attrs;
    GlobalTensor<int32_t> recv;
    const uint64_t blocks = recv_blocks();
    recv.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.ep_recv_counts), a.tp * blocks);
    GlobalTensor<int64_t> nums;
    nums.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(g_.expert_token_nums), my_l_);
    // With TP the peer's rows count too: its cumulative counts follow the own ones.
    int32_t prev = 0, peer_prev = 0;
    for (int e = 0; e < my_l_; ++e) {
      const uint64_t last = static_cast<uint64_t>(e + 1) * a.ep - 1;
      int32_t cum = recv.GetValue(last), peer_cum = a.tp == 2 ? recv.GetValue(blocks + last) : 0;
      nums.SetValue(
          e, a.token_nums_type == 0 ? cum + peer_cum : (cum - prev) + (peer_cum - peer_prev));
      prev = cum;
      peer_prev = peer_cum;
    }
  }

  DeviceArgs g_;
  uint32_t die_ = 0;  // this die (GetRankId); rank_ is its rank in the EP group
  common::ElasticTable table_;
  int rank_ = 0, core_ = 0, cores_ = 1, moe_l_ = 1, my_l_ = 1, shared_cores_ = 0;
  int n_bs_ = 0;
  int64_t n_entries_ = 0;
  uint32_t rec_bytes_ = 0, data_bytes_ = 0;
  uint64_t slot_ = 0;
  int data_state_ = 0;
  common::PhaseStamps stamps_;
  std::vector<int> before_;  // scalar working memory (token split)
  std::vector<int> recv_counts_;
  int64_t recv_begin_ = 0;
  // TP = 2: this die's TP rank, its own received total, this core's prefix of it and its own
  // count (the rows of its receive blocks), and the peer core's count and prefix (handshake).
  int tp_rank_ = 0, own_total_ = 0, my_prefix_ = 0, my_count_ = 0, peer_count_ = 0,
      peer_prefix_ = 0;
  int next_buf_ = 0;
  bool buf_sent_[2] = {false, false};
  TPipe pipe_;
  SendShare share_;  // this core's part of the send split (host plan)
  TBuf<TPosition::VECCALC> ids_, status_, small_, f32_, abs_, f16_, triples_, dup_, diff_;
  TBuf<TPosition::VECCALC> index_, mask_, escales_, elastic_, tpCounts_;
  TQue<TPosition::VECIN, 1> inQue_;
  TQue<TPosition::VECOUT, 1> recQue_;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> bindQue_;
  GlobalTensor<T> xGm_;
  GlobalTensor<int32_t> idsGm_, workGm_;
  GlobalTensor<float> escalesGm_, smoothGm_;
};

}  // namespace ascend::dispatch
