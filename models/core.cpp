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
      cost_(cost),
      sched_(sched),
      barriers_(barriers),
      local_(local_memory),
      scalar_(*this, timing.clock.cycles(timing.issue_cycles)),
      flights_(local_bytes(kind, timing)) {
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

// A launch starts from a clean core: no flag set.
void Core::launch(std::function<void()> program, int block_idx, int block_num, int sub_block,
                  int ratio) {
  sub_block_ = sub_block;
  ratio_ = ratio;
  program_ = std::move(program);
  flags_.clear();
  if (timeline_) timeline_->launch();
  cross_flags_.fill(0);
  scalar_.launch();
  for (int e = 0; e < kHardEvents; ++e) set_level(flag_level(static_cast<HardEvent>(e)), 0);
  read_run_ = ReadRun{};
  polls_.reset();
  issued_ = 0;
  pending_accesses_.clear();
  next_ub_reads_ = next_ub_writes_ = UbRange{};
  next_write_parts_ = UbParts{};
  next_ub_noted_ = false;
  flights_.clear_claims();
  if (race_) race_->reset();
  block_idx_ = block_idx;
  block_num_ = block_num;
  state_ = State::Running;
  scalar_.next_wait();
  scalar_.post_resume(now());
}

void Core::on_event(uint32_t op, uint32_t arg) {
  pipes_.begin_event();
  handle(op, arg);
  pipes_.end_event();
}

void Core::handle(uint32_t op, uint32_t arg) {
  switch (op) {
    case kResume:
      scalar_.resume(arg);
      break;
    case kPush:
      pipes_.on_push(static_cast<PipeId>(arg));
      break;
    case kStep:
      pipes_.step(static_cast<PipeId>(arg));
      break;
    case kComplete:
      pipes_.complete(arg);
      break;
    case kLand: {
      Effect fn = std::move(flights_[arg].effect);
      if (fn) fn();
      break;
    }
    case kCompleteAndStep: {
      PipeId p = flights_[arg].pipe;
      pipes_.complete(arg);
      pipes_.step(p);
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
      scalar_.wake();
      break;
    case kPollReplay:
      polls_.push(arg);
      break;
    case kPollRead:
      polls_.replay(arg);
      break;
    case kStart: {
      InlineFunction<8> fn = flights_.start(arg);
      if (fn) fn();
      break;
    }
  }
}

Core* Core::running_ = nullptr;

void Core::run() {
  for (;;) {
    do scalar_.wait_resume(WaitCause::Start);
    while (state_ != State::Running);
    started_at_ = now();
    scalar_.start();
    set_level(busy_level(PipeId::S), 1);
    try {
      program_();
      drain();         // a kernel ends when its last instruction has completed
      scalar_.sync();  // and simulated time has reached its scalar's
      scalar_.flush_run();
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
    finished_at_ = scalar_.now();  // an aborted kernel may stop ahead of simulated time
    scalar_.stop();
    set_level(busy_level(PipeId::S), 0, finished_at_);
  }
}

void Core::issue(Instr&& in) {
  if (!has_pipe(in.pipe))
    kernel_fault(std::string(in.name) + ": an " + core_kind_name(kind_) + " has no " +
                 lane_name(lane_of(in.pipe)) + " pipe");
  if (polls_.adopting()) {  // the read a sleeping poll's replay has started already
    polls_.adopt(in);
    next_write_parts_ = UbParts{};
    next_ub_reads_ = next_ub_writes_ = UbRange{};
    next_ub_noted_ = false;
    scalar_.issue();
    polls_.record(in);
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
    // A DMA is done with its UB source once it has read it, with its UB destination when it
    // lands; a vector instruction reads and writes its operands at completion.
    const bool dma_out = in.work.kind == Work::Kind::DmaOut;
    UbParts parts = next_write_parts_;
    if (parts.n == 0) parts.add(in.ub_writes.lo, in.ub_writes.hi);
    q.flight = flights_.add(in.pipe, dma_out ? in.ub_reads : UbRange{},
                            dma_out ? UbRange{} : in.ub_reads, in.ub_writes, parts);
    Flights::Flight& f = flights_[q.flight];
    f.on_start = std::move(in.on_start);
    f.effect = std::move(in.effect);
  }
  next_write_parts_ = UbParts{};
  next_ub_reads_ = next_ub_writes_ = UbRange{};
  next_ub_noted_ = false;
  scalar_.issue();
  Pipe& pp = pipes_[q.pipe];
  // Queued plus still pending can only shrink until the scalar's time: a queue with room now has
  // room then. Only a queue that may be full is checked at the scalar's time.
  auto room = [&] { return pp.q.size() < timing_.queue_depth; };
  const Tick from = scalar_.now();
  if (!room()) {
    polls_.irregular();
    scalar_.block_on(WaitCause::QueueFull, room,
                     WaitName{"issue queue full: ", lane_name(lane_of(q.pipe))});
  }
  if (timeline_) {
    check_scalar(
        [&] { return std::string("handing ") + q.name + " to " + lane_name(lane_of(q.pipe)); },
        from, timeline_->room_at(q.pipe, from));
    timeline_->handed(q.pipe);
  }
  if (polls_.recording()) {
    q.poll_read = polls_.take_read(in);
    polls_.record(in);
  }
  pipes_.push(std::move(q));
}

void Core::scalar_ub_work(uint64_t cycles, uint32_t lo, uint32_t hi, bool write) {
  scalar_work(cycles);
  if (!flights_.claimed(lo, hi, write)) return;
  polls_.irregular();
  PipeId writer = PipeId::S;
  if (auto_sync_ && flights_.unfinished_writer(lo, hi, &writer)) {
    // The compiler's inserted sync: wait until no unfinished instruction writes these bytes (a
    // read after the write, or a write after it that the landing would otherwise overwrite).
    scalar_.block_on(
        WaitCause::AutoSync, [&] { return !flights_.unfinished_writer(lo, hi, &writer); },
        WaitName{"auto-sync ", lane_name(lane_of(writer)), -1, "->S"});
    ++auto_syncs_;
    if (race_) race_->join_into_scalar(writer);
    return;
  }
  scalar_.sync();
}

void Core::scalar_work(uint64_t cycles) {
  scalar_.advance(timing_.clock.cycles(cycles));
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

// Starts work on the unit that runs it: the vector unit, MTE1 or the cube, or a DMA engine (whose
// transfer books the resources on its path). The caller posts the returned completion.
Completion Core::start_work(PipeId p, Queued& in, Tick t) {
  Pipe& pp = pipes_[p];
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
    if (in.poll_read && tm.start == t) polls_.read_started(in.work.gm, in.work.amount);
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
    InlineFunction<8> fn = flights_.start(in.flight);
    if (fn) fn();
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
  if (timeline_) timeline_->work_started(p, done);
  return Completion{done, in.flight};
}

void Core::scalar_check_failed(const std::string& what, Tick from, Tick expected) {
  const Tick t = scalar_.now();
  sched_.fault(SimError(
      kExitInternal,
      "issue-time check: die " + std::to_string(die_) + " core " + std::to_string(index_) +
          " scalar: " + what + " from " + std::to_string(from) + " ps resumed at " +
          std::to_string(t) + " ps; the recurrence gives " +
          (expected == kNever ? std::string("no set to take") : std::to_string(expected) + " ps")));
}

void Core::check_leave(PipeId p, const Queued& in, Tick expected, Tick t) {
  ++timeline_->checked;
  if (expected == t) return;
  std::string what = in.name;
  if (in.kind == Instr::Kind::WaitFlag || in.kind == Instr::Kind::SetFlag)
    what = WaitName{in.kind == Instr::Kind::WaitFlag ? "WaitFlag<" : "SetFlag<",
                    event_name(in.event), in.event_id, ">"}
               .str();
  if (in.kind == Instr::Kind::CrossSet)
    what = WaitName{"CrossCoreSetFlag", nullptr, in.event_id}.str();
  if (in.kind == Instr::Kind::Barrier) what = "PipeBarrier";
  const Pipe& pp = pipes_[p];
  sched_.fault(SimError(
      kExitInternal,
      "issue-time check: die " + std::to_string(die_) + " core " + std::to_string(index_) +
          " pipe " + lane_name(lane_of(p)) + ": " + what + " handed over at " +
          std::to_string(in.at) + " ps left its queue at " + std::to_string(t) +
          " ps; the recurrence gives " +
          (expected == kNever ? std::string("no set to take") : std::to_string(expected) + " ps") +
          " (engine free at " + std::to_string(pp.engine_free) + " ps, " +
          std::to_string(pp.outstanding) + " in flight)"));
}

void Core::kernel_fault(const std::string& msg) {
  sched_.fault(SimError(kExitKernelFault, msg));
  throw KernelAbort{};
}

void Core::effect_fault(const std::string& msg) {
  sched_.fault(SimError(kExitKernelFault, msg));
}

}  // namespace ascend::model
