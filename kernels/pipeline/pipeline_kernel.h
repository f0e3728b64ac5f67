// Device code of the `pipeline` micro-kernel: one core runs tiles through the canonical three
// stages, CopyIn (MTE2) -> Compute (VECTOR) -> CopyOut (MTE3), with a VECIN and a VECOUT queue of
// BUFFER_NUM buffers each. Nothing here asks for overlap: with two buffers the scalar simply
// issues tile i+1's CopyIn while tile i computes, and the queues' flags let the pipes overlap.
// Compute scales the tile by `factor` in sweeps of level-0 Muls: `vector_repeats` 256-B repeats
// in all per tile, cycling through the tile's repeat blocks (block j is scaled
// floor(V/R) + (j < V mod R) times, R = repeats per tile).
#pragma once

#include "api/kernel_operator.h"

namespace ascend::kernels {

struct PipelineTiling {
  uint32_t tiles = 64;
  uint32_t tile_bytes = 16384;
  uint32_t vector_repeats = 512;
  uint32_t buffer_num = 2;
  float factor = 1.0009765625f;  // 1 + 2^-10: every scaling rounds, so the golden must follow
};

using namespace AscendC;

class KernelPipeline {
 public:
  __aicore__ void Init(GM_ADDR x, GM_ADDR y, const PipelineTiling& t, TPipe* pipe) {
    t_ = t;
    tile_elems_ = t.tile_bytes / sizeof(float);
    uint64_t n = static_cast<uint64_t>(t.tiles) * tile_elems_;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), n);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), n);
    pipe->InitBuffer(inQue_, t.buffer_num, t.tile_bytes);
    pipe->InitBuffer(outQue_, t.buffer_num, t.tile_bytes);
  }

  __aicore__ void Process() {
    for (uint32_t i = 0; i < t_.tiles; ++i) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ void CopyIn(uint32_t i) {
    LocalTensor<float> x = inQue_.AllocTensor<float>();
    DataCopy(x, xGm_[static_cast<uint64_t>(i) * tile_elems_], tile_elems_);
    inQue_.EnQue(x);
  }

  __aicore__ void Compute() {
    LocalTensor<float> x = inQue_.DeQue<float>();
    LocalTensor<float> y = outQue_.AllocTensor<float>();
    constexpr uint32_t kPerRepeat = 256 / sizeof(float);
    const uint32_t repeats_per_tile = t_.tile_bytes / 256;
    uint32_t done = 0;
    while (done < t_.vector_repeats) {
      uint32_t block = done % repeats_per_tile;  // first repeat block of this instruction
      uint32_t n = std::min({t_.vector_repeats - done, repeats_per_tile - block, 255u});
      // The first sweep reads the input tile; later sweeps rescale the output in place.
      const LocalTensor<float>& src = done < repeats_per_tile ? x : y;
      Muls(y[block * kPerRepeat], src[block * kPerRepeat], t_.factor, kPerRepeat,
           static_cast<uint8_t>(n), UnaryRepeatParams{});
      done += n;
    }
    inQue_.FreeTensor(x);
    outQue_.EnQue(y);
  }

  __aicore__ void CopyOut(uint32_t i) {
    LocalTensor<float> y = outQue_.DeQue<float>();
    DataCopy(yGm_[static_cast<uint64_t>(i) * tile_elems_], y, tile_elems_);
    outQue_.FreeTensor(y);
  }

  PipelineTiling t_{};
  uint32_t tile_elems_ = 0;
  GlobalTensor<float> xGm_, yGm_;
  TQue<TPosition::VECIN, 1> inQue_;
  TQue<TPosition::VECOUT, 1> outQue_;
};

}  // namespace ascend::kernels
