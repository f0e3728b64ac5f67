// A core's pipes: each an in-order queue the scalar hands instructions to (push, at the scalar's
// time; reveal, when that time has come), stepped by the scheduler when its head can move (kick,
// step), starting work on the core's units (start_work) and completing it (complete). The
// hand-over rules are in core.h (Core::Pipe).
#include <algorithm>
#include <string>

#include "models/core.h"

namespace ascend::model {

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

bool Core::all_pipes_idle() const {
  if (!scalar_sets_.empty()) return false;
  for (const Pipe& p : pipes_)
    if (!p.q.empty() || p.outstanding > 0) return false;
  return true;
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
  return Completion{done, in.flight};
}

void Core::complete(uint32_t flight) {
  PipeId p = flights_[flight].pipe;
  Effect effect = flights_.complete(flight);
  Pipe& pp = pipe(p);
  if (effect) effect();
  if (--pp.outstanding == 0) {
    pp.stats.busy_ps += now() - pp.busy_since;
    set_level(busy_level(p), 0);
  }
  kick(p);  // a SetFlag or PipeBarrier at the head may go now
  wake_scalar_by_pipes();
}

}  // namespace ascend::model
