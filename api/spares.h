// Objects of one kind kept for reuse. An instruction takes one to carry its effect and gives it
// back when done with it, so that a run allocates only as many as are ever in flight at once
// (at most kKept are kept). T::recycle() releases what a spare should not hold on to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace AscendC::detail {

template <class T>
class Spares {
 public:
  struct GiveBack {
    void operator()(T* p) const { Spares::give(p); }
  };
  using Ptr = std::unique_ptr<T, GiveBack>;

  static Ptr take() {
    if (spare_.empty()) {
      ++made_;
      return Ptr(new T);
    }
    Ptr p(spare_.back().release());
    spare_.pop_back();
    return p;
  }
  // How many were allocated so far in this process (the others were reused).
  static uint64_t made() { return made_; }

 private:
  static constexpr size_t kKept = 4096;
  static void give(T* p) {
    p->recycle();
    if (spare_.size() < kKept) {
      spare_.emplace_back(p);
    } else {
      delete p;
    }
  }
  static inline std::vector<std::unique_ptr<T>> spare_;
  static inline uint64_t made_ = 0;
};

}  // namespace AscendC::detail
