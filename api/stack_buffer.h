// Ascend C's stack buffer: the temporary space a high-level API takes for itself when the caller
// passes no sharedTmpBuffer ("the framework allocates it"), which is the UB the kernel's TPipe has
// not allocated. It stays usable by the kernel afterwards.
#pragma once

#include <cstdint>
#include <string>

#include "api/tensor.h"
#include "api/tpipe.h"

namespace AscendC {
namespace detail {
// The UB after the TPipe's allocations, as a tensor of T; `api` names the caller in a fault.
template <class T>
LocalTensor<T> stack_buffer(const char* api) {
  TPipe* pipe = GetTPipePtr();
  m::LocalBuffer& ub = *core().buffers()[0];
  const uint32_t used = (pipe->used_bytes() + 31) / 32 * 32;
  if (used + 32 > ub.capacity())
    fault(std::string(api) + ": no UB left after the TPipe's " + std::to_string(used) + " B");
  ub.reserve(ub.capacity());
  return LocalTensor<T>(&core(), ub.base() + used,
                        static_cast<uint32_t>((ub.capacity() - used) / sizeof(T)));
}
}  // namespace detail

// Ascend C's PopStackBuffer: the stack buffer as a tensor the kernel passes to an API itself.
// Ascend C's TPosition::LCM is another name of VECCALC.
template <class T, TPosition pos>
bool PopStackBuffer(LocalTensor<T>& popLocal) {
  static_assert(pos == TPosition::VECCALC,
                "ascend-sim: PopStackBuffer is modelled for the UB (TPosition::VECCALC / LCM)");
  popLocal = detail::stack_buffer<T>("PopStackBuffer");
  return true;
}
}  // namespace AscendC
