// The Core's side of its synchronization (core_sync.h): SetFlag/WaitFlag from and to the scalar,
// flags set and taken by a pipe (set_flag, take_flag), cross-core flags from the scalar and from
// a pipe (cross_set_from_pipe), PipeBarrier<PIPE_ALL> (drain), and the SyncAll barrier's arrival
// and release.
#include <string>
#include <vector>

#include "models/core.h"

namespace ascend::model {

uint64_t Core::flag_key(HardEvent e, uint32_t id) const {
  return (static_cast<uint64_t>(e) << 32) | id;
}

void Core::set_flag(HardEvent e, uint32_t id) {
  flags_.add(e, id);
  if (race_) race_->set_flag(event_src(e), flag_key(e, id));
  set_level(flag_level(e), levels_[flag_level(e)] + 1);
  PipeId dst = event_dst(e);
  if (timeline_) timeline_->flag_set(e, id, now());
  if (dst == PipeId::S) {
    scalar_.wake();
  } else {
    pipes_.kick(dst);
  }
}

bool Core::take_flag(PipeId p, HardEvent e, uint32_t id) {
  if (!flags_.count(e, id)) return false;
  flags_.consume(e, id);
  set_level(flag_level(e), levels_[flag_level(e)] - 1);
  if (race_) race_->wait_flag(p, flag_key(e, id));
  return true;
}

void Core::cross_set_from_pipe(uint32_t id, uint64_t mode) {
  const Tick at = now() + timing_.clock.cycles(timing_.crosscore_flag_cycles);
  if (mode >= kCrossToPeer) {
    Core* peer = cross_peers_[2][mode - kCrossToPeer];
    sched_.post(at, EventClass::Model, peer->uid_, peer, kCrossFlag, id);
  } else if (mode == 0) {  // a barrier of the kind's cores
    int& sets = (kind_ == CoreKind::Aiv ? barriers_.group_sets_aiv : barriers_.group_sets_aic)[id];
    if (++sets == static_cast<int>(cross_peers_[0].size())) {
      sets = 0;
      for (Core* peer : cross_peers_[0])
        sched_.post(at, EventClass::Model, peer->uid_, peer, kCrossFlag, id);
    }
  } else {
    for (Core* peer : cross_peers_[mode])
      sched_.post(at, EventClass::Model, peer->uid_, peer, kCrossFlag, id);
  }
}

void Core::scalar_set_flag(HardEvent e, uint32_t id) {
  polls_.irregular();
  scalar_.issue();
  pipes_.push_scalar_set(e, id, scalar_.now());
}

void Core::scalar_wait_flag(HardEvent e, uint32_t id) {
  scalar_.issue();
  polls_.record_wait(e, id);
  uint64_t key = flag_key(e, id);
  const Tick from = scalar_.now();
  if (!flags_.count(e, id))
    scalar_.block_on(
        WaitCause::Flag, [&] { return flags_.count(e, id) > 0; },
        WaitName{"WaitFlag<", event_name(e), id, ">"}, nullptr, kNever, false);
  if (timeline_) {
    check_scalar(
        [&] {
          return WaitName{"WaitFlag<", event_name(e), id, ">"}.str();
        },
        from, timeline_->scalar_wait(from, e, id));
    timeline_->waited(e, id);
  }
  flags_.consume(e, id);
  set_level(flag_level(e), levels_[flag_level(e)] - 1, scalar_.now());
  if (race_) race_->wait_flag(PipeId::S, key);
}

// SyncAll begins with PipeBarrier<PIPE_ALL>, as the kit's dav-c220 implementation does: what a core
// copied out before the barrier has landed when any core leaves it.
void Core::sync_all(bool mixed) {
  polls_.irregular();
  scalar_.issue();
  drain();
  scalar_.sync();
  (mixed ? barriers_.mixed : kind_ == CoreKind::Aiv ? barriers_.aiv : barriers_.aic).arrive(*this);
}

void Core::cross_wait_flag(uint32_t id, int need, const char* what) {
  polls_.irregular();
  scalar_.issue();
  if (cross_flags_[id] < need)
    scalar_.block_on(
        WaitCause::CrossFlag, [this, id, need] { return cross_flags_[id] >= need; },
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
  polls_.irregular();
  scalar_.issue();
  sched_.post(scalar_.now() + timing_.clock.cycles(timing_.crosscore_flag_cycles),
              EventClass::Model, peer.uid_, &peer, kCrossFlag, id);
}

void Core::pipe_barrier_all() {
  polls_.irregular();
  scalar_.issue();
  drain();
}

void Core::drain() {
  const Tick from = scalar_.now();
  scalar_.block_on(
      WaitCause::Barrier, [&] { return pipes_.all_idle(); }, WaitName{"PipeBarrier<PIPE_ALL>"});
  if (timeline_)
    check_scalar([] { return std::string("PipeBarrier<PIPE_ALL>"); }, from,
                 timeline_->all_done(from));
  if (race_) race_->join_all_into_scalar();
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
      if (c != &core) c->scalar_.post_resume(release_at_);
  }
  core.scalar_.block_on(
      WaitCause::SyncAll, [&] { return generation_ != gen && now() >= release_at_; },
      WaitName{"SyncAll"},
      [this] {
        return "SyncAll (" + std::to_string(arrived_) + " of " + std::to_string(expected_) +
               " cores arrived)";
      },
      generation_ != gen ? release_at_ : kNever, false);
}

}  // namespace ascend::model
