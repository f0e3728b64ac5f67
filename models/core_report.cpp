// What a core shows without taking part: slices and levels for its observer (trace, VCD), its
// counters (stats.json), and the report of what it waits for (a deadlock or hang).
#include <sstream>
#include <string>
#include <vector>

#include "models/core.h"

namespace ascend::model {

void Core::emit(Lane lane, const std::string& name, Tick start, Tick end, const SliceArgs* args) {
  if (observer_) observer_->slice(die_, index_, lane, name, start, end, args);
}

void Core::note_gm_read(GmAddr gm, uint64_t bytes) {
  if (gm == read_run_.gm && bytes == read_run_.bytes) {
    ++read_run_.reads;
  } else {
    read_run_ = ReadRun{gm, bytes, now(), 1};
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
  if (read_run_.reads > 1)
    os << "; polling GM " << (gm_name ? gm_name(read_run_.gm) : std::to_string(read_run_.gm))
       << " (" << read_run_.bytes << " B) since " << ps_to_ns(read_run_.since) << " ns, "
       << read_run_.reads << " reads";
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
