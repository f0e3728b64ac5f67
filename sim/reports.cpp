// Why a run stopped early, in words: the race check's findings, and a deadlock's or hang's
// report of what every stuck core waits for (with the injected faults named first).
#include "sim/simulation.h"

#include <sstream>

#include "models/errors.h"

namespace ascend {

using model::Tick;

std::string Simulation::race_report() const {
  std::ostringstream os;
  uint64_t hazards = 0, cores = 0, shown = 0;
  for (int d = 0; d < cluster_->dies(); ++d)
    cluster_->die(d).for_each_core([&](const model::Core& c) {
      const model::RaceChecker* rc = c.race_checker();
      if (!rc || rc->hazards() == 0) return;
      hazards += rc->hazards();
      ++cores;
      for (const std::string& f : rc->findings())
        if (shown++ < 16) os << "\n  " << f;
    });
  if (hazards == 0) return "";
  return "race check: " + std::to_string(hazards) + " unordered access(es) on " +
         std::to_string(cores) + " core(s); the distinct ones:" + os.str();
}

std::string Simulation::stuck_report(bool hang, Tick deadline) const {
  std::ostringstream os;
  if (hang) {
    os << "hang: kernel still running at " << model::ps_to_ns(deadline)
       << " ns, past sim.poll_timeout_us = " << params_.real("sim.poll_timeout_us") << " us";
  } else {
    os << "deadlock: simulated time cannot advance at " << model::ps_to_ns(model::now())
       << " ns while cores are still blocked";
  }
  auto gm_name = [this](model::GmAddr a) {
    const model::GlobalMemory::Region* r = cluster_->gm().region_of(a, 1);
    std::ostringstream n;
    if (r)
      n << r->name << " + " << (a - r->base);
    else
      n << "0x" << std::hex << a;
    return n.str();
  };
  // Injected faults are named first, and a stalled rank's cores come first.
  const std::string faults = injected_faults(params_);
  if (!faults.empty()) os << "\n  " << faults;
  const int stalled = runtime_->faults().stall_rank;
  std::vector<int> order;
  if (stalled >= 0) order.push_back(stalled);
  for (int d = 0; d < cluster_->dies(); ++d)
    if (d != stalled) order.push_back(d);
  int shown = 0, stuck = 0;
  for (int d : order) {
    cluster_->die(d).for_each_core([&](const model::Core& c) {
      if (c.state() != model::Core::State::Running) return;
      ++stuck;
      if (shown++ < 64) os << "\n  " << c.blocked_report(gm_name);
    });
  }
  if (shown > 64) os << "\n  ... and " << (stuck - 64) << " more cores";
  return os.str();
}

std::string injected_faults(const Params& p) {
  std::string out;
  for (const ParamSpec* s : p.specs())
    if (s->key.rfind("fault.", 0) == 0 && p.text(s->key) != s->default_value)
      out += (out.empty() ? "" : ", ") + s->key + " = " + p.text(s->key);
  return out.empty() ? "" : "injected fault(s): " + out;
}

}  // namespace ascend
