// The host program of the vector add, as an Ascend C sample writes it: the CPU-debug path
// (GmAlloc, ICPU_RUN_KF) and the NPU path (AscendCL), chosen by ASCENDC_CPU_DEBUG.
#include "data_utils.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
extern void add_custom_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z);
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z);
#endif

int32_t main(int32_t argc, char* argv[]) {
  (void)argc;
  (void)argv;
  uint32_t blockDim = 8;
  size_t inputByteSize = 8 * 131072 * sizeof(uint16_t);
  size_t outputByteSize = 8 * 131072 * sizeof(uint16_t);

#ifdef ASCENDC_CPU_DEBUG
  uint8_t* x = (uint8_t*)AscendC::GmAlloc(inputByteSize);
  uint8_t* y = (uint8_t*)AscendC::GmAlloc(inputByteSize);
  uint8_t* z = (uint8_t*)AscendC::GmAlloc(outputByteSize);

  ReadFile("./input/input_x.bin", inputByteSize, x, inputByteSize);
  ReadFile("./input/input_y.bin", inputByteSize, y, inputByteSize);

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_custom, blockDim, x, y, z);

  WriteFile("./output/output_z.bin", z, outputByteSize);

  AscendC::GmFree((void*)x);
  AscendC::GmFree((void*)y);
  AscendC::GmFree((void*)z);
#else
  CHECK_ACL(aclInit(nullptr));
  aclrtContext context;
  int32_t deviceId = 0;
  CHECK_ACL(aclrtSetDevice(deviceId));
  CHECK_ACL(aclrtCreateContext(&context, deviceId));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  uint8_t *xHost, *yHost, *zHost, *xDevice, *yDevice, *zDevice;
  CHECK_ACL(aclrtMallocHost((void**)(&xHost), inputByteSize));
  CHECK_ACL(aclrtMallocHost((void**)(&yHost), inputByteSize));
  CHECK_ACL(aclrtMallocHost((void**)(&zHost), outputByteSize));
  CHECK_ACL(aclrtMalloc((void**)&xDevice, inputByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc((void**)&yDevice, inputByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc((void**)&zDevice, outputByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
  ReadFile("./input/input_x.bin", inputByteSize, xHost, inputByteSize);
  ReadFile("./input/input_y.bin", inputByteSize, yHost, inputByteSize);
  CHECK_ACL(aclrtMemcpy(xDevice, inputByteSize, xHost, inputByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(yDevice, inputByteSize, yHost, inputByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
  add_custom_do(blockDim, stream, xDevice, yDevice, zDevice);
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtMemcpy(zHost, outputByteSize, zDevice, outputByteSize, ACL_MEMCPY_DEVICE_TO_HOST));
  WriteFile("./output/output_z.bin", zHost, outputByteSize);
  CHECK_ACL(aclrtFree(xDevice));
  CHECK_ACL(aclrtFree(yDevice));
  CHECK_ACL(aclrtFree(zDevice));
  CHECK_ACL(aclrtFreeHost(xHost));
  CHECK_ACL(aclrtFreeHost(yHost));
  CHECK_ACL(aclrtFreeHost(zHost));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtDestroyContext(context));
  CHECK_ACL(aclrtResetDevice(deviceId));
  CHECK_ACL(aclFinalize());
#endif
  return 0;
}
