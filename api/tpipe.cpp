#include "api/tpipe.h"

#include "api/sync.h"

namespace AscendC {
namespace detail {

namespace {

HardEvent event_between(m::PipeId src, m::PipeId dst) {
  for (int e = 0; e < m::kHardEvents; ++e) {
    auto ev = static_cast<HardEvent>(e);
    if (m::event_src(ev) == src && m::event_dst(ev) == dst) return ev;
  }
  fault("no hardware event orders these two pipes");
}

}  // namespace

// The pipe that fills a queue's buffers and the pipe that uses them, by position: VECIN MTE2 ->
// V, VECOUT V -> MTE3; on the AIC, A1/B1/C1 (L1) MTE2 -> MTE1, A2/B2 (L0A/L0B) and C2 (BT)
// MTE1 -> M, CO1 (L0C) M -> FIX; C2PIPE2GM (the FB) is filled and read by FIX, so
// TQueBind<C1, C2PIPE2GM> is L1 that MTE2 fills and FIX reads.
static m::PipeId producer_of(TPosition p) {
  switch (p) {
    case TPosition::VECIN:
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
      return m::PipeId::MTE2;
    case TPosition::VECOUT:
      return m::PipeId::V;
    case TPosition::A2:
    case TPosition::B2:
    case TPosition::C2:
      return m::PipeId::MTE1;
    case TPosition::CO1:
      return m::PipeId::M;
    case TPosition::C2PIPE2GM:
      return m::PipeId::FIX;
    default:
      fault("a TQue cannot have position VECCALC, GM or CO2 (VECCALC is for TBuf)");
  }
}
static m::PipeId consumer_of(TPosition p) {
  switch (p) {
    case TPosition::VECIN:
      return m::PipeId::V;
    case TPosition::VECOUT:
      return m::PipeId::MTE3;
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
      return m::PipeId::MTE1;
    case TPosition::A2:
    case TPosition::B2:
    case TPosition::C2:
      return m::PipeId::M;
    case TPosition::CO1:
    case TPosition::C2PIPE2GM:
      return m::PipeId::FIX;
    default:
      fault("a TQue cannot have position VECCALC, GM or CO2 (VECCALC is for TBuf)");
  }
}

int buffer_of(TPosition p) {
  switch (p) {
    case TPosition::A2:
      return 1;
    case TPosition::B2:
      return 2;
    case TPosition::CO1:
      return 3;
    case TPosition::C2:
      return 4;
    default:  // the UB of an AIV; L1 of an AIC
      return 0;
  }
}

bool is_cube_position(TPosition p) {
  return p != TPosition::VECIN && p != TPosition::VECOUT && p != TPosition::VECCALC;
}

// TQueBind<SRC, DST>: the producer pipe fills a buffer, EnQue/DeQue hand it to the consumer pipe
// (SetFlag/WaitFlag producer->consumer), FreeTensor hands it back (consumer->producer), and the
// producer's next use of that buffer waits for it. VECIN: MTE2->V, VECOUT: V->MTE3,
// TQueBind<VECIN, VECOUT>: MTE2->MTE3.
QueueBase::QueueBase(TPosition src, TPosition dst)
    : producer_(src == dst && src == TPosition::VECOUT ? m::PipeId::V : producer_of(src)),
      consumer_(src == dst && src == TPosition::VECIN ? m::PipeId::V : consumer_of(dst)),
      ready_(event_between(producer_, consumer_)),
      release_(event_between(consumer_, producer_)) {}

void QueueBase::init(m::Core* c, uint32_t base, uint8_t num, uint32_t len) {
  core_ = c;
  len_ = len;
  slots_.clear();
  for (uint8_t i = 0; i < num; ++i) slots_.push_back(Slot{base + i * len});
  CoreState& s = state();
  event_base_ = s.next_queue_event;  // unique within this core and launch
  s.next_queue_event += num;
}

int QueueBase::slot_of(uint32_t offset, const char* what) {
  for (size_t i = 0; i < slots_.size(); ++i)
    if (slots_[i].base == offset) return static_cast<int>(i);
  fault(std::string(what) + " of a tensor that does not belong to this queue");
}

// AllocTensor hands out the next free buffer in turn (round-robin, skipping buffers still in use).
uint32_t QueueBase::alloc() {
  if (slots_.empty() && elsewhere_) fault(std::string("AllocTensor on a queue ") + elsewhere_);
  if (slots_.empty()) fault("AllocTensor on a queue without InitBuffer");
  size_t n = slots_.size(), id = next_;
  while (slots_[id].state != SlotState::Free) {
    id = (id + 1) % n;
    if (id == next_)
      fault("AllocTensor: all " + std::to_string(n) +
            " buffers of the queue are in use (FreeTensor missing?)");
  }
  next_ = (id + 1) % n;
  Slot& s = slots_[id];
  s.state = SlotState::Allocated;
  if (s.used) raw_wait_flag(release_, event_base_ + static_cast<uint32_t>(id));
  s.used = true;
  return s.base;
}

void QueueBase::enque(uint32_t offset) {
  int id = slot_of(offset, "EnQue");
  // A dequeued tensor may be queued again without FreeTensor (Ascend C allows it: a kernel that
  // computes in place in an input queue's buffer and hands it to its copy-out step).
  if (slots_[id].state != SlotState::Allocated && slots_[id].state != SlotState::Dequeued)
    fault("EnQue of a tensor that is not allocated");
  slots_[id].state = SlotState::Queued;
  raw_set_flag(ready_, event_base_ + id);
  fifo_.push_back(id);
}

void QueueBase::init_slots(m::Core* c, uint8_t num, uint32_t len) {
  init(c, 0, num, len);
  for (Slot& s : slots_) s.base = UINT32_MAX;  // until set_slot
}

void QueueBase::set_slot(uint32_t index, uint32_t base) {
  if (index >= slots_.size())
    fault("InitBufHandle: buffer " + std::to_string(index) + " of a queue of " +
          std::to_string(slots_.size()));
  slots_[index].base = base;
}

void QueueBase::drain() {
  for (size_t i = 0; i < slots_.size(); ++i) {
    Slot& s = slots_[i];
    if (s.state != SlotState::Free)
      fault("TBufPool::Reset while a buffer of its queue is still allocated (FreeTensor missing?)");
    if (s.used) raw_wait_flag(release_, event_base_ + static_cast<uint32_t>(i));
    s.used = false;
  }
  fifo_.clear();
}

void BufPoolState::bind(m::Core* c, uint32_t at, uint32_t bytes) {
  core = c;
  base = cur = at;
  len = bytes;
  bufs = 0;
  queues.clear();
}

uint32_t BufPoolState::carve(uint64_t bytes, TPosition of, const char* what) {
  if (!core) fault(std::string("TBufPool::") + what + " on a pool that InitBufPool has not set up");
  if (buffer_of(of) != buffer_of(pos))
    fault(std::string("TBufPool::") + what +
          ": a position in another local buffer than the pool's");
  if (uint64_t{cur} + bytes > uint64_t{base} + len)
    fault(std::string("TBufPool::") + what + " of " + std::to_string(bytes) + " B: only " +
          std::to_string(base + len - cur) + " of the pool's " + std::to_string(len) +
          " B are left");
  const uint32_t at = cur;
  cur += static_cast<uint32_t>(bytes);
  return at;
}

void BufPoolState::check_range(uint32_t at, uint32_t bytes, const char* what) const {
  if (!core) fault(std::string(what) + " on a pool that InitBufPool has not set up");
  if (at < base || uint64_t{at} + bytes > uint64_t{base} + len)
    fault(std::string(what) + ": " + std::to_string(bytes) + " B at " + std::to_string(at) +
          " outside its pool [" + std::to_string(base) + ", " + std::to_string(base + len) + ")");
}

TBufHandle BufPoolState::handle(uint32_t index) {
  if (index >= handles.size())
    fault("GetBufHandle(" + std::to_string(index) + ") of a pool of " +
          std::to_string(handles.size()) + " records (EXTERN_IMPL_BUFPOOL's BUFID_SIZE)");
  return &handles[index];
}

void BufPoolState::reset() {
  for (QueueBase* q : queues) q->drain();
}

uint32_t QueueBase::deque() {
  if (fifo_.empty()) fault("DeQue on an empty queue");
  int id = fifo_.front();
  fifo_.pop_front();
  slots_[id].state = SlotState::Dequeued;
  raw_wait_flag(ready_, event_base_ + id);
  return slots_[id].base;
}

void QueueBase::free(uint32_t offset) {
  int id = slot_of(offset, "FreeTensor");
  if (slots_[id].state == SlotState::Free) fault("FreeTensor of a tensor already free");
  if (slots_[id].state == SlotState::Queued)
    fault("FreeTensor of a tensor still in the queue (DeQue it first)");
  slots_[id].state = SlotState::Free;
  raw_set_flag(release_, event_base_ + id);
}

}  // namespace detail

TPipe::TPipe() : state_(&detail::state()), core_(state_->core) {
  if (state_->pipe_active) detail::fault("a second TPipe in one kernel (Ascend C allows one)");
  state_->pipe_active = true;
  state_->pipe = this;
}

TPipe::~TPipe() {
  Destroy();
}

void TPipe::Destroy() {
  if (state_->pipe != this) return;  // destroyed already
  state_->pipe_active = false;
  state_->pipe = nullptr;
  used_.fill(0);
}

TPipe* GetTPipePtr() {
  TPipe* p = detail::state().pipe;
  if (!p) detail::fault("GetTPipePtr before any TPipe of this kernel exists");
  return p;
}

void SetSysWorkspace(GM_ADDR workspace) {
  detail::state().sys_workspace = workspace;
}

GM_ADDR GetSysWorkSpacePtr() {
  return detail::state().sys_workspace;
}

const char* TPipe::other_kind(TPosition pos) const {
  const bool aic = core_->core_kind() == ascend::model::CoreKind::Aic;
  if (aic == detail::is_cube_position(pos) || core_->cross_peers(2).empty()) return nullptr;
  return aic ? "initialised on an AIC, which has no UB (VECIN/VECOUT/VECCALC)"
             : "initialised on an AIV, which has no L1/L0 buffers (A1/B1/C1/A2/B2/C2/CO1)";
}

uint32_t TPipe::allocate(TPosition pos, uint64_t bytes, const char* kind, int num, uint32_t len,
                         const char* file, int line) {
  const bool aic = core_->core_kind() == ascend::model::CoreKind::Aic;
  if (aic != detail::is_cube_position(pos))
    detail::fault(std::string("InitBuffer at ") + file + ":" + std::to_string(line) + ": an " +
                  (aic ? "AIC has no UB (VECIN/VECOUT/VECCALC)"
                       : "AIV has no L1/L0 buffers (A1/B1/C1/A2/B2/C2/CO1)"));
  static const char* const kParam[] = {"ub.size_KiB / cube.l1_KiB", "cube.l0a_KiB", "cube.l0b_KiB",
                                       "cube.l0c_KiB", "cube.bt_bytes"};
  const int b = detail::buffer_of(pos);
  ascend::model::LocalBuffer& buf = *core_->buffers()[b];
  uint32_t& used = used_[b];
  // L0A/L0B hold 512-B fractals; L0C is 64-B aligned; the rest 32-B.
  const uint32_t align = b == 1 || b == 2 ? 512 : b == 3 ? 64 : 32;
  used = (used + align - 1) / align * align;
  uint32_t cap = buf.capacity();
  if (used + bytes > cap) {
    detail::fault(std::string(buf.basename()) == "ub"
                      ? "UB overflow: InitBuffer(" + std::string(kind) + ", " +
                            std::to_string(num) + " x " + std::to_string(len) + " B) at " + file +
                            ":" + std::to_string(line) + " needs " + std::to_string(bytes) +
                            " B but only " + std::to_string(cap - used) + " of " +
                            std::to_string(cap) + " B are left (ub.size_KiB)"
                      : std::string(buf.basename()) + " overflow: InitBuffer(" + kind + ", " +
                            std::to_string(num) + " x " + std::to_string(len) + " B) at " + file +
                            ":" + std::to_string(line) + " needs " + std::to_string(bytes) +
                            " B but only " + std::to_string(cap - used) + " of " +
                            std::to_string(cap) + " B are left (" + kParam[b] + ")");
  }
  uint32_t base = buf.base() + used;
  used += static_cast<uint32_t>(bytes);
  buf.reserve(used);
  return base;
}

}  // namespace AscendC
