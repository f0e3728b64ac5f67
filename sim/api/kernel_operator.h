// The kernel API: a facade over the models that reads like Ascend C's kernel_operator.h, so a
// kernel's Process() can be ported with few changes and timed. A kernel sees only this header,
// as a real Ascend C kernel sees only kernel_operator.h.
//
// Every call is issued by the calling core's scalar unit into the pipe that executes it (see
// models/aiv_core.h for the timing rules). What an instruction does to the data is real and
// happens when it completes: DMA moves bytes, vector instructions compute their results.
// Misuse that real hardware would turn into garbage or a crash (UB overflow, GM out of bounds,
// a misaligned DataCopy, an AllocTensor with every buffer taken) is a kernel fault: the run stops
// with exit status 5 and a message naming the kernel, core and instruction.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <type_traits>
#include <vector>

#include "models/aiv_core.h"
#include "models/global_memory.h"
#include "sim/api/numeric.h"

#define __aicore__
#define __gm__
using GM_ADDR = uint8_t*;  // a simulated GM address carried in a pointer; never dereferenced

namespace AscendC {

using HardEvent = ascend::model::HardEvent;
using TEventID = int8_t;
enum pipe_t { PIPE_S, PIPE_V, PIPE_MTE2, PIPE_MTE3, PIPE_ALL };
enum class TPosition { GM, VECIN, VECOUT, VECCALC };
using QuePosition = TPosition;

template <class T>
class LocalTensor;
template <class T>
class GlobalTensor;

namespace detail {
namespace m = ascend::model;

// Bound by the simulation before any kernel runs.
void bind_memory(m::GlobalMemory* gm);
// Every rank's HCCL windows: data (windowsIn) and status (windowsExp), in that rank's HBM.
struct HcclWindows {
  std::vector<uint64_t> data, status;
  uint64_t data_bytes = 0, status_bytes = 0;
};
void bind_hccl(HcclWindows w);
const HcclWindows& hccl();
void bind_payload(bool moves);  // sim.payload
bool payload_moves();
// The bytes of each block a DMA issued now skips (0 unless timing-only inside a PayloadScope).
uint32_t skipped_prefix(const m::AivCore& c);
m::GlobalMemory& memory();
inline m::AivCore& core() {
  return m::AivCore::current();
}
[[noreturn]] void fault(const std::string& what);
std::string describe_gm(uint64_t addr);

// A UB range must lie inside what this kernel's TPipe allocated (and so inside the UB).
void check_ub(const m::AivCore* c, uint64_t offset, uint64_t bytes, const char* instr);
void check_ub_aligned(uint64_t offset, const char* instr);
// A vector operand: an allocated tensor starting on a 32-B boundary, `bytes` inside it.
enum Access : bool { kRead = false, kWrite = true };
// Checks a vector operand (bounds, alignment) and, under the race check, notes the UB range the
// next issued instruction reads or writes.
template <class T>
void check_operand(const LocalTensor<T>& t, uint64_t bytes, const char* instr, Access access);
void note_ub(uint64_t offset, uint64_t bytes, Access access);

// One DMA between GM and UB, possibly strided: blocks of `block_bytes`, GM blocks `gm_stride`
// bytes apart, UB blocks `ub_stride` bytes apart (32-B aligned). GM ranges are checked against
// [gm_lo, gm_hi), the bounds of the GlobalTensor used.
struct DmaDesc {
  bool to_gm = false;
  uint64_t gm = 0, gm_lo = 0, gm_hi = 0, gm_stride = 0;
  const m::AivCore* ub_core = nullptr;        // owner of the LocalTensor (null: not allocated)
  uint64_t ub = 0, ub_hi = 0, ub_stride = 0;  // UB side, bounded by the LocalTensor's end
  uint32_t block_count = 1, block_bytes = 0;
  // GM->UB padding: pad_left/pad_right bytes around each block filled with pad_value bytes
  uint32_t pad_left = 0, pad_right = 0;
  bool pad = false;
  uint8_t pad_value[8] = {};
  uint32_t pad_elem = 1;
  const char* name = "DataCopy";
};
void issue_dma(const DmaDesc& d);

// A vector instruction of `repeats` repeats whose effect runs at completion (skipped for payload
// in a timing-only run).
void issue_vector(const char* name, uint64_t repeats, std::function<void()> effect);
inline uint64_t repeats_for(uint64_t count, size_t elem_bytes) {
  return std::max<uint64_t>(1, (count * elem_bytes + 255) / 256);
}

void set_flag(HardEvent e, int id);
void wait_flag(HardEvent e, int id);
void pipe_barrier(pipe_t p);

// Scalar access to GM (GetValue/SetValue on a GlobalTensor): the scalar stalls for the latency.
void scalar_gm_read(uint64_t addr, void* dst, size_t bytes);
void scalar_gm_write(uint64_t addr, const void* src, size_t bytes);
void scalar_ub_access(uint64_t offset, uint64_t bytes, bool write);

// Element arithmetic in T's own precision: floating types round the exact result to nearest
// even; integer types compute in 64 bits and keep the low bits (wrap-around, as the hardware).
template <class T>
T wrap(uint64_t v) {
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(v));
}
template <class T>
uint64_t bits64(T v) {
  return static_cast<uint64_t>(static_cast<int64_t>(v));
}
template <class T>
T add(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return wrap<T>(bits64(a) + bits64(b));
  else
    return cast_to<T>(to_double(a) + to_double(b), RoundMode::CAST_RINT);
}
template <class T>
T sub(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return wrap<T>(bits64(a) - bits64(b));
  else
    return cast_to<T>(to_double(a) - to_double(b), RoundMode::CAST_RINT);
}
template <class T>
T mul(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return wrap<T>(bits64(a) * bits64(b));
  else
    return cast_to<T>(to_double(a) * to_double(b), RoundMode::CAST_RINT);
}
template <class T>
T div(T a, T b) {
  static_assert(!std::is_integral_v<T>, "Div is a floating-point instruction");
  return cast_to<T>(to_double(a) / to_double(b), RoundMode::CAST_RINT);
}
template <class T>
T abs(T a) {
  if constexpr (std::is_integral_v<T>)
    return a < 0 ? wrap<T>(uint64_t{0} - bits64(a)) : a;
  else
    return cast_to<T>(std::fabs(to_double(a)), RoundMode::CAST_RINT);
}

class QueueBase;
}  // namespace detail

// ------------------------------------------------------------------ tensors

template <class T>
class GlobalTensor {
 public:
  using PrimType = T;
  // size in elements; 0 means "up to the end of the GM allocation holding buffer".
  void SetGlobalBuffer(__gm__ T* buffer, uint64_t size = 0) {
    uint64_t a = reinterpret_cast<uint64_t>(buffer);
    if (size > UINT64_MAX / sizeof(T))
      detail::fault("SetGlobalBuffer: " + std::to_string(size) +
                    " elements overflow the address space");
    const auto* r = detail::memory().region_of(a, size == 0 ? 1 : size * sizeof(T));
    if (!r)
      detail::fault("SetGlobalBuffer: [" + detail::describe_gm(a) + ", +" +
                    std::to_string(size * sizeof(T)) + " B) is not inside one GM allocation");
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
  LocalTensor(ascend::model::AivCore* core, uint32_t offset, uint32_t size)
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
  ascend::model::AivCore* owner() const { return core_; }
  // Element pointer, valid until the next UB allocation; only for instruction effects.
  T* ptr() const { return reinterpret_cast<T*>(core_->ub() + offset_); }

 private:
  void check(uint32_t i, const char* what) const {
    if (!core_) detail::fault(std::string(what) + " on an unallocated LocalTensor");
    if (i >= size_)
      detail::fault(std::string(what) + "(" + std::to_string(i) + ") on a LocalTensor of " +
                    std::to_string(size_) + " elements");
  }
  ascend::model::AivCore* core_ = nullptr;
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

// ------------------------------------------------------------------ TPipe, TQue, TBuf

namespace detail {
class QueueBase {
 public:
  QueueBase(TPosition src, TPosition dst);
  void init(ascend::model::AivCore* core, uint32_t base, uint8_t num, uint32_t len);
  uint32_t alloc();  // offset of the buffer handed out
  void enque(uint32_t offset);
  uint32_t deque();
  void free(uint32_t offset);
  uint32_t len() const { return len_; }
  ascend::model::AivCore* core() const { return core_; }

 private:
  enum class SlotState { Free, Allocated, Queued, Dequeued };
  struct Slot {
    uint32_t base;
    SlotState state = SlotState::Free;
    bool used = false;
  };
  int slot_of(uint32_t offset, const char* what);
  ascend::model::PipeId producer_, consumer_;
  HardEvent ready_, release_;  // producer->consumer, consumer->producer
  ascend::model::AivCore* core_ = nullptr;
  std::vector<Slot> slots_;
  std::deque<int> fifo_;
  size_t next_ = 0;
  uint32_t len_ = 0;
  uint32_t event_base_ = 0;
};
}  // namespace detail

template <TPosition SRC, TPosition DST, int DEPTH>
class TQueBind : public detail::QueueBase {
 public:
  TQueBind() : detail::QueueBase(SRC, DST) {}
  template <class T>
  LocalTensor<T> AllocTensor() {
    uint32_t off = alloc();
    return LocalTensor<T>(core(), off, len() / sizeof(T));
  }
  template <class T>
  void EnQue(const LocalTensor<T>& t) {
    enque(t.ub_offset());
  }
  template <class T>
  LocalTensor<T> DeQue() {
    uint32_t off = deque();
    return LocalTensor<T>(core(), off, len() / sizeof(T));
  }
  template <class T>
  void FreeTensor(const LocalTensor<T>& t) {
    free(t.ub_offset());
  }
};

template <TPosition POS, int DEPTH = 1>
class TQue : public TQueBind<POS, POS, DEPTH> {};

template <TPosition POS>
class TBuf {
 public:
  template <class T>
  LocalTensor<T> Get() const {
    return LocalTensor<T>(core_, base_, len_ / sizeof(T));
  }
  template <class T>
  LocalTensor<T> Get(uint32_t count) const {
    if (count * sizeof(T) > len_) detail::fault("TBuf::Get beyond the buffer");
    return LocalTensor<T>(core_, base_, count);
  }
  void bind(ascend::model::AivCore* c, uint32_t base, uint32_t len) {
    core_ = c;
    base_ = base;
    len_ = len;
  }

 private:
  ascend::model::AivCore* core_ = nullptr;
  uint32_t base_ = 0, len_ = 0;
};

class TPipe {
 public:
  TPipe();
  ~TPipe();
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;
  // Allocates `num` buffers of `len` bytes (each rounded up to 32 B) for a queue.
  template <TPosition S, TPosition D, int N>
  void InitBuffer(TQueBind<S, D, N>& que, uint8_t num, uint32_t len,
                  const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    uint32_t aligned = align32(len);
    uint32_t base = allocate(static_cast<uint64_t>(num) * aligned, "queue", num, len, file, line);
    que.init(core_, base, num, aligned);
  }
  template <TPosition P>
  void InitBuffer(TBuf<P>& buf, uint32_t len, const char* file = __builtin_FILE(),
                  int line = __builtin_LINE()) {
    uint32_t aligned = align32(len);
    buf.bind(core_, allocate(aligned, "TBuf", 1, len, file, line), aligned);
  }
  // An event id for a SetFlag/WaitFlag pair (0..7, handed out in turn).
  TEventID FetchEventID(HardEvent) { return static_cast<TEventID>(next_event_++ % 8); }
  uint32_t used_bytes() const { return used_; }

 private:
  static uint32_t align32(uint32_t n) { return (n + 31) / 32 * 32; }
  uint32_t allocate(uint64_t bytes, const char* kind, int num, uint32_t len, const char* file,
                    int line);
  ascend::model::AivCore* core_;
  uint32_t used_ = 0;
  int next_event_ = 0;
};

// ------------------------------------------------------------------ HCCL communication windows
// As an MC2 kernel reaches them: an AIV writes a peer's window directly with MTE3 (and reads it
// with MTE2) over UBmem; no other communication engine is involved. One rank is one die.
GM_ADDR GetWindAddrByRankId(uint32_t rank);       // the rank's data window (windowsIn)
GM_ADDR GetWindStateAddrByRankId(uint32_t rank);  // the rank's status window (windowsExp)
uint64_t GetWindSize();                           // bytes of a data window (hccl.buffsize_MB)
uint64_t GetWindStateSize();                      // bytes of a status window (hccl.status_KiB)
uint32_t GetRankId();                             // this core's rank
uint32_t GetRankDim();                            // ranks in the EP group

// Simulator instrumentation, not Ascend C: the simulated time in ps, for calibration kernels that
// time one instruction.
inline uint64_t SimNowPs() {
  return ascend::model::now();
}

// Simulator annotation, not Ascend C: marks what a kernel moves or computes as payload (hidden
// states, scales). In a timing-only run (sim.payload = 0) payload instructions keep their exact
// timing but skip their effect, so a large run needs no memory for it; ids, counts, triples and
// flags still move. `prefix_bytes`: the leading bytes of every DMA block are payload; without it
// the whole instruction is.
class PayloadScope {
 public:
  PayloadScope();
  explicit PayloadScope(uint32_t prefix_bytes);
  ~PayloadScope();
  PayloadScope(const PayloadScope&) = delete;
  PayloadScope& operator=(const PayloadScope&) = delete;

 private:
  uint32_t saved_;
};

// ------------------------------------------------------------------ core identity and sync

inline int64_t GetBlockIdx() {
  return detail::core().block_idx();
}
inline int64_t GetBlockNum() {
  return detail::core().block_num();
}

template <HardEvent E>
void SetFlag(int32_t id) {
  detail::set_flag(E, id);
}
template <HardEvent E>
void WaitFlag(int32_t id) {
  detail::wait_flag(E, id);
}
template <pipe_t P>
void PipeBarrier() {
  detail::pipe_barrier(P);
}
template <bool HARD = true>
void SyncAll() {
  detail::core().sync_all();
}

// The scalar data cache is not modelled (scalar GM accesses go straight to GM), so cache
// maintenance has nothing to do; kept so that ported kernels compile unchanged.
enum class CacheLine { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
enum class DcciDst { CACHELINE_ALL, CACHELINE_UB, CACHELINE_OUT };
template <class T, CacheLine L, DcciDst D>
void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}

// ------------------------------------------------------------------ data movement

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

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
  detail::DmaDesc d;
  d.gm = d.gm_lo = src.address();
  d.gm_hi = src.address() + src.GetSize() * sizeof(T);
  detail::bind_ub(d, dst);
  d.block_bytes = count * sizeof(T);
  if (d.block_bytes % 32)
    detail::fault("DataCopy of " + std::to_string(d.block_bytes) +
                  " B: not a multiple of 32 B (use DataCopyPad)");
  detail::issue_dma(d);
}

template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::DmaDesc d;
  d.to_gm = true;
  d.gm = d.gm_lo = dst.address();
  d.gm_hi = dst.address() + dst.GetSize() * sizeof(T);
  detail::bind_ub(d, src);
  d.block_bytes = count * sizeof(T);
  if (d.block_bytes % 32)
    detail::fault("DataCopy of " + std::to_string(d.block_bytes) +
                  " B: not a multiple of 32 B (use DataCopyPad)");
  detail::issue_dma(d);
}

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
  detail::DmaDesc d;
  d.gm = d.gm_lo = src.address();
  d.gm_hi = src.address() + src.GetSize() * sizeof(T);
  detail::bind_ub(d, dst);
  d.block_count = p.blockCount;
  d.block_bytes = p.blockLen * 32u;
  d.gm_stride = (uint64_t{p.blockLen} + p.srcStride) * 32;
  d.ub_stride = (uint64_t{p.blockLen} + p.dstStride) * 32;
  detail::issue_dma(d);
}

template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  detail::DmaDesc d;
  d.to_gm = true;
  d.gm = d.gm_lo = dst.address();
  d.gm_hi = dst.address() + dst.GetSize() * sizeof(T);
  detail::bind_ub(d, src);
  d.block_count = p.blockCount;
  d.block_bytes = p.blockLen * 32u;
  d.ub_stride = (uint64_t{p.blockLen} + p.srcStride) * 32;
  d.gm_stride = (uint64_t{p.blockLen} + p.dstStride) * 32;
  detail::issue_dma(d);
}

template <class T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad = {}) {
  static_assert(sizeof(T) <= 8);
  detail::DmaDesc d;
  d.name = "DataCopyPad";
  d.gm = d.gm_lo = src.address();
  d.gm_hi = src.address() + src.GetSize() * sizeof(T);
  detail::bind_ub(d, dst);
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
  detail::DmaDesc d;
  d.name = "DataCopyPad";
  d.to_gm = true;
  d.gm = d.gm_lo = dst.address();
  d.gm_hi = dst.address() + dst.GetSize() * sizeof(T);
  detail::bind_ub(d, src);
  d.block_count = p.blockCount;
  d.block_bytes = p.blockLen;
  d.ub_stride = (uint64_t{p.blockLen} + 31) / 32 * 32 + uint64_t{p.srcStride} * 32;
  d.gm_stride = uint64_t{p.blockLen} + p.dstStride;
  detail::issue_dma(d);
}

// ------------------------------------------------------------------ vector instructions
// Level-2 forms (a count of elements) on fp32/fp16/bf16/int32/int16/int8. Results are computed
// in the element type with round-to-nearest-even, integers wrap.

namespace detail {
template <class D, class S, class F>
void unary(const char* name, const LocalTensor<D>& dst, const LocalTensor<S>& src, uint32_t count,
           F f) {
  check_operand(dst, uint64_t{count} * sizeof(D), name, kWrite);
  check_operand(src, uint64_t{count} * sizeof(S), name, kRead);
  issue_vector(name, repeats_for(count, std::max(sizeof(D), sizeof(S))), [dst, src, count, f] {
    D* d = dst.ptr();
    const S* s = src.ptr();
    for (uint32_t i = 0; i < count; ++i) d[i] = f(s[i]);
  });
}
template <class T, class F>
void binary(const char* name, const LocalTensor<T>& dst, const LocalTensor<T>& a,
            const LocalTensor<T>& b, uint32_t count, F f) {
  for (const LocalTensor<T>* t : {&dst, &a, &b})
    check_operand(*t, uint64_t{count} * sizeof(T), name, t == &dst ? kWrite : kRead);
  issue_vector(name, repeats_for(count, sizeof(T)), [dst, a, b, count, f] {
    T* d = dst.ptr();
    const T* x = a.ptr();
    const T* y = b.ptr();
    for (uint32_t i = 0; i < count; ++i) d[i] = f(x[i], y[i]);
  });
}
}  // namespace detail

template <class T>
void Duplicate(const LocalTensor<T>& dst, T value, uint32_t count) {
  detail::unary("Duplicate", dst, dst, count, [value](T) { return value; });
}
template <class T>
void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, T s, uint32_t count) {
  detail::unary("Adds", dst, src, count, [s](T x) { return detail::add(x, s); });
}
template <class T>
void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, T s, uint32_t count) {
  detail::unary("Muls", dst, src, count, [s](T x) { return detail::mul(x, s); });
}
template <class T>
void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::unary("Abs", dst, src, count, [](T x) { return detail::abs(x); });
}
template <class T>
void Add(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
         uint32_t count) {
  detail::binary("Add", dst, a, b, count, [](T x, T y) { return detail::add(x, y); });
}
template <class T>
void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
         uint32_t count) {
  detail::binary("Sub", dst, a, b, count, [](T x, T y) { return detail::sub(x, y); });
}
template <class T>
void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
         uint32_t count) {
  detail::binary("Mul", dst, a, b, count, [](T x, T y) { return detail::mul(x, y); });
}
template <class T>
void Div(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
         uint32_t count) {
  detail::binary("Div", dst, a, b, count, [](T x, T y) { return detail::div(x, y); });
}
template <class T>
void Max(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
         uint32_t count) {
  detail::binary("Max", dst, a, b, count,
                 [](T x, T y) { return to_double(x) >= to_double(y) ? x : y; });
}
template <class T>
void Min(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
         uint32_t count) {
  detail::binary("Min", dst, a, b, count,
                 [](T x, T y) { return to_double(x) <= to_double(y) ? x : y; });
}
template <class D, class S>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, RoundMode mode, uint32_t count) {
  detail::unary("Cast", dst, src, count, [mode](S x) { return cast_to<D>(to_double(x), mode); });
}

// Reductions write the result to dst[0] (and with calIndex the index of the first maximum to
// dst[1], as the raw bits of an unsigned integer of T's size). The sum accumulates left to right
// in T's precision; the hardware reduces as a tree, so the last bits of a long fp sum can differ.
template <class T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               uint32_t count, bool calIndex = false) {
  (void)work;
  if (count == 0) detail::fault("ReduceMax of 0 elements");
  detail::check_operand(src, uint64_t{count} * sizeof(T), "ReduceMax", detail::kRead);
  detail::check_operand(dst, (calIndex ? 2 : 1) * sizeof(T), "ReduceMax", detail::kWrite);
  detail::issue_vector(
      "ReduceMax", detail::repeats_for(count, sizeof(T)), [dst, src, count, calIndex] {
        const T* s = src.ptr();
        uint32_t best = 0;
        for (uint32_t i = 1; i < count; ++i)
          if (to_double(s[i]) > to_double(s[best])) best = i;
        T* d = dst.ptr();
        d[0] = s[best];
        if (calIndex) {
          using I = std::conditional_t<sizeof(T) == 4, uint32_t,
                                       std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>;
          I idx = static_cast<I>(best);
          std::memcpy(&d[1], &idx, sizeof(T));
        }
      });
}
template <class T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               uint32_t count) {
  (void)work;
  if (count == 0) detail::fault("ReduceSum of 0 elements");
  detail::check_operand(src, uint64_t{count} * sizeof(T), "ReduceSum", detail::kRead);
  detail::check_operand(dst, sizeof(T), "ReduceSum", detail::kWrite);
  detail::issue_vector("ReduceSum", detail::repeats_for(count, sizeof(T)), [dst, src, count] {
    const T* s = src.ptr();
    T acc = s[0];
    for (uint32_t i = 1; i < count; ++i) acc = detail::add(acc, s[i]);
    dst.ptr()[0] = acc;
  });
}

// Per-block reductions and broadcasts (the communication quantization of combine uses them).
// BlockReduceMax: each repeat reads up to 8 blocks of 32 B from src (`mask` elements of the
// repeat, srcBlkStride / srcRepStride in blocks) and writes one maximum per block, 8 results per
// repeat; dstRepStride is in units of one repeat's results (8 elements), so 1 packs them.
template <class T>
void BlockReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeat,
                    int32_t mask, int32_t dstRepStride, int32_t srcBlkStride,
                    int32_t srcRepStride) {
  constexpr int32_t per_block = 32 / sizeof(T);
  if (mask < 1 || mask > 8 * per_block || repeat < 0 || repeat > 255)
    detail::fault("BlockReduceMax: mask " + std::to_string(mask) + " or repeat " +
                  std::to_string(repeat) + " out of range");
  int32_t blocks = (mask + per_block - 1) / per_block;
  if (repeat == 0) return;
  detail::check_operand(
      src,
      (uint64_t(repeat - 1) * srcRepStride + uint64_t(blocks - 1) * srcBlkStride) * 32 +
          uint64_t((mask - 1) % per_block + 1) * sizeof(T),
      "BlockReduceMax", detail::kRead);
  detail::check_operand(dst, (uint64_t(repeat - 1) * dstRepStride * 8 + blocks) * sizeof(T),
                        "BlockReduceMax", detail::kWrite);
  detail::issue_vector("BlockReduceMax", static_cast<uint64_t>(repeat), [=] {
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr());
    T* d = dst.ptr();
    for (int32_t r = 0; r < repeat; ++r)
      for (int32_t b = 0; b < blocks; ++b) {
        int32_t n = std::min(per_block, mask - b * per_block);
        const uint8_t* blk = s + (uint64_t(r) * srcRepStride + uint64_t(b) * srcBlkStride) * 32;
        T best;
        std::memcpy(&best, blk, sizeof(T));
        for (int32_t i = 1; i < n; ++i) {
          T x;
          std::memcpy(&x, blk + i * sizeof(T), sizeof(T));
          if (to_double(x) > to_double(best)) best = x;
        }
        d[uint64_t(r) * dstRepStride * 8 + b] = best;
      }
  });
}
// Brcb: each repeat reads 8 consecutive elements of src and fills one 32-B block of dst with
// each (block j of repeat r at (r x dstRepStride + j x dstBlkStride) x 32 B).
struct BrcbRepeatParams {
  uint16_t dstBlkStride = 1;
  uint16_t dstRepStride = 8;
};
template <class T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint8_t repeatTimes,
          const BrcbRepeatParams& p) {
  constexpr uint32_t per_block = 32 / sizeof(T);
  if (repeatTimes == 0) return;
  detail::check_operand(src, uint64_t{repeatTimes} * 8 * sizeof(T), "Brcb", detail::kRead);
  detail::check_operand(
      dst, (uint64_t{repeatTimes - 1u} * p.dstRepStride + 7ull * p.dstBlkStride + 1) * 32, "Brcb",
      detail::kWrite);
  detail::issue_vector("Brcb", repeatTimes, [=] {
    const T* s = src.ptr();
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    for (uint32_t r = 0; r < repeatTimes; ++r)
      for (uint32_t j = 0; j < 8; ++j) {
        T v = s[r * 8 + j];
        uint8_t* blk = d + (uint64_t{r} * p.dstRepStride + uint64_t{j} * p.dstBlkStride) * 32;
        for (uint32_t i = 0; i < per_block; ++i) std::memcpy(blk + i * sizeof(T), &v, sizeof(T));
      }
  });
}

// Level-0 form: `repeatTimes` repeats of 8 blocks of 32 B; `mask` elements per repeat (count
// mode); block and repeat strides in 32-B blocks. Lets one instruction sweep a strided region
// or revisit the same data (repStride 0).
struct UnaryRepeatParams {
  uint16_t dstBlkStride = 1;
  uint16_t srcBlkStride = 1;
  uint8_t dstRepStride = 8;
  uint8_t srcRepStride = 8;
};
namespace detail {
template <class T, class F>
void unary_level0(const char* name, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                  uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& p, F f) {
  constexpr uint32_t per_block = 32 / sizeof(T);
  if (mask == 0 || mask > 8 * per_block)
    fault(std::string(name) + ": mask " + std::to_string(mask) + " outside [1, " +
          std::to_string(8 * per_block) + "]");
  auto span = [&](uint16_t blk, uint8_t rep) {
    uint64_t last = mask - 1;
    return (uint64_t{repeatTimes ? repeatTimes - 1u : 0u} * rep + (last / per_block) * blk) * 32 +
           (last % per_block + 1) * sizeof(T);
  };
  check_operand(dst, span(p.dstBlkStride, p.dstRepStride), name, kWrite);
  check_operand(src, span(p.srcBlkStride, p.srcRepStride), name, kRead);
  issue_vector(name, repeatTimes, [dst, src, mask, repeatTimes, p, f] {
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr());
    for (uint32_t r = 0; r < repeatTimes; ++r)
      for (uint64_t e = 0; e < mask; ++e) {
        uint64_t blk = e / per_block, in = (e % per_block) * sizeof(T);
        T x;
        std::memcpy(&x, s + (r * p.srcRepStride + blk * p.srcBlkStride) * 32 + in, sizeof(T));
        T y = f(x);
        std::memcpy(d + (r * p.dstRepStride + blk * p.dstBlkStride) * 32 + in, &y, sizeof(T));
      }
  });
}
}  // namespace detail
template <class T>
void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, T s, uint64_t mask,
          uint8_t repeatTimes, const UnaryRepeatParams& p) {
  detail::unary_level0("Muls", dst, src, mask, repeatTimes, p,
                       [s](T x) { return detail::mul(x, s); });
}
template <class T>
void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, T s, uint64_t mask,
          uint8_t repeatTimes, const UnaryRepeatParams& p) {
  detail::unary_level0("Adds", dst, src, mask, repeatTimes, p,
                       [s](T x) { return detail::add(x, s); });
}

}  // namespace AscendC

#include "sim/api/sort.h"  // Sort, MrgSort, CreateVecIndex (FfnWorkerBatching)
