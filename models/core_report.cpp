// What a core shows without taking part: slices and levels for its observer (trace, VCD), its
// counters (stats.json), and the report of what it waits for (a deadlock or hang).
#include <array>
#include <deque>
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
  if (scalar_.waiting()) {
    os << "scalar blocked in " << scalar_.waiting_for() << " since "
       << ps_to_ns(scalar_.waiting_since()) << " ns";
  } else {
    os << "scalar running";
  }
  if (read_run_.reads > 1)
    os << "; polling GM " << (gm_name ? gm_name(read_run_.gm) : std::to_string(read_run_.gm))
       << " (" << read_run_.bytes << " B) since " << ps_to_ns(read_run_.since) << " ns, "
       << read_run_.reads << " reads";
  for (int i = 1; i < kPipes; ++i) {
    const Pipe& pp = pipes_[static_cast<PipeId>(i)];
    if (pp.q.empty() && pp.outstanding == 0) continue;
    const size_t handed = pipes_.handed_now(pp);
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

namespace {

// The units a core may have, by module name (an index into CoreCounterSpecs::units).
constexpr std::array<const char*, 6> kUnitNames{"vector", "mte2", "mte3",
                                                "mte1",   "cube", "fixpipe"};
enum UnitIndex : size_t { kVector, kMte2, kMte3, kMte1, kCube, kFixpipe };

// The core's counters, named by its lanes and units: declared once here.
struct CoreCounterSpecs {
  CounterSpec busy[kPipes], instrs[kPipes];
  CounterSpec stall{"SCALAR.stall_ps", "ps",
                    "time the scalar waited: a flag, a full queue, a barrier, a poll"};
  CounterSpec auto_syncs{"SCALAR.auto_syncs", "waits",
                         "waits the compiler's automatic synchronisation inserted"};
  CounterSpec resumes[kWaitCauses];
  CounterSpec windows[kActivityWindowsPs.size()];
  // A unit's server counters under its module name: vector.bytes, mte2.busy_ps, ...
  std::deque<std::string> text;
  std::array<std::array<CounterSpec, 3>, kUnitNames.size()> units;

  CoreCounterSpecs() {
    for (int p = 0; p < kPipes; ++p) {
      const char* lane = lane_name(static_cast<Lane>(p));
      busy[p] = {
          keep(std::string(lane) + ".busy_ps"), "ps",
          p == 0 ? "time the scalar unit spent on its own work"
                 : keep(std::string("time the ") + lane + " pipe had an instruction in flight")};
      instrs[p] = {keep(std::string(lane) + ".instrs"), "instrs",
                   keep(std::string("instructions the ") + lane + " pipe executed")};
    }
    for (int c = 0; c < kWaitCauses; ++c) {
      const char* cause = wait_cause_name(static_cast<WaitCause>(c));
      resumes[c] = {keep(std::string("SCALAR.resumes_") + cause), "resumes",
                    keep(std::string("times the kernel thread resumed from a wait of cause '") +
                         cause + "' (docs/performance.md)")};
    }
    for (size_t i = 0; i < kActivityWindowsPs.size(); ++i) {
      const std::string us = std::to_string(kActivityWindowsPs[i] / 1'000'000);
      windows[i] = {keep("SCALAR.active_windows_" + us + "us"), "windows",
                    keep("windows of " + us +
                         " us of simulated time in which the kernel thread resumed "
                         "(docs/performance.md)")};
    }
    for (size_t i = 0; i < kUnitNames.size(); ++i) {
      std::array<CounterSpec, 3>& u = units[i];
      const std::string m(kUnitNames[i]);
      u[0] = {keep(m + ".bytes"), "B", keep("bytes through the " + m + " unit")};
      u[1] = {keep(m + ".busy_ps"), "ps",
              keep("time the " + m + " unit was held, each transfer's bytes at its rate")};
      u[2] = {keep(m + ".transfers"), "transfers", keep("transfers of the " + m + " unit")};
    }
  }
  const char* keep(std::string s) { return text.emplace_back(std::move(s)).c_str(); }
};

// Never destroyed: a record's counters point at their specs, and a program built against the SDK
// writes its stats at exit, after the statics of this file may be gone.
const CoreCounterSpecs& core_specs() {
  static const CoreCounterSpecs* specs = new CoreCounterSpecs;
  return *specs;
}

}  // namespace

CounterSet Core::counters() const {
  // Per pipe the core has, named by its lane: busy_ps and instrs. The scalar pipe's busy time is
  // the scalar unit's own work; its queued instructions count.
  const CoreCounterSpecs& spec = core_specs();
  CounterSet s;
  for (int p = 0; p < kPipes; ++p) {
    if (!has_pipe(static_cast<PipeId>(p))) continue;
    const Pipe::Stats& stats = pipes_[static_cast<PipeId>(p)].stats;
    s.add(spec.busy[p], p == 0 ? scalar_.busy_ps() : stats.busy_ps);
    s.add(spec.instrs[p], stats.instrs);
  }
  s.add(spec.stall, scalar_.stall_ps());
  s.add(spec.auto_syncs, auto_syncs_);
  for (int c = 0; c < kWaitCauses; ++c)
    s.add(spec.resumes[c], scalar_.resumes(static_cast<WaitCause>(c)));
  for (size_t i = 0; i < kActivityWindowsPs.size(); ++i)
    s.add(spec.windows[i], scalar_.active_windows(i));
  // The units, under their module names: bytes, busy_ps, transfers.
  std::vector<std::pair<UnitIndex, CounterSet>> units;
  if (kind_ == CoreKind::Aiv)
    units = {
        {kVector, vector_->counters()}, {kMte2, mte2_->counters()}, {kMte3, mte3_->counters()}};
  else
    units = {{kMte2, mte2_->counters()},
             {kMte1, mte1_->counters()},
             {kCube, cube_->counters()},
             {kFixpipe, fixpipe_->counters()},
             {kMte3, mte3_->counters()}};
  for (const auto& [unit, set] : units) {
    const std::array<CounterSpec, 3>& u = spec.units[unit];
    for (size_t i = 0; i < set.size() && i < 3; ++i) s.add(u[i], set.list()[i].value);
  }
  return s;
}

}  // namespace ascend::model
