// A kernel's own figures: each a name, a unit and a value (a number, a string, or a JSON table:
// one entry per rank, per phase or per call), kept in the order the kernel set them. stats.json
// writes each under its name in the kernel's entry, and its unit under `units`.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ascend {

struct Figure {
  std::string name;
  std::string unit;  // of the value, or of each number in a table ("ns", "GB/s", "B", "count")
  nlohmann::json value;
};

class Figures {
 public:
  // Sets a figure (replacing one of the same name, which keeps its place).
  void set(const std::string& name, const std::string& unit, nlohmann::json value) {
    for (Figure& f : list_)
      if (f.name == name) {
        f.unit = unit;
        f.value = std::move(value);
        return;
      }
    list_.push_back({name, unit, std::move(value)});
  }
  const Figure* find(const std::string& name) const {
    for (const Figure& f : list_)
      if (f.name == name) return &f;
    return nullptr;
  }
  bool contains(const std::string& name) const { return find(name) != nullptr; }
  // The value of a figure that must exist (std::out_of_range otherwise).
  const nlohmann::json& at(const std::string& name) const {
    if (const Figure* f = find(name)) return f->value;
    throw std::out_of_range("no kernel figure " + name);
  }
  auto begin() const { return list_.begin(); }
  auto end() const { return list_.end(); }
  size_t size() const { return list_.size(); }

 private:
  std::vector<Figure> list_;
};

}  // namespace ascend
