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

// What a counter is, declared once where the counter is kept: its name, unit and meaning.
// Specs live as long as the model (static storage, or interned: link_class_spec).
struct CounterSpec {
  const char* name;
  const char* unit;  // "B", "ps", "instrs", "transfers", "waits"
  const char* description;
};

struct Counter {
  const CounterSpec* spec;
  uint64_t value;
  const char* name() const { return spec->name; }
  const char* unit() const { return spec->unit; }
  const char* description() const { return spec->description; }
};

// An ordered list of counters. Counters only grow, so `after - before` is what happened between
// two snapshots; a counter missing from `before` (a link class first used in between) counts
// from 0.
class CounterSet {
 public:
  void add(const CounterSpec& spec, uint64_t value) { counters_.push_back({&spec, value}); }
  void add(CounterSpec&&, uint64_t) = delete;  // a counter keeps its spec's address
  const std::vector<Counter>& list() const { return counters_; }
  size_t size() const { return counters_.size(); }
  bool empty() const { return counters_.empty(); }
  auto begin() const { return counters_.begin(); }
  auto end() const { return counters_.end(); }

  const Counter* find(const char* name) const {
    for (const Counter& c : counters_)
      if (std::strcmp(c.name(), name) == 0) return &c;
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
      const Counter* b = i < before.size() && before.counters_[i].spec == a.spec
                             ? &before.counters_[i]
                             : before.find(a.name());
      d.counters_.push_back({a.spec, a.value - (b ? b->value : 0)});
    }
    return d;
  }

 private:
  std::vector<Counter> counters_;
};

// A module that counts: its counters() are what it did so far. Cores, HBMs, L2s and fabric
// ports are; a core's units are not (the core lists their counters under the unit's name, as
// vector.bytes), so that a walk over the module tree counts nothing twice.
class Counted {
 public:
  virtual ~Counted() = default;
  virtual CounterSet counters() const = 0;
};

}  // namespace ascend::model
