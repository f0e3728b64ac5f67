// A kernel's polling loop (SimPollUntil; sim.sleeping_polls), one iteration at a time. Once two
// iterations in a row issue the same instructions and read the same GM words, the next ones can
// differ from them only in time until those words change: the core replays them itself while the
// kernel's thread sleeps, one event per iteration where its DMA starts (the point at which the
// real one books the HBM and reads GM), with exactly the time, the bookings and the counters the
// real ones would have. An iteration whose read finds the words changed starts its DMA as the
// real one would and hands the rest to the thread.
//
// Replayed: a DataCopy GM -> UB (its blocks copied as they are; a strided one reads many flags at
// once), then SetFlag/WaitFlag to the scalar (a TP handshake, a done flag) or SetFlag/WaitFlag to
// VECTOR, one vector instruction and SetFlag/WaitFlag to the scalar (dispatch's WaitDispatch,
// combine's token flags), then scalar work; any other loop runs every iteration itself.
//
// A part of its Core (a friend): it records what the core's scalar issues and drives the core's
// MTE2 and vector units, scheduler and scalar wait while it replays.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "models/global_memory.h"
#include "models/instruction.h"
#include "models/time.h"

namespace ascend::model {

class Core;

class PollReplay {
 public:
  explicit PollReplay(Core& core) : core_(core) {}
  void set_enabled(bool on) { enabled_ = on; }
  void set_memory(GlobalMemory* gm) { gm_ = gm; }

  // ---- the kernel's side (SimPollUntil) ----
  void iteration_begin();
  // Ends an iteration (`done`: the loop exits); true when the core may replay the next ones.
  bool iteration_end(bool done);
  // The thread sleeps while the core replays iterations; returns their time (from the start of
  // each to its end, all of them failed polls). It returns with the scalar at the start of the
  // iteration whose read found the words changed, whose DataCopy has started already: the next
  // one the thread issues is taken as that one (adopt()).
  Tick sleep();
  void abandon() noexcept;  // the loop was left by an exception

  // ---- the core's side ----
  void reset();  // a launch starts with no loop
  bool recording() const { return recording_; }
  // The iteration did something a replay does not (a sync, a barrier, a full queue, ...).
  void irregular() {
    if (recording_) now_.irregular = true;
  }
  void advance(Tick dt) {  // scalar time passed
    if (recording_) adv_ += dt;
  }
  void record(const Instr& in);                // an issued instruction
  void record_wait(HardEvent e, uint32_t id);  // a WaitFlag of the scalar
  // Whether the next issue is the read the replay has started already; adopt() takes it (a
  // kernel fault if the thread issues something else).
  bool adopting() const { return adopt_; }
  void adopt(const Instr& in);
  // Whether `in`, issued while recording, is the iteration's read (whose words it keeps).
  bool take_read(const Instr& in);
  // The iteration's read has started on MTE2: what it finds.
  void read_started(GmAddr gm, uint64_t bytes);
  void push(uint32_t token);    // a replayed iteration's read reaches MTE2
  void replay(uint32_t token);  // and starts

 private:
  // What the scalar did in one iteration: the instructions it issued and the flags it waited
  // for, each with the scalar time spent since the one before (its own issue cost included).
  struct Op {
    bool wait = false;  // a WaitFlag of the scalar; else an issued instruction
    Tick before = 0;
    Instr::Kind kind = Instr::Kind::Work;
    PipeId pipe = PipeId::V;
    HardEvent event = HardEvent::MTE2_V;
    uint32_t event_id = 0;
    Work::Kind work = Work::Kind::Vector;
    uint64_t amount = 0;
    GmAddr gm = 0;
    UbRange ub_writes;
    GmBlocks gm_read;
    const char* name = "";
    bool operator==(const Op& o) const;
  };
  struct Iteration {
    std::vector<Op> ops;
    Tick tail = 0;               // scalar time after the last op
    bool irregular = false;      // it did something a replay does not (a sync, a barrier, ...)
    std::vector<uint8_t> words;  // what its read found
    bool words_read = false;
    void clear() {
      ops.clear();
      tail = 0;
      irregular = false;
      words.clear();
      words_read = false;
    }
  };
  // The replay's plan, from the iteration it repeats: offsets from an iteration's start.
  struct Plan {
    bool vector = false;  // the flags go through one vector instruction (else straight to S)
    Tick read = 0, read_flag = 0, vec_wait = 0, vec = 0, vec_flag = 0, scalar_wait = 0;
    Tick busy = 0, tail = 0;
    GmAddr gm = 0;
    uint64_t bytes = 0, repeats = 0;
    uint32_t ub = 0;
    GmBlocks blocks;
    const char* read_name = "";
  };
  bool make_plan(const Iteration& it, Plan* plan) const;
  bool core_idle() const;
  void gather(GmAddr gm, uint64_t bytes, const GmBlocks& b, std::vector<uint8_t>* out) const;

  Core& core_;
  bool enabled_ = true;
  GlobalMemory* gm_ = nullptr;
  bool recording_ = false;
  bool last_valid_ = false;
  Iteration now_, last_;
  Tick adv_ = 0;  // scalar time since the last recorded op
  Plan plan_;     // while sleeping
  bool sleeping_ = false;
  bool woken_ = false;
  bool adopt_ = false;  // the next issue is the read the replay started
  uint32_t token_ = 0;
  Tick start_ = 0;                // the next iteration's start (its scalar time)
  Tick slept_ = 0;                // the replayed iterations' time
  std::vector<uint8_t> changed_;  // the words the waking read found
  GmBlocks read_blocks_;          // the recorded iteration's read, for its start
  std::function<bool()> woken_ready_ = [this] { return woken_; };
  WaitName wait_name_{""};
};

}  // namespace ascend::model
