// TPipe, TQue/TQueBind and TBuf: UB allocation and the queues whose EnQue/DeQue/FreeTensor are
// flag pairs between the producer and consumer pipes.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "api/tensor.h"

namespace AscendC {

// A buffer record of a TBufPool (Ascend C: TBufType, reached through a TBufHandle). The custom-pool
// protocol hands handles around; the queue or TBuf keeps what it needs itself.
struct TBufType {
  uint32_t address = 0, length = 0;
};
using TBufHandle = TBufType*;

namespace detail {
class QueueBase;
// A TBufPool's region of a local buffer (byte offsets in it) and what was carved from it.
struct BufPoolState {
  BufPoolState(TPosition p, uint32_t records) : pos(p), handles(records) {}
  TPosition pos;
  ascend::model::Core* core = nullptr;
  uint32_t base = 0, len = 0, cur = 0;
  uint8_t bufs = 0;  // buffers handed out (a custom pool's count)
  std::vector<TBufType> handles;
  std::vector<QueueBase*> queues;  // drained by Reset
  void bind(ascend::model::Core* c, uint32_t at, uint32_t bytes);
  // The next `bytes` of the region (what = the caller, for the fault).
  uint32_t carve(uint64_t bytes, TPosition of, const char* what);
  // A range given by a custom pool: inside the region, or a fault.
  void check_range(uint32_t at, uint32_t bytes, const char* what) const;
  TBufHandle handle(uint32_t index);
  void restart() {
    cur = base;
    bufs = 0;
  }
  // Waits for every buffer of the pool's queues to be handed back by its consumer pipe, so that
  // a pool sharing the region may fill it.
  void reset();
};

// The local buffer a position names (0: an AIV's UB or an AIC's L1; 1 L0A, 2 L0B, 3 L0C, 4 BT).
int buffer_of(TPosition p);
bool is_cube_position(TPosition p);

class QueueBase {
 public:
  QueueBase(TPosition src, TPosition dst);
  void init(ascend::model::Core* core, uint32_t base, uint8_t num, uint32_t len);
  uint32_t alloc();  // offset of the buffer handed out
  void enque(uint32_t offset);
  uint32_t deque();
  void free(uint32_t offset);
  uint32_t len() const { return len_; }
  ascend::model::Core* core() const { return core_; }
  // A custom pool's queue: num buffers of len bytes whose addresses set_slot gives one by one.
  void init_slots(ascend::model::Core* core, uint8_t num, uint32_t len);
  void set_slot(uint32_t index, uint32_t base);
  // Waits for the consumer's release of every buffer that has one outstanding.
  void drain();
  // InitBuffer on a core of the other kind in a mixed kernel (an AIC's VECOUT queue): no buffer.
  void init_elsewhere(const char* why) { elsewhere_ = why; }

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
  ascend::model::Core* core_ = nullptr;
  std::vector<Slot> slots_;
  std::deque<int> fifo_;
  size_t next_ = 0;
  uint32_t len_ = 0;
  uint32_t event_base_ = 0;
  const char* elsewhere_ = nullptr;
};
}  // namespace detail

template <TPosition SRC, TPosition DST, int DEPTH>
class TQueBind : public detail::QueueBase {
 public:
  TQueBind() : detail::QueueBase(SRC, DST) {}
  // The custom-pool protocol (EXTERN_IMPL_BUFPOOL): num buffers of len bytes, then each one's
  // address in the pool.
  void InitStartBufHandle(TBufHandle, uint8_t num, uint32_t len) {
    init_slots(detail::current_core(), num, len);
  }
  template <class Pool>
  void InitBufHandle(Pool* pool, uint32_t index, TBufHandle, uint32_t address, uint32_t len) {
    pool->pool_.check_range(address, len, "InitBufHandle");
    set_slot(index, address);
    if (index == 0) pool->pool_.queues.push_back(this);
  }
  template <class T>
  LocalTensor<T> AllocTensor() {
    uint32_t off = alloc();
    return LocalTensor<T>(core(), off, static_cast<uint32_t>(detail::elems_of<T>(len())));
  }
  template <class T>
  void EnQue(const LocalTensor<T>& t) {
    enque(t.ub_offset());
  }
  template <class T>
  LocalTensor<T> DeQue() {
    uint32_t off = deque();
    return LocalTensor<T>(core(), off, static_cast<uint32_t>(detail::elems_of<T>(len())));
  }
  template <class T>
  void FreeTensor(const LocalTensor<T>& t) {
    free(t.ub_offset());
  }
  // Ascend C releases a queue's hardware events for other queues to take; the model gives each
  // queue events of its own, so there are none to hand back.
  void FreeAllEvent() {}
};

template <TPosition POS, int DEPTH = 1>
class TQue : public TQueBind<POS, POS, DEPTH> {};

template <TPosition POS = TPosition::VECCALC>  // TBuf<> is a VECCALC buffer, as in Ascend C
class TBuf {
 public:
  template <class T>
  LocalTensor<T> Get() const {
    return LocalTensor<T>(core_, base_, static_cast<uint32_t>(detail::elems_of<T>(len_)));
  }
  template <class T>
  LocalTensor<T> Get(uint32_t count) const {
    if (detail::bytes_of<T>(count) > len_) detail::fault("TBuf::Get beyond the buffer");
    return LocalTensor<T>(core_, base_, count);
  }
  // count elements from byte offset bufOffset of the buffer (32-B aligned, as Ascend C asks).
  template <class T>
  LocalTensor<T> GetWithOffset(uint32_t count, uint32_t bufOffset) const {
    if (bufOffset % 32 || uint64_t{bufOffset} + detail::bytes_of<T>(count) > len_)
      detail::fault("TBuf::GetWithOffset(" + std::to_string(count) + ", " +
                    std::to_string(bufOffset) + "): unaligned or beyond the buffer of " +
                    std::to_string(len_) + " B");
    return LocalTensor<T>(core_, base_ + bufOffset, count);
  }
  // A TBuf's tensor is its own buffer for as long as the TPipe lives: AllocTensor hands out the
  // whole of it and handing it back frees nothing (Ascend C API: TBuf, AllocTensor and FreeTensor
  // inherited from TQueBind).
  template <class T>
  LocalTensor<T> AllocTensor() const {
    return Get<T>();
  }
  template <class T>
  void FreeTensor(LocalTensor<T>& /*tensor*/) {}
  void bind(ascend::model::Core* c, uint32_t base, uint32_t len) {
    core_ = c;
    base_ = base;
    len_ = len;
  }
  // The custom-pool protocol (EXTERN_IMPL_BUFPOOL): one buffer at the address given.
  void InitStartBufHandle(TBufHandle, uint8_t, uint32_t) {}
  template <class Pool>
  void InitBufHandle(Pool* pool, uint32_t, TBufHandle, uint32_t address, uint32_t len) {
    pool->pool_.check_range(address, len, "InitBufHandle");
    bind(detail::current_core(), address, len);
  }

 private:
  ascend::model::Core* core_ = nullptr;
  uint32_t base_ = 0, len_ = 0;
};

// A region of one local buffer that queues, TBufs and smaller pools are carved from in turn
// (Ascend C API: TBufPool). Pools may share a region (InitBufPool with a third argument); Reset
// waits until the pool's buffers are handed back, so that the next pool on the region may fill
// them. Carving past the region is a kernel fault.
template <TPosition POS, uint32_t BUFID_SIZE = 4>
class TBufPool {
 public:
  static constexpr TPosition kPoolPosition = POS;
  template <TPosition S, TPosition D, int N>
  bool InitBuffer(TQueBind<S, D, N>& que, uint8_t num, uint32_t len) {
    const uint32_t aligned = (len + 31) / 32 * 32;
    que.init(pool_.core, pool_.carve(uint64_t{num} * aligned, D, "InitBuffer"), num, aligned);
    pool_.queues.push_back(&que);
    return true;
  }
  template <TPosition P>
  bool InitBuffer(TBuf<P>& buf, uint32_t len) {
    const uint32_t aligned = (len + 31) / 32 * 32;
    buf.bind(pool_.core, pool_.carve(aligned, P, "InitBuffer"), aligned);
    return true;
  }
  template <class T>
  bool InitBufPool(T& pool, uint32_t len) {
    const uint32_t aligned = (len + 31) / 32 * 32;
    pool.pool_.bind(pool_.core, pool_.carve(aligned, T::kPoolPosition, "InitBufPool"), aligned);
    return true;
  }
  template <class T, class U>
  bool InitBufPool(T& pool, uint32_t len, U& share) {
    share.pool_.check_range(share.pool_.base, (len + 31) / 32 * 32, "InitBufPool (shared)");
    pool.pool_.bind(share.pool_.core, share.pool_.base, (len + 31) / 32 * 32);
    return true;
  }
  void Reset() { pool_.reset(); }

  detail::BufPoolState pool_{POS, BUFID_SIZE};
};

// A user's pool (Ascend C API: EXTERN_IMPL_BUFPOOL): the members the custom-pool protocol uses,
// over the same region state as TBufPool.
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)    \
 public:                                                          \
  static constexpr ::AscendC::TPosition kPoolPosition = POSITION; \
  ::AscendC::detail::BufPoolState pool_{POSITION, BUFID_SIZE};    \
  void Init() {                                                   \
    pool_.restart();                                              \
  }                                                               \
  void Reset() {                                                  \
    pool_.reset();                                                \
  }                                                               \
  ::AscendC::TBufHandle GetBufHandle(uint8_t offset) {            \
    return pool_.handle(offset);                                  \
  }                                                               \
  void SetCurAddr(uint32_t address) {                             \
    pool_.cur = address;                                          \
  }                                                               \
  uint32_t GetCurAddr() const {                                   \
    return pool_.cur;                                             \
  }                                                               \
  void SetCurBufSize(uint8_t size) {                              \
    pool_.bufs = size;                                            \
  }                                                               \
  uint8_t GetCurBufSize() const {                                 \
    return pool_.bufs;                                            \
  }

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
    if (const char* why = other_kind(D)) {
      que.init_elsewhere(why);
      return;
    }
    uint32_t aligned = align32(len);
    uint32_t base =
        allocate(D, static_cast<uint64_t>(num) * aligned, "queue", num, len, file, line);
    que.init(core_, base, num, aligned);
  }
  template <TPosition P>
  void InitBuffer(TBuf<P>& buf, uint32_t len, const char* file = __builtin_FILE(),
                  int line = __builtin_LINE()) {
    uint32_t aligned = align32(len);
    buf.bind(core_, allocate(P, aligned, "TBuf", 1, len, file, line), aligned);
  }
  // A pool of len bytes at the pool's position (Ascend C API: TPipe::InitBufPool), or (share) the
  // region of another pool.
  template <class T>
  bool InitBufPool(T& pool, uint32_t len, const char* file = __builtin_FILE(),
                   int line = __builtin_LINE()) {
    const uint32_t aligned = align32(len);
    pool.pool_.bind(core_, allocate(T::kPoolPosition, aligned, "TBufPool", 1, len, file, line),
                    aligned);
    return true;
  }
  template <class T, class U>
  bool InitBufPool(T& pool, uint32_t len, U& share) {
    share.pool_.check_range(share.pool_.base, align32(len), "InitBufPool (shared)");
    pool.pool_.bind(share.pool_.core, share.pool_.base, align32(len));
    return true;
  }
  // Frees every buffer of this pipe for new InitBuffer calls (Ascend C API: TPipe::Reset); the
  // queues and buffers allocated before must not be used again.
  void Reset() { used_.fill(0); }
  // An event id for a SetFlag/WaitFlag pair (0..7, handed out in turn).
  TEventID FetchEventID(HardEvent) { return static_cast<TEventID>(next_event_++ % 8); }
  // Bytes allocated so far in the UB (an AIV) or L1 (an AIC).
  uint32_t used_bytes() const { return used_[0]; }
  // Frees every buffer of this pipe, so that another TPipe may be created after it; its queues and
  // buffers must not be used again.
  void Destroy();

 private:
  static uint32_t align32(uint32_t n) { return (n + 31) / 32 * 32; }
  // In a mixed kernel each kind of core runs the whole kernel, and Ascend C builds it once per
  // kind: a queue in the other kind's buffers (an AIC's VECIN/VECOUT, an AIV's A1...) gets no
  // buffer there, and using it is a fault naming why. Elsewhere such an InitBuffer is a fault.
  const char* other_kind(TPosition pos) const;
  uint32_t allocate(TPosition pos, uint64_t bytes, const char* kind, int num, uint32_t len,
                    const char* file, int line);
  detail::CoreState* state_;
  ascend::model::Core* core_;
  std::array<uint32_t, 5> used_{};  // per local buffer (detail::buffer_of)
  int next_event_ = 0;
};

// The kernel's TPipe (a kernel fault when none exists yet).
TPipe* GetTPipePtr();

// The GM workspace the host passes a kernel begins with the system's part (the Matmul API's
// messages in the AIV-driven mix mode), then the user's. ops-transformer's FFN host reserves
// 16 MB for it ([CUBE], docs/sources.md).
constexpr uint64_t kSysWorkspaceBytes = 16ull << 20;
// The system workspace, as the kernel declares it (SetSysWorkspace) and the Matmul API's
// registration reads it back (GetSysWorkSpacePtr; nullptr until set).
void SetSysWorkspace(GM_ADDR workspace);
GM_ADDR GetSysWorkSpacePtr();
// The user's part of a workspace: after the system's.
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
  return workspace == nullptr ? nullptr : workspace + kSysWorkspaceBytes;
}

}  // namespace AscendC
