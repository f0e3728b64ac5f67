#include "models/l2_cache.h"

#include <algorithm>

namespace ascend::model {

L2Cache::L2Cache(const sc_core::sc_module_name& name, uint64_t capacity_bytes, uint64_t block_bytes)
    : sc_core::sc_module(name),
      block_bytes_(std::max<uint64_t>(block_bytes, 1)),
      capacity_blocks_(capacity_bytes / std::max<uint64_t>(block_bytes, 1)) {}

bool L2Cache::touch(uint64_t block) {
  const uint64_t page = block / kLinesPerPage;
  const uint8_t bit = static_cast<uint8_t>(1u << (block % kLinesPerPage));
  auto it = where_.find(page);
  if (it != where_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    if (it->second->lines & bit) return true;
    it->second->lines |= bit;
  } else {
    lru_.push_front({page, bit});
    where_[page] = lru_.begin();
  }
  ++resident_;
  while (resident_ > capacity_blocks_ && lru_.size() > 1) {  // the least recent page goes
    resident_ -= static_cast<uint64_t>(__builtin_popcount(lru_.back().lines));
    where_.erase(lru_.back().index);
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
