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

void Core::issue(Instr&& in) {
  if (!has_pipe(in.pipe))
    kernel_fault(std::string(in.name) + ": an " + core_kind_name(kind_) + " has no " +
                 lane_name(lane_of(in.pipe)) + " pipe");
  if (polls_.adopting()) {  // the read a sleeping poll's replay has started already
    polls_.adopt(in);
    next_write_parts_ = UbParts{};
    next_ub_reads_ = next_ub_writes_ = UbRange{};
    next_ub_noted_ = false;
    scalar_advance(issue_ps_);
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
  scalar_advance(issue_ps_);
  Pipe& pp = pipe(q.pipe);
  // Queued plus still pending can only shrink until the scalar's time: a queue with room now has
  // room then. Only a queue that may be full is checked at the scalar's time.
  auto room = [&] { return pp.q.size() < timing_.queue_depth; };
  if (!room()) {
    polls_.irregular();
    block_on(room, WaitName{"issue queue full: ", lane_name(lane_of(q.pipe))});
  }
  if (polls_.recording()) {
    q.poll_read = polls_.take_read(in);
    polls_.record(in);
  }
  push(std::move(q));
}

void Core::kernel_fault(const std::string& msg) {
  sched_.fault(SimError(kExitKernelFault, msg));
  throw KernelAbort{};
}

void Core::effect_fault(const std::string& msg) {
  sched_.fault(SimError(kExitKernelFault, msg));
}

}  // namespace ascend::model
