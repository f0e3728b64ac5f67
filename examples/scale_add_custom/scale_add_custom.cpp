// z = x * scale + y on fp32, with its tiling (length, tiles, scale) passed by value as a struct:
// the tiling example. The host's ICPU_RUN_KF hands the struct to every core.
#include "kernel_operator.h"
#include "scale_add_tiling.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelScaleAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const ScaleAddTiling& t) {
    blockLength = t.totalLength / AscendC::GetBlockNum();
    tileLength = blockLength / t.tileNum / BUFFER_NUM;
    tileCount = t.tileNum * BUFFER_NUM;
    scale = t.scale;
    ASSERT(blockLength % (t.tileNum * BUFFER_NUM * 8) == 0);  // whole 32-B tiles
    uint32_t off = blockLength * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + off, blockLength);
    yGm.SetGlobalBuffer((__gm__ float*)y + off, blockLength);
    zGm.SetGlobalBuffer((__gm__ float*)z + off, blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(float));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tileCount; i++) {
      AscendC::LocalTensor<float> xl = inQueueX.AllocTensor<float>();
      AscendC::LocalTensor<float> yl = inQueueY.AllocTensor<float>();
      AscendC::DataCopy(xl, xGm[i * tileLength], tileLength);
      AscendC::DataCopy(yl, yGm[i * tileLength], tileLength);
      inQueueX.EnQue(xl);
      inQueueY.EnQue(yl);
      xl = inQueueX.DeQue<float>();
      yl = inQueueY.DeQue<float>();
      AscendC::LocalTensor<float> zl = outQueueZ.AllocTensor<float>();
      AscendC::Muls(zl, xl, scale, tileLength);
      AscendC::Add(zl, zl, yl, tileLength);
      outQueueZ.EnQue(zl);
      inQueueX.FreeTensor(xl);
      inQueueY.FreeTensor(yl);
      zl = outQueueZ.DeQue<float>();
      AscendC::DataCopy(zGm[i * tileLength], zl, tileLength);
      outQueueZ.FreeTensor(zl);
    }
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
  uint32_t blockLength = 0, tileLength = 0, tileCount = 0;
  float scale = 1.0f;
};

extern "C" __global__ __aicore__ void scale_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                       ScaleAddTiling tiling) {
  KernelScaleAdd op;
  op.Init(x, y, z, tiling);
  op.Process();
}
