// C = LeakyRelu(A x B + bias) on both kinds of core of an AI Core (MIX_MODE, one AIC and two
// AIVs): each AIC computes its block of A x B + bias into the workspace with the Matmul API and
// signals its AIVs (CrossCoreSetFlag, mode 2, once FIXPIPE has written it); each AIV then takes
// half of the block's rows through UB, tile by tile and double-buffered, applies LeakyRelu and
// writes C. The cube and the vector cores exchange data through GM only, as on the hardware.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "matmul_leakyrelu_tiling.h"

using namespace matmul;

constexpr uint16_t MM_DONE = 8;  // a cross-core flag id clear of the Matmul API's (0-7)
constexpr int32_t BUFFER_NUM = 2;
// The AIC runs its own Matmul calls (MixDualMaster): no AIV drives it.
constexpr AscendC::MatmulConfig kDualMaster = AscendC::GetNormalConfig(
    false, false, false, AscendC::BatchMode::BATCH_LESS_THAN_L1, true, AscendC::IterateOrder::UNDEF,
    AscendC::ScheduleType::INNER_PRODUCT, true, /*enableMixDualMaster=*/true);

__aicore__ inline void CopyTiling(MatmulLeakyReluTiling* tiling, GM_ADDR tilingGm) {
  constexpr uint32_t words = sizeof(MatmulLeakyReluTiling) / sizeof(uint32_t);
  AscendC::GlobalTensor<uint32_t> src;
  src.SetGlobalBuffer((__gm__ uint32_t*)tilingGm, words);
  uint32_t* dst = reinterpret_cast<uint32_t*>(tiling);
  for (uint32_t i = 0; i < words; i++) dst[i] = src.GetValue(i);
}

class KernelMatmulLeakyRelu {
 public:
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                              const MatmulLeakyReluTiling& t) {
    tiling = t;
    const TCubeTiling& cube = tiling.cube;
    // The AI Core's block of C (the N dimension split over the AI Cores).
    uint32_t core = AscendC::GetBlockIdx() / AscendC::GetTaskRation();
    colOffset = core * cube.singleCoreN;
    aGlobal.SetGlobalBuffer((__gm__ half*)a, cube.M * cube.Ka);
    bGlobal.SetGlobalBuffer((__gm__ half*)b, cube.Kb * cube.N);
    biasGlobal.SetGlobalBuffer((__gm__ float*)bias, cube.N);
    mmGlobal.SetGlobalBuffer((__gm__ float*)AscendC::GetUserWorkspace(workspace), cube.M * cube.N);
    cGlobal.SetGlobalBuffer((__gm__ float*)c, cube.M * cube.N);
  }

  __aicore__ inline void ProcessCube() {
    Matmul<MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>, kDualMaster>
        mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling.cube);
    mm.SetTensorA(aGlobal);
    mm.SetTensorB(bGlobal[colOffset]);
    mm.SetBias(biasGlobal[colOffset]);
    mm.IterateAll(mmGlobal[colOffset]);
    mm.End();
    AscendC::CrossCoreSetFlag<2, PIPE_FIX>(MM_DONE);
  }

  __aicore__ inline void ProcessVector() {
    const TCubeTiling& cube = tiling.cube;
    const uint32_t rows = cube.singleCoreM / AscendC::GetTaskRation();
    const uint32_t row0 = AscendC::GetSubBlockIdx() * rows;
    const uint32_t cols = cube.singleCoreN;
    const uint32_t tileElems = tiling.tileRows * cols;
    pipe.InitBuffer(inQueue, BUFFER_NUM, tileElems * sizeof(float));
    pipe.InitBuffer(outQueue, BUFFER_NUM, tileElems * sizeof(float));
    // Rows of `cols` floats out of rows of N: lengths and gaps in 32-B blocks.
    AscendC::DataCopyParams rowsOfBlock;
    rowsOfBlock.blockCount = tiling.tileRows;
    rowsOfBlock.blockLen = cols * sizeof(float) / 32;
    rowsOfBlock.srcStride = (cube.N - cols) * sizeof(float) / 32;
    rowsOfBlock.dstStride = 0;
    AscendC::DataCopyParams rowsIntoC = rowsOfBlock;
    rowsIntoC.srcStride = 0;
    rowsIntoC.dstStride = rowsOfBlock.srcStride;

    AscendC::CrossCoreWaitFlag(MM_DONE);  // the AIC's block is in the workspace
    for (uint32_t r = row0; r < row0 + rows; r += tiling.tileRows) {
      const uint32_t at = r * cube.N + colOffset;
      AscendC::LocalTensor<float> x = inQueue.AllocTensor<float>();
      AscendC::DataCopy(x, mmGlobal[at], rowsOfBlock);
      inQueue.EnQue(x);
      x = inQueue.DeQue<float>();
      AscendC::LocalTensor<float> y = outQueue.AllocTensor<float>();
      AscendC::LeakyRelu(y, x, tiling.alpha, tileElems);
      outQueue.EnQue(y);
      inQueue.FreeTensor(x);
      y = outQueue.DeQue<float>();
      AscendC::DataCopy(cGlobal[at], y, rowsIntoC);
      outQueue.FreeTensor(y);
    }
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
  AscendC::GlobalTensor<half> aGlobal, bGlobal;
  AscendC::GlobalTensor<float> biasGlobal, mmGlobal, cGlobal;
  MatmulLeakyReluTiling tiling;
  uint32_t colOffset = 0;
};

extern "C" __global__ __aicore__ void matmul_leakyrelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                              GM_ADDR c, GM_ADDR workspace,
                                                              GM_ADDR tilingGm) {
  AscendC::SetSysWorkspace(workspace);
  MatmulLeakyReluTiling tiling;
  CopyTiling(&tiling, tilingGm);
  KernelMatmulLeakyRelu op;
  op.Init(a, b, bias, c, workspace, tiling);
  if ASCEND_IS_AIC {
    op.ProcessCube();
  }
  if ASCEND_IS_AIV {
    op.ProcessVector();
  }
}
