// GlobalTensor (a typed view of a GM allocation) and LocalTensor (a typed view of a core's UB).
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <type_traits>

#include "api/data_format.h"
#include "api/instr.h"

namespace AscendC {

namespace detail {
int buffer_of(TPosition p);  // api/tpipe.cpp
bool is_cube_position(TPosition p);
// The core whose scalar program is running.
inline ascend::model::Core* current_core() {
  return &core();
}
// [addr, addr + bytes) of the core's buffer of pos, made usable (as TPipe::InitBuffer makes its
// buffers); its offset in the core's local space (kOtherKindsTensor for a position of the other
// kind of core). Out of the buffer or not 32-B aligned: a kernel fault.
inline uint32_t place_static(ascend::model::Core* c, TPosition pos, uint32_t addr, uint64_t bytes) {
  const bool aic = c->core_kind() == ascend::model::CoreKind::Aic;
  if (aic != is_cube_position(pos)) return kOtherKindsTensor;
  ascend::model::LocalBuffer& buf = *c->buffers()[static_cast<size_t>(buffer_of(pos))];
  if (addr % 32 || addr + bytes > buf.capacity())
    fault("LocalTensor(pos, addr " + std::to_string(addr) + ", " + std::to_string(bytes) +
          " B): not 32-B aligned or beyond the " + std::to_string(buf.capacity()) + " B buffer");
  buf.reserve(static_cast<uint32_t>(addr + bytes));
  return buf.base() + addr;
}

// An element of GM reached through GlobalTensor::address_: reading or assigning it is a scalar GM
// access of the core's scalar unit, timed and bounds-checked as GetValue/SetValue are. (A GM
// address is simulated, so it cannot be dereferenced as a host pointer.)
template <class T>
class GmRef {
 public:
  explicit GmRef(uint64_t addr) : addr_(addr) {}
  operator T() const {  // NOLINT: reads like the element it stands for
    T v;
    scalar_gm_read(addr_, &v, sizeof(T));
    return v;
  }
  const GmRef& operator=(const T& v) const {
    scalar_gm_write(addr_, &v, sizeof(T));
    return *this;
  }
  const GmRef& operator=(const GmRef& other) const { return *this = static_cast<T>(other); }

 private:
  uint64_t addr_;
};

// The typed GM pointer of GlobalTensor::address_ (Ascend C declares it `__gm__ T*`): pointer
// arithmetic, and dereferencing through GmRef. It converts to T*, the simulated address that the
// API's other calls (SetGlobalBuffer, GM_ADDR casts) carry.
template <class T>
class GmPtr {
 public:
  GmPtr() = default;
  explicit GmPtr(uint64_t addr) : addr_(addr) {}
  operator T*() const { return reinterpret_cast<T*>(addr_); }  // NOLINT: as the pointer it models
  uint64_t addr() const { return addr_; }
  GmRef<T> operator*() const { return GmRef<T>(addr_); }
  template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  GmRef<T> operator[](I i) const {
    return *(*this + i);
  }
  template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  GmPtr operator+(I i) const {
    return GmPtr(addr_ + static_cast<uint64_t>(static_cast<int64_t>(i)) * sizeof(T));
  }
  template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  GmPtr operator-(I i) const {
    return GmPtr(addr_ - static_cast<uint64_t>(static_cast<int64_t>(i)) * sizeof(T));
  }
  template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  GmPtr& operator+=(I i) {
    return *this = *this + i;
  }
  template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  GmPtr& operator-=(I i) {
    return *this = *this - i;
  }
  GmPtr& operator++() { return *this += 1; }
  GmPtr& operator--() { return *this -= 1; }
  GmPtr operator++(int) {
    const GmPtr old = *this;
    ++*this;
    return old;
  }
  GmPtr operator--(int) {
    const GmPtr old = *this;
    --*this;
    return old;
  }
  int64_t operator-(GmPtr other) const {
    return static_cast<int64_t>(addr_ - other.addr_) / static_cast<int64_t>(sizeof(T));
  }

 private:
  uint64_t addr_ = 0;
};
}  // namespace detail

template <class T>
class GlobalTensor {
 public:
  using PrimType = T;
  // size in elements; 0 means "up to the end of the GM allocation holding buffer".
  void SetGlobalBuffer(__gm__ T* buffer, uint64_t size = 0) {
    const uint64_t a = detail::gm_of(reinterpret_cast<uint64_t>(buffer));
    if (size > UINT64_MAX / 2 / sizeof(T))
      detail::fault("SetGlobalBuffer: " + std::to_string(size) +
                    " elements overflow the address space");
    // A user's program may size a GlobalTensor past its allocation (the CPU twin and the hardware
    // do not check it); under allocation bounds its DMAs are checked against the allocation.
    const bool to_allocation = detail::gm_bounds() == detail::GmBounds::Allocation;
    const auto* r =
        detail::memory().region_of(a, size == 0 || to_allocation ? 1 : detail::bytes_of<T>(size));
    if (!r && to_allocation) {  // a user's program may bind a pointer it never uses (an input
      address_ = detail::GmPtr<T>(a);  // its scenario leaves unallocated): each use is checked
      size_ = size;                    // against the GM allocations and faults there
      return;
    }
    if (!r)
      detail::fault("SetGlobalBuffer: [" + detail::describe_gm(a) + ", +" +
                    std::to_string(detail::bytes_of<T>(size)) +
                    " B) is not inside one GM allocation");
    address_ = detail::GmPtr<T>(a);
    size_ = size ? size : (r->base + r->bytes - a) * (detail::is_int4<T> ? 2 : 1) / sizeof(T);
  }
  uint64_t GetSize() const { return size_; }
  uint64_t address() const { return address_.addr(); }
  // The simulated GM address (as GM_ADDR carries it): to pass on, not to dereference.
  __gm__ T* GetPhyAddr() const { return address_; }
  __gm__ T* GetPhyAddr(uint64_t offset) const { return address_ + offset; }
  // Under allocation bounds (users' programs) an offset may pass the stated size: what is
  // reached through the view is checked against the GM allocation instead.
  GlobalTensor operator[](uint64_t offset) const {
    if (offset > size_ && detail::gm_bounds() == detail::GmBounds::Tensor)
      detail::fault("GlobalTensor[" + std::to_string(offset) + "] beyond its " +
                    std::to_string(size_) + " elements");
    GlobalTensor g;
    if constexpr (detail::is_int4<T>) {  // two elements a byte: an even offset only
      if (offset % 2) detail::fault("GlobalTensor<int4b_t>[" + std::to_string(offset) + "]: odd");
      g.address_ = address_ + offset / 2;
    } else {
      g.address_ = address_ + offset;
    }
    g.size_ = offset < size_ ? size_ - offset : 0;
    g.cache_mode_ = cache_mode_;
    return g;
  }
  // The L2 hint of this view's DMAs (Ascend C API: SetL2CacheHint). The die's L2 is modelled for
  // the AIC's MTE2 reads (docs/model/memory.md): CACHE_MODE_DISABLE makes them bypass it; the other
  // modes, and every AIV access, are timed as without the hint.
  template <CacheRwMode rwMode = CacheRwMode::RW>
  void SetL2CacheHint(CacheMode mode) {
    cache_mode_ = mode;
  }
  CacheMode GetL2CacheHint() const { return cache_mode_; }
  T GetValue(uint64_t i) const {
    static_assert(!detail::is_int4<T>,
                  "ascend-sim: GlobalTensor<int4b_t>::GetValue/SetValue is not modelled");
    check(i, "GetValue");
    T v;
    detail::scalar_gm_read(address() + i * sizeof(T), &v, sizeof(T));
    return v;
  }
  void SetValue(uint64_t i, T v) const {
    static_assert(!detail::is_int4<T>,
                  "ascend-sim: GlobalTensor<int4b_t>::GetValue/SetValue is not modelled");
    check(i, "SetValue");
    detail::scalar_gm_write(address() + i * sizeof(T), &v, sizeof(T));
  }

  // Ascend C's public typed GM pointer; *(address_ + i) reads or writes element i as GetValue and
  // SetValue do (GmPtr).
  detail::GmPtr<T> address_;

 private:
  CacheMode cache_mode_ = CacheMode::CACHE_MODE_NORMAL;
  void check(uint64_t i, const char* what) const {
    if (i >= size_ && detail::gm_bounds() == detail::GmBounds::Tensor)
      detail::fault(std::string(what) + "(" + std::to_string(i) + ") on a GlobalTensor of " +
                    std::to_string(size_) + " elements");
  }
  uint64_t size_ = 0;
};

// A scalar GM access that bypasses the data cache (the scalar's own loads and stores are timed as
// GlobalTensor::GetValue/SetValue; no cache is modelled).
template <class T>
void WriteGmByPassDCache(__gm__ T* addr, T value) {
  detail::scalar_gm_write(detail::gm_of(reinterpret_cast<uint64_t>(addr)), &value, sizeof(T));
}
template <class T>
T ReadGmByPassDCache(__gm__ T* addr) {
  T v;
  detail::scalar_gm_read(detail::gm_of(reinterpret_cast<uint64_t>(addr)), &v, sizeof(T));
  return v;
}

// Ascend C's operator forms of the binary vector instructions: `dst = a * b` is Mul(dst, a, b)
// over dst's whole size (api/vector.h defines the operators).
template <class T>
struct SymbolOverride {
  using Apply = void (*)(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,
                         uint32_t);
  const LocalTensor<T>& a;
  const LocalTensor<T>& b;
  Apply apply;
};

namespace detail {
// The ShapeInfos kernels attach to LocalTensors (LocalTensor::SetShapeInfo).
inline std::map<std::tuple<const void*, uint32_t, uint64_t>, ShapeInfo>& shape_infos() {
  static std::map<std::tuple<const void*, uint32_t, uint64_t>, ShapeInfo> all;
  return all;
}
}  // namespace detail

template <class T>
class LocalTensor {
 public:
  using PrimType = T;
  LocalTensor() = default;
  LocalTensor(const LocalTensor&) = default;
  LocalTensor& operator=(const LocalTensor&) = default;
  void operator=(const SymbolOverride<T>& op) const { op.apply(*this, op.a, op.b, size_); }
  LocalTensor(ascend::model::Core* core, uint32_t offset, uint32_t size)
      : core_(core), offset_(offset), size_(size) {}
  // Static tensor programming: tileSize elements at byte address addr of the calling core's
  // buffer of pos (UB for VECIN/VECOUT/VECCALC), which becomes usable up to their end.
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize)
      : core_(detail::current_core()), size_(tileSize) {
    offset_ = detail::place_static(core_, pos, addr, detail::bytes_of<T>(tileSize));
    if (offset_ == detail::kOtherKindsTensor) core_ = nullptr;  // a placeholder: faults at use
  }

  LocalTensor operator[](uint32_t offset) const {
    if (offset > size_)
      detail::fault("LocalTensor[" + std::to_string(offset) + "] beyond its " +
                    std::to_string(size_) + " elements");
    if (detail::is_int4<T> && offset % 2)
      detail::fault("LocalTensor<int4b_t>[" + std::to_string(offset) +
                    "]: an odd offset splits a byte");
    return LocalTensor(core_, offset_ + static_cast<uint32_t>(detail::bytes_of<T>(offset)),
                       size_ - offset);
  }
  T GetValue(uint32_t i) const {
    check(i, "GetValue");
    if constexpr (detail::is_int4<T>) {  // the byte holding it, then its nibble
      detail::scalar_ub_access(offset_ + uint64_t{i} / 2, 1, false);
      return T(detail::int4_at(core_->ub() + offset_, i));
    }
    detail::scalar_ub_access(offset_ + uint64_t{i} * sizeof(T), sizeof(T), false);
    T v;
    std::memcpy(&v, core_->ub() + offset_ + i * sizeof(T), sizeof(T));
    return v;
  }
  void SetValue(uint32_t i, T v) const {
    check(i, "SetValue");
    if constexpr (detail::is_int4<T>) {  // a read-modify-write of its byte
      detail::scalar_ub_access(offset_ + uint64_t{i} / 2, 1, true);
      detail::int4_put(core_->ub() + offset_, i, int32_t{v});
      return;
    }
    detail::scalar_ub_access(offset_ + uint64_t{i} * sizeof(T), sizeof(T), true);
    std::memcpy(core_->ub() + offset_ + i * sizeof(T), &v, sizeof(T));
  }
  uint32_t GetSize() const { return size_; }
  // Ascend C lets a kernel set a tensor's element count; it must stay inside the UB.
  void SetSize(uint32_t size) {
    if (core_) detail::check_ub(core_, offset_, detail::bytes_of<T>(size), "SetSize");
    size_ = size;
  }
  // As on Ascend C's CPU-debug twin: a host pointer to the elements, valid until the next UB
  // allocation. Accesses through it are not timed (GetValue/SetValue are).
  T* GetPhyAddr() const {
    if (!core_) detail::fault("GetPhyAddr on " + detail::unusable_tensor(offset_));
    return ptr();
  }
  T* GetPhyAddr(uint32_t offset) const {
    if constexpr (detail::is_int4<T>) {
      if (offset % 2) detail::fault("GetPhyAddr on int4b_t: an odd offset splits a byte");
      return GetPhyAddr() + offset / 2;
    }
    return GetPhyAddr() + offset;
  }
  // The same bytes as elements of U (int4b_t: two a byte).
  template <class U>
  LocalTensor<U> ReinterpretCast() const {
    const uint64_t bytes = detail::bytes_of<T>(size_);
    return LocalTensor<U>(
        core_, offset_, static_cast<uint32_t>(detail::is_int4<U> ? bytes * 2 : bytes / sizeof(U)));
  }
  // The shape a kernel attaches for the APIs that read it (AscendAntiQuant's offset). It is kept
  // aside, by the core, address and size of the tensor's elements, so that LocalTensor stays as
  // small as the instruction effects that capture it need: copies of the tensor see it, a slice
  // or a cast does not, and a later tensor over the very same bytes inherits it until it sets
  // its own.
  void SetShapeInfo(const ShapeInfo& shapeInfo) {
    detail::shape_infos()[{core_, offset_, detail::bytes_of<T>(size_)}] = shapeInfo;
  }
  ShapeInfo GetShapeInfo() const {
    const auto& all = detail::shape_infos();
    const auto it = all.find({core_, offset_, detail::bytes_of<T>(size_)});
    return it == all.end() ? ShapeInfo{} : it->second;
  }
  // Simulator side: where the tensor lives in its core's UB.
  uint32_t ub_offset() const { return offset_; }
  ascend::model::Core* owner() const { return core_; }
  // Element pointer, valid until the next UB allocation; only for instruction effects.
  T* ptr() const { return reinterpret_cast<T*>(core_->ub() + offset_); }

 private:
  void check(uint32_t i, const char* what) const {
    if (!core_) detail::fault(std::string(what) + " on " + detail::unusable_tensor(offset_));
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
  d.ub_hi = t.ub_offset() + bytes_of<T>(t.GetSize());
}
template <class T>
void check_operand(const LocalTensor<T>& t, uint64_t bytes, const char* instr, Access access,
                   uint32_t align) {
  check_ub(t.owner(), t.ub_offset(), bytes, instr);
  if (align == 32)
    check_ub_aligned(t.ub_offset(), instr);
  else if (t.ub_offset() % align)
    fault(std::string(instr) + ": UB address " + std::to_string(t.ub_offset()) + " is not " +
          std::to_string(align) + "-B aligned");
  if (bytes > bytes_of<T>(t.GetSize()))
    fault(std::string(instr) + ": " + std::to_string(bytes) + " B beyond a LocalTensor of " +
          std::to_string(bytes_of<T>(t.GetSize())) + " B");
  note_ub(t.ub_offset(), bytes, access);
}
}  // namespace detail

}  // namespace AscendC
