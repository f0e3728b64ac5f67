// Device code of the baseline the dispatch design talk argues against ([DC-TALK], 解决方案思考):
// the traditional alltoallv dispatch, written against the same Ascend C facade and run on the
// same simulated machine. It produces exactly the outputs of MoeDistributeDispatch (checked with
// its golden reference), in three steps with a barrier between each:
//  1. counts all-to-all  every rank sends each destination the L counts of its tokens for that
//                        destination's experts (data, PipeBarrier, then a flag)
//  2. sort               the (token, k) entries are ordered by expert (a stable counting sort by
//                        the scalar unit) and every entry is copied, quantized if int8, as a
//                        record (data, scale, triple) into a local sorted buffer
//  3. data all-to-all    each destination's contiguous run of sorted records goes in bulk DMAs
//                        to the sender's region of the destination's window; PIPE_ALL, SyncAll,
//                        then a done flag per destination
// The receiver waits for every count and done flag, then regroups the records expert-major
// (local expert, then source rank) into expandX / dynamicScales / assistInfoForCombine with
// strided bulk copies, and writes epRecvCounts and expertTokenNums.
// MoE experts only: shared-expert ranks are rejected by the host.
#pragma once

#include <vector>

#include "api/kernel_operator.h"
#include "kernels/common/device.h"
#include "kernels/dispatch/dispatch_quant.h"
#include "kernels/dispatch/dispatch_tiling.h"

namespace ascend::alltoallv {

using namespace AscendC;
using dispatch::align_up;
using dispatch::Attrs;
using dispatch::split_to_core;

// Byte offsets in the status window (inside each 0/1 half) and of the per-core state words.
constexpr uint64_t kCountBase = 400 * 1024;      // W blocks: a 32-B flag, then L int32 counts
constexpr uint64_t kDoneBase = 452 * 1024;       // W done flags of 32 B
constexpr uint64_t kStateWordBase = 925 * 1024;  // per-core dataState words, 512 B apart

inline uint64_t record_stride(const Attrs& a) {  // data, 32-B scale block, triple: 32-B aligned
  return align_up(dispatch::record_bytes(a), 32);
}
inline uint64_t count_block(const Attrs& a, int l) {
  (void)a;
  return 32 + align_up(4ull * l, 32);
}
// Rows one source can send one destination: each active token picks at most min(K, L) of them.
inline uint64_t source_rows(const Attrs& a, int l) {
  return static_cast<uint64_t>(a.bs) * std::min(a.topk, l);
}
inline uint64_t chunk_bytes(const Attrs& a) {  // a bulk move through UB
  return std::max<uint64_t>(record_stride(a), 16 * 1024) / record_stride(a) * record_stride(a);
}

struct DeviceArgs {
  GM_ADDR x, expert_ids, expand_x, dynamic_scales, assist_info, expert_token_nums, ep_recv_counts;
  GM_ADDR sorted;  // BS x K records: the local sorted buffer
  Attrs attrs;
  int buffer_num = 2;
  int active_tokens = 0;
  uint64_t* phase_ps = nullptr;  // per core: 5 timestamps (start, counts sent, sorted, sent, done)
};

template <class T>
class KernelAlltoallvDispatch {
 public:
  __aicore__ void Init(const DeviceArgs& args) {
    g_ = args;
    stamps_ = common::PhaseStamps(g_.phase_ps, 5);
    const Attrs& a = g_.attrs;
    rank_ = static_cast<int>(GetRankId());
    core_ = static_cast<int>(GetBlockIdx());
    cores_ = static_cast<int>(GetBlockNum());
    l_ = a.experts / a.ep;
    n_ = static_cast<int64_t>(g_.active_tokens) * a.topk;
    rs_ = record_stride(a);
    data_ = dispatch::data_bytes(a);
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(g_.x), static_cast<uint64_t>(a.bs) * a.hidden);
    idsGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.expert_ids),
                           static_cast<uint64_t>(a.bs) * a.topk);
    sortedGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(g_.sorted),
                              static_cast<uint64_t>(a.bs) * a.topk * rs_);
    uint32_t h = static_cast<uint32_t>(a.hidden);
    pipe_.InitBuffer(ids_, static_cast<uint32_t>(align_up(4ull * a.bs * a.topk, 32)));
    pipe_.InitBuffer(small_, static_cast<uint32_t>(64 + count_block(a, l_) * a.ep));
    pipe_.InitBuffer(chunkQue_, g_.buffer_num, static_cast<uint32_t>(chunk_bytes(a)));
    if (a.quant) {
      pipe_.InitBuffer(recQue_, g_.buffer_num, static_cast<uint32_t>(rs_));
      pipe_.InitBuffer(inQue_, g_.buffer_num, 2 * h);
      pipe_.InitBuffer(f32_, 4 * h);
      pipe_.InitBuffer(abs_, 4 * h);
      pipe_.InitBuffer(f16_, 2 * h);
    } else {
      pipe_.InitBuffer(bindRec_, g_.buffer_num, static_cast<uint32_t>(rs_));
    }
  }

  __aicore__ void Process() {
    Stamp(0);
    data_state_ = common::FlipWinState(kStateWordBase);
    CountAndSort();
    SendCounts();
    Stamp(1);
    Permute();
    PipeBarrier<PIPE_ALL>();
    SyncAll();  // the sorted buffer is complete
    Stamp(2);
    SendData();
    PipeBarrier<PIPE_ALL>();
    SyncAll();  // every record has landed before any done flag
    SendDone();
    Stamp(3);
    WaitAll();
    Regroup();
    PipeBarrier<PIPE_ALL>();
    SyncAll();
    if (core_ == cores_ - 1) TokenCounts();
    PipeBarrier<PIPE_ALL>();
    Stamp(4);
  }

 private:
  void Stamp(int i) const { stamps_.Stamp(i); }
  GM_ADDR Status(int rank) const {
    return GetWindStateAddrByRankId(rank) + data_state_ * dispatch::kStatusHalf;
  }
  // The region of `src` in `rank`'s data window (after combine's area).
  GM_ADDR Region(int rank, int src) const {
    return GetWindAddrByRankId(rank) + data_state_ * (GetWindSize() / 2) +
           dispatch::combine_area_bytes(g_.attrs) +
           static_cast<uint64_t>(src) * source_rows(g_.attrs, l_) * rs_;
  }
  int DestOf(int expert) const { return expert / l_; }

  // ---- the histogram and the stable counting sort (scalar working memory, like dispatch's)
  void CountAndSort() {
    const Attrs& a = g_.attrs;
    LocalTensor<int32_t> ids = ids_.Get<int32_t>();
    if (n_ > 0) {
      DataCopyPad(ids, idsGm_, DataCopyExtParams{1, static_cast<uint32_t>(4 * n_), 0, 0, 0});
    }
    SetFlag<HardEvent::MTE2_S>(0);
    WaitFlag<HardEvent::MTE2_S>(0);
    count_.assign(a.experts, 0);
    for (int64_t i = 0; i < n_; ++i) ++count_[ids.GetValue(static_cast<uint32_t>(i))];
    start_.assign(a.experts + 1, 0);
    for (int e = 0; e < a.experts; ++e) start_[e + 1] = start_[e] + count_[e];
    order_.assign(n_, 0);
    std::vector<int64_t> next(start_.begin(), start_.end() - 1);
    for (int64_t i = 0; i < n_; ++i) order_[next[ids.GetValue(static_cast<uint32_t>(i))]++] = i;
  }

  // ---- 1. counts all-to-all: destinations split over the cores
  void SendCounts() {
    const Attrs& a = g_.attrs;
    auto [begin, end] = split_to_core(a.ep, cores_, core_);
    LocalTensor<int32_t> blk = small_.Get<int32_t>();
    for (int64_t d = begin; d < end; ++d) {
      LocalTensor<int32_t> b = blk[16];
      for (int j = 0; j < l_; ++j) b.SetValue(j, count_[d * l_ + j]);
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      GlobalTensor<int32_t> out;
      out.SetGlobalBuffer(
          reinterpret_cast<__gm__ int32_t*>(Status(static_cast<int>(d)) + kCountBase +
                                            rank_ * count_block(a, l_) + 32),
          l_);
      DataCopyPad(out, b, DataCopyExtParams{1, static_cast<uint32_t>(4 * l_), 0, 0, 0});
      PipeBarrier<PIPE_MTE3>();
      WriteFlag(Status(static_cast<int>(d)) + kCountBase + rank_ * count_block(a, l_));
      SetFlag<HardEvent::MTE3_S>(0);  // the counts block is rewritten for the next destination
      WaitFlag<HardEvent::MTE3_S>(0);
    }
  }

  void WriteFlag(GM_ADDR at) {
    LocalTensor<float> one = small_.Get<float>();
    one.SetValue(0, 1.0f);
    SetFlag<HardEvent::S_MTE3>(1);
    WaitFlag<HardEvent::S_MTE3>(1);
    GlobalTensor<float> flag;
    flag.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(at), 8);
    DataCopy(flag, one, 8);
  }

  // ---- 2. sort: this core's share of the sorted positions, one record each
  void Permute() {
    const Attrs& a = g_.attrs;
    auto [begin, end] = split_to_core(n_, cores_, core_);
    uint32_t h = static_cast<uint32_t>(a.hidden);
    for (int64_t pos = begin; pos < end; ++pos) {
      int64_t i = order_[pos];
      int t = static_cast<int>(i / a.topk), k = static_cast<int>(i % a.topk);
      LocalTensor<uint8_t> rec;
      float scale = 0;
      if (a.quant) {
        LocalTensor<T> tok = inQue_.AllocTensor<T>();
        {
          PayloadScope payload;
          DataCopyPad(tok, xGm_[static_cast<uint64_t>(t) * h],
                      DataCopyExtParams{1, h * static_cast<uint32_t>(sizeof(T)), 0, 0, 0});
        }
        inQue_.EnQue(tok);
        tok = inQue_.DeQue<T>();
        LocalTensor<half> xh = f16_.Get<half>();
        {
          PayloadScope payload;
          scale = dispatch::QuantizeToHalf(tok, f32_.Get<float>(), abs_.Get<float>(),
                                           small_.Get<float>()[8], xh, h);
          inQue_.FreeTensor(tok);
          rec = recQue_.AllocTensor<uint8_t>();
          Cast(rec.template ReinterpretCast<int8_t>(), xh, RoundMode::CAST_TRUNC, h);
        }
        SetFlag<HardEvent::V_S>(1);
        WaitFlag<HardEvent::V_S>(1);
      } else {
        // MTE2 -> MTE3 through a bound queue; the scalar fills the tail once the copy-in is done
        // (which also means the buffer's previous copy-out is done).
        rec = bindRec_.AllocTensor<uint8_t>();
        PayloadScope payload;
        DataCopyPad(rec.template ReinterpretCast<T>(), xGm_[static_cast<uint64_t>(t) * h],
                    DataCopyExtParams{1, h * static_cast<uint32_t>(sizeof(T)), 0, 0, 0});
        SetFlag<HardEvent::MTE2_S>(1);
        WaitFlag<HardEvent::MTE2_S>(1);
      }
      if (a.quant) rec.template ReinterpretCast<float>().SetValue(data_ / 4, scale);
      LocalTensor<int32_t> triple = rec[data_ + 32].template ReinterpretCast<int32_t>();
      triple.SetValue(0, rank_);
      triple.SetValue(1, t);
      triple.SetValue(2, k);
      SetFlag<HardEvent::S_MTE3>(1);
      WaitFlag<HardEvent::S_MTE3>(1);
      if (a.quant) {
        recQue_.EnQue(rec);
        rec = recQue_.DeQue<uint8_t>();
      } else {
        bindRec_.EnQue(rec);
        rec = bindRec_.DeQue<uint8_t>();
      }
      {
        PayloadScope payload(static_cast<uint32_t>(data_ + 32));
        DataCopyPad(
            sortedGm_[static_cast<uint64_t>(pos) * rs_], rec,
            DataCopyExtParams{1, static_cast<uint32_t>(dispatch::record_bytes(a)), 0, 0, 0});
      }
      if (a.quant) {
        recQue_.FreeTensor(rec);
      } else {
        bindRec_.FreeTensor(rec);
      }
    }
  }

  // ---- 3. data all-to-all: this core's share of the sorted records, in bulk runs per destination
  void SendData() {
    auto [begin, end] = split_to_core(n_, cores_, core_);
    const int64_t per_chunk = static_cast<int64_t>(chunk_bytes(g_.attrs) / rs_);
    int64_t pos = begin;
    while (pos < end) {
      int d = DestOf(IdAt(pos));
      int64_t run_end = std::min<int64_t>(end, start_[(d + 1) * l_]);  // where d's records end
      int64_t rows = std::min(per_chunk, run_end - pos);
      int64_t first_of_d = start_[d * l_];
      // Bulk moves carry whole records (triples included), so they always move their bytes.
      LocalTensor<uint8_t> buf = chunkQue_.AllocTensor<uint8_t>();
      DataCopy(buf, sortedGm_[static_cast<uint64_t>(pos) * rs_], static_cast<uint32_t>(rows * rs_));
      chunkQue_.EnQue(buf);
      buf = chunkQue_.DeQue<uint8_t>();
      GlobalTensor<uint8_t> dst;
      dst.SetGlobalBuffer(Region(d, rank_) + static_cast<uint64_t>(pos - first_of_d) * rs_,
                          static_cast<uint64_t>(rows) * rs_);
      DataCopy(dst, buf, static_cast<uint32_t>(rows * rs_));
      chunkQue_.FreeTensor(buf);
      pos += rows;
    }
  }
  int IdAt(int64_t pos) const {
    return static_cast<int>(
        std::upper_bound(start_.begin(), start_.end(), static_cast<int64_t>(pos)) - start_.begin() -
        1);
  }

  void SendDone() {
    auto [begin, end] = split_to_core(g_.attrs.ep, cores_, core_);
    LocalTensor<float> one = small_.Get<float>();
    one.SetValue(0, 1.0f);  // once: the scalar must not rewrite a block queued MTE3 still reads
    SetFlag<HardEvent::S_MTE3>(1);
    WaitFlag<HardEvent::S_MTE3>(1);
    for (int64_t d = begin; d < end; ++d) {
      GlobalTensor<float> flag;
      flag.SetGlobalBuffer(
          reinterpret_cast<__gm__ float*>(Status(static_cast<int>(d)) + kDoneBase + rank_ * 32ull),
          8);
      DataCopy(flag, one, 8);
    }
    // WaitAll polls into the same small_ block: its first MTE2 comes after these reads of it.
    SetFlag<HardEvent::MTE3_MTE2>(0);
    WaitFlag<HardEvent::MTE3_MTE2>(0);
  }

  // ---- the receiver: this core's share of the W count and done flags, then everyone's counts
  void WaitAll() {
    const Attrs& a = g_.attrs;
    auto [begin, end] = split_to_core(a.ep, cores_, core_);
    LocalTensor<float> f = small_.Get<float>();
    for (int64_t s = begin; s < end; ++s)
      for (uint64_t at : {kCountBase + s * count_block(a, l_), kDoneBase + s * uint64_t{32}}) {
        GlobalTensor<float> flag;
        flag.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(Status(rank_) + at), 8);
        SimPollUntil([&] {
          DataCopy(f, flag, 8);
          SetFlag<HardEvent::MTE2_S>(0);
          WaitFlag<HardEvent::MTE2_S>(0);
          return f.GetValue(0) == 1.0f;
        });
        f.SetValue(0, 0.0f);  // consumed: clear it for the next use of this half
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
        DataCopy(flag, f, 8);
        SetFlag<HardEvent::MTE3_MTE2>(0);
        WaitFlag<HardEvent::MTE3_MTE2>(0);
      }
    PipeBarrier<PIPE_ALL>();
    SyncAll();
    // Every core reads all W count blocks (one strided DMA) for its share of the regrouping.
    LocalTensor<int32_t> c = small_.Get<int32_t>()[16];
    GlobalTensor<int32_t> all;
    all.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(Status(rank_) + kCountBase),
                        a.ep * count_block(a, l_) / 4);
    uint64_t cb = count_block(a, l_);
    DataCopyPad(
        c, all[8],
        DataCopyExtParams{static_cast<uint16_t>(a.ep), static_cast<uint32_t>(4 * l_),
                          static_cast<uint32_t>(cb - 4 * l_),
                          static_cast<uint32_t>((cb - 32 - align_up(4ull * l_, 32)) / 32), 0});
    SetFlag<HardEvent::MTE2_S>(0);
    WaitFlag<HardEvent::MTE2_S>(0);
    uint64_t row_words = align_up(4ull * l_, 32) / 4;
    recv_.assign(static_cast<size_t>(a.ep) * l_, 0);  // [src][le]
    for (int s = 0; s < a.ep; ++s)
      for (int j = 0; j < l_; ++j)
        recv_[static_cast<size_t>(s) * l_ + j] =
            c.GetValue(static_cast<uint32_t>(s * row_words + j));
  }

  // Blocks i = le x W + src, expert-major, split over the cores; rows of a block are contiguous in
  // the source's region after that source's earlier local experts.
  void Regroup() {
    const Attrs& a = g_.attrs;
    const int blocks = a.ep * l_;
    auto [begin, end] = split_to_core(blocks, cores_, core_);
    int64_t row = 0;
    for (int64_t i = 0; i < begin; ++i) row += recv_[(i % a.ep) * l_ + i / a.ep];
    GlobalTensor<int32_t> recvGm;
    recvGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g_.ep_recv_counts), blocks);
    const uint64_t out_row = dispatch::out_row_bytes(a), cap = dispatch::capacity_rows(a, rank_);
    GlobalTensor<uint8_t> ex, sc, as;
    ex.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(g_.expand_x), cap * out_row);
    as.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(g_.assist_info), cap * 128 * 4);
    if (a.quant) sc.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(g_.dynamic_scales), cap * 4);
    const int64_t per_chunk = static_cast<int64_t>(chunk_bytes(a) / rs_);
    const uint32_t gap = static_cast<uint32_t>((rs_ - align_up(out_row, 32)) / 32);
    for (int64_t i = begin; i < end; ++i) {
      int le = static_cast<int>(i / a.ep), src = static_cast<int>(i % a.ep);
      int64_t skip = 0;
      for (int j = 0; j < le; ++j) skip += recv_[static_cast<size_t>(src) * l_ + j];
      int64_t count = recv_[static_cast<size_t>(src) * l_ + le];
      for (int64_t done = 0; done < count;) {
        int64_t rows = std::min(per_chunk, count - done);
        GlobalTensor<uint8_t> from;
        from.SetGlobalBuffer(Region(rank_, src) + static_cast<uint64_t>(skip + done) * rs_,
                             static_cast<uint64_t>(rows) * rs_);
        LocalTensor<uint8_t> buf = chunkQue_.AllocTensor<uint8_t>();
        DataCopy(buf, from, static_cast<uint32_t>(rows * rs_));
        chunkQue_.EnQue(buf);
        buf = chunkQue_.DeQue<uint8_t>();
        uint16_t n = static_cast<uint16_t>(rows);
        {
          PayloadScope payload;
          DataCopyPad(ex[static_cast<uint64_t>(row) * out_row], buf,
                      DataCopyExtParams{n, static_cast<uint32_t>(out_row), gap, 0, 0});
          if (a.quant)
            DataCopyPad(sc[static_cast<uint64_t>(row) * 4], buf[data_],
                        DataCopyExtParams{n, 4, static_cast<uint32_t>(rs_ / 32 - 1), 0, 0});
        }
        DataCopyPad(as[static_cast<uint64_t>(row) * 12], buf[data_ + 32],
                    DataCopyExtParams{n, 12, static_cast<uint32_t>(rs_ / 32 - 1), 0, 0});
        chunkQue_.FreeTensor(buf);
        row += rows;
        done += rows;
      }
      recvGm.SetValue(static_cast<uint64_t>(i), static_cast<int32_t>(row));  // cumulative
    }
  }

  void TokenCounts() {
    const Attrs& a = g_.attrs;
    GlobalTensor<int64_t> nums;
    nums.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(g_.expert_token_nums), l_);
    int64_t prev = 0, cum = 0;
    for (int le = 0; le < l_; ++le) {
      for (int s = 0; s < a.ep; ++s) cum += recv_[static_cast<size_t>(s) * l_ + le];
      nums.SetValue(le, a.token_nums_type == 0 ? cum : cum - prev);
      prev = cum;
    }
  }

  DeviceArgs g_;
  int rank_ = 0, core_ = 0, cores_ = 1, l_ = 1, data_state_ = 0;
  common::PhaseStamps stamps_;
  int64_t n_ = 0;
  uint64_t rs_ = 0, data_ = 0;
  std::vector<int64_t> count_, start_, order_, recv_;  // scalar working memory
  TPipe pipe_;
  TBuf<TPosition::VECCALC> ids_, small_, f32_, abs_, f16_;
  TQue<TPosition::VECIN, 1> inQue_;
  TQue<TPosition::VECOUT, 1> recQue_;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> chunkQue_, bindRec_;
  GlobalTensor<T> xGm_;
  GlobalTensor<int32_t> idsGm_;
  GlobalTensor<uint8_t> sortedGm_;
};

}  // namespace ascend::alltoallv
