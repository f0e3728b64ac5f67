// Device code of MoeDistributeCombine (A3 fullmesh_v1, [OLD]), written against the
// Ascend C facade.
//
// Every AIV core of every rank runs Process():
//  1. InitWinState  combine's own 0/1 flip: a per-core state word at 975 KB of the status window
//  2. send          this core's contiguous share of the rows to send (the expert outputs this rank
//                   computed), visited from offset rankId: read the row's triple (rank, token, k),
//                   MTE2 the expandX row (optionally int8-quantized per block of 8 on VECTOR),
//                   MTE3 it to the slot (token, k) of the source rank's window; after every
//                   rows_per_barrier rows a PipeBarrier<PIPE_MTE3>, then one 32-B flag per row
//  3. receive       this core's contiguous share of the active tokens. A token is ready when its
//                   K + shared flags sum to 8 x (K + shared); in_order waits for each token in
//                   turn ([OLD]), ready_first polls the unfinished ones round-robin and combines
//                   whichever is ready ([NEW]). Then the flags are cleared and the token combined
//                   in fp32: weighted MoE slots, unweighted shared slots, unweighted
//                   sharedExpertX, cast (RINT) to the token dtype and written to xOut.
// TP = 2 ([OLD] ReduceScatterV), before the send: expandX rows [nSend, nSend +
// tpSendCounts[peer]) (this rank's partial results for the TP peer's rows) go to the peer's TP
// window, split over the cores as the peer splits its own rows; each core hands its peer core a
// flag and waits for the peer's; then every row sent is the own row plus the peer's partial row
// (bf16: fp32 add, RINT; fp16: a native add), so TP partial sums are added before the EP return.
#pragma once

#include <type_traits>
#include <vector>

#include "api/kernel_operator.h"
#include "kernels/combine/combine_tiling.h"
#include "kernels/common/device.h"
#include "kernels/common/elastic.h"

namespace ascend::combine {

using namespace AscendC;

struct DeviceArgs {
  GM_ADDR expand_x, assist_info, ep_send_counts, expert_scales, shared_expert_x, x_out;
  Attrs attrs;
  int buffer_num = 2;                 // after the UB fallback
  bool window_flip = true;            // 0/1 halves on consecutive calls
  int active_tokens = 0;              // this rank's 1-D mask: the first N tokens are active
  uint64_t* phase_ps = nullptr;       // per core: 3 timestamps (start, sent, combined)
  uint64_t* wait_ps = nullptr;        // per core: time spent in polls that found a token not ready
  uint64_t stall_before_send_ps = 0;  // what-if: this rank starts sending late
  Receiver receive = nullptr;         // the receiver order (receivers(), resolved by the host)
  // V3 (nullptr when not given): with special experts or a 2-D mask the receiver reads each
  // token's ids and flags; copy and const experts are computed here from oriX.
  GM_ADDR expert_ids = nullptr, x_active_mask = nullptr, ori_x = nullptr;
  GM_ADDR const_alpha1 = nullptr, const_alpha2 = nullptr, const_v = nullptr;
  GM_ADDR elastic_info = nullptr;
  GM_ADDR tp_send_counts = nullptr;  // (2,) int32: attrs.d.tp = 2
};

template <class T>
class KernelCombine {
 public:
  __aicore__ void Init(const DeviceArgs& args) {
    g_ = args;
    stamps_ = common::PhaseStamps(g_.phase_ps, 3);
    const dispatch::Attrs& d = g_.attrs.d;
    die_ = GetRankId();
    core_ = static_cast<int>(GetBlockIdx());
    cores_ = static_cast<int>(GetBlockNum());
    UbPlan ub = ub_plan(g_.attrs);
    if (d.elastic_world) {  // W, S and E of the new EP group, and this die's rank in it
      pipe_.InitBuffer(elastic_, ub.elastic);
      table_.Init(g_.elastic_info, d.elastic_world, elastic_.Get<int32_t>());
      if (table_.ScaledDown()) {
        g_.attrs.d.ep = table_.World();
        g_.attrs.d.shared_expert_ranks = table_.SharedRanks();
        g_.attrs.d.experts = table_.Experts();
      }
    }
    rank_ = table_.NewRank(die_);
    e0_ = dispatch::experts0(d);
    if (d.tp == 2) {
      tp_rank_ = static_cast<int>(GetRankId(COMM_TP_IDX));
      GlobalTensor<int32_t> tp_counts;
      tp_counts.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.tp_send_counts), 2);
      peer_rows_ = tp_counts.GetValue(static_cast<uint64_t>(1 - tp_rank_));
    }
    v3_ = per_token_slots(g_.attrs);
    h_ = static_cast<uint32_t>(d.hidden);
    slots_ = slots_per_token(d);
    slot_bytes_ = combine::slot_bytes(g_.attrs);
    wire_ = static_cast<uint32_t>(wire_bytes(g_.attrs));
    nblk_ = static_cast<uint32_t>(align_up(h_, 16) / 8);
    uint64_t rows = static_cast<uint64_t>(dispatch::capacity_rows(d, rank_));
    expandGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(g_.expand_x), d.tp * rows * h_);
    assistGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.assist_info), rows * 128);
    int blocks =
        dispatch::is_shared_rank(d, rank_) ? d.ep : d.ep * dispatch::local_experts(d, rank_);
    countsGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.ep_send_counts), blocks);
    send_rows_ = countsGm_.GetValue(blocks - 1);
    scalesGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(g_.expert_scales),
                              static_cast<uint64_t>(d.bs) * d.topk);
    if (g_.shared_expert_x)
      sharedGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(g_.shared_expert_x),
                                static_cast<uint64_t>(d.bs) * h_);
    outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(g_.x_out), static_cast<uint64_t>(d.bs) * h_);
    if (v3_) {
      idsGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.expert_ids),
                             static_cast<uint64_t>(d.bs) * d.topk);
      if (d.mask_2d)
        maskGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(g_.x_active_mask),
                                static_cast<uint64_t>(d.bs) * d.topk);
      if (d.copy_experts + d.const_experts)
        oriGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(g_.ori_x),
                               static_cast<uint64_t>(d.bs) * h_);
      if (d.const_experts && g_.attrs.const_softmax) {
        gate1Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(g_.const_alpha1),
                                 static_cast<uint64_t>(d.const_experts) * h_);
        gate2Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(g_.const_alpha2),
                                 static_cast<uint64_t>(d.const_experts) * h_);
      } else if (d.const_experts) {
        alpha1Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(g_.const_alpha1), d.const_experts);
        alpha2Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(g_.const_alpha2), d.const_experts);
      }
      if (d.const_experts) {
        constVGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(g_.const_v),
                                  static_cast<uint64_t>(d.const_experts) * h_);
      }
    }

    pipe_.InitBuffer(rowQue_, g_.buffer_num, ub.row);  // a row in: expandX row or window slot
    pipe_.InitBuffer(outQue_, g_.buffer_num, ub.out);  // a row out: quantized record or xOut row
    if (ub.bind) pipe_.InitBuffer(bindQue_, g_.buffer_num, ub.bind);  // a row passed through
    pipe_.InitBuffer(acc_, ub.acc);
    pipe_.InitBuffer(tmp_, ub.tmp);
    if (g_.attrs.comm_quant) {
      pipe_.InitBuffer(bcast_, ub.bcast);
      pipe_.InitBuffer(h16_, ub.h16);
    }
    pipe_.InitBuffer(small_, ub.small);
    if (ub.aux) pipe_.InitBuffer(aux_, ub.aux);
    LocalTensor<float> ones = small_.Get<float>()[kOnes / 4];
    Duplicate(ones, kFlagValue, 8);
    LocalTensor<float> zeros = small_.Get<float>()[kZeros / 4];
    Duplicate(zeros, 0.0f, static_cast<uint32_t>(slots_ * 8));
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
  }

  __aicore__ void Process() {
    Stamp(0);
    data_state_ = common::FlipWinState(kStateWordBase, g_.window_flip);
    common::StallPs(g_.stall_before_send_ps);
    if (g_.attrs.d.tp == 2) ReduceScatterV();
    Send();
    Stamp(1);
    Receive();
    PipeBarrier<PIPE_ALL>();
    Stamp(2);
  }

 private:
  // Offsets inside the small scratch buffer.
  static constexpr uint32_t kFlags = 0;         // a token's flags (up to 20 x 32 B)
  static constexpr uint32_t kZeros = 1024;      // the cleared flags
  static constexpr uint32_t kOnes = 2048;       // one flag block of eight 1.0
  static constexpr uint32_t kSum = 2080;        // ReduceSum result
  static constexpr uint32_t kWeights = 2112;    // a token's K weights (up to 16 fp32)
  static constexpr uint32_t kTriples = 2176;    // up to kTripleRows triples
  static constexpr uint32_t kTripleRows = 256;  // 3 KB
  static constexpr uint32_t kBlockMax = 5248;   // block scales, fp32 (up to 1024 + pad)
  static constexpr uint32_t kIds = 9344;        // V3: a token's K ids (up to 16 int32)
  static constexpr uint32_t kMask = 9408;       // its K 2-D flags
  static constexpr uint32_t kAlpha = 9440;      // a const expert's two gate sums (32 B each)
  static constexpr uint32_t kTpFlag = 9504;     // TP: the handshake block sent ({1, 0, ...})
  static constexpr uint32_t kTpPoll = 9536;     // TP: the own handshake block, polled

  void Stamp(int i) const { stamps_.Stamp(i); }

  uint64_t SlotIndex(int t, int k) const { return static_cast<uint64_t>(t) * slots_ + k; }
  // Window addresses of a rank of the EP group: its die's (Table2 after a scale-down).
  GM_ADDR DataSlot(int rank, int t, int k) const {
    return GetWindAddrByRankId(table_.Die(rank)) + data_state_ * (GetWindSize() / 2) +
           SlotIndex(t, k) * slot_bytes_;
  }
  GM_ADDR Flag(int rank, int t, int k) const {
    return GetWindStateAddrByRankId(table_.Die(rank)) + kFlagBase +
           data_state_ * dispatch::kStatusHalf + SlotIndex(t, k) * 32;
  }

  // ---- 2. send: rows [begin, end) of expandX, visited from offset rankId
  void Send() {
    auto [begin, end] = split_to_core(send_rows_, cores_, core_);
    int64_t n = end - begin;
    if (n == 0) return;
    int64_t first = begin + rank_ % n;
    // The rotated walk is two contiguous runs of rows; triples come in by chunks of each run.
    for (auto [from, to] : {std::pair<int64_t, int64_t>{first, end}, {begin, first}})
      for (int64_t c0 = from; c0 < to; c0 += kTripleRows) {
        int rows = static_cast<int>(std::min<int64_t>(kTripleRows, to - c0));
        LocalTensor<int32_t> tri = small_.Get<int32_t>()[kTriples / 4];
        DataCopyPad(tri, assistGm_[static_cast<uint64_t>(c0) * 3],
                    DataCopyExtParams{1, static_cast<uint32_t>(12 * rows), 0, 0, 0});
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
        for (int i = 0; i < rows; ++i)
          SendRow(c0 + i, tri.GetValue(3 * i), tri.GetValue(3 * i + 1), tri.GetValue(3 * i + 2));
      }
    FlushFlags();
  }

  void SendRow(int64_t row, int dst, int t, int k) {
    GlobalTensor<uint8_t> slot;
    slot.SetGlobalBuffer(DataSlot(dst, t, k), wire_);
    if (g_.attrs.d.tp == 2) {
      SendSummedRow(row, slot);
    } else if (g_.attrs.comm_quant) {
      LocalTensor<T> in = rowQue_.AllocTensor<T>();
      {
        PayloadScope payload;
        DataCopyPad(in, expandGm_[static_cast<uint64_t>(row) * h_],
                    DataCopyExtParams{1, h_ * static_cast<uint32_t>(sizeof(T)), 0, 0, 0});
      }
      rowQue_.EnQue(in);
      in = rowQue_.DeQue<T>();
      Quantize(in);
      rowQue_.FreeTensor(in);
      LocalTensor<uint8_t> rec = outQue_.DeQue<uint8_t>();
      {
        PayloadScope payload;
        DataCopyPad(slot, rec, DataCopyExtParams{1, wire_, 0, 0, 0});
      }
      outQue_.FreeTensor(rec);
    } else {
      // The row goes back out of the buffer it came in (MTE2 -> MTE3 through the bound queue).
      LocalTensor<T> in = bindQue_.AllocTensor<T>();
      {
        PayloadScope payload;
        DataCopyPad(in, expandGm_[static_cast<uint64_t>(row) * h_],
                    DataCopyExtParams{1, h_ * static_cast<uint32_t>(sizeof(T)), 0, 0, 0});
      }
      bindQue_.EnQue(in);
      LocalTensor<uint8_t> rec = bindQue_.DeQue<uint8_t>();
      {
        PayloadScope payload;
        DataCopyPad(slot, rec, DataCopyExtParams{1, wire_, 0, 0, 0});
      }
      bindQue_.FreeTensor(rec);
    }
    pending_.push_back({dst, t, k});
    if (static_cast<int>(pending_.size()) >= g_.attrs.rows_per_barrier) FlushFlags();
  }

  // ---- TP = 2: ReduceScatterV ([OLD])
  // Row i of TP rank `tp`'s TP window (combine's area, this call's half) and its handshake block
  // of this core.
  GM_ADDR TpRow(int tp, int64_t i) const {
    return GetWindAddrByRankId(static_cast<uint32_t>(tp), COMM_TP_IDX) +
           data_state_ * (GetWindSize() / 2) + dispatch::tp_combine_offset(g_.attrs.d, rank_) +
           static_cast<uint64_t>(i) * slot_bytes_;
  }
  GM_ADDR TpFlag(int tp) const {
    return GetWindStateAddrByRankId(static_cast<uint32_t>(tp), COMM_TP_IDX) +
           data_state_ * dispatch::kStatusHalf + dispatch::kTpCombineFlags + core_ * 512ull;
  }

  // This core's share of the partial rows for the peer (the split the peer's core of the same
  // number sends its own rows with) to the peer's TP window, through two halves of acc_; once
  // they have landed, the handshake: int 1 to the peer core's block, spin on the own, clear it.
  void ReduceScatterV() {
    const int peer = 1 - tp_rank_;
    const uint32_t bytes = h_ * static_cast<uint32_t>(sizeof(T));
    auto [begin, end] = split_to_core(peer_rows_, cores_, core_);
    LocalTensor<uint8_t> stage = acc_.Get<uint8_t>();
    const uint32_t half = static_cast<uint32_t>(align_up(bytes, 32));
    bool used[2] = {false, false};
    for (int64_t i = begin; i < end; ++i) {
      const int b = static_cast<int>((i - begin) % 2);
      if (used[b]) WaitFlag<HardEvent::MTE3_MTE2>(4 + b);
      GlobalTensor<uint8_t> to;
      to.SetGlobalBuffer(TpRow(peer, i), bytes);
      GlobalTensor<uint8_t> from;
      from.SetGlobalBuffer(g_.expand_x + static_cast<uint64_t>(send_rows_ + i) * bytes, bytes);
      PayloadScope payload;
      DataCopyPad(stage[b * half], from, DataCopyExtParams{1, bytes, 0, 0, 0});
      SetFlag<HardEvent::MTE2_MTE3>(4 + b);
      WaitFlag<HardEvent::MTE2_MTE3>(4 + b);
      DataCopyPad(to, stage[b * half], DataCopyExtParams{1, bytes, 0, 0, 0});
      SetFlag<HardEvent::MTE3_MTE2>(4 + b);
      used[b] = true;
    }
    for (int b = 0; b < 2; ++b)
      if (used[b]) WaitFlag<HardEvent::MTE3_MTE2>(4 + b);
    LocalTensor<int32_t> flag = small_.Get<int32_t>()[kTpFlag / 4];
    for (uint32_t w = 0; w < 8; ++w) flag.SetValue(w, w == 0 ? 1 : 0);
    PipeBarrier<PIPE_ALL>();  // every partial row has landed before the flag
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    GlobalTensor<int32_t> peer_flag, own_flag;
    peer_flag.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(TpFlag(peer)), 8);
    own_flag.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(TpFlag(tp_rank_)), 8);
    DataCopy(peer_flag, flag, 8);
    LocalTensor<int32_t> got = small_.Get<int32_t>()[kTpPoll / 4];
    SimPollUntil([&] {
      DataCopy(got, own_flag, 8);
      SetFlag<HardEvent::MTE2_S>(0);
      WaitFlag<HardEvent::MTE2_S>(0);
      return got.GetValue(0) == 1;
    });
    DataCopy(own_flag, small_.Get<int32_t>()[kZeros / 4], 8);  // cleared for this half's next use
  }

  // An own row plus the peer's partial row (from the own TP window, row `row`): both come in one
  // buffer, the VECTOR adds them (bf16: widened to fp32, added, RINT; fp16: a native add), and
  // the sum leaves for the EP destination's slot.
  void SendSummedRow(int64_t row, const GlobalTensor<uint8_t>& slot) {
    const uint32_t bytes = h_ * static_cast<uint32_t>(sizeof(T));
    const uint32_t second = static_cast<uint32_t>(align_up(bytes, 32) / sizeof(T));
    GlobalTensor<T> partial;
    partial.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(TpRow(tp_rank_, row)), h_);
    PayloadScope payload;
    LocalTensor<T> in = rowQue_.AllocTensor<T>();
    DataCopyPad(in, expandGm_[static_cast<uint64_t>(row) * h_],
                DataCopyExtParams{1, bytes, 0, 0, 0});
    DataCopyPad(in[second], partial, DataCopyExtParams{1, bytes, 0, 0, 0});
    rowQue_.EnQue(in);
    in = rowQue_.DeQue<T>();
    LocalTensor<T> out = outQue_.AllocTensor<T>();
    if constexpr (std::is_same_v<T, half>) {
      Add(out, in, in[second], h_);
    } else {
      LocalTensor<float> a = acc_.Get<float>(), b = tmp_.Get<float>();
      Cast(a, in, RoundMode::CAST_NONE, h_);
      Cast(b, in[second], RoundMode::CAST_NONE, h_);
      Add(a, a, b, h_);
      Cast(out, a, RoundMode::CAST_RINT, h_);
    }
    rowQue_.FreeTensor(in);
    outQue_.EnQue(out);
    out = outQue_.DeQue<T>();
    DataCopyPad(slot, out.template ReinterpretCast<uint8_t>(),
                DataCopyExtParams{1, wire_, 0, 0, 0});
    outQue_.FreeTensor(out);
  }

  // Every row before the barrier has landed in its window before its flag is written.
  void FlushFlags() {
    if (pending_.empty()) return;
    PipeBarrier<PIPE_MTE3>();
    LocalTensor<float> ones = small_.Get<float>()[kOnes / 4];
    for (const Pending& p : pending_) {
      GlobalTensor<float> flag;
      flag.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(Flag(p.rank, p.t, p.k)), 8);
      DataCopy(flag, ones, 8);
    }
    pending_.clear();
  }

  // commQuantMode 2: per block of 8, s = max|x| x (1/127) in fp32; q = int8(RINT(fp16(RINT(x/s))));
  // the record is Align32(H) int8 values, then the block scales rounded (RINT) to the dtype.
  void Quantize(const LocalTensor<T>& in) {
    PayloadScope payload;
    uint32_t padded = static_cast<uint32_t>(align_up(h_, 16));
    LocalTensor<float> xf = tmp_.Get<float>(), ax = bcast_.Get<float>();
    LocalTensor<float> mx = small_.Get<float>()[kBlockMax / 4];
    if (padded > h_) Duplicate(xf, 0.0f, padded);  // the last blocks are zero-padded
    Cast(xf, in, RoundMode::CAST_NONE, h_);
    Abs(ax, xf, padded);
    int32_t repeats = static_cast<int32_t>((padded + 63) / 64);
    BlockReduceMax(mx, ax, repeats, 64, 1, 1, 8);
    Muls(mx, mx, 1.0f / 127.0f, nblk_);
    Brcb(ax, mx, static_cast<uint8_t>((nblk_ + 7) / 8), BrcbRepeatParams{1, 8});
    Div(xf, xf, ax, h_);
    LocalTensor<half> xh = h16_.Get<half>();
    Cast(xh, xf, RoundMode::CAST_RINT, h_);
    LocalTensor<uint8_t> rec = outQue_.AllocTensor<uint8_t>();
    Cast(rec.template ReinterpretCast<int8_t>(), xh, RoundMode::CAST_RINT, h_);
    Cast(rec[quant_scale_offset(g_.attrs)].template ReinterpretCast<T>(), mx, RoundMode::CAST_RINT,
         nblk_);
    outQue_.EnQue(rec);
  }

  // The receiver's side: fp32(fp16(q)) x fp32(s), rounded (RINT) to the dtype, into `xf` as fp32.
  void Dequantize(const LocalTensor<uint8_t>& rec, const LocalTensor<float>& xf) {
    PayloadScope payload;
    LocalTensor<half> xh = h16_.Get<half>();
    LocalTensor<float> bc = bcast_.Get<float>(), sf = small_.Get<float>()[kBlockMax / 4];
    Cast(xh, rec.template ReinterpretCast<int8_t>(), RoundMode::CAST_NONE, h_);
    Cast(xf, xh, RoundMode::CAST_NONE, h_);
    Cast(sf, rec[quant_scale_offset(g_.attrs)].template ReinterpretCast<T>(), RoundMode::CAST_NONE,
         nblk_);
    Brcb(bc, sf, static_cast<uint8_t>((nblk_ + 7) / 8), BrcbRepeatParams{1, 8});
    Mul(xf, xf, bc, h_);
    LocalTensor<T> xt = xh.template ReinterpretCast<T>();
    Cast(xt, xf, RoundMode::CAST_RINT, h_);
    Cast(xf, xt, RoundMode::CAST_NONE, h_);
  }

  // ---- 3. receive
  void Receive() {
    auto [begin, end] = split_to_core(g_.active_tokens, cores_, core_);
    ReceiveOps ops;
    ops.ready = [this](int t) {  // one poll; a failed one is time spent waiting
      uint64_t t0 = SimNowPs();
      bool ready = Ready(t);
      if (!ready) Waited(SimNowPs() - t0);
      return ready;
    };
    ops.wait = [this](int t) { Waited(SimPollUntil([&] { return Ready(t); })); };
    ops.combine = [this](int t) { CombineToken(t); };
    g_.receive(begin, end, ops);
  }
  void Waited(uint64_t ps) {
    if (g_.wait_ps) g_.wait_ps[core_] += ps;
  }

  // V3: token t's ids and 2-D flags into the scratch; returns how many of its K slots the
  // window fills (flag set, MoE expert), or -1 when no flag of it is set (it takes no part).
  int LoadToken(int t) {
    const dispatch::Attrs& d = g_.attrs.d;
    LocalTensor<int32_t> ids = small_.Get<int32_t>()[kIds / 4];
    LocalTensor<uint8_t> mask = small_.Get<uint8_t>()[kMask];
    DataCopyPad(ids, idsGm_[static_cast<uint64_t>(t) * d.topk],
                DataCopyExtParams{1, static_cast<uint32_t>(4 * d.topk), 0, 0, 0});
    if (d.mask_2d)
      DataCopyPad(mask, maskGm_[static_cast<uint64_t>(t) * d.topk],
                  DataCopyExtParams{1, static_cast<uint32_t>(d.topk), 0, 0, 0});
    SetFlag<HardEvent::MTE2_S>(2);
    WaitFlag<HardEvent::MTE2_S>(2);
    int valid = 0;
    bool any = !d.mask_2d;
    for (int k = 0; k < d.topk; ++k) {
      bool on = !d.mask_2d || mask.GetValue(static_cast<uint32_t>(k)) != 0;
      any = any || on;
      valid += on && ids.GetValue(static_cast<uint32_t>(k)) < d.experts;
    }
    return any ? valid : -1;
  }

  // One poll of a token's flags: sum of its (K + shared) x 8 floats == 8 x (K + shared) +- 0.5;
  // with special experts or a 2-D mask, 8 x (the slots the window fills + shared).
  bool Ready(int t) {
    LocalTensor<float> flags = small_.Get<float>()[kFlags / 4];
    LocalTensor<float> sum = small_.Get<float>()[kSum / 4];
    GlobalTensor<float> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(Flag(rank_, t, 0)), slots_ * 8ull);
    uint32_t n = static_cast<uint32_t>(slots_ * 8);
    float target = static_cast<float>(n);
    if (v3_) {
      int valid = LoadToken(t);
      skip_ = valid < 0;
      if (skip_) return true;
      target = 8.0f * static_cast<float>(valid + slots_ - g_.attrs.d.topk);
    }
    DataCopy(flags, gm, n);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    ReduceSum(sum, flags, flags, n);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    float s = sum.GetValue(0);
    bool ready = s > target - 0.5f && s < target + 0.5f;
    if (ready) DataCopy(gm, small_.Get<float>()[kZeros / 4], n);  // clear for the next use
    return ready;
  }

  void CombineToken(int t) {
    const dispatch::Attrs& d = g_.attrs.d;
    if (v3_ && skip_) return;  // a token without a 2-D flag set: its row is not written
    LocalTensor<float> w = small_.Get<float>()[kWeights / 4];
    DataCopyPad(w, scalesGm_[static_cast<uint64_t>(t) * d.topk],
                DataCopyExtParams{1, static_cast<uint32_t>(4 * d.topk), 0, 0, 0});
    SetFlag<HardEvent::MTE2_S>(1);
    WaitFlag<HardEvent::MTE2_S>(1);
    LocalTensor<float> acc = acc_.Get<float>(), term = tmp_.Get<float>();
    PayloadScope payload;
    Duplicate(acc, 0.0f, h_);
    for (int k = 0; k < slots_; ++k) {
      if (v3_ && k < d.topk) {  // masked out, or a special expert computed here
        LocalTensor<int32_t> ids = small_.Get<int32_t>()[kIds / 4];
        if (d.mask_2d && small_.Get<uint8_t>()[kMask].GetValue(static_cast<uint32_t>(k)) == 0)
          continue;
        int32_t e = ids.GetValue(static_cast<uint32_t>(k));
        if (e >= e0_) {  // the tiling's moeExpertNum: E0 even after a scale-down
          if (e < e0_ + d.zero_experts) continue;  // a zero expert adds nothing
          LocalExpert(t, e - e0_ - d.zero_experts, term);
          Muls(term, term, w.GetValue(static_cast<uint32_t>(k)), h_);
          Add(acc, acc, term, h_);
          continue;
        }
      }
      GlobalTensor<uint8_t> slot;
      slot.SetGlobalBuffer(DataSlot(rank_, t, k), wire_);
      LocalTensor<uint8_t> in = rowQue_.AllocTensor<uint8_t>();
      DataCopyPad(in, slot, DataCopyExtParams{1, wire_, 0, 0, 0});
      rowQue_.EnQue(in);
      in = rowQue_.DeQue<uint8_t>();
      if (g_.attrs.comm_quant) {
        Dequantize(in, term);
      } else {
        Cast(term, in.template ReinterpretCast<T>(), RoundMode::CAST_NONE, h_);
      }
      rowQue_.FreeTensor(in);
      if (k < d.topk) Muls(term, term, w.GetValue(static_cast<uint32_t>(k)), h_);
      Add(acc, acc, term, h_);
    }
    if (g_.shared_expert_x) {
      LocalTensor<T> in = rowQue_.AllocTensor<T>();
      DataCopyPad(in, sharedGm_[static_cast<uint64_t>(t) * h_],
                  DataCopyExtParams{1, h_ * static_cast<uint32_t>(sizeof(T)), 0, 0, 0});
      rowQue_.EnQue(in);
      in = rowQue_.DeQue<T>();
      Cast(term, in, RoundMode::CAST_NONE, h_);
      rowQue_.FreeTensor(in);
      Add(acc, acc, term, h_);
    }
    LocalTensor<T> out = outQue_.AllocTensor<T>();
    Cast(out, acc, RoundMode::CAST_RINT, h_);
    outQue_.EnQue(out);
    out = outQue_.DeQue<T>();
    DataCopyPad(outGm_[static_cast<uint64_t>(t) * h_], out,
                DataCopyExtParams{1, h_ * static_cast<uint32_t>(sizeof(T)), 0, 0, 0});
    outQue_.FreeTensor(out);
  }

  // A copy expert (i < copy experts) gives oriX[t]; const expert j = i - copy experts gives
  // alpha1[j] x oriX[t] + alpha2[j] x v[j] in fp32, left in fp32 for the weighted sum (the
  // operator's ProcessConstantExpert never rounds it to the dtype). Into `term`.
  void LocalExpert(int t, int i, const LocalTensor<float>& term) {
    const dispatch::Attrs& d = g_.attrs.d;
    LoadRow(oriGm_[static_cast<uint64_t>(t) * h_], term);
    if (i < d.copy_experts) return;
    const int j = i - d.copy_experts;
    LocalTensor<float> v = aux_.Get<float>();
    float p1, p2;
    if (g_.attrs.const_softmax) {
      SoftmaxGates(j, term, &p1, &p2);
    } else {  // [OLD] scalar alphas in the dtype, read by the scalar from GM
      p1 = to_float(alpha1Gm_.GetValue(static_cast<uint64_t>(j)));
      p2 = to_float(alpha2Gm_.GetValue(static_cast<uint64_t>(j)));
    }
    LoadRow(constVGm_[static_cast<uint64_t>(j) * h_], v);
    Muls(term, term, p1, h_);
    Muls(v, v, p2, h_);
    Add(term, term, v, h_);
  }
  // [NEW] gates of const expert j for oriX (fp32 in `x`): a_g = ReduceSum(gate_g[j] x x) on
  // VECTOR; e = Exp(-|a1 - a2|) (one element); the larger a gets 1 / (1 + e), the other e / (1 +
  // e).
  void SoftmaxGates(int j, const LocalTensor<float>& x, float* p1, float* p2) {
    LocalTensor<float> row = aux_.Get<float>(), sums = small_.Get<float>()[kAlpha / 4];
    for (int g = 0; g < 2; ++g) {
      LoadRow((g ? gate2Gm_ : gate1Gm_)[static_cast<uint64_t>(j) * h_], row);
      Mul(row, row, x, h_);
      ReduceSum(sums[8 * g], row, row, h_);
    }
    SetFlag<HardEvent::V_S>(2);
    WaitFlag<HardEvent::V_S>(2);
    float a1 = sums.GetValue(0), a2 = sums.GetValue(8);
    sums.SetValue(0, a1 >= a2 ? a2 - a1 : a1 - a2);
    SetFlag<HardEvent::S_V>(2);
    WaitFlag<HardEvent::S_V>(2);
    Exp(sums, sums, 1);
    SetFlag<HardEvent::V_S>(2);
    WaitFlag<HardEvent::V_S>(2);
    const float e = sums.GetValue(0), hi = 1.0f / (1.0f + e), lo = e / (1.0f + e);
    *p1 = a1 >= a2 ? hi : lo;
    *p2 = a1 >= a2 ? lo : hi;
  }

  // A dtype row of GM through the row queue, widened to fp32 into `dst`.
  void LoadRow(const GlobalTensor<T>& src, const LocalTensor<float>& dst) {
    LocalTensor<T> in = rowQue_.AllocTensor<T>();
    DataCopyPad(in, src, DataCopyExtParams{1, h_ * static_cast<uint32_t>(sizeof(T)), 0, 0, 0});
    rowQue_.EnQue(in);
    in = rowQue_.DeQue<T>();
    Cast(dst, in, RoundMode::CAST_NONE, h_);
    rowQue_.FreeTensor(in);
  }

  struct Pending {
    int rank, t, k;
  };
  DeviceArgs g_;
  uint32_t die_ = 0;  // this die (GetRankId); rank_ is its rank in the EP group
  common::ElasticTable table_;
  bool v3_ = false, skip_ = false;
  int rank_ = 0, core_ = 0, cores_ = 1, slots_ = 1, data_state_ = 0, e0_ = 0;
  common::PhaseStamps stamps_;
  uint32_t h_ = 0, wire_ = 0, nblk_ = 0;
  uint64_t slot_bytes_ = 0;
  int64_t send_rows_ = 0;
  int tp_rank_ = 0, peer_rows_ = 0;  // tp = 2: this die's TP rank, the rows it sums for the peer
  std::vector<Pending> pending_;
  TPipe pipe_;
  TQue<TPosition::VECIN, 1> rowQue_;
  TQue<TPosition::VECOUT, 1> outQue_;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> bindQue_;
  TBuf<TPosition::VECCALC> acc_, tmp_, bcast_, h16_, small_, aux_, elastic_;
  GlobalTensor<T> expandGm_, sharedGm_, outGm_, oriGm_, constVGm_, gate1Gm_, gate2Gm_, alpha1Gm_,
      alpha2Gm_;
  GlobalTensor<int32_t> assistGm_, countsGm_, idsGm_;
  GlobalTensor<uint8_t> maskGm_;
  GlobalTensor<float> scalesGm_;
};

}  // namespace ascend::combine
