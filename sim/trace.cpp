#include "sim/trace.h"

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "models/errors.h"

namespace ascend {

void TraceRecorder::slice(int die, int core, model::Lane lane, const std::string& name,
                          model::Tick start, model::Tick end, const model::SliceArgs* args) {
  if (!lane_masks_.empty()) {
    auto it = lane_masks_.find({die, core});
    if (it != lane_masks_.end() && !(it->second >> static_cast<int>(lane) & 1)) return;
  }
  slices_.push_back(Slice{die, core, lane, name, start, end, args ? *args : model::SliceArgs{}});
}

void TraceRecorder::link(const model::BandwidthServer& port, model::Tick start, model::Tick end) {
  links_.push_back(LinkSlice{&port, start, end});
}

void TraceRecorder::write(const std::string& path) const {
  using nlohmann::json;
  auto us = [](model::Tick t) { return static_cast<double>(t) / 1e6; };
  auto tid = [](int core, model::Lane lane) {
    return core * model::kLanes + static_cast<int>(lane);
  };
  json events = json::array();
  std::map<std::pair<int, int>, bool> lanes;
  for (const Slice& s : slices_) {
    lanes[{s.die, tid(s.core, s.lane)}] = true;
    json e = {{"name", s.name},    {"ph", "X"},
              {"pid", s.die},      {"tid", tid(s.core, s.lane)},
              {"ts", us(s.start)}, {"dur", us(s.end - s.start)}};
    if (s.args.bytes) {  // a DMA: MTE2 reads GM into this die's UB, MTE3 writes it out
      int gm_die = model::GlobalMemory::die_of(s.args.gm);
      bool in = s.lane == model::Lane::MTE2;
      json a = {{"bytes", s.args.bytes},
                {"src_die", in ? gm_die : s.die},
                {"dst_die", in ? s.die : gm_die}};
      if (const model::GlobalMemory::Region* r = gm_ ? gm_->region_of(s.args.gm, 1) : nullptr)
        a["gm"] = r->name + " + " + std::to_string(s.args.gm - r->base);
      e["args"] = a;
    }
    events.push_back(std::move(e));
  }
  // Link lanes: one per resource that carried traffic, after the core lanes of its die.
  constexpr int kFabricPid = 1 << 20, kLinkTidBase = 1 << 20;
  std::map<const model::BandwidthServer*, int> link_tid;
  bool fabric_named = false;
  for (const LinkSlice& l : links_) {
    auto [it, added] = link_tid.emplace(l.port, kLinkTidBase + static_cast<int>(link_tid.size()));
    int pid = l.port->owner_die() >= 0 ? l.port->owner_die() : kFabricPid;
    if (added) {
      events.push_back({{"name", "thread_name"},
                        {"ph", "M"},
                        {"pid", pid},
                        {"tid", it->second},
                        {"args", {{"name", l.port->module}}}});
      events.push_back({{"name", "thread_sort_index"},
                        {"ph", "M"},
                        {"pid", pid},
                        {"tid", it->second},
                        {"args", {{"sort_index", it->second}}}});
      if (pid == kFabricPid && !fabric_named) {
        fabric_named = true;
        events.push_back({{"name", "process_name"},
                          {"ph", "M"},
                          {"pid", pid},
                          {"args", {{"name", fabric_name_}}}});
      }
    }
    events.push_back({{"name", "busy"},
                      {"ph", "X"},
                      {"pid", pid},
                      {"tid", it->second},
                      {"ts", us(l.start)},
                      {"dur", us(l.end - l.start)}});
  }
  std::map<int, bool> dies;
  for (const auto& [port, _] : link_tid)
    if (port->owner_die() >= 0) dies[port->owner_die()] = true;
  for (const auto& [key, _] : lanes) {
    auto [die, t] = key;
    int core = t / model::kLanes;
    auto lane = static_cast<model::Lane>(t % model::kLanes);
    auto it = core_names_.find({die, core});
    std::string name = (it != core_names_.end() ? it->second : "core " + std::to_string(core)) +
                       " " + model::lane_name(lane);
    events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", die},
                      {"tid", t},
                      {"args", {{"name", name}}}});
    events.push_back({{"name", "thread_sort_index"},
                      {"ph", "M"},
                      {"pid", die},
                      {"tid", t},
                      {"args", {{"sort_index", t}}}});
    dies[die] = true;
  }
  for (const auto& [die, _] : dies)
    events.push_back(
        {{"name", "process_name"},
         {"ph", "M"},
         {"pid", die},
         {"args",
          {{"name", die_names_.count(die) ? die_names_.at(die) : "die " + std::to_string(die)}}}});
  std::ofstream f(path);
  if (!f) throw SimError(kExitBadInput, "cannot write " + path);
  f << json{{"displayTimeUnit", "ns"}, {"traceEvents", events}}.dump() << "\n";
}

}  // namespace ascend
