// Static-tensor programming: tensors placed by a LocalMemAllocator instead of TPipe/TQue, and the
// kernel prologue InitSocState.
#pragma once

#include <cstdint>
#include <string>

#include "api/sync.h"
#include "api/tensor.h"

namespace AscendC {

// The kernel's first call in the newer samples: puts the core's control registers in their
// reset state. Every launch starts a core afresh here (Runtime::begin_launch), so it issues
// nothing.
inline void InitSocState() {}

// Where a LocalMemAllocator places its tensors.
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

namespace detail {
// The core's local buffer a Hardware names (api/tpipe.cpp's numbering: 0 the UB of an AIV or
// the L1 of an AIC, 1 L0A, 2 L0B, 3 L0C, 4 BT), or -1.
constexpr int buffer_of(Hardware h) {
  switch (h) {
    case Hardware::UB:
    case Hardware::L1:
      return 0;
    case Hardware::L0A:
      return 1;
    case Hardware::L0B:
      return 2;
    case Hardware::L0C:
      return 3;
    case Hardware::BIAS:
      return 4;
    default:
      return -1;
  }
}
}  // namespace detail

// Hands out consecutive tensors of one local buffer from its start, each 32-B aligned (the L0A/
// L0B fractal 512-B, L0C 64-B, as TPipe::InitBuffer). It may not share the buffer with a TPipe's
// buffers: the first Alloc after a TPipe allocated there is a kernel fault.
template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static_assert(detail::buffer_of(hard) >= 0,
                "ascend-sim: LocalMemAllocator places tensors in UB, L1, L0A, L0B, L0C or BIAS");

 public:
  LocalMemAllocator() : core_(detail::state().core) {}
  uint32_t GetCurAddr() const { return used_; }
  template <class T, uint32_t tileSize>
  LocalTensor<T> Alloc() {
    return Alloc<T>(tileSize);
  }
  template <TPosition pos, class T, uint32_t tileSize>
  LocalTensor<T> Alloc() {
    return Alloc<T>(tileSize);
  }
  template <TPosition pos, class T>
  LocalTensor<T> Alloc(uint32_t tileSize) {
    return Alloc<T>(tileSize);
  }
  template <class T>
  LocalTensor<T> Alloc(uint32_t tileSize) {
    return take<T>(detail::bytes_of<T>(tileSize), tileSize);
  }
  // The rest of the buffer.
  template <class T>
  LocalTensor<T> Alloc() {
    const uint32_t at = aligned(used_);
    const uint32_t cap = buffer().capacity();
    const uint32_t n = at < cap ? static_cast<uint32_t>(detail::elems_of<T>(cap - at)) : 0;
    return take<T>(detail::bytes_of<T>(n), n);
  }

 private:
  ascend::model::LocalBuffer& buffer() const {
    return *core_->buffers()[static_cast<size_t>(detail::buffer_of(hard))];
  }
  uint32_t aligned(uint32_t n) const {
    const int b = detail::buffer_of(hard);
    const uint32_t a = b == 1 || b == 2 ? 512 : b == 3 ? 64 : 32;
    return (n + a - 1) / a * a;
  }
  template <class T>
  LocalTensor<T> take(uint64_t bytes, uint32_t count) {
    ascend::model::LocalBuffer& buf = buffer();
    if (used_ == 0 && buf.allocated() > 0 && detail::state().pipe_active)
      detail::fault(
          "LocalMemAllocator::Alloc in a buffer a TPipe already allocated from (Ascend C "
          "does not let the two share one)");
    const uint32_t at = aligned(used_);
    if (at + bytes > buf.capacity())
      detail::fault("LocalMemAllocator::Alloc of " + std::to_string(bytes) + " B at offset " +
                    std::to_string(at) + " overflows the " + std::to_string(buf.capacity()) +
                    " B buffer");
    used_ = at + static_cast<uint32_t>(bytes);
    buf.reserve(used_);
    return LocalTensor<T>(core_, buf.base() + at, count);
  }
  ascend::model::Core* core_;
  uint32_t used_ = 0;
};

}  // namespace AscendC

namespace AscendC::detail {
// The device compiler's global `block_idx`: reads as the calling core's GetBlockIdx().
struct BlockIdxVar {
  operator int64_t() const { return GetBlockIdx(); }  // NOLINT: reads like the variable
};
}  // namespace AscendC::detail
inline constexpr AscendC::detail::BlockIdxVar block_idx{};
