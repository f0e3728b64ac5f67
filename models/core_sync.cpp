// The Core's side of its synchronization (core_sync.h): SetFlag/WaitFlag from and to the scalar,
// flags reaching a pipe, cross-core flags, and the SyncAll barrier's arrival and release.
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
  if (dst == PipeId::S) {
    wake_scalar();
  } else {
    kick(dst);
  }
}

void Core::scalar_set_flag(HardEvent e, uint32_t id) {
  polls_.irregular();
  scalar_advance(issue_ps_);
  scalar_sets_.push_back(ScalarSet{e, id});
  sched_.post(scalar_now(), EventClass::Push, uid_, this, kPush, static_cast<uint32_t>(PipeId::S));
}

void Core::scalar_wait_flag(HardEvent e, uint32_t id) {
  scalar_advance(issue_ps_);
  polls_.record_wait(e, id);
  uint64_t key = flag_key(e, id);
  if (!flags_.count(e, id))
    block_on([&] { return flags_.count(e, id) > 0; }, WaitName{"WaitFlag<", event_name(e), id, ">"},
             nullptr, kNever, false);
  flags_.consume(e, id);
  set_level(flag_level(e), levels_[flag_level(e)] - 1, scalar_now());
  if (race_) race_->wait_flag(PipeId::S, key);
}

// SyncAll begins with PipeBarrier<PIPE_ALL>, as the kit's dav-c220 implementation does: what a core
// copied out before the barrier has landed when any core leaves it.
void Core::sync_all(bool mixed) {
  polls_.irregular();
  scalar_advance(issue_ps_);
  drain();
  scalar_sync();
  (mixed ? barriers_.mixed : kind_ == CoreKind::Aiv ? barriers_.aiv : barriers_.aic).arrive(*this);
}

void Core::cross_wait_flag(uint32_t id, int need, const char* what) {
  polls_.irregular();
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
  polls_.irregular();
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

}  // namespace ascend::model
