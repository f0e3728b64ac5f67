// The host program of the scale-add example: the tiling struct goes by value through
// ICPU_RUN_KF, after the GM buffers.
#include "data_utils.h"
#include "scale_add_tiling.h"
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void scale_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                       ScaleAddTiling tiling);

int32_t main() {
  uint32_t blockDim = 16;
  ScaleAddTiling tiling{16 * 4096, 4, 0.75f};
  size_t byteSize = tiling.totalLength * sizeof(float);
  uint8_t* x = (uint8_t*)AscendC::GmAlloc(byteSize);
  uint8_t* y = (uint8_t*)AscendC::GmAlloc(byteSize);
  uint8_t* z = (uint8_t*)AscendC::GmAlloc(byteSize);
  ReadFile("./input/input_x.bin", byteSize, x, byteSize);
  ReadFile("./input/input_y.bin", byteSize, y, byteSize);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(scale_add_custom, blockDim, x, y, z, tiling);
  WriteFile("./output/output_z.bin", z, byteSize);
  AscendC::GmFree((void*)x);
  AscendC::GmFree((void*)y);
  AscendC::GmFree((void*)z);
  return 0;
}
