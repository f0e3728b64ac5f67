// GlobalTensor (a typed view of a GM allocation) and LocalTensor (a typed view of a core's UB).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "sim/api/instr.h"

namespace AscendC {

template <class T>
class GlobalTensor {
 public:
  using PrimType = T;
  // size in elements; 0 means "up to the end of the GM allocation holding buffer".
  void SetGlobalBuffer(__gm__ T* buffer, uint64_t size = 0) {
    const uint64_t a = detail::gm_of(reinterpret_cast<uint64_t>(buffer));
    if (size > UINT64_MAX / sizeof(T))
      detail::fault("SetGlobalBuffer: " + std::to_string(size) +
                    " elements overflow the address space");
    const auto* r = detail::memory().region_of(a, size == 0 ? 1 : size * sizeof(T));
    if (!r)
      detail::fault("SetGlobalBuffer: [" + detail::describe_gm(a) + ", +" +
                    std::to_string(size * sizeof(T)) +
                    " B) is not inside one GM allocation (a GmAlloc buffer or GM the simulator "
                    "allocated)");
    addr_ = a;
    size_ = size ? size : (r->base + r->bytes - a) / sizeof(T);
  }
  uint64_t GetSize() const { return size_; }
  uint64_t address() const { return addr_; }
  __gm__ T* GetPhyAddr() const { return reinterpret_cast<T*>(addr_); }
  GlobalTensor operator[](uint64_t offset) const {
    if (offset > size_)
      detail::fault("GlobalTensor[" + std::to_string(offset) + "] beyond its " +
                    std::to_string(size_) + " elements");
    GlobalTensor g;
    g.addr_ = addr_ + offset * sizeof(T);
    g.size_ = size_ - offset;
    return g;
  }
  T GetValue(uint64_t i) const {
    check(i, "GetValue");
    T v;
    detail::scalar_gm_read(addr_ + i * sizeof(T), &v, sizeof(T));
    return v;
  }
  void SetValue(uint64_t i, T v) const {
    check(i, "SetValue");
    detail::scalar_gm_write(addr_ + i * sizeof(T), &v, sizeof(T));
  }

 private:
  void check(uint64_t i, const char* what) const {
    if (i >= size_)
      detail::fault(std::string(what) + "(" + std::to_string(i) + ") on a GlobalTensor of " +
                    std::to_string(size_) + " elements");
  }
  uint64_t addr_ = 0;
  uint64_t size_ = 0;
};

template <class T>
class LocalTensor {
 public:
  using PrimType = T;
  LocalTensor() = default;
  LocalTensor(ascend::model::Core* core, uint32_t offset, uint32_t size)
      : core_(core), offset_(offset), size_(size) {}

  LocalTensor operator[](uint32_t offset) const {
    if (offset > size_)
      detail::fault("LocalTensor[" + std::to_string(offset) + "] beyond its " +
                    std::to_string(size_) + " elements");
    return LocalTensor(core_, offset_ + offset * sizeof(T), size_ - offset);
  }
  T GetValue(uint32_t i) const {
    check(i, "GetValue");
    detail::scalar_ub_access(offset_ + uint64_t{i} * sizeof(T), sizeof(T), false);
    T v;
    std::memcpy(&v, core_->ub() + offset_ + i * sizeof(T), sizeof(T));
    return v;
  }
  void SetValue(uint32_t i, T v) const {
    check(i, "SetValue");
    detail::scalar_ub_access(offset_ + uint64_t{i} * sizeof(T), sizeof(T), true);
    std::memcpy(core_->ub() + offset_ + i * sizeof(T), &v, sizeof(T));
  }
  uint32_t GetSize() const { return size_; }
  template <class U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(core_, offset_, static_cast<uint32_t>(size_ * sizeof(T) / sizeof(U)));
  }
  // Simulator side: where the tensor lives in its core's UB.
  uint32_t ub_offset() const { return offset_; }
  ascend::model::Core* owner() const { return core_; }
  // Element pointer, valid until the next UB allocation; only for instruction effects.
  T* ptr() const { return reinterpret_cast<T*>(core_->ub() + offset_); }

 private:
  void check(uint32_t i, const char* what) const {
    if (!core_) detail::fault(std::string(what) + " on an unallocated LocalTensor");
    if (i >= size_)
      detail::fault(std::string(what) + "(" + std::to_string(i) + ") on a LocalTensor of " +
                    std::to_string(size_) + " elements");
  }
  ascend::model::Core* core_ = nullptr;
  uint32_t offset_ = 0;  // bytes
  uint32_t size_ = 0;    // elements
};

namespace detail {
template <class T>
void bind_ub(DmaDesc& d, const LocalTensor<T>& t) {
  d.ub_core = t.owner();
  d.ub = t.ub_offset();
  d.ub_hi = t.ub_offset() + uint64_t{t.GetSize()} * sizeof(T);
}
template <class T>
void check_operand(const LocalTensor<T>& t, uint64_t bytes, const char* instr, Access access) {
  check_ub(t.owner(), t.ub_offset(), bytes, instr);
  check_ub_aligned(t.ub_offset(), instr);
  if (bytes > uint64_t{t.GetSize()} * sizeof(T))
    fault(std::string(instr) + ": " + std::to_string(bytes) + " B beyond a LocalTensor of " +
          std::to_string(uint64_t{t.GetSize()} * sizeof(T)) + " B");
  note_ub(t.ub_offset(), bytes, access);
}
}  // namespace detail

}  // namespace AscendC
