// Device code of `reduce_sum`: the column sums of an fp32 matrix x [rows, cols], y[c] = sum over r
// of x[r][c], added in row order. The columns are split over the cores in 256-B units
// (SplitToCore); each core walks its columns in tiles of tile_cols: the accumulator starts at
// +0, then every row's tile comes in on MTE2 (VECIN, buffer_num buffers) and is added into it on
// VECTOR, and the sums go out on MTE3. With two buffers the next row's copy runs under the
// current row's Add.
#pragma once

#include <algorithm>

#include "api/kernel_operator.h"
#include "kernels/common/split.h"

namespace ascend::kernels {

struct ReduceSumTiling {
  uint32_t rows = 64;
  uint32_t cols = 16384;      // a multiple of 64 (256 B)
  uint32_t tile_cols = 4096;  // a multiple of 64
  uint32_t buffer_num = 2;
};

using namespace AscendC;

class KernelColumnSum {
 public:
  static constexpr uint32_t kUnit = 64;  // fp32 columns per 256-B unit of the split

  __aicore__ void Init(GM_ADDR x, GM_ADDR y, const ReduceSumTiling& t, TPipe* pipe) {
    t_ = t;
    const auto [begin, end] = common::split_to_core(t.cols / kUnit, GetBlockNum(), GetBlockIdx());
    begin_ = static_cast<uint32_t>(begin) * kUnit;
    end_ = static_cast<uint32_t>(end) * kUnit;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), uint64_t{t.rows} * t.cols);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), t.cols);
    pipe->InitBuffer(inQue_, t.buffer_num, t.tile_cols * sizeof(float));
    pipe->InitBuffer(outQue_, 1, t.tile_cols * sizeof(float));
  }

  __aicore__ void Process() {
    for (uint32_t col = begin_; col < end_; col += t_.tile_cols) {
      const uint32_t n = std::min(t_.tile_cols, end_ - col);
      LocalTensor<float> acc = outQue_.AllocTensor<float>();
      Duplicate(acc, 0.0f, n);
      for (uint32_t row = 0; row < t_.rows; ++row) {
        CopyIn(row, col, n);
        Accumulate(acc, n);
      }
      outQue_.EnQue(acc);
      CopyOut(col, n);
    }
  }

 private:
  __aicore__ void CopyIn(uint32_t row, uint32_t col, uint32_t n) {
    LocalTensor<float> x = inQue_.AllocTensor<float>();
    DataCopy(x, xGm_[uint64_t{row} * t_.cols + col], n);
    inQue_.EnQue(x);
  }

  __aicore__ void Accumulate(const LocalTensor<float>& acc, uint32_t n) {
    LocalTensor<float> x = inQue_.DeQue<float>();
    Add(acc, acc, x, n);
    inQue_.FreeTensor(x);
  }

  __aicore__ void CopyOut(uint32_t col, uint32_t n) {
    LocalTensor<float> acc = outQue_.DeQue<float>();
    DataCopy(yGm_[col], acc, n);
    outQue_.FreeTensor(acc);
  }

  ReduceSumTiling t_{};
  uint32_t begin_ = 0, end_ = 0;
  GlobalTensor<float> xGm_, yGm_;
  TQue<TPosition::VECIN, 1> inQue_;
  TQue<TPosition::VECOUT, 1> outQue_;
};

}  // namespace ascend::kernels
