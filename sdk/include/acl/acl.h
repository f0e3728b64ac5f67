// AscendCL as a host program reaches it under ascend-sim. A sample's CPU-debug files use its types
// (aclFloat16, aclError); a .asc program of the modern flow (ascend-sim-asc) its runtime: the
// device is the simulated die, the device memory aclrtMalloc hands out is simulated GM (a GmAlloc
// buffer: the pointer is a host address that reaches the kernel unchanged and that SetGlobalBuffer
// maps), streams record their launches, and every launch runs to its end before the launch
// returns. Copies between host and device memory cost no simulated time.
//
// Calls check their arguments and return the runtime's error code, with a message on stderr: a
// null pointer, a count over the destination's size or past a device allocation, or an unknown
// copy kind is ACL_ERROR_INVALID_PARAM; a device other than 0 ACL_ERROR_RT_INVALID_DEVICEID; memory
// or a stream before aclrtSetDevice ACL_ERROR_RT_CONTEXT_NULL; a stream or a pointer the runtime
// did not hand out ACL_ERROR_RT_PARAM_INVALID. A size over 1 TiB is refused without trying
// (aclrtMalloc: ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMallocHost: ACL_ERROR_BAD_ALLOC). Host memory
// is the program's: the runtime checks a copy's host side only where it lies in an aclrtMallocHost
// buffer (a count past its end is ACL_ERROR_INVALID_PARAM).
#pragma once

#include <cstddef>
#include <cstdint>

#include "api/numeric.h"

using aclError = int;
#define ACL_SUCCESS 0
#define ACL_ERROR_NONE 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_UNINITIALIZE 100001
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_ERROR_RT_PARAM_INVALID 107000
#define ACL_ERROR_RT_INVALID_DEVICEID 107001
#define ACL_ERROR_RT_CONTEXT_NULL 107002
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
using aclFloat16 = uint16_t;

inline float aclFloat16ToFloat(aclFloat16 v) {
  return AscendC::to_float(AscendC::half::from_bits(v));
}
inline aclFloat16 aclFloatToFloat16(float v) {
  return AscendC::to_half(static_cast<double>(v), AscendC::RoundMode::CAST_RINT).bits;
}

using aclrtStream = void*;
using aclrtContext = void*;
// Each enum's underlying type is int, so that any value a program passes (an unknown copy kind,
// refused with ACL_ERROR_INVALID_PARAM) is a value of the type.
enum aclrtMemMallocPolicy : int {
  ACL_MEM_MALLOC_HUGE_FIRST,
  ACL_MEM_MALLOC_HUGE_ONLY,
  ACL_MEM_MALLOC_NORMAL_ONLY,
  ACL_MEM_MALLOC_HUGE_FIRST_P2P,
  ACL_MEM_MALLOC_HUGE_ONLY_P2P,
  ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
};
enum aclrtMemcpyKind : int {
  ACL_MEMCPY_HOST_TO_HOST,
  ACL_MEMCPY_HOST_TO_DEVICE,
  ACL_MEMCPY_DEVICE_TO_HOST,
  ACL_MEMCPY_DEVICE_TO_DEVICE,
  ACL_MEMCPY_DEFAULT,  // the direction from where the pointers are
};
enum aclrtLastErrLevel : int { ACL_RT_THREAD_LEVEL = 0 };

extern "C" {
// The process: aclInit once (a second call without aclFinalize: ACL_ERROR_REPEAT_INITIALIZE).
aclError aclInit(const char* configPath);
aclError aclFinalize();
// Device 0 is the simulated die.
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtGetDeviceCount(uint32_t* count);
aclError aclrtSynchronizeDevice();
aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId);
aclError aclrtDestroyContext(aclrtContext context);
aclError aclrtSetCurrentContext(aclrtContext context);
aclError aclrtCreateStream(aclrtStream* stream);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
// Device memory: simulated GM.
aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtFree(void* devPtr);
// Host memory: page-locked on a real host, ordinary memory here.
aclError aclrtMallocHost(void** hostPtr, size_t size);
aclError aclrtFreeHost(void* hostPtr);
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind);
// As aclrtMemcpy, done when it returns (stream order holds: every launch on it has run).
aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count);
// The first error since the last call (and clears it); the message of the last error.
aclError aclrtGetLastError(aclrtLastErrLevel level);
const char* aclGetRecentErrMsg();
}  // extern "C"
