// The AscendCL runtime of acl/acl.h on the simulated die: device memory is GmAlloc buffers,
// streams are records of their launches, copies are memcpy (no simulated time).
#include "acl/acl.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <set>
#include <string>

#include "ascend_sim_sdk.h"
#include "models/errors.h"

namespace ascend::sdk {
namespace {

struct Stream {
  int id;
  uint64_t launches = 0;
};

// The most aclrtMalloc and aclrtMallocHost hand out at once: 1 TiB, the largest HBM a die can be
// given (hbm.capacity_GiB <= 1024). Larger sizes are refused before any allocation is tried, so a
// size near SIZE_MAX cannot wrap in the rounding to whole lines.
constexpr size_t kMaxAllocBytes = size_t{1} << 40;

struct Runtime {
  bool initialized = false;
  bool device_set = false;
  int next_stream = 1;
  std::map<void*, Stream> streams;  // by handle
  std::set<void*> contexts;
  std::map<void*, size_t> host;    // aclrtMallocHost buffers
  std::map<void*, size_t> device;  // aclrtMalloc buffers (each a GmAlloc buffer)
  aclError last = ACL_SUCCESS;
  std::string message;

  static Runtime& get() {
    static Runtime* r = new Runtime;  // used until the program's last static destructor
    return *r;
  }
  aclError fail(aclError code, const std::string& what) {
    message = what;
    if (last == ACL_SUCCESS) last = code;
    std::cerr << "ascend-sim: " << what << " (error " << code << ")\n";
    return code;
  }
  // Whether [p, p + n) lies in one device allocation.
  static bool device_range(const void* p, size_t n) {
    size_t left = 0;
    return gm_buffer_of(p, &left) && n <= left;
  }
  // The aclrtMallocHost buffer holding p (nullptr if none) and the bytes from p to its end.
  const void* host_buffer_of(const void* p, size_t* left) const {
    auto it = host.upper_bound(const_cast<void*>(p));
    if (it == host.begin()) return nullptr;
    --it;
    const auto* b = static_cast<const uint8_t*>(it->first);
    const auto* q = static_cast<const uint8_t*>(p);
    if (q >= b + it->second) return nullptr;
    *left = it->second - static_cast<size_t>(q - b);
    return b;
  }
};

std::string hex(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

}  // namespace

void stream_launch(void* stream, const char* kernel) {
  Runtime& rt = Runtime::get();
  if (!stream) return;  // the default stream
  auto it = rt.streams.find(stream);
  if (it == rt.streams.end()) {
    std::cerr << "ascend-sim: bad input: " << kernel << "<<<...>>> on stream " << hex(stream)
              << ", which aclrtCreateStream did not create or aclrtDestroyStream destroyed\n";
    std::_Exit(kExitBadInput);
  }
  ++it->second.launches;
}

}  // namespace ascend::sdk

using ascend::sdk::Runtime;

aclError aclInit(const char*) {
  Runtime& rt = Runtime::get();
  if (rt.initialized) return rt.fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialized");
  rt.initialized = true;
  return ACL_SUCCESS;
}

aclError aclFinalize() {
  Runtime& rt = Runtime::get();
  if (!rt.initialized)
    return rt.fail(ACL_ERROR_UNINITIALIZE, "aclFinalize: aclInit was not called");
  rt.initialized = false;
  return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) {
  Runtime& rt = Runtime::get();
  if (deviceId != 0)
    return rt.fail(ACL_ERROR_RT_INVALID_DEVICEID,
                   "aclrtSetDevice(" + std::to_string(deviceId) +
                       "): ascend-sim has one device, 0 (the simulated die)");
  rt.device_set = true;
  return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
  Runtime& rt = Runtime::get();
  if (deviceId != 0)
    return rt.fail(ACL_ERROR_RT_INVALID_DEVICEID,
                   "aclrtResetDevice(" + std::to_string(deviceId) + "): the device is 0");
  rt.device_set = false;
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  if (!count)
    return Runtime::get().fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is null");
  *count = 1;
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice() {
  return ACL_SUCCESS;  // every launch has run when its call returned
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  Runtime& rt = Runtime::get();
  if (!context) return rt.fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: context is null");
  if (deviceId != 0)
    return rt.fail(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtCreateContext(device " +
                                                      std::to_string(deviceId) +
                                                      "): ascend-sim has one device, 0");
  void* c = std::malloc(1);
  rt.contexts.insert(c);
  rt.device_set = true;  // creating a context makes it current on its device
  *context = c;
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  Runtime& rt = Runtime::get();
  if (!rt.contexts.erase(context))
    return rt.fail(ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtDestroyContext: " + ascend::sdk::hex(context) + " is not a context");
  std::free(context);
  return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  Runtime& rt = Runtime::get();
  if (!rt.contexts.count(context))
    return rt.fail(ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtSetCurrentContext: " + ascend::sdk::hex(context) + " is not a context");
  rt.device_set = true;
  return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream* stream) {
  Runtime& rt = Runtime::get();
  if (!stream) return rt.fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is null");
  if (!rt.device_set)
    return rt.fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream: no device set (aclrtSetDevice)");
  void* s = std::malloc(1);
  rt.streams[s] = ascend::sdk::Stream{rt.next_stream++};
  *stream = s;
  return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
  Runtime& rt = Runtime::get();
  if (!rt.streams.erase(stream))
    return rt.fail(ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtDestroyStream: " + ascend::sdk::hex(stream) + " is not a live stream");
  std::free(stream);
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  Runtime& rt = Runtime::get();
  if (stream && !rt.streams.count(stream))
    return rt.fail(ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtSynchronizeStream: " + ascend::sdk::hex(stream) + " is not a live stream");
  return ACL_SUCCESS;  // its launches ran, in order, as they were made
}

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy) {
  Runtime& rt = Runtime::get();
  if (!devPtr) return rt.fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: devPtr is null");
  if (size == 0) return rt.fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size 0");
  if (!rt.device_set)
    return rt.fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtMalloc: no device set (aclrtSetDevice)");
  if (size > ascend::sdk::kMaxAllocBytes)
    return rt.fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   "aclrtMalloc: " + std::to_string(size) +
                       " bytes: more than a die's HBM can hold (1 TiB at most)");
  void* p = ascend::sdk::gm_alloc(size);
  if (!p)
    return rt.fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   "aclrtMalloc: " + std::to_string(size) + " bytes not available");
  rt.device[p] = size;
  *devPtr = p;
  return ACL_SUCCESS;
}

aclError aclrtFree(void* devPtr) {
  Runtime& rt = Runtime::get();
  if (!devPtr) return rt.fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: devPtr is null");
  if (!rt.device.erase(devPtr))
    return rt.fail(ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtFree: " + ascend::sdk::hex(devPtr) + " is not from aclrtMalloc");
  ascend::sdk::gm_free(devPtr);
  return ACL_SUCCESS;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  Runtime& rt = Runtime::get();
  if (!hostPtr) return rt.fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: hostPtr is null");
  if (size == 0) return rt.fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: size 0");
  if (size > ascend::sdk::kMaxAllocBytes)
    return rt.fail(ACL_ERROR_BAD_ALLOC,
                   "aclrtMallocHost: " + std::to_string(size) + " bytes: more than 1 TiB at once");
  void* p = std::aligned_alloc(64, (size + 63) / 64 * 64);
  if (!p)
    return rt.fail(ACL_ERROR_BAD_ALLOC,
                   "aclrtMallocHost: " + std::to_string(size) + " bytes not available");
  rt.host[p] = size;
  *hostPtr = p;
  return ACL_SUCCESS;
}

aclError aclrtFreeHost(void* hostPtr) {
  Runtime& rt = Runtime::get();
  if (!hostPtr) return rt.fail(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost: hostPtr is null");
  if (!rt.host.erase(hostPtr))
    return rt.fail(ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtFreeHost: " + ascend::sdk::hex(hostPtr) + " is not from aclrtMallocHost");
  std::free(hostPtr);
  return ACL_SUCCESS;
}

namespace ascend::sdk {
namespace {

// aclrtMemcpy and aclrtMemcpyAsync; `call` names the one the program made in the messages.
aclError memcpy_checked(const char* call_name, void* dst, size_t destMax, const void* src,
                        size_t count, aclrtMemcpyKind kind) {
  Runtime& rt = Runtime::get();
  const std::string call = call_name;
  if (!dst || !src)
    return rt.fail(ACL_ERROR_INVALID_PARAM, call + ": " + (dst ? "src" : "dst") + " is null");
  if (count > destMax)
    return rt.fail(ACL_ERROR_INVALID_PARAM, call + ": count " + std::to_string(count) +
                                                " over destMax " + std::to_string(destMax));
  const bool dst_dev = gm_buffer_of(dst, nullptr) != nullptr;
  const bool src_dev = gm_buffer_of(src, nullptr) != nullptr;
  bool want_dst_dev = false, want_src_dev = false;
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
      want_dst_dev = true;
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      want_src_dev = true;
      break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      want_dst_dev = want_src_dev = true;
      break;
    case ACL_MEMCPY_DEFAULT:
      want_dst_dev = dst_dev;
      want_src_dev = src_dev;
      break;
    default:
      return rt.fail(ACL_ERROR_INVALID_PARAM,
                     call + ": unknown kind " + std::to_string(static_cast<int>(kind)));
  }
  auto side = [&](const void* p, bool dev, bool is_dev, const char* which) -> aclError {
    if (dev && !is_dev)
      return rt.fail(ACL_ERROR_INVALID_PARAM, call + ": " + which + " " + hex(p) +
                                                  " is not device memory " +
                                                  "(aclrtMalloc) though the copy kind says it is");
    if (!dev && is_dev)
      return rt.fail(ACL_ERROR_INVALID_PARAM, call + ": " + which + " " + hex(p) +
                                                  " is device memory though the copy kind says "
                                                  "host");
    if (dev && !Runtime::device_range(p, count))
      return rt.fail(ACL_ERROR_INVALID_PARAM,
                     call + ": " + std::to_string(count) + " bytes from " + which + " " + hex(p) +
                         " run past the end of its aclrtMalloc allocation");
    // Host memory is the program's; the runtime checks the buffers it handed out itself.
    size_t left = 0;
    if (!dev && rt.host_buffer_of(p, &left) && count > left)
      return rt.fail(ACL_ERROR_INVALID_PARAM,
                     call + ": " + std::to_string(count) + " bytes from " + which + " " + hex(p) +
                         " run past the end of its aclrtMallocHost allocation");
    return ACL_SUCCESS;
  };
  if (aclError e = side(dst, want_dst_dev, dst_dev, "dst")) return e;
  if (aclError e = side(src, want_src_dev, src_dev, "src")) return e;
  std::memmove(dst, src, count);
  return ACL_SUCCESS;
}

}  // namespace
}  // namespace ascend::sdk

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind) {
  return ascend::sdk::memcpy_checked("aclrtMemcpy", dst, destMax, src, count, kind);
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
  Runtime& rt = Runtime::get();
  if (stream && !rt.streams.count(stream))
    return rt.fail(ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtMemcpyAsync: " + ascend::sdk::hex(stream) + " is not a live stream");
  return ascend::sdk::memcpy_checked("aclrtMemcpyAsync", dst, destMax, src, count, kind);
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  Runtime& rt = Runtime::get();
  if (!devPtr) return rt.fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: devPtr is null");
  if (count > maxCount)
    return rt.fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count " + std::to_string(count) +
                                                " over maxCount " + std::to_string(maxCount));
  if (!Runtime::device_range(devPtr, count))
    return rt.fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: " + std::to_string(count) +
                                                " bytes from " + ascend::sdk::hex(devPtr) +
                                                " are not inside one aclrtMalloc allocation");
  std::memset(devPtr, value, count);
  return ACL_SUCCESS;
}

aclError aclrtGetLastError(aclrtLastErrLevel) {
  Runtime& rt = Runtime::get();
  aclError e = rt.last;
  rt.last = ACL_SUCCESS;
  return e;
}

const char* aclGetRecentErrMsg() {
  Runtime& rt = Runtime::get();
  return rt.message.empty() ? nullptr : rt.message.c_str();
}
