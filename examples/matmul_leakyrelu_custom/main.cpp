// The host program of the mixed example: the tiling (the cube's from MatmulApiTiling, and the
// vector cores' tile) goes into GM, the workspace holds the system's part and A x B + bias, and
// the kernel runs on BLOCK_DIM AI Cores (KernelMode::MIX_MODE: each one AIC and two AIVs).
#include <cstdio>
#include <cstring>

#include "data_utils.h"
#include "matmul_leakyrelu_tiling.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"
extern "C" __global__ __aicore__ void matmul_leakyrelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                              GM_ADDR c, GM_ADDR workspace,
                                                              GM_ADDR tiling);

static bool GenerateTiling(MatmulLeakyReluTiling& t) {
  using namespace matmul_tiling;
  MatmulApiTiling api;
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetDim(BLOCK_DIM);
  api.SetShape(M, N / BLOCK_DIM, K);  // an AIC's block: every row, N / BLOCK_DIM columns
  api.SetOrgShape(M, N, K);
  api.SetBias(true);
  if (api.GetTiling(t.cube) == -1) {
    std::printf("GenerateTiling: %s\n", api.error().c_str());
    return false;
  }
  t.tileRows = 16;  // 16 x 256 fp32 = 16 KB per UB buffer
  t.alpha = 0.001f;
  return true;
}

int32_t main() {
  size_t aFileSize = M * K * sizeof(uint16_t);  // fp16
  size_t bFileSize = K * N * sizeof(uint16_t);
  size_t biasFileSize = N * sizeof(float);
  size_t cFileSize = M * N * sizeof(float);
  size_t workspaceSize = AscendC::kSysWorkspaceBytes + cFileSize;  // system, then A x B + bias
  MatmulLeakyReluTiling tilingHost;
  if (!GenerateTiling(tilingHost)) return 1;

  uint8_t* a = (uint8_t*)AscendC::GmAlloc(aFileSize);
  uint8_t* b = (uint8_t*)AscendC::GmAlloc(bFileSize);
  uint8_t* bias = (uint8_t*)AscendC::GmAlloc(biasFileSize);
  uint8_t* c = (uint8_t*)AscendC::GmAlloc(cFileSize);
  uint8_t* workspace = (uint8_t*)AscendC::GmAlloc(workspaceSize);
  uint8_t* tiling = (uint8_t*)AscendC::GmAlloc(sizeof(tilingHost));
  ReadFile("./input/x1_gm.bin", aFileSize, a, aFileSize);
  ReadFile("./input/x2_gm.bin", bFileSize, b, bFileSize);
  ReadFile("./input/bias.bin", biasFileSize, bias, biasFileSize);
  std::memcpy(tiling, &tilingHost, sizeof(tilingHost));

  AscendC::SetKernelMode(KernelMode::MIX_MODE);
  ICPU_RUN_KF(matmul_leakyrelu_custom, BLOCK_DIM, a, b, bias, c, workspace, tiling);

  WriteFile("./output/output.bin", c, cFileSize);
  AscendC::GmFree((void*)a);
  AscendC::GmFree((void*)b);
  AscendC::GmFree((void*)bias);
  AscendC::GmFree((void*)c);
  AscendC::GmFree((void*)workspace);
  AscendC::GmFree((void*)tiling);
  return 0;
}
