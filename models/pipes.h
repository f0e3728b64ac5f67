// A core's pipes: S, V, MTE2, MTE3 on an AIV; S, MTE2, MTE1, M, FIX (and MTE3) on an AIC. Each is
// an in-order queue the scalar hands instructions to at the scalar's time (push), stepped by the
// scheduler when its head can move (kick, step), never by a thread:
//  - work (a DMA, a vector or cube instruction) starts on the core's units when its pipe's engine
//    is free (Core::start_work), so the pipe's transfers overlap in flight;
//  - SetFlag, CrossCoreSetFlag and PipeBarrier wait until every earlier instruction of their pipe
//    has completed;
//  - WaitFlag blocks its pipe until a matching SetFlag has run, then consumes it.
//
// The hand-over. In issue order a pipe's queue holds the instructions it has been handed, then
// `hidden` ones the lazy scalar issued ahead of simulated time. An instruction is handed over at
// its Push time (Queued::at), as a Push event of that time would: the pipe reveals it (reveal())
// when it next looks at its queue. Only an instruction that reaches a pipe with nothing handed gets
// a Push event of its own (Pipe::push_posted): behind another instruction its hand-over would
// change nothing but the count, since the pipe will look at its queue again anyway. And only one
// that can move at its Push time (moves_at_push): a WaitFlag whose flag is not set, or a SetFlag
// behind work in flight, waits for the set or the completion, which kicks the pipe; the kick then
// reveals it, or posts its Push if its time has not come (Pipe::pushless: its Push was left out,
// so a WaitFlag found blocked later has been blocked since its time).
//
// Contract: a part of its Core, driven by the core's events. It asks the core whether a flag is
// set, to start work on its units, to set flags and send cross-core sets, and tells the scalar unit
// when a pop or a completion may end its wait.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "models/flights.h"
#include "models/instruction.h"
#include "models/ring.h"
#include "models/time.h"

namespace ascend::model {

class Core;

// An issued instruction as its pipe queues it: what it is, and for work the flight (Flights) that
// holds what it does to memory and the UB bytes it claims, from issue to completion. Kept small: a
// queue entry is touched at issue, hand-over and start.
struct Queued {
  Instr::Kind kind = Instr::Kind::Work;
  PipeId pipe = PipeId::V;
  HardEvent event = HardEvent::MTE2_V;
  uint32_t event_id = 0;
  uint32_t flight = Flights::kNone;
  Tick at = 0;  // when the scalar hands it to its pipe (its Push time)
  Work work;
  const char* name = "";
  std::unique_ptr<Instr::RaceInfo> race;
  bool poll_read = false;  // a recorded polling iteration's read: its words are kept
};

// An instruction's completion: the flight that holds its effect, due at `at`.
struct Completion {
  Tick at = 0;
  uint32_t flight = Flights::kNone;
};

struct Pipe {
  struct Stats {
    Tick busy_ps = 0;  // time with at least one instruction of this pipe in flight
    uint64_t instrs = 0;
  };
  Ring<Queued> q;
  uint32_t hidden = 0;
  bool push_posted = false;  // a Push event is pending for the oldest hidden instruction
  bool pushless = false;     // the oldest hidden instruction's Push was left out
  size_t handed() const { return q.size() - hidden; }
  Tick engine_free = 0;
  int outstanding = 0;
  bool kick_pending = false;
  bool blocked = false;  // head is a WaitFlag that has not been set
  Tick blocked_since = 0;
  Tick busy_since = 0;
  Tick last_slice_end = 0;
  Stats stats;
};

class Pipes {
 public:
  explicit Pipes(Core& core) : core_(core) {}

  Pipe& operator[](PipeId p) { return pipes_[static_cast<int>(p)]; }
  const Pipe& operator[](PipeId p) const { return pipes_[static_cast<int>(p)]; }

  // ---- from the scalar ----
  // Hands an instruction to its pipe at the scalar's time.
  void push(Queued&& in);
  // A SetFlag<S_X> the scalar issued, set at its Push time (`at`, the scalar's time).
  void push_scalar_set(HardEvent e, uint32_t id, Tick at);
  // Whether every pipe is empty, with nothing in flight (PipeBarrier<PIPE_ALL>).
  bool all_idle() const;

  // ---- the core's events ----
  // The core's event handlers run between begin_event() and end_event(): steps kicked inside are
  // run in place at the end when nothing else would fire before them (see run_kicked()).
  void begin_event() { in_event_ = true; }
  void end_event() {
    run_kicked();
    in_event_ = false;
  }
  void on_push(PipeId p);  // a Push event of pipe p
  void kick(PipeId p);     // what blocks pipe p's head may have changed
  void step(PipeId p);
  void complete(uint32_t flight);
  // Posts the Push events that pipes left out (Pipe::pushless) for heads that could not move at
  // their time; returns whether there was any. For a run that has nothing else left to fire.
  bool hand_over_deferred();

  // ---- reports ----
  // The instructions pipe p has been handed by now (without revealing).
  size_t handed_now(const Pipe& pp) const;
  // Whether pipe p has nothing queued, in flight or pending (a polling loop's replay needs it).
  bool at_rest(PipeId p) const;
  // Whether no step waits to run in place and no SetFlag<S_X> waits for its time.
  bool nothing_pending() const { return kicked_.empty() && scalar_sets_.empty(); }

 private:
  bool moves_at_push(const Pipe& pp) const;
  // Posts the Push of pipe p's oldest hidden instruction (nothing handed), unless it could not
  // move then: see Pipe::pushless.
  void post_push_if_moves(PipeId p);
  void post_push(PipeId p);
  // Hands pipe p the hidden instructions whose Push time has come.
  void reveal(PipeId p);
  void run_kicked();

  Core& core_;
  std::array<Pipe, kPipes> pipes_;
  // Steps asked for by kick() inside an event of this core, each with the order key its kStep
  // event would have had: run in place when nothing else would fire before them, else posted
  // with that key (run_kicked(), at the end of the event).
  struct Kicked {
    PipeId p;
    uint64_t order;
  };
  Ring<Kicked> kicked_;
  bool in_event_ = false;
  // SetFlag<S_X>s the scalar issued that have not reached their time yet (lazy scalar), in order.
  struct ScalarSet {
    HardEvent event;
    uint32_t id;
  };
  Ring<ScalarSet> scalar_sets_;
};

}  // namespace ascend::model
