// Named strategies of a kernel (a core split, a receiver order, an implementation): each is one
// host-side function registered under one name. The parameter that picks one declares the names
// as its choices, and the host resolves the name once, so no device code compares strings. A new
// strategy is its function and one more line in the kernel's registration.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "models/errors.h"

namespace ascend::common {

template <class Fn>
class Strategies {
 public:
  Strategies(std::string key, std::vector<std::pair<std::string, Fn>> named)
      : key_(std::move(key)), named_(std::move(named)) {}

  const std::string& key() const { return key_; }
  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const auto& [name, fn] : named_) n.push_back(name);
    return n;
  }
  // The function registered as `name`; an unknown name is bad input naming the key and choices.
  Fn find(const std::string& name) const {
    std::string known;
    for (const auto& [n, fn] : named_) {
      if (n == name) return fn;
      known += (known.empty() ? "" : ", ") + n;
    }
    throw SimError(kExitBadInput, key_ + " = '" + name + "': one of " + known);
  }

 private:
  std::string key_;
  std::vector<std::pair<std::string, Fn>> named_;
};

}  // namespace ascend::common
