#include "sim/vcd.h"

#include <algorithm>
#include <fstream>

#include "models/errors.h"

namespace ascend {

namespace {

uint64_t core_key(int die, int core) {
  return (static_cast<uint64_t>(die) << 32) | static_cast<uint32_t>(core);
}

// VCD identifiers: printable characters '!'..'~' in base 94.
std::string ident(int id) {
  std::string s;
  do {
    s += static_cast<char>('!' + id % 94);
    id /= 94;
  } while (id > 0);
  return s;
}

std::string value_text(int width, int64_t v, const std::string& id) {
  if (width == 1) return (v ? "1" : "0") + id;
  std::string bits;
  auto u = static_cast<uint64_t>(v);
  for (int b = width - 1; b >= 0; --b) bits += ((u >> b) & 1) ? '1' : '0';
  size_t first = bits.find('1');
  bits = first == std::string::npos ? "0" : bits.substr(first);
  return "b" + bits + " " + id;
}

}  // namespace

int VcdWriter::add(const std::string& scope, const std::string& name, int width) {
  vars_.push_back({scope, name, width});
  return static_cast<int>(vars_.size()) - 1;
}

void VcdWriter::add_core(int die, int core, const std::string& module, model::CoreKind kind) {
  std::vector<int> ids(model::kLevels, -1);
  for (int l = 0; l < model::kLevels; ++l) {
    bool has = l < 2 * model::kPipes
                   ? model::has_pipe(kind, static_cast<model::PipeId>(l % model::kPipes))
                   : model::has_event(kind, static_cast<model::HardEvent>(l - 2 * model::kPipes));
    if (has) ids[l] = add(module, model::level_name(l), l < model::kPipes ? 1 : 32);
  }
  core_ids_[core_key(die, core)] = std::move(ids);
}

void VcdWriter::level(int die, int core, int level, int delta, model::Tick at) {
  auto it = core_ids_.find(core_key(die, core));
  if (it != core_ids_.end() && it->second[level] >= 0) add_delta(it->second[level], at, delta);
}

void VcdWriter::write(const std::string& path) const {
  std::ofstream f(path);
  if (!f) throw SimError(kExitBadInput, "cannot write " + path);
  f << "$version ascend-sim $end\n$timescale 1 ps $end\n";
  // Variables in registration order, each scope ("a.b") opened as nested modules.
  std::vector<std::string> open;
  for (size_t i = 0; i < vars_.size(); ++i) {
    std::vector<std::string> path;
    size_t p = 0;
    const std::string& s = vars_[i].scope;
    while (p <= s.size()) {
      size_t dot = s.find('.', p);
      if (dot == std::string::npos) dot = s.size();
      path.push_back(s.substr(p, dot - p));
      p = dot + 1;
    }
    size_t common = 0;
    while (common < open.size() && common < path.size() && open[common] == path[common]) ++common;
    for (size_t k = open.size(); k > common; --k) f << "$upscope $end\n";
    for (size_t k = common; k < path.size(); ++k) f << "$scope module " << path[k] << " $end\n";
    open = path;
    f << "$var " << (vars_[i].width == 1 ? "wire" : "integer") << " " << vars_[i].width << " "
      << ident(static_cast<int>(i)) << " " << vars_[i].name << " $end\n";
  }
  for (size_t k = open.size(); k > 0; --k) f << "$upscope $end\n";
  f << "$enddefinitions $end\n#0\n$dumpvars\n";
  for (size_t i = 0; i < vars_.size(); ++i)
    f << value_text(vars_[i].width, 0, ident(static_cast<int>(i))) << "\n";
  f << "$end\n";

  // Changes in time order (stable: same-time changes of a variable keep their order).
  std::vector<size_t> order(changes_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return changes_[a].t < changes_[b].t; });
  std::vector<int64_t> value(vars_.size(), 0), written(vars_.size(), 0);
  std::vector<int> touched;
  for (size_t i = 0; i < order.size();) {
    model::Tick t = changes_[order[i]].t;
    touched.clear();
    for (; i < order.size() && changes_[order[i]].t == t; ++i) {
      const Change& c = changes_[order[i]];
      value[c.id] = c.delta ? value[c.id] + c.value : c.value;
      touched.push_back(c.id);
    }
    // In variable order: the same waves give the same file, whatever order the changes came in.
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    bool stamped = false;
    for (int id : touched) {
      if (value[id] == written[id]) continue;
      if (!stamped) f << "#" << t << "\n";
      stamped = true;
      written[id] = value[id];
      f << value_text(vars_[id].width, value[id], ident(id)) << "\n";
    }
  }
  if (!f) throw SimError(kExitBadInput, "cannot write " + path);
}

}  // namespace ascend
