// Data movement between GM and UB: DataCopy (32-B multiples, optionally strided) and DataCopyPad.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "sim/api/tensor.h"

namespace AscendC {

constexpr uint32_t DEFAULT_C0_SIZE = 32;  // bytes of a data block, the unit of DataCopyParams

struct DataCopyParams {  // lengths and gaps in 32-B blocks
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  uint16_t srcStride = 0;
  uint16_t dstStride = 0;
};
struct DataCopyExtParams {  // blockLen in bytes; the GM-side gap in bytes, the UB-side in 32-B
                            // blocks
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};
template <class T>
struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0;   // elements
  uint8_t rightPadding = 0;  // elements
  T paddingValue{};
};

namespace detail {
template <class T>
void atomic_add_bytes(uint8_t* gm, const uint8_t* src, uint64_t bytes) {
  for (uint64_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
    T a, b;
    std::memcpy(&a, gm + i, sizeof(T));
    std::memcpy(&b, src + i, sizeof(T));
    T c = add(a, b);
    std::memcpy(gm + i, &c, sizeof(T));
  }
}
}  // namespace detail

// From here on, this core's DataCopy/DataCopyPad to GM add their elements (of type T, rounded to
// nearest even; integers wrap) to what GM holds, until SetAtomicNone. The mode is taken when the
// copy is issued, as the MTE3 reads it in program order.
template <class T>
void SetAtomicAdd() {
  detail::state().atomic_add = &detail::atomic_add_bytes<T>;
}
inline void SetAtomicNone() {
  detail::state().atomic_add = nullptr;
}

namespace detail {
// The descriptor of a copy between `g` and `l`, bounded by both tensors, in the direction given.
template <class T>
DmaDesc copy_desc(const GlobalTensor<T>& g, const LocalTensor<T>& l, bool to_gm,
                  const char* name = "DataCopy") {
  DmaDesc d;
  d.name = name;
  d.to_gm = to_gm;
  d.gm = d.gm_lo = g.address();
  d.gm_hi = g.address() + g.GetSize() * sizeof(T);
  bind_ub(d, l);
  return d;
}
// DataCopy of `count` contiguous elements (a multiple of 32 B).
template <class T>
void copy_count(DmaDesc d, uint32_t count) {
  d.block_bytes = count * sizeof(T);
  if (d.block_bytes % 32)
    fault("DataCopy of " + std::to_string(d.block_bytes) +
          " B: not a multiple of 32 B (use DataCopyPad)");
  issue_dma(d);
}
// DataCopy in 32-B blocks; the UB-side stride is src's for a copy out, dst's for a copy in.
inline void copy_blocks(DmaDesc d, const DataCopyParams& p) {
  d.block_count = p.blockCount;
  d.block_bytes = p.blockLen * 32u;
  uint64_t gm_gap = d.to_gm ? p.dstStride : p.srcStride,
           ub_gap = d.to_gm ? p.srcStride : p.dstStride;
  d.gm_stride = (uint64_t{p.blockLen} + gm_gap) * 32;
  d.ub_stride = (uint64_t{p.blockLen} + ub_gap) * 32;
  issue_dma(d);
}
}  // namespace detail

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
  detail::copy_count<T>(detail::copy_desc(src, dst, false), count);
}
template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::copy_count<T>(detail::copy_desc(dst, src, true), count);
}
template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
  detail::copy_blocks(detail::copy_desc(src, dst, false), p);
}
template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  detail::copy_blocks(detail::copy_desc(dst, src, true), p);
}

template <class T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad = {}) {
  static_assert(sizeof(T) <= 8);
  detail::DmaDesc d = detail::copy_desc(src, dst, false, "DataCopyPad");
  d.block_count = p.blockCount;
  d.block_bytes = p.blockLen;
  d.pad = pad.isPad;
  d.pad_left = pad.leftPadding * sizeof(T);
  d.pad_right = pad.rightPadding * sizeof(T);
  d.pad_elem = sizeof(T);
  std::memcpy(d.pad_value, &pad.paddingValue, sizeof(T));
  d.gm_stride = uint64_t{p.blockLen} + p.srcStride;
  d.ub_stride =
      (uint64_t{d.pad_left} + p.blockLen + d.pad_right + 31) / 32 * 32 + uint64_t{p.dstStride} * 32;
  detail::issue_dma(d);
}

template <class T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                 const DataCopyExtParams& p) {
  detail::DmaDesc d = detail::copy_desc(dst, src, true, "DataCopyPad");
  d.block_count = p.blockCount;
  d.block_bytes = p.blockLen;
  d.ub_stride = (uint64_t{p.blockLen} + 31) / 32 * 32 + uint64_t{p.srcStride} * 32;
  d.gm_stride = uint64_t{p.blockLen} + p.dstStride;
  detail::issue_dma(d);
}

}  // namespace AscendC
