// One core of a die: an AIV (vector core) or an AIC (cube core). A scalar unit runs the kernel
// program (the core's only SC_THREAD) and issues instructions into in-order pipes that run
// asynchronously to it and to each other: S, V, MTE2 and MTE3 on an AIV; S, MTE2, MTE1, M (the
// cube), FIX and MTE3 on an AIC. Pipes are driven by the Scheduler, never by threads.
//
// Timing of a pipe instruction that reaches the head of its queue at time t:
//  - VECTOR:  the vector unit is busy for CostModel::vector (by default overhead +
//             ceil(repeats * 256 / vector.bytes_per_cycle) cycles); its result is written at
//             the end.
//  - MTE1:    L1 -> L0A/L0B, the unit busy for CostModel::mte1; M (Mmad): the cube busy for
//             CostModel::mmad. Both write their result at the end.
//  - MTE2/3, FIX: the core's DMA engine (a TLM-2.0 initiator, core_units.h) is held for
//             CostModel::dma_engine_hold (by default setup + ceil(bytes / (bytes_per_cycle * eff))
//             cycles, eff < 1 for GM addresses not aligned to dma.aligned_bytes); the transfer
//             also holds every shared resource on its path, booked by the targets behind the
//             engine's socket; it is done when the slowest one finishes plus the path latency.
//             The engine takes the next transfer when its own hold ends, so transfers overlap in
//             flight.
//  - SetFlag: runs when every earlier instruction of its pipe has completed; CrossCoreSetFlag too,
//             and its peers' counters rise crosscore_flag_cycles later.
//  - WaitFlag: blocks its pipe until a matching SetFlag has run, then consumes it.
//  - PipeBarrier<P>: blocks pipe P until its earlier instructions have completed.
// A DMA reads its source when it starts (on_start) and its bytes land at completion (effect);
// a vector instruction reads and writes at completion.
//
// A Core assembles its parts and orchestrates them: the scalar unit (models/scalar_unit.h: the
// kernel's thread, its clock and waits), the pipes (models/pipes.h: queues, hand-over, steps), the
// instruction flights and UB claims (models/flights.h), the flags and barriers
// (models/core_sync.h), the polling loops' replay (models/poll_replay.h) and the observers (the
// race check, counters, trace levels). It owns the units the pipes run work on
// (models/core_units.h) and starts work on them (start_work).
#pragma once

#include <algorithm>
#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <unordered_map>
#include <vector>

#include "models/core_sync.h"
#include "models/core_units.h"
#include "models/cost_model.h"
#include "models/events.h"
#include "models/flights.h"
#include "models/global_memory.h"
#include "models/inline_function.h"
#include "models/instruction.h"
#include "models/l2_cache.h"
#include "models/pipe_timeline.h"
#include "models/pipes.h"
#include "models/poll_replay.h"
#include "models/race_checker.h"
#include "models/ring.h"
#include "models/scalar_unit.h"
#include "models/scheduler.h"
#include "models/time.h"

namespace ascend::model {

// A core's waveform levels: per pipe busy (0/1) and queue depth, per HardEvent the count of set
// flags not yet consumed.
constexpr int kLevels = 2 * kPipes + kHardEvents;
inline int busy_level(PipeId p) {
  return static_cast<int>(p);
}
inline int depth_level(PipeId p) {
  return kPipes + static_cast<int>(p);
}
inline int flag_level(HardEvent e) {
  return 2 * kPipes + static_cast<int>(e);
}
std::string level_name(int level);

// What a DMA slice carries to a trace: its bytes and GM-side address (whose die is the source
// of an MTE2 read and the destination of an MTE3 write).
struct SliceArgs {
  uint64_t bytes = 0;
  GmAddr gm = 0;
};

// Sees a core's activity without taking part in it: it is called synchronously, never schedules
// anything, and so never changes timing.
class CoreObserver {
 public:
  virtual ~CoreObserver() = default;
  virtual void slice(int die, int core, Lane lane, const std::string& name, Tick start, Tick end,
                     const SliceArgs* args) = 0;
  // A waveform level changed by `delta` at time `at`. Changes come in program order, not time
  // order: the scalar runs ahead of simulated time (lazy scalar), so its changes may carry a later
  // time than the pipes' that follow them; deltas sum to the right level once sorted by time.
  virtual void level(int die, int core, int level, int delta, Tick at) = 0;
};

enum class CoreKind : uint8_t { Aiv, Aic };
const char* core_kind_name(CoreKind k);
// Whether a kind of core has pipe p (AIV: S, V, MTE2, MTE3; AIC: S, MTE2, MTE1, M, FIX, MTE3).
bool has_pipe(CoreKind k, PipeId p);
// Whether hardware event e orders two pipes of that kind of core.
inline bool has_event(CoreKind k, HardEvent e) {
  return has_pipe(k, event_src(e)) && has_pipe(k, event_dst(e));
}

class Core : public sc_core::sc_module, public EventTarget, public Counted {
 public:
  SC_HAS_PROCESS(Core);
  // `local_memory`: the core's local address space (local_bytes(kind, timing) bytes).
  Core(const sc_core::sc_module_name& name, int die, int index, CoreKind kind,
       const CoreTiming& timing, Scheduler& sched, const CostModel& cost, DieBarriers& barriers,
       size_t stack_bytes, uint8_t* local_memory);
  // The size of a core's local address space: the UB; or L1, L0A, L0B, L0C and BT in that order.
  static uint32_t local_bytes(CoreKind kind, const CoreTiming& timing);

  // ---- host side ----
  // `sub_block`: which AIV of its AI Core this is in a mixed launch (GetSubBlockIdx), `ratio` the
  // cores of this kind per AIC there (GetTaskRation: 2 on an AIV at 1:2; 1 on an AIC and
  // otherwise).
  void launch(std::function<void()> program, int block_idx, int block_num, int sub_block = 0,
              int ratio = 1);
  // 1: the scalar runs ahead of simulated time while unobserved (models/scalar_unit.h); 0: it
  // waits out every cycle. Timing is identical; 1 wakes the thread far less often.
  void set_lazy_scalar(bool on) { scalar_.set_lazy(on); }
  // 1: a scalar read of UB bytes an unfinished instruction still writes waits for it (the sync
  // the compiler inserts); 0: it reads what is there.
  void set_auto_sync(bool on) { auto_sync_ = on; }
  // 1: every instruction that leaves a pipe's queue is checked against the issue-time recurrences
  // (models/pipe_timeline.h); the first that differs stops the run with an internal error.
  void set_check_issue_timing(bool on) {
    timeline_ = on ? std::make_unique<PipeTimeline>() : nullptr;
    if (timeline_) timeline_->set_queue_depth(timing_.queue_depth);
  }
  // The instructions checked so far (0 unless set_check_issue_timing).
  uint64_t issue_timing_checked() const { return timeline_ ? timeline_->checked : 0; }
  void set_observer(CoreObserver* o) { observer_ = o; }
  void set_kernel_name(std::string n) { kernel_name_ = std::move(n); }
  const std::string& kernel_name() const { return kernel_name_; }
  enum class State : uint8_t { Idle, Running, Done, Aborted };
  State state() const { return state_; }
  Tick started_at() const { return started_at_; }
  Tick finished_at() const { return finished_at_; }
  // What the scalar and each pipe wait for, and since when; a core that keeps re-reading the same
  // GM words (a polling loop) also says which, since when and how often. `gm_name` names a GM
  // address (its allocation and offset).
  std::string blocked_report(const std::function<std::string(GmAddr)>& gm_name = nullptr) const;
  // Posts the Push events that pipes left out (Pipe::pushless) for heads that could not move at
  // their time; returns whether there was any. For a run that has nothing else left to fire.
  bool hand_over_deferred() { return pipes_.hand_over_deferred(); }
  // Unwinds a kernel thread that will never run again (after a deadlock or hang), so that its
  // stack releases what it holds; the core is left Aborted.
  void abort_kernel();

  // ---- kernel side: called from the scalar thread ----
  int die() const { return die_; }
  int index() const { return index_; }
  CoreKind core_kind() const { return kind_; }
  bool has_pipe(PipeId p) const { return model::has_pipe(kind_, p); }
  int block_idx() const { return block_idx_; }
  int block_num() const { return block_num_; }
  int sub_block_idx() const { return sub_block_; }
  int task_ration() const { return ratio_; }
  // The unit that runs a lane's work (null for SCALAR, FLOWCTRL, or a pipe the core lacks).
  const sc_core::sc_module* unit_of(Lane lane) const;
  const CoreTiming& timing() const { return timing_; }
  // The core's local address space: its UB, or its L1, L0A, L0B, L0C and BT one after the other.
  uint8_t* ub() { return local_; }
  uint32_t local_size() const { return local_bytes(kind_, timing_); }
  // The local buffers in address order: an AIV's ub; an AIC's l1, l0a, l0b, l0c, bt.
  const std::vector<std::unique_ptr<LocalBuffer>>& buffers() const { return buffers_; }
  // The buffer holding local bytes [offset, offset + bytes), or null when none holds them all.
  const LocalBuffer* buffer_of(uint64_t offset, uint64_t bytes) const;
  // What the kernel's TPipe has allocated of the UB (an AIV's only buffer).
  void reserve_ub(uint32_t bytes) { buffers_[0]->reserve(bytes); }
  uint32_t ub_allocated() const { return buffers_[0]->allocated(); }
  // The core whose kernel thread is running now (null in the scheduler's events and on the host).
  static Core* running() { return running_; }
  // The SystemC thread that runs the kernel program (the scalar unit).
  const sc_core::sc_object* scalar_thread() const { return thread_.get_process_object(); }

  // ---- race check (off unless enabled: then nullptr and free) ----
  void enable_race_check() { race_ = std::make_unique<RaceChecker>(die_, index_); }
  const RaceChecker* race_checker() const { return race_.get(); }
  // Accesses of the next issued instruction (vector operands, noted by the API).
  void note_access(const Access& a) {
    if (!a.gm) {
      (a.write ? next_ub_writes_ : next_ub_reads_)
          .cover(static_cast<uint32_t>(a.lo), static_cast<uint32_t>(a.hi));
      if (a.write) next_write_parts_.add(static_cast<uint32_t>(a.lo), static_cast<uint32_t>(a.hi));
      next_ub_noted_ = true;
    }
    if (race_) pending_accesses_.push_back(a);
  }
  // A scalar access of UB or GM (GetValue/SetValue), in program order.
  void scalar_access(const char* name, const Access& a);

  void issue(Instr&& in);             // scalar pays the issue cost; stalls on a full queue
  void scalar_work(uint64_t cycles);  // scalar busy (GetValue/SetValue, address math)
  // The scalar's own clock: simulated time plus how far the lazy scalar has run ahead.
  Tick scalar_now() const { return scalar_.now(); }
  // A fault injected at run time: the scalar stops here for good, blocked in `why` (the hang or
  // deadlock report shows it).
  void stall_forever(const std::string& why) {
    stall_reason_ = why;  // the report reads the wait's name while the core stays blocked
    scalar_.block_on(
        WaitCause::Stall, [] { return false; }, WaitName{stall_reason_.c_str()});
  }
  // When the bytes of the last MTE3 transfer this core started landed (observation only).
  Tick last_write_landed() const { return last_write_landed_; }
  // Brings simulated time up to the scalar clock (before anything that observes shared state).
  void scalar_sync() { scalar_.sync(); }
  // A scalar UB access of `cycles` to [lo, hi): synced only when an unfinished instruction of this
  // core will still write those bytes (or, for a write, read them): otherwise nothing can see or
  // change them before the scalar's time.
  void scalar_ub_work(uint64_t cycles, uint32_t lo, uint32_t hi, bool write);
  void scalar_set_flag(HardEvent e, uint32_t id);   // SetFlag<S_X>
  void scalar_wait_flag(HardEvent e, uint32_t id);  // WaitFlag<X_S>
  void pipe_barrier_all();                          // PipeBarrier<PIPE_ALL>
  // SyncAll on this die: across the launch's cores of this core's kind (SyncAll<true>), or across
  // both kinds of a mixed launch (`mixed`: SyncAll<false>).
  void sync_all(bool mixed = false);
  // ---- cross-core flags (CrossCoreSetFlag/WaitFlag): kCrossFlags ids, each a counter ----
  static constexpr int kCrossFlags = model::kCrossFlags;
  static constexpr int kCrossFlagMax = model::kCrossFlagMax;
  // Mode 0: the launch's cores of this kind on the die; 1: the other AIV of its AI Core (an AIV's
  // sibling and itself); 2: an AIC's AIVs, an AIV's AIC. Set by the host before the launch.
  void set_cross_peers(int mode, std::vector<Core*> peers) {
    cross_peers_[mode] = std::move(peers);
  }
  const std::vector<Core*>& cross_peers(int mode) const { return cross_peers_[mode]; }
  // Blocks the scalar until flag `id` has counted `need` sets, then takes them. `what` names the
  // wait in a deadlock report (default: CrossCoreWaitFlag).
  void cross_wait_flag(uint32_t id, int need, const char* what = nullptr);
  // ---- the Matmul API's messages (KFC) between an AIC and its AIVs (api/matmul.h) ----
  // Flags past the kernel's 16, so that a kernel's own cross-core flags never meet them: an AIC's
  // request flag (any of its AIVs has sent a message), an AIV's reply flag (its AIC answered) and
  // block flag (an asynchronous Iterate's next block of C is in GM).
  static constexpr uint32_t kKfcRequest = kCrossFlags, kKfcReply = kCrossFlags + 1,
                            kKfcBlock = kCrossFlags + 2;
  static constexpr int kAllCrossFlags = kCrossFlags + 3;
  // The scalar sets `peer`'s flag `id`, which rises crosscore_flag_cycles after the scalar's time.
  void scalar_cross_set(Core& peer, uint32_t id);
  // CrossSet instructions whose mode (work.amount) is kCrossToPeer + i set flag event_id of
  // cross_peers(2)[i] only (an AIC answering one of its AIVs from a pipe).
  static constexpr uint64_t kCrossToPeer = 3;
  // A fault of this core's kernel (UB overflow, GM out of bounds, API misuse): recorded as the
  // run's kernel fault (exit status 5), then the kernel's thread unwinds.
  [[noreturn]] void kernel_fault(const std::string& msg);
  // The same found by an instruction's effect, from data it reads when it completes (Gather's
  // offsets): recorded and the simulation stopped, without unwinding (no kernel thread to unwind).
  void effect_fault(const std::string& msg);

  // ---- polling loops (SimPollUntil; sim.sleeping_polls): see poll_replay.h ----
  PollReplay& polls() { return polls_; }

  // ---- statistics ----
  using PipeStats = Pipe::Stats;
  const PipeStats& pipe_stats(PipeId p) const { return pipes_[p].stats; }
  Tick scalar_busy_ps() const { return scalar_.busy_ps(); }
  Tick scalar_stall_ps() const { return scalar_.stall_ps(); }
  // Every counter of the core and its units: per pipe it has (SCALAR, VECTOR, MTE2, MTE3 on an
  // AIV; SCALAR, MTE2, MTE3, MTE1, CUBE, FIXP on an AIC) busy_ps and instrs, the scalar's
  // stall_ps, and its units' holds (vector.*, mte2.*, mte3.*; mte2.*, mte1.*, cube.*, fixpipe.*,
  // mte3.*: bytes, busy_ps, transfers).
  CounterSet counters() const override;

  int level(int l) const { return levels_[l]; }

  // ---- the core's units (its child modules) ----
  // The DMA engines that move GM bytes: an AIV's mte2 and mte3, an AIC's mte2, fixpipe and mte3.
  std::vector<DmaEngine*> dma_engines() {
    std::vector<DmaEngine*> e{mte2_.get(), mte3_.get()};
    if (fixpipe_) e.push_back(fixpipe_.get());
    return e;
  }
  DmaEngine& mte2() { return *mte2_; }
  // An AIC's MTE2 reads through the die's L2 (Die attaches it).
  void set_l2(L2Cache* l2) { l2_ = l2; }
  const DmaEngine& mte2() const { return *mte2_; }

 private:
  // kStart: a DMA reads its source (when it starts later than it was stepped); kLand: a remote
  // write's bytes land, before its acknowledgement completes it (kComplete); kCompleteAndStep: a
  // kComplete, then a kStep of the same pipe at the same time.
  // kCrossFlag: a CrossCoreSetFlag of another core reaches this one. kPollReplay: a sleeping
  // polling loop's next iteration hands its read to MTE2; kPollRead: that read starts (arg: the
  // sleep's token; see PollReplay::sleep).
  enum Op : uint32_t {
    kResume,
    kPush,
    kStep,
    kComplete,
    kStart,
    kCompleteAndStep,
    kLand,
    kCrossFlag,
    kPollReplay,
    kPollRead
  };
  void on_event(uint32_t op, uint32_t arg) override;
  void handle(uint32_t op, uint32_t arg);
  bool live(uint32_t op, uint32_t arg) const override { return op != kResume || scalar_.live(arg); }
  void run();
  static Core* running_;
  // Starts the work at the head of pipe p; the caller posts the returned completion.
  Completion start_work(PipeId p, Queued& in, Tick t);
  void set_flag(HardEvent e, uint32_t id);
  // A pipe's WaitFlag: whether the flag is set, and if so consumes it.
  bool take_flag(PipeId p, HardEvent e, uint32_t id);
  // A pipe's CrossCoreSetFlag of `mode` (Instr::work.amount): the peers' flag rises later.
  void cross_set_from_pipe(uint32_t id, uint64_t mode);
  uint64_t flag_key(HardEvent e, uint32_t id) const;
  void drain();  // waits until every pipe is empty (no issue cost)
  void emit(Lane lane, const std::string& name, Tick start, Tick end,
            const SliceArgs* args = nullptr);
  void set_level(int l, int value, Tick at = now()) {
    if (levels_[l] == value) return;
    if (observer_) observer_->level(die_, index_, l, value - levels_[l], at);
    levels_[l] = value;
  }
  void note_gm_read(GmAddr gm, uint64_t bytes);
  // With the issue-time check on: that `in`, leaving pipe p's queue at `t`, left when the
  // recurrence says (`expected`).
  void check_leave(PipeId p, const Queued& in, Tick expected, Tick t);
  // And that the scalar, waiting from its clock `from`, resumed when they say; `what()` names
  // the wait, and is called only to report a difference.
  template <class Describe>
  void check_scalar(const Describe& what, Tick from, Tick expected) {
    ++timeline_->checked;
    if (expected != scalar_.now()) scalar_check_failed(what(), from, expected);
  }
  void scalar_check_failed(const std::string& what, Tick from, Tick expected);

  const int die_;
  const int index_;
  const CoreKind kind_;
  const uint32_t uid_;  // orders this core's events among other cores' at equal times
  const CoreTiming timing_;
  const CostModel& cost_;
  Scheduler& sched_;
  DieBarriers& barriers_;
  CoreObserver* observer_ = nullptr;

  uint8_t* local_;
  std::vector<std::unique_ptr<LocalBuffer>> buffers_;
  // The units (null where the kind has none).
  std::unique_ptr<TimedUnit> vector_, mte1_, cube_;
  L2Cache* l2_ = nullptr;
  std::string stall_reason_;                          // stall_forever's
  std::unique_ptr<DmaEngine> mte2_, mte3_, fixpipe_;  // fixpipe_: an AIC's
  std::array<std::vector<Core*>, 3> cross_peers_;
  std::array<int, kAllCrossFlags> cross_flags_{};
  ScalarUnit scalar_;
  Pipes pipes_{*this};
  Flights flights_;
  FlagCounts flags_;
  std::array<int, kLevels> levels_{};
  std::unique_ptr<RaceChecker> race_;
  std::unique_ptr<PipeTimeline> timeline_;  // the issue-time check, when on
  std::vector<Access> pending_accesses_;
  UbRange next_ub_reads_, next_ub_writes_;  // the next issued instruction's noted UB operands
  UbParts next_write_parts_;                // and the written ones one by one
  bool next_ub_noted_ = false;
  uint64_t issued_ = 0;  // instructions issued this launch (program order, for race reports)
  // The latest run of MTE2 reads of one GM range (a polling loop, when reads > 1; for reports).
  struct ReadRun {
    GmAddr gm = 0;
    uint64_t bytes = 0;
    Tick since = 0;
    uint64_t reads = 0;
  } read_run_;
  PollReplay polls_{*this};

  std::string kernel_name_;
  std::function<void()> program_;
  sc_core::sc_process_handle thread_;
  bool auto_sync_ = true;
  uint64_t auto_syncs_ = 0;     // scalar reads that waited on an inserted sync, this launch
  Tick last_write_landed_ = 0;  // observation only (SimLastWriteLandedPs)
  int block_idx_ = 0;
  int block_num_ = 1;
  int sub_block_ = 0;
  int ratio_ = 1;
  State state_ = State::Idle;
  Tick started_at_ = 0;
  Tick finished_at_ = 0;

  friend class SyncAllBarrier;
  friend class PollReplay;
  friend class Pipes;
  friend class ScalarUnit;
};

}  // namespace ascend::model
