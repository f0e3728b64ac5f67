// Named counters with units, the one way a model's figures are read. Every unit that counts
// (a core's pipes, a bandwidth server, the fabric's link classes) lists its counters as a
// CounterSet; a snapshot before a launch subtracted from one after gives that launch's figures,
// whatever the counters are (Simulation::run_kernel).
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace ascend::model {

// Names and units are static strings (string literals, or names that live as long as the model).
struct Counter {
  const char* name;
  const char* unit;  // "B", "ps", "instrs", "transfers"
  uint64_t value;
};

// An ordered list of counters. Counters only grow, so `after - before` is what happened between
// two snapshots; a counter missing from `before` (a link class first used in between) counts
// from 0.
class CounterSet {
 public:
  void add(const char* name, const char* unit, uint64_t value) {
    counters_.push_back({name, unit, value});
  }
  const std::vector<Counter>& list() const { return counters_; }
  size_t size() const { return counters_.size(); }
  bool empty() const { return counters_.empty(); }
  auto begin() const { return counters_.begin(); }
  auto end() const { return counters_.end(); }

  const Counter* find(const char* name) const {
    for (const Counter& c : counters_)
      if (std::strcmp(c.name, name) == 0) return &c;
    return nullptr;
  }
  bool contains(const char* name) const { return find(name) != nullptr; }
  // The value of a counter this set must have.
  uint64_t operator[](const char* name) const {
    if (const Counter* c = find(name)) return c->value;
    throw std::out_of_range(std::string("no counter ") + name);
  }

  friend CounterSet operator-(const CounterSet& after, const CounterSet& before) {
    CounterSet d;
    d.counters_.reserve(after.size());
    for (size_t i = 0; i < after.size(); ++i) {
      const Counter& a = after.counters_[i];
      const Counter* b = i < before.size() && std::strcmp(before.counters_[i].name, a.name) == 0
                             ? &before.counters_[i]
                             : before.find(a.name);
      d.counters_.push_back({a.name, a.unit, a.value - (b ? b->value : 0)});
    }
    return d;
  }

 private:
  std::vector<Counter> counters_;
};

}  // namespace ascend::model
