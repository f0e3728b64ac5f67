// Device code of the `stream` micro-kernel: each core streams its own slice of GM through UB in
// tiles, with BUFFER_NUM buffers so that the next tile's MTE2 can overlap the current one's use.
//   copy: GM -> UB -> GM (MTE2 then MTE3 through one TQueBind<VECIN, VECOUT>).
//   read: GM -> UB, each tile added into an int32 accumulator on VECTOR, the accumulator written
//         out once at the end (a read-bandwidth probe whose data is still checked).
#pragma once

#include "api/kernel_operator.h"

namespace ascend::kernels {

struct StreamTiling {
  uint64_t bytes_per_core = 1048576;
  uint32_t tile_bytes = 16384;
  uint32_t buffer_num = 2;
  bool read_only = true;  // GM->UB and a checksum; false: GM->UB->GM
};

using namespace AscendC;

class KernelStream {
 public:
  __aicore__ void Init(GM_ADDR x, GM_ADDR y, const StreamTiling& t, TPipe* pipe) {
    t_ = t;
    uint64_t off = static_cast<uint64_t>(GetBlockIdx()) * t.bytes_per_core;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(x + off), t.bytes_per_core / 4);
    if (t.read_only) {
      yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(y + GetBlockIdx() * t.tile_bytes),
                           t.tile_bytes / 4);
      pipe->InitBuffer(inQue_, t.buffer_num, t.tile_bytes);
      pipe->InitBuffer(acc_, t.tile_bytes);
    } else {
      yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(y + off), t.bytes_per_core / 4);
      pipe->InitBuffer(copyQue_, t.buffer_num, t.tile_bytes);
    }
  }

  __aicore__ void Process() {
    uint64_t tiles = (t_.bytes_per_core + t_.tile_bytes - 1) / t_.tile_bytes;
    if (t_.read_only) {
      LocalTensor<int32_t> acc = acc_.Get<int32_t>();
      Duplicate(acc, 0, t_.tile_bytes / 4);
      for (uint64_t i = 0; i < tiles; ++i) {
        uint32_t n = TileElems(i);
        LocalTensor<int32_t> in = inQue_.AllocTensor<int32_t>();
        DataCopy(in, xGm_[i * (t_.tile_bytes / 4)], n);
        inQue_.EnQue(in);
        in = inQue_.DeQue<int32_t>();
        Add(acc, acc, in, n);
        inQue_.FreeTensor(in);
      }
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopy(yGm_, acc, t_.tile_bytes / 4);
      return;
    }
    for (uint64_t i = 0; i < tiles; ++i) {
      uint32_t n = TileElems(i);
      LocalTensor<int32_t> buf = copyQue_.AllocTensor<int32_t>();
      DataCopy(buf, xGm_[i * (t_.tile_bytes / 4)], n);
      copyQue_.EnQue(buf);
      buf = copyQue_.DeQue<int32_t>();
      DataCopy(yGm_[i * (t_.tile_bytes / 4)], buf, n);
      copyQue_.FreeTensor(buf);
    }
  }

 private:
  uint32_t TileElems(uint64_t i) const {
    uint64_t left = t_.bytes_per_core - i * t_.tile_bytes;
    return static_cast<uint32_t>(std::min<uint64_t>(left, t_.tile_bytes) / 4);
  }
  StreamTiling t_{};
  GlobalTensor<int32_t> xGm_, yGm_;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> copyQue_;
  TQue<TPosition::VECIN, 1> inQue_;
  TBuf<TPosition::VECCALC> acc_;
};

}  // namespace ascend::kernels
