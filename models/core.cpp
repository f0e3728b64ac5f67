#include "models/core.h"

#include <cmath>
#include <cstring>
#include <sstream>

#include "models/errors.h"
#include "models/host_ticks.h"

namespace ascend::model {

const char* core_kind_name(CoreKind k) {
  return k == CoreKind::Aiv ? "AIV" : "AIC";
}

bool has_pipe(CoreKind k, PipeId p) {
  switch (p) {
    case PipeId::S:
    case PipeId::MTE2:
      return true;
    case PipeId::MTE3:  // an AIV's UB -> GM; an AIC's L1 -> GM
      return true;
    case PipeId::V:
      return k == CoreKind::Aiv;
    default:
      return k == CoreKind::Aic;
  }
}

uint32_t Core::local_bytes(CoreKind kind, const CoreTiming& timing) {
  const CubeTiming& c = timing.cube;
  return kind == CoreKind::Aiv ? timing.ub_bytes
                               : c.l1_bytes + c.l0a_bytes + c.l0b_bytes + c.l0c_bytes + c.bt_bytes;
}

Core::Core(const sc_core::sc_module_name& name, int die, int index, CoreKind kind,
           const CoreTiming& timing, Scheduler& sched, const CostModel& cost, DieBarriers& barriers,
           size_t stack_bytes, uint8_t* local_memory)
    : sc_core::sc_module(name),
      die_(die),
      index_(index),
      kind_(kind),
      uid_(static_cast<uint32_t>(die) << 8 | static_cast<uint32_t>(index)),
      timing_(timing),
      issue_ps_(timing.clock.cycles(timing.issue_cycles)),
      cost_(cost),
      sched_(sched),
      barriers_(barriers),
      local_(local_memory),
      ub_claims_(local_bytes(kind, timing)) {
  // The units in the order of the hardware's data path (the module tree lists them so).
  if (kind == CoreKind::Aiv) {
    buffers_.push_back(std::make_unique<LocalBuffer>("ub", 0, timing.ub_bytes, local_memory));
    vector_ = std::make_unique<TimedUnit>("vector");
    mte2_ = std::make_unique<DmaEngine>("mte2", cost, DmaPath::AivMte2);
    mte3_ = std::make_unique<DmaEngine>("mte3", cost, DmaPath::AivMte3);
  } else {
    const CubeTiming& c = timing.cube;
    uint32_t base = 0;
    for (auto [n, size] : {std::pair<const char*, uint32_t>{"l1", c.l1_bytes},
                           {"l0a", c.l0a_bytes},
                           {"l0b", c.l0b_bytes},
                           {"l0c", c.l0c_bytes},
                           {"bt", c.bt_bytes}}) {
      buffers_.push_back(std::make_unique<LocalBuffer>(n, base, size, local_memory));
      base += size;
    }
    mte2_ = std::make_unique<DmaEngine>("mte2", cost, DmaPath::AicMte2);
    mte1_ = std::make_unique<TimedUnit>("mte1");
    cube_ = std::make_unique<TimedUnit>("cube");
    fixpipe_ = std::make_unique<DmaEngine>("fixpipe", cost, DmaPath::AicFix);
    mte3_ = std::make_unique<DmaEngine>("mte3", cost, DmaPath::AicMte3);
  }
  SC_THREAD(run);
  set_stack_size(stack_bytes);
  thread_ = sc_core::sc_get_current_process_handle();
}

const LocalBuffer* Core::buffer_of(uint64_t offset, uint64_t bytes) const {
  for (const auto& b : buffers_)
    if (b->holds(offset, bytes)) return b.get();
  return nullptr;
}

void Core::abort_kernel() {
  if (state_ != State::Running) return;
  state_ = State::Aborted;
  thread_.kill();
}

// A launch starts from a clean core: no flag set.
const sc_core::sc_module* Core::unit_of(Lane lane) const {
  switch (lane) {
    case Lane::VECTOR:
      return vector_.get();
    case Lane::MTE2:
      return mte2_.get();
    case Lane::MTE3:
      return mte3_.get();
    case Lane::MTE1:
      return mte1_.get();
    case Lane::CUBE:
      return cube_.get();
    case Lane::FIXP:
      return fixpipe_.get();
    default:
      return nullptr;
  }
}

void Core::launch(std::function<void()> program, int block_idx, int block_num, int sub_block,
                  int ratio) {
  sub_block_ = sub_block;
  ratio_ = ratio;
  program_ = std::move(program);
  flags_.clear();
  cross_flags_.fill(0);
  lag_ = 0;
  for (int e = 0; e < kHardEvents; ++e) set_level(flag_level(static_cast<HardEvent>(e)), 0);
  poll_ = PollRun{};
  poll_recording_ = poll_last_valid_ = poll_sleeping_ = poll_woken_ = poll_adopt_ = false;
  poll_now_.clear();
  poll_last_.clear();
  issued_ = 0;
  pending_accesses_.clear();
  next_ub_reads_ = next_ub_writes_ = UbRange{};
  next_write_parts_ = UbParts{};
  next_ub_noted_ = false;
  ub_claims_.clear();
  if (race_) race_->reset();
  block_idx_ = block_idx;
  block_num_ = block_num;
  state_ = State::Running;
  ++wait_token_;
  post_resume(now());
}

void Core::on_event(uint32_t op, uint32_t arg) {
  in_event_ = true;
  handle(op, arg);
  run_kicked();
  in_event_ = false;
}

void Core::handle(uint32_t op, uint32_t arg) {
  switch (op) {
    case kResume:
      if (arg == wait_token_) {
        resume_ev_.notify();  // runs once the instant's Resumes are fired
        // Its stack has gone cold while it slept: start loading the frames it returns through.
        for (int line = -16; line < 32; ++line) __builtin_prefetch(stack_hint_ + 64 * line);
      }
      break;
    case kPush: {
      PipeId p = static_cast<PipeId>(arg);
      if (p == PipeId::S) {  // SetFlag<S_X>
        ScalarSet set = scalar_sets_.front();
        scalar_sets_.pop_front();
        set_flag(set.event, set.id);
        break;
      }
      pipe(p).push_posted = false;
      kick(p);  // reveals the oldest hidden instruction, whose time this is
      break;
    }
    case kStep:
      step(static_cast<PipeId>(arg));
      break;
    case kComplete:
      complete(arg);
      break;
    case kLand: {
      Effect fn = std::move(flights_[arg].effect);
      if (fn) fn();
      break;
    }
    case kCompleteAndStep: {
      PipeId p = flights_[arg].pipe;
      complete(arg);
      step(p);
      break;
    }
    case kCrossFlag:
      if (++cross_flags_[arg] > kCrossFlagMax && arg < static_cast<uint32_t>(kCrossFlags)) {
        sched_.fault(SimError(
            kExitKernelFault,
            "kernel '" + kernel_name_ + "' die " + std::to_string(die_) + " " +
                core_kind_name(kind_) + " " + std::to_string(index_) + ": cross-core flag " +
                std::to_string(arg) + " set " + std::to_string(cross_flags_[arg]) +
                " times without a wait (the counter holds " + std::to_string(kCrossFlagMax) + ")"));
      }
      if (scalar_waiting_) wake_scalar();
      break;
    case kPollReplay:
      poll_push(arg);
      break;
    case kPollRead:
      poll_replay(arg);
      break;
    case kStart: {
      Flight& f = flights_[arg];
      ub_claims_.release(f.start_reads, UbRange{});
      f.start_reads = UbRange{};
      InlineFunction<8> fn = std::move(f.on_start);
      if (fn) fn();
      break;
    }
  }
}

uint32_t Core::add_flight() {
  if (free_flights_.empty()) {
    flights_.emplace_back();
    return static_cast<uint32_t>(flights_.size() - 1);
  }
  uint32_t i = free_flights_.back();
  free_flights_.pop_back();
  return i;
}

Core* Core::running_ = nullptr;

void Core::wait_resume() {
  char here;
  stack_hint_ = &here;
  running_ = nullptr;
  if (resumed_ticks_ != 0) sched_.add_kernel_host_ticks(host_ticks() - resumed_ticks_);
  sc_core::wait(resume_ev_);
  resumed_ticks_ = host_ticks();
  running_ = this;
}

void Core::run() {
  for (;;) {
    do wait_resume();
    while (state_ != State::Running);
    started_at_ = now();
    scalar_run_start_ = scalar_run_end_ = started_at_;
    set_level(busy_level(PipeId::S), 1);
    try {
      program_();
      drain();        // a kernel ends when its last instruction has completed
      scalar_sync();  // and simulated time has reached its scalar's
      flush_scalar_run();
      state_ = State::Done;
    } catch (const KernelAbort&) {
      state_ = State::Aborted;
    } catch (const sc_core::sc_unwind_exception&) {
      running_ = nullptr;
      throw;  // a kill after a deadlock: let SystemC finish the unwinding
    } catch (const SimError& e) {
      sched_.fault(e);
      state_ = State::Aborted;
    } catch (const std::exception& e) {
      sched_.fault(
          SimError(kExitInternal, std::string("in kernel '") + kernel_name_ + "': " + e.what()));
      state_ = State::Aborted;
    }
    running_ = nullptr;
    finished_at_ = scalar_now();  // an aborted kernel may stop ahead of simulated time
    lag_ = 0;
    set_level(busy_level(PipeId::S), 0, finished_at_);
  }
}

// ---------------------------------------------------------------- scalar side

void Core::scalar_advance(Tick dt) {
  if (dt == 0) return;
  Tick t = scalar_now();
  if (t != scalar_run_end_) {
    flush_scalar_run();
    scalar_run_start_ = t;
  }
  scalar_busy_ps_ += dt;
  if (poll_recording_) poll_adv_ += dt;
  if (lazy_) {
    lag_ += static_cast<int64_t>(dt);
  } else {
    sleep_until(now() + dt);
  }
  scalar_run_end_ = scalar_now();
}

void Core::sleep_until(Tick t) {
  ++wait_token_;
  post_resume(t);
  do wait_resume();
  while (now() < t);
}

void Core::scalar_sync() {
  if (lag_ == 0) return;
  if (lag_ < 0)  // only a woken poll's first issue catches up, and it syncs nothing
    throw SimError(kExitInternal, "a scalar sync while the scalar is behind simulated time");
  poll_irregular();
  Tick t = scalar_now();
  lag_ = 0;
  sleep_until(t);
}

void Core::scalar_ub_work(uint64_t cycles, uint32_t lo, uint32_t hi, bool write) {
  scalar_work(cycles);
  if (lo >= hi || !ub_claims_.conflicts(lo, hi, write) || !claimed(lo, hi, write)) return;
  poll_irregular();
  PipeId writer = PipeId::S;
  if (auto_sync_ && unfinished_writer(lo, hi, &writer)) {
    // The compiler's inserted sync: wait until no unfinished instruction writes these bytes (a
    // read after the write, or a write after it that the landing would otherwise overwrite).
    block_on([&] { return !unfinished_writer(lo, hi, &writer); },
             WaitName{"auto-sync ", lane_name(lane_of(writer)), -1, "->S"});
    ++auto_syncs_;
    if (race_) race_->join_into_scalar(writer);
    return;
  }
  scalar_sync();
}

// The blocks' counts say only that a claim may touch these bytes; a false yes would cost a
// thread switch (a sync) per scalar access beside a buffer in flight.
bool Core::claimed(uint32_t lo, uint32_t hi, bool write) const {
  auto touches = [&](const UbRange& r) { return r.lo < hi && lo < r.hi; };
  for (const Flight& f : flights_)
    if (f.live && (touches(f.writes) || (write && (touches(f.reads) || touches(f.start_reads)))))
      return true;
  return false;
}

bool Core::unfinished_writer(uint32_t lo, uint32_t hi, PipeId* pipe) const {
  for (const Flight& f : flights_)
    if (f.live && f.write_parts.overlaps(lo, hi)) {
      *pipe = f.pipe;
      return true;
    }
  return false;
}

// Wakes the scalar only when what it waits for holds (a thread switch costs far more than the
// check), and not before the time its wait began.
void Core::wake_scalar() {
  if (!scalar_waiting_ || woken_token_ == wait_token_) return;
  if (waiting_ready_ && !(*waiting_ready_)()) return;
  woken_token_ = wait_token_;
  post_resume(std::max(now(), wake_floor_));
}

void Core::flush_scalar_run() {
  if (scalar_run_end_ > scalar_run_start_)
    emit(Lane::SCALAR, "scalar", scalar_run_start_, scalar_run_end_);
  scalar_run_start_ = scalar_run_end_ = scalar_now();
}

// What a scalar waits for (a flag set, room in a queue, idle pipes, a released barrier) can only
// become true, never false again, until the scalar acts: so a wait whose condition already holds
// needs no sync, and one that does not ends at the scalar's time at the earliest.
void Core::block_on(const std::function<bool()>& ready, const WaitName& name,
                    std::function<std::string()> describe, Tick wake_at, bool by_pipes) {
  if (ready()) return;
  if (lag_ < 0) throw SimError(kExitInternal, "a scalar wait while the scalar is behind time");
  Tick t0 = scalar_now();
  lag_ = 0;  // from here the scalar waits in simulated time
  scalar_waiting_ = &name;
  waiting_by_pipes_ = by_pipes;
  scalar_waiting_describe_ = std::move(describe);
  scalar_waiting_since_ = t0;
  set_level(busy_level(PipeId::S), 0, t0);
  ++wait_token_;
  waiting_ready_ = &ready;
  wake_floor_ = t0;
  if (wake_at != kNever) post_resume(std::max(wake_at, t0));
  while (!ready() || now() < t0) {
    wait_resume();
    woken_token_ = ~0u;  // a later wake_scalar() may post again
  }
  ++wait_token_;  // Resumes still pending for this wait are stale
  waiting_ready_ = nullptr;
  set_level(busy_level(PipeId::S), 1);
  scalar_stall_ps_ += now() - t0;
  // A wait that took no time leaves no trace and does not break the scalar's run: the lazy scalar
  // meets such waits (a queue full at its own time only until that time's pops) where the
  // step-by-step scalar meets none, and traces must not depend on it.
  if (now() > t0) {
    flush_scalar_run();
    if (observer_) emit(Lane::FLOWCTRL, name.str(), t0, now());
    scalar_run_start_ = scalar_run_end_ = now();
  }
  scalar_waiting_ = nullptr;
  scalar_waiting_describe_ = nullptr;
}

void Core::scalar_work(uint64_t cycles) {
  scalar_advance(timing_.clock.cycles(cycles));
}

void Core::issue(Instr&& in) {
  if (!has_pipe(in.pipe))
    kernel_fault(std::string(in.name) + ": an " + core_kind_name(kind_) + " has no " +
                 lane_name(lane_of(in.pipe)) + " pipe");
  if (poll_adopt_) {  // the read a sleeping poll's replay has started already (poll_sleep)
    poll_adopt_ = false;
    if (in.kind != Instr::Kind::Work || in.pipe != PipeId::MTE2 ||
        in.work.kind != Work::Kind::DmaIn || in.work.gm != poll_plan_.gm ||
        in.work.amount != poll_plan_.bytes || !(in.gm_read == poll_plan_.blocks))
      kernel_fault(std::string("SimPollUntil: an iteration began with ") + in.name +
                   " where the iterations before it began with their read (" +
                   poll_plan_.read_name + "); a poll must repeat while what it reads is unchanged");
    next_write_parts_ = UbParts{};
    next_ub_reads_ = next_ub_writes_ = UbRange{};
    next_ub_noted_ = false;
    scalar_advance(issue_ps_);
    if (poll_recording_) poll_record(in);
    return;
  }
  if (race_) {
    in.race = std::make_unique<Instr::RaceInfo>();
    in.race->issued_at = scalar_now();
    in.race->seq = ++issued_;
    in.race->issued_clock = race_->scalar_clock();
    in.race->accesses = std::move(pending_accesses_);
    pending_accesses_.clear();
  }
  Queued q;
  q.kind = in.kind;
  q.pipe = in.pipe;
  q.event = in.event;
  q.event_id = in.event_id;
  q.work = in.work;
  q.name = in.name;
  q.race = std::move(in.race);
  if (in.kind == Instr::Kind::Work) {
    if (!in.ub_noted) {
      if (next_ub_noted_) {
        in.ub_reads = next_ub_reads_;
        in.ub_writes = next_ub_writes_;
      } else if (in.work.kind != Work::Kind::DmaIn && in.work.kind != Work::Kind::DmaOut) {
        in.ub_reads = in.ub_writes = UbRange{0, local_size()};  // operands unknown: all of it
      }
    }
    ub_claims_.claim(in.ub_reads, in.ub_writes);
    q.flight = add_flight();
    Flight& f = flights_[q.flight];
    f.live = true;
    f.pipe = in.pipe;
    f.on_start = std::move(in.on_start);
    f.effect = std::move(in.effect);
    // A DMA is done with its UB source once it has read it, with its UB destination when it
    // lands; a vector instruction reads and writes its operands at completion.
    const bool dma_out = in.work.kind == Work::Kind::DmaOut;
    f.start_reads = dma_out ? in.ub_reads : UbRange{};
    f.reads = dma_out ? UbRange{} : in.ub_reads;
    f.writes = in.ub_writes;
    f.write_parts = UbParts{};
    if (next_write_parts_.n > 0) {
      f.write_parts = next_write_parts_;
    } else {
      f.write_parts.add(in.ub_writes.lo, in.ub_writes.hi);
    }
  }
  next_write_parts_ = UbParts{};
  next_ub_reads_ = next_ub_writes_ = UbRange{};
  next_ub_noted_ = false;
  scalar_advance(issue_ps_);
  Pipe& pp = pipe(q.pipe);
  // Queued plus still pending can only shrink until the scalar's time: a queue with room now has
  // room then. Only a queue that may be full is checked at the scalar's time.
  auto room = [&] { return pp.q.size() < timing_.queue_depth; };
  if (!room()) {
    poll_irregular();
    block_on(room, WaitName{"issue queue full: ", lane_name(lane_of(q.pipe))});
  }
  if (poll_recording_) {
    q.poll_read = in.gm_read.count > 0 && !poll_now_.words_read;
    if (q.poll_read) poll_read_blocks_ = in.gm_read;
    poll_record(in);
  }
  push(std::move(q));
}

void Core::push(Queued&& in) {
  PipeId p = in.pipe;
  Pipe& pp = pipe(p);
  if (lag_ < 0) throw SimError(kExitInternal, "an instruction handed over before its time");
  in.at = scalar_now();
  const bool first = pp.q.empty();
  ++pp.hidden;
  pp.q.push_back(std::move(in));
  // Behind other instructions, the hand-over is left to reveal(): the pipe looks at its queue
  // again when those leave it (step() then posts the Push of the first hidden one, if the pipe
  // has run dry before its time) or when its head can move.
  if (first) post_push_if_moves(p);
}

bool Core::moves_at_push(const Pipe& pp) const {
  const Queued& head = pp.q[pp.q.size() - pp.hidden];
  switch (head.kind) {
    case Instr::Kind::Work:
      return true;
    case Instr::Kind::WaitFlag:
      return flags_.count(head.event, head.event_id) > 0;
    default:  // SetFlag, PipeBarrier, CrossCoreSetFlag: after every earlier instruction
      return pp.outstanding == 0;
  }
}

bool Core::hand_over_deferred() {
  bool any = false;
  for (int i = 0; i < kPipes; ++i) {
    Pipe& pp = pipes_[i];
    if (pp.pushless && !pp.push_posted && pp.hidden > 0 && pp.handed() == 0) {
      post_push(static_cast<PipeId>(i));
      any = true;
    }
  }
  return any;
}

void Core::post_push_if_moves(PipeId p) {
  Pipe& pp = pipe(p);
  if (moves_at_push(pp)) {
    post_push(p);
  } else {
    pp.pushless = true;
  }
}

void Core::post_push(PipeId p) {
  Pipe& pp = pipe(p);
  pp.push_posted = true;
  pp.pushless = false;
  sched_.post(pp.q[pp.q.size() - pp.hidden].at, EventClass::Push, uid_, this, kPush,
              static_cast<uint32_t>(p));
}

// A hidden instruction is handed over at its Push time. Every core has at most one Push per
// scalar time (each issue advances the scalar clock), and the pipe's events at a time fire after
// its Pushes of that time, so revealing the instructions due by now when the pipe next looks at
// its queue is what their Push events would have done; the depth level changes at their times.
void Core::reveal(PipeId p) {
  Pipe& pp = pipe(p);
  const Tick t = now();
  while (pp.hidden > 0) {
    Tick at = pp.q[pp.q.size() - pp.hidden].at;
    if (at > t) break;
    --pp.hidden;
    set_level(depth_level(p), static_cast<int>(pp.handed()), at);
  }
}

size_t Core::handed_now(const Pipe& pp) const {
  size_t n = pp.handed();
  for (size_t i = n; i < pp.q.size() && pp.q[i].at <= now(); ++i) ++n;
  return n;
}

void Core::scalar_set_flag(HardEvent e, uint32_t id) {
  poll_irregular();
  scalar_advance(issue_ps_);
  scalar_sets_.push_back(ScalarSet{e, id});
  sched_.post(scalar_now(), EventClass::Push, uid_, this, kPush, static_cast<uint32_t>(PipeId::S));
}

void Core::scalar_wait_flag(HardEvent e, uint32_t id) {
  scalar_advance(issue_ps_);
  if (poll_recording_) {
    PollOp op;
    op.wait = true;
    op.before = poll_adv_;
    poll_adv_ = 0;
    op.kind = Instr::Kind::WaitFlag;
    op.pipe = PipeId::S;
    op.event = e;
    op.event_id = id;
    poll_now_.ops.push_back(op);
  }
  uint64_t key = flag_key(e, id);
  if (!flags_.count(e, id))
    block_on([&] { return flags_.count(e, id) > 0; }, WaitName{"WaitFlag<", event_name(e), id, ">"},
             nullptr, kNever, false);
  flags_.consume(e, id);
  set_level(flag_level(e), levels_[flag_level(e)] - 1, scalar_now());
  if (race_) race_->wait_flag(PipeId::S, key);
}

void Core::scalar_access(const char* name, const Access& a) {
  if (!race_) return;
  race_->begin(PipeId::S, race_->scalar_clock(), name, scalar_now(), ++issued_);
  if (a.gm) {
    race_->gm(PipeId::S, a.lo, a.hi, a.write);
  } else {
    race_->ub(PipeId::S, a.lo, a.hi, a.write);
  }
}

bool Core::all_pipes_idle() const {
  if (!scalar_sets_.empty()) return false;
  for (const Pipe& p : pipes_)
    if (!p.q.empty() || p.outstanding > 0) return false;
  return true;
}

void Core::pipe_barrier_all() {
  poll_irregular();
  scalar_advance(issue_ps_);
  drain();
}

void Core::drain() {
  block_on([&] { return all_pipes_idle(); }, WaitName{"PipeBarrier<PIPE_ALL>"});
  if (race_) race_->join_all_into_scalar();
}

void Core::kernel_fault(const std::string& msg) {
  sched_.fault(SimError(kExitKernelFault, msg));
  throw KernelAbort{};
}

void Core::effect_fault(const std::string& msg) {
  sched_.fault(SimError(kExitKernelFault, msg));
}

// SyncAll begins with PipeBarrier<PIPE_ALL>, as the kit's dav-c220 implementation does: what a core
// copied out before the barrier has landed when any core leaves it.
void Core::sync_all(bool mixed) {
  poll_irregular();
  scalar_advance(issue_ps_);
  drain();
  scalar_sync();
  (mixed ? barriers_.mixed : kind_ == CoreKind::Aiv ? barriers_.aiv : barriers_.aic).arrive(*this);
}

void Core::cross_wait_flag(uint32_t id, int need, const char* what) {
  poll_irregular();
  scalar_advance(issue_ps_);
  if (cross_flags_[id] < need)
    block_on([this, id, need] { return cross_flags_[id] >= need; },
             what ? WaitName{what} : WaitName{"CrossCoreWaitFlag", nullptr, id},
             [this, id, need, what] {
               if (what)
                 return std::string(what) + ": " + std::to_string(cross_flags_[id]) + " of " +
                        std::to_string(need) + " messages arrived";
               return "CrossCoreWaitFlag(" + std::to_string(id) +
                      "): " + std::to_string(cross_flags_[id]) + " of " + std::to_string(need) +
                      " sets arrived";
             },
             kNever, false);
  cross_flags_[id] -= need;
}

void Core::scalar_cross_set(Core& peer, uint32_t id) {
  poll_irregular();
  scalar_advance(issue_ps_);
  sched_.post(scalar_now() + timing_.clock.cycles(timing_.crosscore_flag_cycles), EventClass::Model,
              peer.uid_, &peer, kCrossFlag, id);
}

void SyncAllBarrier::arrive(Core& core) {
  uint64_t gen = generation_;
  waiting_.push_back(&core);
  if (++arrived_ == expected_) {
    arrived_ = 0;
    ++generation_;
    release_at_ = now() + core.timing().clock.cycles(core.timing().syncall_cycles);
    // Each core is woken in its current wait (block_on below), its own included.
    std::vector<Core*> cores = std::move(waiting_);
    waiting_.clear();
    for (Core* c : cores)
      if (c != &core) c->post_resume(release_at_);
  }
  core.block_on([&] { return generation_ != gen && now() >= release_at_; }, WaitName{"SyncAll"},
                [this] {
                  return "SyncAll (" + std::to_string(arrived_) + " of " +
                         std::to_string(expected_) + " cores arrived)";
                },
                generation_ != gen ? release_at_ : kNever, false);
}

// ---------------------------------------------------------------- polling loops

bool Core::PollOp::operator==(const PollOp& o) const {
  return wait == o.wait && before == o.before && kind == o.kind && pipe == o.pipe &&
         event == o.event && event_id == o.event_id && work == o.work && amount == o.amount &&
         gm == o.gm && ub_writes.lo == o.ub_writes.lo && ub_writes.hi == o.ub_writes.hi &&
         gm_read == o.gm_read;
}

// What a read of `bytes` from gm in blocks `b` finds, its blocks one after another.
void Core::poll_gather(GmAddr gm, uint64_t bytes, const GmBlocks& b,
                       std::vector<uint8_t>* out) const {
  out->resize(bytes);
  const uint64_t block = bytes / b.count;
  for (uint32_t i = 0; i < b.count; ++i)
    gm_->read(gm + uint64_t{i} * b.gm_stride, out->data() + i * block, block);
}

// A polling iteration's instruction, with the scalar time since the op before it.
void Core::poll_record(const Instr& in) {
  PollOp op;
  op.before = poll_adv_;
  poll_adv_ = 0;
  op.kind = in.kind;
  op.pipe = in.pipe;
  op.event = in.event;
  op.event_id = in.event_id;
  op.work = in.work.kind;
  op.amount = in.work.amount;
  op.gm = in.work.gm;
  op.ub_writes = in.ub_writes;
  op.gm_read = in.gm_read;
  op.name = in.name;
  poll_now_.ops.push_back(op);
}

void Core::poll_iteration_begin() {
  poll_now_.clear();
  poll_adv_ = 0;
  poll_recording_ = true;
  if (poll_adopt_) {  // the replay started this iteration's read: what it found
    poll_now_.words = poll_changed_;
    poll_now_.words_read = true;
  }
}

void Core::poll_abandon() noexcept {
  poll_recording_ = poll_last_valid_ = poll_adopt_ = poll_sleeping_ = false;
}

// The loop shapes a replay times: a plain DMA GM -> UB on MTE2, then either SetFlag MTE2 -> S and
// the scalar's WaitFlag of it (a flag word checked by the scalar), or SetFlag MTE2 -> V, the
// WaitFlag of that on V, one vector instruction, SetFlag V -> S and the scalar's WaitFlag of it
// (flags summed by the vector); then scalar work only.
bool Core::poll_plan(const PollIteration& it, PollPlan* plan) const {
  const std::vector<PollOp>& o = it.ops;
  if (it.irregular || !it.words_read || (o.size() != 3 && o.size() != 6)) return false;
  const bool vector = o.size() == 6;
  auto set = [](const PollOp& op, PipeId src, PipeId dst) {
    return !op.wait && op.kind == Instr::Kind::SetFlag && op.pipe == src &&
           event_src(op.event) == src && event_dst(op.event) == dst;
  };
  auto waits_for = [](const PollOp& op, const PollOp& set) {
    return op.event == set.event && op.event_id == set.event_id;
  };
  const PollOp &read = o[0], &read_set = o[1], &scalar_wait = o.back();
  if (read.wait || read.kind != Instr::Kind::Work || read.pipe != PipeId::MTE2 ||
      read.work != Work::Kind::DmaIn || read.gm_read.count == 0 || read.amount == 0 ||
      read.amount % read.gm_read.count != 0 || it.words.size() != read.amount)
    return false;
  const uint64_t block = read.amount / read.gm_read.count;
  if (read.ub_writes.hi - read.ub_writes.lo !=
      uint64_t{read.gm_read.count - 1u} * read.gm_read.ub_stride + block)
    return false;
  if (!set(read_set, PipeId::MTE2, vector ? PipeId::V : PipeId::S)) return false;
  PollPlan p;
  p.vector = vector;
  p.read = read.before;
  p.read_flag = p.read + read_set.before;
  if (vector) {
    const PollOp &vec_wait = o[2], &vec = o[3], &vec_set = o[4];
    if (vec_wait.wait || vec_wait.kind != Instr::Kind::WaitFlag || vec_wait.pipe != PipeId::V ||
        !waits_for(vec_wait, read_set))
      return false;
    if (vec.wait || vec.kind != Instr::Kind::Work || vec.pipe != PipeId::V ||
        vec.work != Work::Kind::Vector)
      return false;
    if (!set(vec_set, PipeId::V, PipeId::S) || !scalar_wait.wait ||
        !waits_for(scalar_wait, vec_set))
      return false;
    p.vec_wait = p.read_flag + vec_wait.before;
    p.vec = p.vec_wait + vec.before;
    p.vec_flag = p.vec + vec_set.before;
    p.scalar_wait = p.vec_flag + scalar_wait.before;
    p.repeats = vec.amount;
  } else {
    if (!scalar_wait.wait || !waits_for(scalar_wait, read_set)) return false;
    p.scalar_wait = p.read_flag + scalar_wait.before;
  }
  p.tail = it.tail;
  p.busy = p.scalar_wait + it.tail;
  p.gm = read.gm;
  p.bytes = read.amount;
  p.ub = read.ub_writes.lo;
  p.blocks = read.gm_read;
  p.read_name = read.name;
  *plan = p;
  return true;
}

// Between two iterations the loop's pipes (MTE2, V, and the scalar's S) must be idle: the replay
// times them from idle. The other pipes go on with what the kernel issued before it polls (the
// sends still queued behind their barriers), as they would beside the real iterations: they set
// only flags of their own (MTE3_*), which the loop never waits for, and each replayed read books
// its resources at the very point of the event order where the real one would (poll_replay), so
// their bookings and the loop's keep their order.
bool Core::poll_core_idle() const {
  if (!kicked_.empty()) return false;
  for (PipeId id : {PipeId::S, PipeId::MTE2, PipeId::V}) {
    const Pipe& p = pipe(id);
    if (!p.q.empty() || p.outstanding > 0 || p.kick_pending || p.push_posted || p.pushless)
      return false;
  }
  return scalar_sets_.empty();
}

bool Core::poll_iteration_end(bool done) {
  poll_recording_ = false;
  poll_now_.tail = poll_adv_;
  poll_adv_ = 0;
  if (done) {
    poll_last_valid_ = false;
    return false;
  }
  const bool same = poll_last_valid_ && poll_now_.ops == poll_last_.ops &&
                    poll_now_.tail == poll_last_.tail && poll_now_.words == poll_last_.words;
  std::swap(poll_last_, poll_now_);
  poll_last_valid_ = true;
  // A replay times its read without the L2 (an AIV's reads go straight to HBM).
  if (!same || !sleeping_polls_ || !lazy_ || observer_ || race_ || !gm_ || l2_ || lag_ < 0)
    return false;
  if (!poll_plan(poll_last_, &poll_plan_) || !poll_core_idle()) return false;
  // The flags the iteration set were all taken by its waits.
  for (const PollOp& op : poll_last_.ops)
    if (!op.wait && op.kind == Instr::Kind::SetFlag && flags_.count(op.event, op.event_id) != 0)
      return false;
  return true;
}

Tick Core::poll_sleep() {
  poll_start_ = scalar_now();  // the next iteration starts where the last one ended
  poll_slept_ = 0;
  poll_sleeping_ = true;
  poll_woken_ = false;
  sched_.post(poll_start_ + poll_plan_.read, EventClass::Push, uid_, this, kPollReplay,
              ++poll_token_);
  // A report names the loop and the wait each of its iterations ends in.
  const PollOp& wait = poll_last_.ops.back();
  poll_wait_name_ = WaitName{
      "a polling loop (SimPollUntil) whose iterations the core replays, each"
      " ending in WaitFlag<",
      event_name(wait.event), static_cast<int64_t>(wait.event_id), ">"};
  scalar_waiting_ = &poll_wait_name_;
  waiting_by_pipes_ = false;
  scalar_waiting_since_ = poll_start_;
  waiting_ready_ = &poll_woken_ready_;
  wake_floor_ = now();
  ++wait_token_;
  lag_ = 0;
  while (!poll_woken_) {
    wait_resume();
    woken_token_ = ~0u;
  }
  ++wait_token_;
  waiting_ready_ = nullptr;
  scalar_waiting_ = nullptr;
  // The scalar resumes at the start of the iteration whose read found the words changed: at or a
  // little before now (that read has started; the thread issues nothing before it).
  lag_ = static_cast<int64_t>(poll_start_) - static_cast<int64_t>(now());
  poll_adopt_ = true;
  return poll_slept_;
}

// A replayed iteration's read reaches MTE2 (a Push event at the DataCopy's time, as the real
// one's): its step takes the order key the real one's kick would take here, and runs in place
// when nothing comes before it, else as its own event (kPollRead), as the real step would.
void Core::poll_push(uint32_t token) {
  if (!poll_sleeping_ || token != poll_token_) return;
  const uint64_t order = sched_.reserve(EventClass::Model, uid_);
  if (sched_.fires_next(order)) {
    poll_replay(token);
  } else {
    sched_.post_reserved(order, this, kPollRead, token);
  }
}

// One replayed iteration, from where its read starts (where the real one books the HBM and
// reads GM). R is the iteration's start.
void Core::poll_replay(uint32_t token) {
  if (!poll_sleeping_ || token != poll_token_) return;
  const PollPlan& p = poll_plan_;
  const Tick R = poll_start_, t = now();
  Pipe& m2 = pipe(PipeId::MTE2);
  if (mte2_->free_at() > t || m2.engine_free > t)
    throw SimError(kExitInternal, "a replayed poll found its MTE2 engine busy");
  // What the read finds, as the real DMA would read it here.
  poll_gather(p.gm, p.bytes, p.blocks, &poll_changed_);
  if (poll_changed_ != poll_last_.words) {
    // This iteration may end the loop: start its read as the real one, then wake the thread at
    // the iteration's start; the DataCopy it issues first is this one (poll_adopt_).
    poll_sleeping_ = false;
    Queued q;
    q.kind = Instr::Kind::Work;
    q.pipe = PipeId::MTE2;
    q.work.kind = Work::Kind::DmaIn;
    q.work.amount = p.bytes;
    q.work.gm = p.gm;
    q.name = p.read_name;
    q.at = t;
    const UbRange writes = poll_last_.ops[0].ub_writes;
    ub_claims_.claim(UbRange{}, writes);
    q.flight = add_flight();
    Flight& f = flights_[q.flight];
    f.live = true;
    f.pipe = PipeId::MTE2;
    f.on_start = nullptr;
    f.effect = [this] {
      const GmBlocks& b = poll_plan_.blocks;
      const uint64_t block = poll_changed_.size() / b.count;
      for (uint32_t i = 0; i < b.count; ++i)
        std::memcpy(local_ + poll_plan_.ub + uint64_t{i} * b.ub_stride,
                    poll_changed_.data() + i * block, block);
    };
    f.start_reads = f.reads = UbRange{};
    f.writes = writes;
    f.write_parts = UbParts{};
    f.write_parts.add(writes.lo, writes.hi);
    Completion c = start_work(PipeId::MTE2, q, t);
    sched_.post(c.at, EventClass::Model, uid_, this, kComplete, c.flight);
    poll_woken_ = true;
    wake_scalar();
    return;
  }
  // The words are unchanged: the iteration runs as the last real one did, in time only.
  DmaEngine::Timing tm = mte2_->transfer(t, p.gm, p.bytes);
  m2.engine_free = mte2_->free_at();
  ++m2.stats.instrs;
  m2.stats.busy_ps += tm.done - t;
  note_gm_read(p.gm, p.bytes);
  const Tick read_set = std::max(tm.done, R + p.read_flag);
  Tick scalar_set = read_set;  // when the flag the scalar waits for is set
  if (p.vector) {
    Pipe& v = pipe(PipeId::V);
    const Tick vec_start = std::max({read_set, R + p.vec_wait, R + p.vec, v.engine_free});
    const Tick vec_done = vector_->execute(vec_start, cost_.vector(p.repeats)).end;
    v.engine_free = vec_done;
    ++v.stats.instrs;
    v.stats.busy_ps += vec_done - vec_start;
    scalar_set = std::max(vec_done, R + p.vec_flag);
  }
  const Tick wait_from = R + p.scalar_wait;
  const Tick resumed = std::max(scalar_set, wait_from);
  scalar_busy_ps_ += p.busy;
  scalar_stall_ps_ += resumed - wait_from;
  const Tick end = resumed + p.tail;
  poll_slept_ += end - R;
  poll_start_ = end;
  sched_.post(end + p.read, EventClass::Push, uid_, this, kPollReplay, ++poll_token_);
}

// ---------------------------------------------------------------- pipes

uint64_t Core::flag_key(HardEvent e, uint32_t id) const {
  return (static_cast<uint64_t>(e) << 32) | id;
}

void Core::set_flag(HardEvent e, uint32_t id) {
  flags_.add(e, id);
  if (race_) race_->set_flag(event_src(e), flag_key(e, id));
  set_level(flag_level(e), levels_[flag_level(e)] + 1);
  PipeId dst = event_dst(e);
  if (dst == PipeId::S) {
    wake_scalar();
  } else {
    kick(dst);
  }
}

// A step is booked only when the head can move: a SetFlag or PipeBarrier behind instructions in
// flight waits for their completion (complete() kicks), a WaitFlag for its SetFlag (set_flag()
// kicks).
void Core::kick(PipeId p) {
  reveal(p);
  Pipe& pp = pipe(p);
  if (pp.kick_pending) return;
  if (pp.handed() == 0) {
    // A head whose Push was left out (Pipe::pushless) may move at its time now.
    if (pp.pushless && moves_at_push(pp)) post_push(p);
    return;
  }
  const Queued& head = pp.q.front();
  if (head.kind == Instr::Kind::WaitFlag) {
    if (!flags_.count(head.event, head.event_id)) {
      if (!pp.blocked) {  // as step() would have found it
        pp.blocked = true;
        // A head whose Push was left out has waited since its time (Pipe::pushless).
        pp.blocked_since = pp.pushless ? std::min(head.at, now()) : now();
      }
      return;
    }
  } else if (head.kind != Instr::Kind::Work && pp.outstanding > 0) {
    return;
  }
  pp.kick_pending = true;
  if (in_event_) {
    kicked_.push_back(Kicked{p, sched_.reserve(EventClass::Model, uid_)});
  } else {
    sched_.post(now(), EventClass::Model, uid_, this, kStep, static_cast<uint32_t>(p));
  }
}

// A kStep at now is the next event to fire when nothing is pending before its key; running it in
// place then is what firing it would do. Later kicks (from the steps run here) queue behind, with
// later keys, as their events would; once one cannot run in place, it and the rest are posted.
void Core::run_kicked() {
  while (!kicked_.empty()) {
    Kicked k = kicked_.front();
    if (!sched_.fires_next(k.order)) break;
    kicked_.pop_front();
    step(k.p);
  }
  while (!kicked_.empty()) {
    Kicked k = kicked_.front();
    kicked_.pop_front();
    sched_.post_reserved(k.order, this, kStep, static_cast<uint32_t>(k.p));
  }
}

void Core::step(PipeId p) {
  reveal(p);
  Pipe& pp = pipe(p);
  pp.kick_pending = false;
  Tick t = now();
  bool popped = false;
  // The completion of the instruction just started, not posted yet: when the step that follows
  // it is due at the same time, both go out as one event (the two would have been posted one
  // right after the other, so nothing of this core can fire between them).
  Completion last;
  auto post_last = [&] {
    if (last.flight == kNoFlight) return;
    sched_.post(last.at, EventClass::Model, uid_, this, kComplete, last.flight);
    last = Completion{};
  };
  while (pp.handed() > 0) {
    Queued& in = pp.q.front();
    if (in.kind == Instr::Kind::Work) {
      if (pp.engine_free > t) {  // the engine takes the next transfer when its hold ends
        pp.kick_pending = true;
        if (last.flight != kNoFlight && last.at == pp.engine_free) {
          sched_.post(last.at, EventClass::Model, uid_, this, kCompleteAndStep, last.flight);
          last = Completion{};
        } else {
          post_last();
          sched_.post(pp.engine_free, EventClass::Model, uid_, this, kStep,
                      static_cast<uint32_t>(p));
        }
        break;
      }
      post_last();
      last = start_work(p, in, t);
    } else if (in.kind == Instr::Kind::WaitFlag) {
      if (pp.pushless && !pp.blocked && in.at < t) {
        // Its Push was left out because its flag was not set: it has waited since its time.
        pp.blocked = true;
        pp.blocked_since = in.at;
      }
      if (!flags_.count(in.event, in.event_id)) {
        if (!pp.blocked) {
          pp.blocked = true;
          pp.blocked_since = t;
        }
        break;
      }
      flags_.consume(in.event, in.event_id);
      set_level(flag_level(in.event), levels_[flag_level(in.event)] - 1);
      if (race_) race_->wait_flag(p, flag_key(in.event, in.event_id));
      if (pp.blocked) {
        pp.blocked = false;
        // The wait shows where the lane is otherwise idle: transfers still in flight (booked to
        // end after t) cover it.
        Tick s = std::max(pp.blocked_since, pp.last_slice_end);
        if (observer_ && t > s) {
          emit(lane_of(p),
               std::string("WaitFlag<") + event_name(in.event) + ">(" +
                   std::to_string(in.event_id) + ")",
               s, t);
          pp.last_slice_end = t;
        }
      }
    } else {  // SetFlag and PipeBarrier wait for every earlier instruction of the pipe
      if (pp.outstanding > 0) break;
      post_last();
      if (in.kind == Instr::Kind::SetFlag) set_flag(in.event, in.event_id);
      if (in.kind == Instr::Kind::CrossSet) {
        Tick at = t + timing_.clock.cycles(timing_.crosscore_flag_cycles);
        if (in.work.amount >= kCrossToPeer) {
          Core* peer = cross_peers_[2][in.work.amount - kCrossToPeer];
          sched_.post(at, EventClass::Model, peer->uid_, peer, kCrossFlag, in.event_id);
        } else if (in.work.amount == 0) {  // mode 0: a barrier of the kind's cores
          int& sets = (kind_ == CoreKind::Aiv ? barriers_.group_sets_aiv
                                              : barriers_.group_sets_aic)[in.event_id];
          if (++sets == static_cast<int>(cross_peers_[0].size())) {
            sets = 0;
            for (Core* peer : cross_peers_[0])
              sched_.post(at, EventClass::Model, peer->uid_, peer, kCrossFlag, in.event_id);
          }
        } else {
          for (Core* peer : cross_peers_[in.work.amount])
            sched_.post(at, EventClass::Model, peer->uid_, peer, kCrossFlag, in.event_id);
        }
      }
    }
    pp.q.pop_front();
    pp.pushless = false;
    popped = true;
  }
  post_last();
  set_level(depth_level(p), static_cast<int>(pp.handed()));
  // Run dry before the next hidden instruction's time: it needs its own Push.
  if (pp.handed() == 0 && pp.hidden > 0 && !pp.push_posted && !pp.pushless) post_push_if_moves(p);
  if (popped) wake_scalar_by_pipes();
}

Core::Completion Core::start_work(PipeId p, Queued& in, Tick t) {
  Pipe& pp = pipe(p);
  if (race_) {
    const Instr::RaceInfo& r = *in.race;
    race_->begin(p, r.issued_clock, in.name, r.issued_at, r.seq);
    for (bool writes : {false, true})  // an in-place op reads its operand, then writes it
      for (const Access& a : r.accesses) {
        if (a.write != writes) continue;
        if (a.gm) {
          race_->gm(p, a.lo, a.hi, a.write);
        } else {
          race_->ub(p, a.lo, a.hi, a.write);
        }
      }
  }
  Tick start = t, landed = t, done = t;
  const Work& w = in.work;
  if (w.kind == Work::Kind::Mte1 && (w.to_fb || w.to_l1)) {  // the FIX pipe's local moves
    done = landed = t + (w.to_fb ? cost_.fb_load(w.amount) : cost_.fix_to_l1(w.amount));
    pp.engine_free = done;
  } else if (w.kind == Work::Kind::Vector || w.kind == Work::Kind::Mte1 ||
             w.kind == Work::Kind::Mmad) {
    done = landed = w.kind == Work::Kind::Vector ? vector_->execute(t, cost_.vector(w.amount)).end
                    : w.kind == Work::Kind::Mte1
                        ? mte1_->execute(t, cost_.mte1(w.amount, w.to_l0b), w.amount).end
                        : cube_
                              ->execute(t, cost_.mmad(w.m, w.k, w.n,
                                                      w.int8   ? MmadOperands::Int8
                                                      : w.fp32 ? MmadOperands::Fp32
                                                      : w.int4 ? MmadOperands::Int4
                                                               : MmadOperands::B16))
                              .end;
    pp.engine_free = done;
  } else {
    bool write = in.work.kind == Work::Kind::DmaOut;
    // Writes: an AIV's (the scalar's too) on its mte3; an AIC's on its fixpipe, or on its mte3
    // for an L1 -> GM copy.
    DmaEngine& engine = !write ? *mte2_ : !fixpipe_ || p == PipeId::MTE3 ? *mte3_ : *fixpipe_;
    uint64_t hit = 0;
    if (!write && l2_ && !w.l2_bypass) {
      const uint64_t rows = std::max<uint32_t>(w.gm_rows, 1);
      hit = l2_->read({w.gm, rows, w.amount / rows, rows > 1 ? w.gm_pitch : w.amount});
    }
    DmaEngine::Timing tm = engine.transfer(t, in.work.gm, in.work.amount, hit);
    if (in.poll_read && poll_recording_ && gm_ && tm.start == t) {  // what a poll's read finds
      poll_gather(in.work.gm, in.work.amount, poll_read_blocks_, &poll_now_.words);
      poll_now_.words_read = true;
    }
    start = tm.start;
    landed = tm.landed;
    done = tm.done;
    if (write) last_write_landed_ = landed;
    pp.engine_free = engine.free_at();
    if (!write) note_gm_read(in.work.gm, in.work.amount);
  }
  // The source is read when the transfer really starts (it may wait for a busy resource). The
  // start event exists even when there is nothing to read (a timing-only payload DMA), so that a
  // timing-only run processes exactly the same events, in the same order, as a full one.
  if (start > t) {
    sched_.post(start, EventClass::Model, uid_, this, kStart, in.flight);
  } else {
    Flight& f = flights_[in.flight];
    ub_claims_.release(f.start_reads, UbRange{});
    f.start_reads = UbRange{};
    if (f.on_start) f.on_start();
    f.on_start = nullptr;
  }
  ++pp.stats.instrs;
  if (pp.outstanding++ == 0) {
    pp.busy_since = t;
    set_level(busy_level(p), 1);
  }
  if (observer_) {
    Tick s = std::max(start, pp.last_slice_end);
    const bool dma = w.kind == Work::Kind::DmaIn || w.kind == Work::Kind::DmaOut;
    SliceArgs args{dma ? w.amount : 0, w.gm};
    if (done > s) emit(lane_of(p), in.name, s, done, dma ? &args : nullptr);
    pp.last_slice_end = std::max(pp.last_slice_end, done);
  }
  // A remote write's bytes land (its effect) before its acknowledgement completes it. The landing
  // event exists whether or not there are bytes to write, as the start event above.
  if (landed < done) sched_.post(landed, EventClass::Model, uid_, this, kLand, in.flight);
  return Completion{done, in.flight};
}

void Core::complete(uint32_t flight) {
  Flight& f = flights_[flight];
  PipeId p = f.pipe;
  Effect effect = std::move(f.effect);
  ub_claims_.release(f.reads, f.writes);
  f.live = false;
  free_flights_.push_back(flight);
  Pipe& pp = pipe(p);
  if (effect) effect();
  if (--pp.outstanding == 0) {
    pp.stats.busy_ps += now() - pp.busy_since;
    set_level(busy_level(p), 0);
  }
  kick(p);  // a SetFlag or PipeBarrier at the head may go now
  wake_scalar_by_pipes();
}

void Core::emit(Lane lane, const std::string& name, Tick start, Tick end, const SliceArgs* args) {
  if (observer_) observer_->slice(die_, index_, lane, name, start, end, args);
}

void Core::note_gm_read(GmAddr gm, uint64_t bytes) {
  if (gm == poll_.gm && bytes == poll_.bytes) {
    ++poll_.reads;
  } else {
    poll_ = PollRun{gm, bytes, now(), 1};
  }
}

std::string WaitName::str() const {
  std::string s = std::string(text) + (arg ? arg : "") + tail;
  if (id >= 0) s += "(" + std::to_string(id) + ")";
  return s;
}

std::string level_name(int level) {
  if (level < kPipes) return std::string(lane_name(static_cast<Lane>(level))) + "_busy";
  if (level < 2 * kPipes)
    return std::string(lane_name(static_cast<Lane>(level - kPipes))) + "_queue";
  return std::string("flag_") + event_name(static_cast<HardEvent>(level - 2 * kPipes));
}

std::string Core::blocked_report(const std::function<std::string(GmAddr)>& gm_name) const {
  std::ostringstream os;
  os << "die " << die_ << " ";
  if (kind_ == CoreKind::Aiv) {
    os << "core " << index_ << ": ";
  } else {
    os << basename() << ": ";
  }
  if (scalar_waiting_) {
    os << "scalar blocked in "
       << (scalar_waiting_describe_ ? scalar_waiting_describe_() : scalar_waiting_->str())
       << " since " << ps_to_ns(scalar_waiting_since_) << " ns";
  } else {
    os << "scalar running";
  }
  if (poll_.reads > 1)
    os << "; polling GM " << (gm_name ? gm_name(poll_.gm) : std::to_string(poll_.gm)) << " ("
       << poll_.bytes << " B) since " << ps_to_ns(poll_.since) << " ns, " << poll_.reads
       << " reads";
  for (int i = 1; i < kPipes; ++i) {
    const Pipe& pp = pipes_[i];
    if (pp.q.empty() && pp.outstanding == 0) continue;
    const size_t handed = handed_now(pp);
    os << "; " << lane_name(static_cast<Lane>(i)) << ": " << handed << " queued, " << pp.outstanding
       << " in flight";
    if (handed == 0) continue;
    const Queued& h = pp.q.front();
    // A head whose Push was left out waits, not yet marked blocked, since its time.
    const bool waits = pp.blocked || (pp.pushless && h.kind == Instr::Kind::WaitFlag &&
                                      !flags_.count(h.event, h.event_id));
    if (waits) {
      os << ", head WaitFlag<" << event_name(h.event) << ">(" << h.event_id << ") unset since "
         << ps_to_ns(pp.blocked ? pp.blocked_since : h.at) << " ns";
    }
  }
  return os.str();
}

}  // namespace ascend::model

namespace ascend::model {

CounterSet Core::counters() const {
  // Per pipe the core has, named by its lane: busy_ps and instrs. The scalar pipe's busy time is
  // the scalar unit's own work; its queued instructions count. (Counter names are static text.)
  static const char* const busy[kPipes] = {"SCALAR.busy_ps", "VECTOR.busy_ps", "MTE2.busy_ps",
                                           "MTE3.busy_ps",   "MTE1.busy_ps",   "CUBE.busy_ps",
                                           "FIXP.busy_ps"};
  static const char* const instrs[kPipes] = {"SCALAR.instrs", "VECTOR.instrs", "MTE2.instrs",
                                             "MTE3.instrs",   "MTE1.instrs",   "CUBE.instrs",
                                             "FIXP.instrs"};
  CounterSet s;
  for (int p = 0; p < kPipes; ++p) {
    if (!has_pipe(static_cast<PipeId>(p))) continue;
    s.add(busy[p], "ps", p == 0 ? scalar_busy_ps_ : pipes_[p].stats.busy_ps);
    s.add(instrs[p], "instrs", pipes_[p].stats.instrs);
  }
  s.add("SCALAR.stall_ps", "ps", scalar_stall_ps_);
  s.add("SCALAR.auto_syncs", "waits", auto_syncs_);
  // The units, under their module names: bytes, busy_ps, transfers.
  struct Unit {
    const char* names[3];
    CounterSet set;
  };
  std::vector<Unit> units;
  if (kind_ == CoreKind::Aiv) {
    units = {{{"vector.bytes", "vector.busy_ps", "vector.transfers"}, vector_->counters()},
             {{"mte2.bytes", "mte2.busy_ps", "mte2.transfers"}, mte2_->counters()},
             {{"mte3.bytes", "mte3.busy_ps", "mte3.transfers"}, mte3_->counters()}};
  } else {
    units = {{{"mte2.bytes", "mte2.busy_ps", "mte2.transfers"}, mte2_->counters()},
             {{"mte1.bytes", "mte1.busy_ps", "mte1.transfers"}, mte1_->counters()},
             {{"cube.bytes", "cube.busy_ps", "cube.transfers"}, cube_->counters()},
             {{"fixpipe.bytes", "fixpipe.busy_ps", "fixpipe.transfers"}, fixpipe_->counters()},
             {{"mte3.bytes", "mte3.busy_ps", "mte3.transfers"}, mte3_->counters()}};
  }
  for (const Unit& u : units)
    for (size_t i = 0; i < u.set.size() && i < 3; ++i)
      s.add(u.names[i], u.set.list()[i].unit, u.set.list()[i].value);
  return s;
}

}  // namespace ascend::model
