// KernelAttentionToFfn (the AttentionToFFN role): an attention rank sends one micro-batch's token
// rows and its descriptor (layer id, expert ids) into every FFN rank's buffers, flag last.
#pragma once

#include <vector>

#include "kernels/common/device.h"
#include "kernels/ffn_worker_batching/ffn_device.h"

namespace ascend::ffn {

using namespace AscendC;

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

  void Send(int l, int m, int call) {
    const Attrs& a = g_.attrs;
    if (core_ == 0) {
      uint64_t wait = g_.compute_ps + (call == 0 ? g_.start_delay_ps : 0);
      common::StallPs(wait);  // the attention's own compute
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

}  // namespace ascend::ffn
