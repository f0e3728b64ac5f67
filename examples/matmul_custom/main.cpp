// The host program of the matmul example, as a CPU-debug main.cpp runs a cube kernel: the
// tiling from the host's MatmulApiTiling goes into GM with the operands, and the kernel runs on
// BLOCK_DIM AICs (KernelMode::AIC_MODE).
#include <cstring>

#include "data_utils.h"
#include "matmul_custom_tiling.h"
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                    GM_ADDR workspace, GM_ADDR tiling);

int32_t main() {
  size_t aFileSize = M * K * sizeof(uint16_t);  // fp16
  size_t bFileSize = K * N * sizeof(uint16_t);
  size_t biasFileSize = N * sizeof(float);
  size_t cFileSize = M * N * sizeof(float);
  size_t tilingFileSize = sizeof(AscendC::TCubeTiling);
  size_t workspaceSize = AscendC::kSysWorkspaceBytes;  // the system's part; no user part
  uint8_t tilingBuf[sizeof(AscendC::TCubeTiling)];
  if (!GenerateTiling(tilingBuf)) return 1;

  uint8_t* a = (uint8_t*)AscendC::GmAlloc(aFileSize);
  uint8_t* b = (uint8_t*)AscendC::GmAlloc(bFileSize);
  uint8_t* bias = (uint8_t*)AscendC::GmAlloc(biasFileSize);
  uint8_t* c = (uint8_t*)AscendC::GmAlloc(cFileSize);
  uint8_t* workspace = (uint8_t*)AscendC::GmAlloc(workspaceSize);
  uint8_t* tiling = (uint8_t*)AscendC::GmAlloc(tilingFileSize);
  ReadFile("./input/x1_gm.bin", aFileSize, a, aFileSize);
  ReadFile("./input/x2_gm.bin", bFileSize, b, bFileSize);
  ReadFile("./input/bias.bin", biasFileSize, bias, biasFileSize);
  std::memcpy(tiling, tilingBuf, tilingFileSize);

  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(matmul_custom, BLOCK_DIM, a, b, bias, c, workspace, tiling);

  WriteFile("./output/output.bin", c, cFileSize);
  AscendC::GmFree((void*)a);
  AscendC::GmFree((void*)b);
  AscendC::GmFree((void*)bias);
  AscendC::GmFree((void*)c);
  AscendC::GmFree((void*)workspace);
  AscendC::GmFree((void*)tiling);
  return 0;
}
