// The host program of the softmax example (CPU-debug path only).
#include "data_utils.h"
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y);

int32_t main() {
  uint32_t blockDim = 8;
  size_t byteSize = 64 * 1024 * sizeof(float);
  uint8_t* x = (uint8_t*)AscendC::GmAlloc(byteSize);
  uint8_t* y = (uint8_t*)AscendC::GmAlloc(byteSize);
  ReadFile("./input/input_x.bin", byteSize, x, byteSize);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(softmax_custom, blockDim, x, y);
  WriteFile("./output/output_y.bin", y, byteSize);
  AscendC::GmFree((void*)x);
  AscendC::GmFree((void*)y);
  return 0;
}
