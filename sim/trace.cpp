#include "sim/trace.h"

#include <nlohmann/json.hpp>

#include "models/errors.h"

namespace ascend {

namespace {
using nlohmann::json;
constexpr int kFabricPid = 1 << 20, kLinkTidBase = 1 << 20;
// Chrome trace timestamps are in microseconds; one division keeps them exact to the picosecond.
double trace_us(model::Tick t) {
  return static_cast<double>(t) / 1e6;
}
}  // namespace

TraceRecorder::TraceRecorder(const std::string& path, const model::GlobalMemory* gm)
    : path_(path), gm_(gm), file_(std::fopen(path.c_str(), "w")) {
  if (!file_) throw SimError(kExitBadInput, "cannot write " + path);
  buffer_ = R"({"displayTimeUnit":"ns","traceEvents":[)";
}

TraceRecorder::~TraceRecorder() {
  try {
    close();
  } catch (const std::exception&) {  // a write error was reported when it happened, or is moot
  }
}

void TraceRecorder::emit(const std::string& event_json) {
  if (!file_) return;
  if (events_++) buffer_ += ",\n";
  buffer_ += event_json;
  peak_buffered_ = std::max(peak_buffered_, buffer_.size());
  if (buffer_.size() >= kChunkBytes) flush();
}

void TraceRecorder::flush() {
  if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
    throw SimError(kExitBadInput, "cannot write " + path_);
  buffer_.clear();
}

void TraceRecorder::close() {
  if (!file_) return;
  buffer_ += "]}\n";
  flush();
  std::fclose(file_);
  file_ = nullptr;
}

std::string TraceRecorder::die_name(int die) const {
  auto it = die_names_.find(die);
  return it != die_names_.end() ? it->second : "die " + std::to_string(die);
}

void TraceRecorder::name_process(int pid, const std::string& name) {
  if (!processes_.insert(pid).second) return;
  emit(
      json{{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}}.dump());
}

void TraceRecorder::name_lane(int pid, int tid, const std::string& name) {
  if (!lanes_.insert({pid, tid}).second) return;
  emit(json{
      {"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}}
           .dump());
  emit(json{{"name", "thread_sort_index"},
            {"ph", "M"},
            {"pid", pid},
            {"tid", tid},
            {"args", {{"sort_index", tid}}}}
           .dump());
}

void TraceRecorder::slice(int die, int core, model::Lane lane, const std::string& name,
                          model::Tick start, model::Tick end, const model::SliceArgs* args) {
  if (!lane_masks_.empty()) {
    auto it = lane_masks_.find({die, core});
    if (it != lane_masks_.end() && !(it->second >> static_cast<int>(lane) & 1)) return;
  }
  int tid = core * model::kLanes + static_cast<int>(lane);
  name_process(die, die_name(die));
  if (!lanes_.count({die, tid})) {
    auto it = core_names_.find({die, core});
    name_lane(die, tid,
              (it != core_names_.end() ? it->second : "core " + std::to_string(core)) + " " +
                  model::lane_name(lane));
  }
  json e = {{"name", name},
            {"ph", "X"},
            {"pid", die},
            {"tid", tid},
            {"ts", trace_us(start)},
            {"dur", trace_us(end - start)}};
  if (args && args->bytes) {  // a DMA: MTE2 reads GM into this die's UB, MTE3 writes it out
    int gm_die = model::GlobalMemory::die_of(args->gm);
    bool in = lane == model::Lane::MTE2;
    json a = {
        {"bytes", args->bytes}, {"src_die", in ? gm_die : die}, {"dst_die", in ? die : gm_die}};
    if (const model::GlobalMemory::Region* r = gm_ ? gm_->region_of(args->gm, 1) : nullptr)
      a["gm"] = r->name + " + " + std::to_string(args->gm - r->base);
    e["args"] = a;
  }
  emit(e.dump());
}

// Link lanes: one per resource that carried traffic, after the core lanes of its die.
void TraceRecorder::link(const model::BandwidthServer& port, model::Tick start, model::Tick end) {
  auto [it, added] = link_tid_.emplace(&port, kLinkTidBase + static_cast<int>(link_tid_.size()));
  int pid = port.owner_die() >= 0 ? port.owner_die() : kFabricPid;
  if (added) {
    name_process(pid, pid == kFabricPid ? fabric_name_ : die_name(pid));
    name_lane(pid, it->second, port.module.empty() ? port.name() : port.module);
  }
  emit(json{{"name", "busy"},
            {"ph", "X"},
            {"pid", pid},
            {"tid", it->second},
            {"ts", trace_us(start)},
            {"dur", trace_us(end - start)}}
           .dump());
}

}  // namespace ascend
