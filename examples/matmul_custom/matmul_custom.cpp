// C = A x B + bias on the cube cores (AIC_MODE): A (M x K) and B (K x N) fp16, bias and C fp32.
// Each AIC computes one singleCoreM x singleCoreN block of C with the high-level Matmul API; the
// tiling arrives as a TCubeTiling in GM, as the host's MatmulApiTiling wrote it.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

__aicore__ inline uint32_t Ceiling(uint32_t a, uint32_t b) {
  return (a + b - 1) / b;
}

// The tiling struct, word by word from GM (the scalar unit reads it).
__aicore__ inline void CopyTiling(TCubeTiling* tiling, GM_ADDR tilingGm) {
  AscendC::GlobalTensor<uint32_t> words;
  words.SetGlobalBuffer((__gm__ uint32_t*)tilingGm, sizeof(TCubeTiling) / sizeof(uint32_t));
  uint32_t* dst = reinterpret_cast<uint32_t*>(tiling);
  for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); i++) dst[i] = words.GetValue(i);
}

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                    GM_ADDR workspace, GM_ADDR tilingGm) {
  AscendC::SetSysWorkspace(workspace);
  TCubeTiling tiling;
  CopyTiling(&tiling, tilingGm);

  // This core's block of C: blocks along N first, then along M.
  uint32_t nBlocks = Ceiling(tiling.N, tiling.singleCoreN);
  uint32_t mIdx = AscendC::GetBlockIdx() / nBlocks;
  uint32_t nIdx = AscendC::GetBlockIdx() % nBlocks;
  uint32_t offsetA = mIdx * tiling.singleCoreM * tiling.Ka;
  uint32_t offsetB = nIdx * tiling.singleCoreN;
  uint32_t offsetC = mIdx * tiling.singleCoreM * tiling.N + nIdx * tiling.singleCoreN;
  uint32_t offsetBias = nIdx * tiling.singleCoreN;

  AscendC::GlobalTensor<half> aGlobal, bGlobal;
  AscendC::GlobalTensor<float> biasGlobal, cGlobal;
  aGlobal.SetGlobalBuffer((__gm__ half*)a, tiling.M * tiling.Ka);
  bGlobal.SetGlobalBuffer((__gm__ half*)b, tiling.Kb * tiling.N);
  biasGlobal.SetGlobalBuffer((__gm__ float*)bias, tiling.N);
  cGlobal.SetGlobalBuffer((__gm__ float*)c, tiling.M * tiling.N);

  AscendC::TPipe pipe;
  Matmul<MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
         MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
         MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>,
         MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(aGlobal[offsetA]);
  mm.SetTensorB(bGlobal[offsetB]);
  if (tiling.isBias) mm.SetBias(biasGlobal[offsetBias]);
  mm.IterateAll(cGlobal[offsetC]);
  mm.End();
}
