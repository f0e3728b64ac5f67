// Synchronisation between cores through GM words: IBSet/IBWait, the sequential-block protocol
// (InitDetermineComputeWorkspace, WaitPreBlock, NotifyNextBlock) and GroupBarrier. On the
// hardware they are library code over DataCopy, flags and scalar accesses, not instructions, so
// here they are written with the facade's own calls: their time is that of the copies, polls and
// flags they issue, and their GM workspace holds what the API reference says it holds.
#pragma once

#include <cstdint>
#include <string>

#include "api/data_copy.h"
#include "api/sync.h"
#include "api/tpipe.h"
#include "api/vector.h"

namespace AscendC {

namespace detail {
constexpr uint32_t kBlockInts = 32 / sizeof(int32_t);  // one 32-B block of int32

// A SetFlag/WaitFlag pair on an event the pipe hands out: `E`'s consumer waits for its producer.
template <HardEvent E>
void order_pipes() {
  const auto id = static_cast<int32_t>(GetTPipePtr()->FetchEventID(E));
  SetFlag<E>(id);
  WaitFlag<E>(id);
}

// The word of block `block`, event `event` in IBSet/IBWait's workspace: one 32-B block per core
// and event, the cores of an event side by side.
template <bool isAIVOnly>
GlobalTensor<int32_t> ib_word(const GlobalTensor<int32_t>& ws, int32_t block, int32_t event) {
  const int64_t cores = GetBlockNum() * (isAIVOnly ? 1 : 2);
  if (block < 0 || block >= cores || event < 0)
    fault("IBSet/IBWait: block " + std::to_string(block) + " or event " + std::to_string(event) +
          " outside the launch's " + std::to_string(cores) + " cores");
  return ws[static_cast<uint64_t>((cores * event + block) * kBlockInts)];
}

// Polls `word` (one block copied into ub) until it holds `from`, then writes `to` there.
inline void ib_swap(const GlobalTensor<int32_t>& word, const LocalTensor<int32_t>& ub, int32_t from,
                    int32_t to) {
  PipeBarrier<PIPE_ALL>();
  for (;;) {
    DataCopy(ub, word, kBlockInts);
    order_pipes<HardEvent::MTE2_S>();
    if (ub.GetValue(0) == from) break;
  }
  ub.SetValue(0, to);
  order_pipes<HardEvent::S_MTE3>();
  DataCopy(word, ub, kBlockInts);
  PipeBarrier<PIPE_ALL>();
}
}  // namespace detail

// IBSet: marks event `eventID` of core `blockIdx` as set, once the previous set was consumed
// (its word back at 0); IBWait: waits for it to be set and consumes it. `ubWorkspace` is one
// 32-B block of the caller's UB. On an AIC of a mixed launch they do nothing, as in Ascend C.
template <bool isAIVOnly = true>
void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
           int32_t blockIdx, int32_t eventID) {
  if (detail::core().core_kind() == ascend::model::CoreKind::Aic) return;
  detail::ib_swap(detail::ib_word<isAIVOnly>(gmWorkspace, blockIdx, eventID), ubWorkspace, 0, 1);
}
template <bool isAIVOnly = true>
void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
            int32_t blockIdx, int32_t eventID) {
  if (detail::core().core_kind() == ascend::model::CoreKind::Aic) return;
  detail::ib_swap(detail::ib_word<isAIVOnly>(gmWorkspace, blockIdx, eventID), ubWorkspace, 1, 0);
}

// Cores that take turns in block order, round after round (Ascend C API: WaitPreBlock,
// NotifyNextBlock). The GM workspace holds one 32-B block per core: core i's holds the round it
// finished, until the last core of a round zeroes them all. ubWorkspace holds the same blocks plus
// one int32 after them, the caller's round (from 1).
inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t>& gmWorkspace,
                                          LocalTensor<int32_t>& ubWorkspace) {
  using detail::kBlockInts;
  if (detail::core().core_kind() == ascend::model::CoreKind::Aic) return;
  PipeBarrier<PIPE_ALL>();
  const auto cores = static_cast<uint32_t>(GetBlockNum());
  if (GetBlockIdx() == 0) {
    Duplicate(ubWorkspace, int32_t{0}, kBlockInts * cores);
    detail::order_pipes<HardEvent::V_MTE3>();
    DataCopy(gmWorkspace, ubWorkspace, kBlockInts * cores);
  }
  ubWorkspace.SetValue(kBlockInts * cores, 1);
  PipeBarrier<PIPE_ALL>();
}

// Waits until every core before this one has finished the caller's round and none after it has.
inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
  using detail::kBlockInts;
  if (detail::core().core_kind() == ascend::model::CoreKind::Aic) return;
  PipeBarrier<PIPE_ALL>();
  const auto cores = static_cast<uint32_t>(GetBlockNum());
  const auto me = static_cast<uint32_t>(GetBlockIdx());
  for (bool turn = false; !turn;) {
    DataCopy(ubWorkspace, gmWorkspace, kBlockInts * cores);
    detail::order_pipes<HardEvent::MTE2_S>();
    const int32_t round = ubWorkspace.GetValue(kBlockInts * cores);
    turn = true;
    for (uint32_t c = 0; c < cores && turn; ++c)
      turn = ubWorkspace.GetValue(c * kBlockInts) == (c < me ? round : 0);
    detail::order_pipes<HardEvent::S_MTE2>();
  }
  PipeBarrier<PIPE_ALL>();
}

// Marks the caller's round finished; the last core clears the round for the next one.
inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
  using detail::kBlockInts;
  if (detail::core().core_kind() == ascend::model::CoreKind::Aic) return;
  PipeBarrier<PIPE_ALL>();
  const auto cores = static_cast<uint32_t>(GetBlockNum());
  const auto me = static_cast<uint32_t>(GetBlockIdx());
  const int32_t round = ubWorkspace.GetValue(kBlockInts * cores);
  if (me + 1 == cores) {
    Duplicate(ubWorkspace, int32_t{0}, kBlockInts * cores);
    detail::order_pipes<HardEvent::V_MTE3>();
    DataCopy(gmWorkspace, ubWorkspace, kBlockInts * cores);
  } else {
    detail::order_pipes<HardEvent::S_V>();
    Duplicate(ubWorkspace[me * kBlockInts], round, kBlockInts);
    detail::order_pipes<HardEvent::V_MTE3>();
    DataCopy(gmWorkspace[me * kBlockInts], ubWorkspace[me * kBlockInts], kBlockInts);
  }
  ubWorkspace.SetValue(kBlockInts * cores, round + 1);
  PipeBarrier<PIPE_ALL>();
}

enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

// A barrier between `arriveSize` arriving AIVs and `waitSize` waiting ones, reusable round after
// round (Ascend C API: GroupBarrier). The workspace has a 512-B line per index: at its start the
// count of arrivals, 64 B in the count of waits that were released. Arrive adds 1 to every line's
// arrival count (an atomic MTE3 copy from a UB block whose first word is 1, one block per line,
// see below); Wait polls its
// line until the round's arrivals are in, then adds 1 to every line's wait count; an Arrive of
// the next round first waits until its line counts the previous round's waits. The UB blocks are
// the last 50 of the UB, as on the hardware: a kernel must leave them to the barrier.
template <PipeMode pipeMode>
class GroupBarrier {
 public:
  static constexpr uint32_t kLineBytes = 512, kWaitOffset = 64, kMaxAiv = 50;
  GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn)
      : arrive_(arriveSizeIn), wait_(waitSizeIn) {
    static_assert(pipeMode == PipeMode::MTE3_MODE, "GroupBarrier: only PipeMode::MTE3_MODE");
    if (detail::core().core_kind() == ascend::model::CoreKind::Aic) return;
    const auto cores = static_cast<uint32_t>(GetBlockNum());
    if (arrive_ == 0 || wait_ == 0 || arrive_ > cores || wait_ > cores)
      detail::fault("GroupBarrier: arriveSize " + std::to_string(arrive_) + " and waitSize " +
                    std::to_string(wait_) + " must be in [1, " + std::to_string(cores) +
                    "] (the launch's cores)");
    lines_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(groupWorkspace),
                           uint64_t{GetWorkspaceLen()} / sizeof(int32_t));
    const uint32_t ub = detail::core().buffers()[0]->capacity();
    ones_ =
        LocalTensor<int32_t>(TPosition::VECOUT, ub - kMaxAiv * 32, kMaxAiv * detail::kBlockInts);
    for (uint32_t i = 0; i < lines(); ++i) ones_.SetValue(i * detail::kBlockInts, 1);
  }
  void Arrive(uint32_t arriveIndex) {
    if (detail::core().core_kind() == ascend::model::CoreKind::Aic) return;
    check(arriveIndex, arrive_, "Arrive");
    if (round_ > 1)
      poll_until(line(arriveIndex) + kWaitOffset / sizeof(int32_t), (round_ - 1) * wait_, true);
    add_to_every_line(0);
    ++round_;
    arrived_ = true;
  }
  void Wait(uint32_t waitIndex) {
    if (detail::core().core_kind() == ascend::model::CoreKind::Aic) return;
    check(waitIndex, wait_, "Wait");
    const uint32_t round = arrived_ ? round_ - 1 : round_;
    poll_until(line(waitIndex), round * arrive_, false);
    add_to_every_line(kWaitOffset);
    if (!arrived_) ++round_;
    arrived_ = false;
  }
  uint64_t GetWorkspaceLen() const { return uint64_t{lines()} * kLineBytes; }

 private:
  uint32_t lines() const { return arrive_ > wait_ ? arrive_ : wait_; }
  uint64_t line(uint32_t i) const { return uint64_t{i} * kLineBytes / sizeof(int32_t); }
  void check(uint32_t index, uint32_t size, const char* what) const {
    if (index >= size)
      detail::fault(std::string("GroupBarrier::") + what + "(" + std::to_string(index) +
                    "): the index must be below " + std::to_string(size));
  }
  // Polls the count at int32 `at` of the workspace (scalar reads past the data cache) until it
  // is `want` (exact) or at least `want`.
  void poll_until(uint64_t at, uint32_t want, bool exact) const {
    __gm__ int32_t* word = lines_.GetPhyAddr(at);
    for (;;) {
      const auto v = static_cast<uint32_t>(ReadGmByPassDCache(word));
      if (exact ? v == want : v >= want) return;
    }
  }
  void add_to_every_line(uint32_t byte_offset) {
    detail::order_pipes<HardEvent::S_MTE3>();
    SetAtomicAdd<int32_t>();
    DataCopyParams p;
    p.blockCount = static_cast<uint16_t>(lines());
    p.blockLen = 1;
    p.dstStride = kLineBytes / 32 - 1;
    DataCopy(lines_[byte_offset / sizeof(int32_t)], ones_, p);
    SetAtomicNone();
  }
  uint32_t arrive_, wait_;
  uint32_t round_ = 1;  // the round the next Arrive (or a Wait without one) belongs to
  bool arrived_ = false;
  GlobalTensor<int32_t> lines_;
  LocalTensor<int32_t> ones_;
};

}  // namespace AscendC
