// The multi-core sort/merge of FfnWorkerBatching (its merge rounds; the runs are sorted by the
// batching kernel, which builds their keys from the sessions' descriptors).
#pragma once

#include <algorithm>

#include "kernels/ffn_worker_batching/ffn_device.h"

namespace ascend::ffn {

using namespace AscendC;

// The multi-core merge of the batching's sort. The sort cores leave their runs sorted in area 0
// of the workspace (proposals {key, flat index} as fp32 pairs, run r at r x run_cap, descending
// keys, masked entries last); MergeRounds merges them four lists at a time, round after round,
// on every core of the launch with a SyncAll after each round. The result is in area
// merge_rounds % 2, and the last round counts the valid proposals into the workspace's actual
// word (a single run is counted by its sort core).
class FfnSortMerge {
 public:
  __aicore__ void Init(const Attrs& a, const SortPlan& p, GM_ADDR workspace) {
    attrs_ = a;
    plan_ = p;
    ws_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(workspace), workspace_bytes(p) / 4);
    area_[0].SetGlobalBuffer(reinterpret_cast<__gm__ float*>(workspace + kWsCtrlBytes),
                             p.ws_elements * 2);
    area_[1].SetGlobalBuffer(
        reinterpret_cast<__gm__ float*>(workspace + kWsCtrlBytes + p.ws_elements * 8),
        p.ws_elements * 2);
  }

  // Every core of the launch calls it (merge j of a round on core j mod cores).
  __aicore__ void MergeRounds() {
    const int core = static_cast<int>(GetBlockIdx()), cores = static_cast<int>(GetBlockNum());
    int64_t lists = plan_.runs, stride = plan_.run_cap;
    for (int round = 0; round < plan_.merge_rounds; ++round) {
      int64_t merges = lists / 4;
      for (int64_t j = core; j < merges; j += cores) Merge(round, j, stride);
      lists = merges;
      stride *= 4;
      PipeBarrier<PIPE_ALL>();
      SyncAll();
    }
  }

  const GlobalTensor<float>& Area(int i) const { return area_[i]; }
  int Final() const { return plan_.merge_rounds % 2; }  // the area holding the result

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

 private:
  // Lengths of the lists of a merge round (round 0: the runs).
  int64_t ListLen(int round, int64_t q) const {
    int64_t per = 1;
    for (int i = 0; i < round; ++i) per *= 4;
    int64_t n = 0;
    for (int64_t r = q * per; r < (q + 1) * per && r < plan_.runs; ++r)
      n += run_padded(attrs_, plan_, r);
    return n;
  }

  // ---- merge j of a round: lists 4j..4j+3 (area round % 2) into list j (the other area),
  // streamed through UB in blocks with MrgSort's exhausted suspension.
  void Merge(int round, int64_t j, int64_t stride) {
    const bool last = round == plan_.merge_rounds - 1;
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
        if (last) {  // CountValid reads it on the scalar
          SetFlag<HardEvent::MTE2_S>(0);
          WaitFlag<HardEvent::MTE2_S>(0);
        }
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

  Attrs attrs_;
  SortPlan plan_;
  GlobalTensor<int32_t> ws_;
  GlobalTensor<float> area_[2];
};

}  // namespace ascend::ffn
