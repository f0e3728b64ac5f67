#include "models/l2_cache.h"

#include <algorithm>

namespace ascend::model {

L2Cache::L2Cache(const sc_core::sc_module_name& name, uint64_t capacity_bytes, uint64_t block_bytes)
    : sc_core::sc_module(name),
      block_bytes_(std::max<uint64_t>(block_bytes, 1)),
      capacity_blocks_(capacity_bytes / std::max<uint64_t>(block_bytes, 1)) {}

bool L2Cache::touch(uint64_t block) {
  auto it = where_.find(block);
  if (it != where_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    return true;
  }
  lru_.push_front(block);
  where_[block] = lru_.begin();
  if (where_.size() > capacity_blocks_) {
    where_.erase(lru_.back());
    lru_.pop_back();
  }
  return false;
}

uint64_t L2Cache::access(const GmSpan& s) {
  if (!enabled()) return 0;
  uint64_t resident = 0;
  for (uint64_t r = 0; r < s.rows; ++r) {
    const GmAddr lo = s.addr + r * s.pitch, hi = lo + s.row_bytes;
    for (GmAddr b = lo / block_bytes_; b * block_bytes_ < hi; ++b) {
      const uint64_t overlap =
          std::min(hi, (b + 1) * block_bytes_) - std::max(lo, b * block_bytes_);
      if (touch(b)) resident += overlap;
    }
  }
  return resident;
}

uint64_t L2Cache::read(const GmSpan& s) {
  const uint64_t hit = access(s);
  hit_bytes_ += hit;
  miss_bytes_ += s.bytes() - hit;
  return hit;
}

void L2Cache::write(const GmSpan& s) {
  access(s);
}

CounterSet L2Cache::counters() const {
  CounterSet c;
  c.add("hit_bytes", "B", hit_bytes_);
  c.add("miss_bytes", "B", miss_bytes_);
  return c;
}

}  // namespace ascend::model
