// A FIFO on one growing circular array: elements are reused in place, so a queue that stays
// short allocates nothing once warm (a std::deque of large elements allocates per element).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace ascend::model {

template <class T>
class Ring {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  // The i-th element from the front (i < size()).
  T& operator[](size_t i) { return slots_[(head_ + i) & (slots_.size() - 1)]; }
  const T& operator[](size_t i) const { return slots_[(head_ + i) & (slots_.size() - 1)]; }
  void push_back(T&& v) {
    if (size_ == slots_.size()) grow();
    slots_[(head_ + size_) & (slots_.size() - 1)] = std::move(v);
    ++size_;
  }
  // Leaves the front element moved-from in its slot, for reuse.
  void pop_front() {
    head_ = (head_ + 1) & (slots_.size() - 1);
    --size_;
  }

 private:
  void grow() {
    std::vector<T> bigger(slots_.empty() ? 4 : 2 * slots_.size());
    for (size_t i = 0; i < size_; ++i)
      bigger[i] = std::move(slots_[(head_ + i) & (slots_.size() - 1)]);
    slots_ = std::move(bigger);
    head_ = 0;
  }
  std::vector<T> slots_;  // a power of two
  size_t head_ = 0, size_ = 0;
};

}  // namespace ascend::model
