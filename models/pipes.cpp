#include "models/pipes.h"

#include <algorithm>
#include <string>

#include "models/core.h"
#include "models/errors.h"

namespace ascend::model {

void Pipes::push(Queued&& in) {
  PipeId p = in.pipe;
  Pipe& pp = (*this)[p];
  if (core_.scalar_.lag() < 0)
    throw SimError(kExitInternal, "an instruction handed over before its time");
  in.at = core_.scalar_.now();
  const bool first = pp.q.empty();
  ++pp.hidden;
  pp.q.push_back(std::move(in));
  // Behind other instructions, the hand-over is left to reveal(): the pipe looks at its queue
  // again when those leave it (step() then posts the Push of the first hidden one, if the pipe
  // has run dry before its time) or when its head can move.
  if (first) post_push_if_moves(p);
}

void Pipes::push_scalar_set(HardEvent e, uint32_t id, Tick at) {
  scalar_sets_.push_back(ScalarSet{e, id});
  core_.sched_.post(at, EventClass::Push, core_.uid_, &core_, Core::kPush,
                    static_cast<uint32_t>(PipeId::S));
}

void Pipes::on_push(PipeId p) {
  if (p == PipeId::S) {  // SetFlag<S_X>
    ScalarSet set = scalar_sets_.front();
    scalar_sets_.pop_front();
    core_.set_flag(set.event, set.id);
    return;
  }
  (*this)[p].push_posted = false;
  kick(p);  // reveals the oldest hidden instruction, whose time this is
}

bool Pipes::moves_at_push(const Pipe& pp) const {
  const Queued& head = pp.q[pp.q.size() - pp.hidden];
  switch (head.kind) {
    case Instr::Kind::Work:
      return true;
    case Instr::Kind::WaitFlag:
      return core_.flags_.count(head.event, head.event_id) > 0;
    default:  // SetFlag, PipeBarrier, CrossCoreSetFlag: after every earlier instruction
      return pp.outstanding == 0;
  }
}

bool Pipes::hand_over_deferred() {
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

void Pipes::post_push_if_moves(PipeId p) {
  Pipe& pp = (*this)[p];
  if (moves_at_push(pp)) {
    post_push(p);
  } else {
    pp.pushless = true;
  }
}

void Pipes::post_push(PipeId p) {
  Pipe& pp = (*this)[p];
  pp.push_posted = true;
  pp.pushless = false;
  core_.sched_.post(pp.q[pp.q.size() - pp.hidden].at, EventClass::Push, core_.uid_, &core_,
                    Core::kPush, static_cast<uint32_t>(p));
}

// A hidden instruction is handed over at its Push time. Every core has at most one Push per
// scalar time (each issue advances the scalar clock), and the pipe's events at a time fire after
// its Pushes of that time, so revealing the instructions due by now when the pipe next looks at
// its queue is what their Push events would have done; the depth level changes at their times.
void Pipes::reveal(PipeId p) {
  Pipe& pp = (*this)[p];
  const Tick t = now();
  while (pp.hidden > 0) {
    Tick at = pp.q[pp.q.size() - pp.hidden].at;
    if (at > t) break;
    --pp.hidden;
    core_.set_level(depth_level(p), static_cast<int>(pp.handed()), at);
  }
}

size_t Pipes::handed_now(const Pipe& pp) const {
  size_t n = pp.handed();
  for (size_t i = n; i < pp.q.size() && pp.q[i].at <= now(); ++i) ++n;
  return n;
}

bool Pipes::all_idle() const {
  if (!scalar_sets_.empty()) return false;
  for (const Pipe& p : pipes_)
    if (!p.q.empty() || p.outstanding > 0) return false;
  return true;
}

bool Pipes::at_rest(PipeId id) const {
  const Pipe& p = (*this)[id];
  return p.q.empty() && p.outstanding == 0 && !p.kick_pending && !p.push_posted && !p.pushless;
}

// A step is booked only when the head can move: a SetFlag or PipeBarrier behind instructions in
// flight waits for their completion (complete() kicks), a WaitFlag for its SetFlag (Core::set_flag
// kicks).
void Pipes::kick(PipeId p) {
  reveal(p);
  Pipe& pp = (*this)[p];
  if (pp.kick_pending) return;
  if (pp.handed() == 0) {
    // A head whose Push was left out (Pipe::pushless) may move at its time now.
    if (pp.pushless && moves_at_push(pp)) post_push(p);
    return;
  }
  const Queued& head = pp.q.front();
  if (head.kind == Instr::Kind::WaitFlag) {
    if (!core_.flags_.count(head.event, head.event_id)) {
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
    kicked_.push_back(Kicked{p, core_.sched_.reserve(EventClass::Model, core_.uid_)});
  } else {
    core_.sched_.post(now(), EventClass::Model, core_.uid_, &core_, Core::kStep,
                      static_cast<uint32_t>(p));
  }
}

// A kStep at now is the next event to fire when nothing is pending before its key; running it in
// place then is what firing it would do. Later kicks (from the steps run here) queue behind, with
// later keys, as their events would; once one cannot run in place, it and the rest are posted.
void Pipes::run_kicked() {
  while (!kicked_.empty()) {
    Kicked k = kicked_.front();
    if (!core_.sched_.fires_next(k.order)) break;
    kicked_.pop_front();
    step(k.p);
  }
  while (!kicked_.empty()) {
    Kicked k = kicked_.front();
    kicked_.pop_front();
    core_.sched_.post_reserved(k.order, &core_, Core::kStep, static_cast<uint32_t>(k.p));
  }
}

void Pipes::step(PipeId p) {
  reveal(p);
  Pipe& pp = (*this)[p];
  Scheduler& sched = core_.sched_;
  const uint32_t uid = core_.uid_;
  pp.kick_pending = false;
  Tick t = now();
  bool popped = false;
  // The completion of the instruction just started, not posted yet: when the step that follows
  // it is due at the same time, both go out as one event (the two would have been posted one
  // right after the other, so nothing of this core can fire between them).
  Completion last;
  auto post_last = [&] {
    if (last.flight == Flights::kNone) return;
    sched.post(last.at, EventClass::Model, uid, &core_, Core::kComplete, last.flight);
    last = Completion{};
  };
  while (pp.handed() > 0) {
    Queued& in = pp.q.front();
    if (in.kind == Instr::Kind::Work) {
      if (pp.engine_free > t) {  // the engine takes the next transfer when its hold ends
        pp.kick_pending = true;
        if (last.flight != Flights::kNone && last.at == pp.engine_free) {
          sched.post(last.at, EventClass::Model, uid, &core_, Core::kCompleteAndStep, last.flight);
          last = Completion{};
        } else {
          post_last();
          sched.post(pp.engine_free, EventClass::Model, uid, &core_, Core::kStep,
                     static_cast<uint32_t>(p));
        }
        break;
      }
      post_last();
      if (PipeTimeline* tl = core_.timeline_.get())
        core_.check_leave(p, in, tl->work_start(p, in.at, pp.engine_free), t);
      last = core_.start_work(p, in, t);
    } else if (in.kind == Instr::Kind::WaitFlag) {
      if (pp.pushless && !pp.blocked && in.at < t) {
        // Its Push was left out because its flag was not set: it has waited since its time.
        pp.blocked = true;
        pp.blocked_since = in.at;
      }
      const Tick expected =
          core_.timeline_ ? core_.timeline_->wait_pass(p, in.at, in.event, in.event_id) : 0;
      if (!core_.take_flag(p, in.event, in.event_id)) {
        if (!pp.blocked) {
          pp.blocked = true;
          pp.blocked_since = t;
        }
        break;
      }
      if (PipeTimeline* tl = core_.timeline_.get()) {
        core_.check_leave(p, in, expected, t);
        tl->waited(in.event, in.event_id);
      }
      if (pp.blocked) {
        pp.blocked = false;
        // The wait shows where the lane is otherwise idle: transfers still in flight (booked to
        // end after t) cover it.
        Tick s = std::max(pp.blocked_since, pp.last_slice_end);
        if (core_.observer_ && t > s) {
          core_.emit(lane_of(p),
                     std::string("WaitFlag<") + event_name(in.event) + ">(" +
                         std::to_string(in.event_id) + ")",
                     s, t);
          pp.last_slice_end = t;
        }
      }
    } else {  // SetFlag and PipeBarrier wait for every earlier instruction of the pipe
      if (pp.outstanding > 0) break;
      post_last();
      if (PipeTimeline* tl = core_.timeline_.get())
        core_.check_leave(p, in, tl->after_all(p, in.at), t);
      if (in.kind == Instr::Kind::SetFlag) core_.set_flag(in.event, in.event_id);
      if (in.kind == Instr::Kind::CrossSet) core_.cross_set_from_pipe(in.event_id, in.work.amount);
    }
    if (core_.timeline_) core_.timeline_->left(p, t);
    pp.q.pop_front();
    pp.pushless = false;
    popped = true;
  }
  post_last();
  core_.set_level(depth_level(p), static_cast<int>(pp.handed()));
  // Run dry before the next hidden instruction's time: it needs its own Push.
  if (pp.handed() == 0 && pp.hidden > 0 && !pp.push_posted && !pp.pushless) post_push_if_moves(p);
  if (popped) core_.scalar_.wake_by_pipes();
}

void Pipes::complete(uint32_t flight) {
  PipeId p = core_.flights_[flight].pipe;
  Effect effect = core_.flights_.complete(flight);
  Pipe& pp = (*this)[p];
  if (effect) effect();
  if (--pp.outstanding == 0) {
    pp.stats.busy_ps += now() - pp.busy_since;
    core_.set_level(busy_level(p), 0);
  }
  kick(p);  // a SetFlag or PipeBarrier at the head may go now
  core_.scalar_.wake_by_pipes();
}

}  // namespace ascend::model
