#include "models/poll_replay.h"

#include <algorithm>
#include <cstring>

#include "models/core.h"
#include "models/errors.h"

namespace ascend::model {

bool PollReplay::Op::operator==(const Op& o) const {
  return wait == o.wait && before == o.before && kind == o.kind && pipe == o.pipe &&
         event == o.event && event_id == o.event_id && work == o.work && amount == o.amount &&
         gm == o.gm && ub_writes.lo == o.ub_writes.lo && ub_writes.hi == o.ub_writes.hi &&
         gm_read == o.gm_read;
}

void PollReplay::reset() {
  recording_ = last_valid_ = sleeping_ = woken_ = adopt_ = false;
  now_.clear();
  last_.clear();
}

// What a read of `bytes` from gm in blocks `b` finds, its blocks one after another.
void PollReplay::gather(GmAddr gm, uint64_t bytes, const GmBlocks& b,
                        std::vector<uint8_t>* out) const {
  out->resize(bytes);
  const uint64_t block = bytes / b.count;
  for (uint32_t i = 0; i < b.count; ++i)
    gm_->read(gm + uint64_t{i} * b.gm_stride, out->data() + i * block, block);
}

// A polling iteration's instruction, with the scalar time since the op before it.
void PollReplay::record(const Instr& in) {
  if (!recording_) return;
  Op op;
  op.before = adv_;
  adv_ = 0;
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
  now_.ops.push_back(op);
}

void PollReplay::record_wait(HardEvent e, uint32_t id) {
  if (!recording_) return;
  Op op;
  op.wait = true;
  op.before = adv_;
  adv_ = 0;
  op.kind = Instr::Kind::WaitFlag;
  op.pipe = PipeId::S;
  op.event = e;
  op.event_id = id;
  now_.ops.push_back(op);
}

void PollReplay::adopt(const Instr& in) {
  adopt_ = false;
  if (in.kind != Instr::Kind::Work || in.pipe != PipeId::MTE2 ||
      in.work.kind != Work::Kind::DmaIn || in.work.gm != plan_.gm ||
      in.work.amount != plan_.bytes || !(in.gm_read == plan_.blocks))
    core_.kernel_fault(std::string("SimPollUntil: an iteration began with ") + in.name +
                       " where the iterations before it began with their read (" + plan_.read_name +
                       "); a poll must repeat while what it reads is unchanged");
}

bool PollReplay::take_read(const Instr& in) {
  const bool read = in.gm_read.count > 0 && !now_.words_read;
  if (read) read_blocks_ = in.gm_read;
  return read;
}

void PollReplay::read_started(GmAddr gm, uint64_t bytes) {
  if (!recording_ || !gm_) return;
  gather(gm, bytes, read_blocks_, &now_.words);
  now_.words_read = true;
}

void PollReplay::iteration_begin() {
  now_.clear();
  adv_ = 0;
  recording_ = true;
  if (adopt_) {  // the replay started this iteration's read: what it found
    now_.words = changed_;
    now_.words_read = true;
  }
}

void PollReplay::abandon() noexcept {
  recording_ = last_valid_ = adopt_ = sleeping_ = false;
}

// The loop shapes a replay times: a plain DMA GM -> UB on MTE2, then either SetFlag MTE2 -> S and
// the scalar's WaitFlag of it (a flag word checked by the scalar), or SetFlag MTE2 -> V, the
// WaitFlag of that on V, one vector instruction, SetFlag V -> S and the scalar's WaitFlag of it
// (flags summed by the vector); then scalar work only.
bool PollReplay::make_plan(const Iteration& it, Plan* plan) const {
  const std::vector<Op>& o = it.ops;
  if (it.irregular || !it.words_read || (o.size() != 3 && o.size() != 6)) return false;
  const bool vector = o.size() == 6;
  auto set = [](const Op& op, PipeId src, PipeId dst) {
    return !op.wait && op.kind == Instr::Kind::SetFlag && op.pipe == src &&
           event_src(op.event) == src && event_dst(op.event) == dst;
  };
  auto waits_for = [](const Op& op, const Op& set) {
    return op.event == set.event && op.event_id == set.event_id;
  };
  const Op &read = o[0], &read_set = o[1], &scalar_wait = o.back();
  if (read.wait || read.kind != Instr::Kind::Work || read.pipe != PipeId::MTE2 ||
      read.work != Work::Kind::DmaIn || read.gm_read.count == 0 || read.amount == 0 ||
      read.amount % read.gm_read.count != 0 || it.words.size() != read.amount)
    return false;
  const uint64_t block = read.amount / read.gm_read.count;
  if (read.ub_writes.hi - read.ub_writes.lo !=
      uint64_t{read.gm_read.count - 1u} * read.gm_read.ub_stride + block)
    return false;
  if (!set(read_set, PipeId::MTE2, vector ? PipeId::V : PipeId::S)) return false;
  Plan p;
  p.vector = vector;
  p.read = read.before;
  p.read_flag = p.read + read_set.before;
  if (vector) {
    const Op &vec_wait = o[2], &vec = o[3], &vec_set = o[4];
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
// its resources at the very point of the event order where the real one would (replay()), so
// their bookings and the loop's keep their order.
bool PollReplay::core_idle() const {
  for (PipeId id : {PipeId::S, PipeId::MTE2, PipeId::V})
    if (!core_.pipes_.at_rest(id)) return false;
  return core_.pipes_.nothing_pending();
}

bool PollReplay::iteration_end(bool done) {
  recording_ = false;
  now_.tail = adv_;
  adv_ = 0;
  if (done) {
    last_valid_ = false;
    return false;
  }
  const bool same =
      last_valid_ && now_.ops == last_.ops && now_.tail == last_.tail && now_.words == last_.words;
  std::swap(last_, now_);
  last_valid_ = true;
  // A replay times its read without the L2 (an AIV's reads go straight to HBM).
  if (!same || !enabled_ || !core_.scalar_.lazy() || core_.observer_ || core_.race_ || !gm_ ||
      core_.l2_ || core_.scalar_.lag() < 0)
    return false;
  if (!make_plan(last_, &plan_) || !core_idle()) return false;
  // The flags the iteration set were all taken by its waits.
  for (const Op& op : last_.ops)
    if (!op.wait && op.kind == Instr::Kind::SetFlag && core_.flags_.count(op.event, op.event_id))
      return false;
  return true;
}

Tick PollReplay::sleep() {
  Core& c = core_;
  start_ = c.scalar_now();  // the next iteration starts where the last one ended
  slept_ = 0;
  sleeping_ = true;
  woken_ = false;
  c.sched_.post(start_ + plan_.read, EventClass::Push, c.uid_, &c, Core::kPollReplay, ++token_);
  // A report names the loop and the wait each of its iterations ends in.
  const Op& wait = last_.ops.back();
  wait_name_ = WaitName{
      "a polling loop (SimPollUntil) whose iterations the core replays, each"
      " ending in WaitFlag<",
      event_name(wait.event), static_cast<int64_t>(wait.event_id), ">"};
  // The scalar resumes at the start of the iteration whose read found the words changed: at or a
  // little before now (that read has started; the thread issues nothing before it).
  c.scalar_.sleep_replayed(wait_name_, start_, woken_ready_);
  c.scalar_.set_now(start_);
  adopt_ = true;
  return slept_;
}

// A replayed iteration's read reaches MTE2 (a Push event at the DataCopy's time, as the real
// one's): its step takes the order key the real one's kick would take here, and runs in place
// when nothing comes before it, else as its own event (kPollRead), as the real step would.
void PollReplay::push(uint32_t token) {
  if (!sleeping_ || token != token_) return;
  Scheduler& sched = core_.sched_;
  const uint64_t order = sched.reserve(EventClass::Model, core_.uid_);
  if (sched.fires_next(order)) {
    replay(token);
  } else {
    sched.post_reserved(order, &core_, Core::kPollRead, token);
  }
}

// One replayed iteration, from where its read starts (where the real one books the HBM and
// reads GM). R is the iteration's start.
void PollReplay::replay(uint32_t token) {
  if (!sleeping_ || token != token_) return;
  Core& c = core_;
  const Plan& p = plan_;
  const Tick R = start_, t = now();
  Pipe& m2 = c.pipes_[PipeId::MTE2];
  if (c.mte2_->free_at() > t || m2.engine_free > t)
    throw SimError(kExitInternal, "a replayed poll found its MTE2 engine busy");
  // What the read finds, as the real DMA would read it here.
  gather(p.gm, p.bytes, p.blocks, &changed_);
  if (changed_ != last_.words) {
    // This iteration may end the loop: start its read as the real one, then wake the thread at
    // the iteration's start; the DataCopy it issues first is this one (adopt()).
    sleeping_ = false;
    Queued q;
    q.kind = Instr::Kind::Work;
    q.pipe = PipeId::MTE2;
    q.work.kind = Work::Kind::DmaIn;
    q.work.amount = p.bytes;
    q.work.gm = p.gm;
    q.name = p.read_name;
    q.at = t;
    const UbRange writes = last_.ops[0].ub_writes;
    UbParts parts;
    parts.add(writes.lo, writes.hi);
    q.flight = c.flights_.add(PipeId::MTE2, UbRange{}, UbRange{}, writes, parts);
    Flights::Flight& f = c.flights_[q.flight];
    f.on_start = nullptr;
    f.effect = [this] {
      const GmBlocks& b = plan_.blocks;
      const uint64_t block = changed_.size() / b.count;
      for (uint32_t i = 0; i < b.count; ++i)
        std::memcpy(core_.local_ + plan_.ub + uint64_t{i} * b.ub_stride,
                    changed_.data() + i * block, block);
    };
    Completion done = c.start_work(PipeId::MTE2, q, t);
    c.sched_.post(done.at, EventClass::Model, c.uid_, &c, Core::kComplete, done.flight);
    woken_ = true;
    c.scalar_.wake();
    return;
  }
  // The words are unchanged: the iteration runs as the last real one did, in time only.
  DmaEngine::Timing tm = c.mte2_->transfer(t, p.gm, p.bytes);
  m2.engine_free = c.mte2_->free_at();
  ++m2.stats.instrs;
  m2.stats.busy_ps += tm.done - t;
  c.note_gm_read(p.gm, p.bytes);
  const Tick read_set = std::max(tm.done, R + p.read_flag);
  Tick scalar_set = read_set;  // when the flag the scalar waits for is set
  if (p.vector) {
    Pipe& v = c.pipes_[PipeId::V];
    const Tick vec_start = std::max({read_set, R + p.vec_wait, R + p.vec, v.engine_free});
    const Tick vec_done = c.vector_->execute(vec_start, c.cost_.vector(p.repeats)).end;
    v.engine_free = vec_done;
    ++v.stats.instrs;
    v.stats.busy_ps += vec_done - vec_start;
    scalar_set = std::max(vec_done, R + p.vec_flag);
  }
  const Tick wait_from = R + p.scalar_wait;
  const Tick resumed = std::max(scalar_set, wait_from);
  c.scalar_.add_replayed(p.busy, resumed - wait_from);
  const Tick end = resumed + p.tail;
  slept_ += end - R;
  start_ = end;
  c.sched_.post(end + p.read, EventClass::Push, c.uid_, &c, Core::kPollReplay, ++token_);
}

}  // namespace ascend::model
