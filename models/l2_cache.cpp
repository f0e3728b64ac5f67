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
  if (const uint32_t n = find(page)) {
    move_front(n);
    if (pages_[n].lines & bit) return true;
    pages_[n].lines |= bit;
  } else {
    add_front(page, bit);
  }
  ++resident_;
  while (resident_ > capacity_blocks_ && used_ > 1) remove_back();  // the least recent page goes
  return false;
}

uint32_t L2Cache::find(uint64_t page) const {
  if (slots_.empty()) return 0;
  const size_t mask = slots_.size() - 1;
  for (size_t i = slot_of(page);; i = (i + 1) & mask) {
    const uint32_t n = slots_[i];
    if (n == 0 || pages_[n].index == page) return n;
  }
}

uint32_t L2Cache::add_front(uint64_t page, uint8_t lines) {
  if (pages_.empty()) pages_.emplace_back();  // the head
  if ((used_ + 1) * 2 > slots_.size()) grow();
  uint32_t n;
  if (!free_.empty()) {
    n = free_.back();
    free_.pop_back();
  } else {
    n = static_cast<uint32_t>(pages_.size());
    pages_.emplace_back();
  }
  pages_[n].index = page;
  pages_[n].lines = lines;
  pages_[n].prev = 0;
  pages_[n].next = pages_[0].next;
  pages_[pages_[0].next].prev = n;
  pages_[0].next = n;
  const size_t mask = slots_.size() - 1;
  size_t i = slot_of(page);
  while (slots_[i] != 0) i = (i + 1) & mask;
  slots_[i] = n;
  ++used_;
  return n;
}

void L2Cache::unlink(uint32_t n) {
  pages_[pages_[n].prev].next = pages_[n].next;
  pages_[pages_[n].next].prev = pages_[n].prev;
}

void L2Cache::move_front(uint32_t n) {
  if (pages_[0].next == n) return;
  unlink(n);
  pages_[n].prev = 0;
  pages_[n].next = pages_[0].next;
  pages_[pages_[0].next].prev = n;
  pages_[0].next = n;
}

void L2Cache::remove_back() {
  const uint32_t n = pages_[0].prev;
  resident_ -= static_cast<uint64_t>(__builtin_popcount(pages_[n].lines));
  unlink(n);
  // Out of the table, closing the gap behind it (linear probing's deletion by backward shift).
  const size_t mask = slots_.size() - 1;
  size_t i = slot_of(pages_[n].index);
  while (slots_[i] != n) i = (i + 1) & mask;
  for (size_t j = (i + 1) & mask; slots_[j] != 0; j = (j + 1) & mask) {
    const size_t home = slot_of(pages_[slots_[j]].index);
    // slots_[j] may move to i when its home is not in the cyclic range (i, j].
    if (((j - home) & mask) >= ((j - i) & mask)) {
      slots_[i] = slots_[j];
      i = j;
    }
  }
  slots_[i] = 0;
  free_.push_back(n);
  --used_;
}

void L2Cache::grow() {
  const size_t size = slots_.empty() ? 1024 : slots_.size() * 2;
  slots_.assign(size, 0);
  slot_shift_ = 64 - __builtin_ctzll(size);
  const size_t mask = size - 1;
  for (uint32_t n = pages_[0].next; n != 0; n = pages_[n].next) {
    size_t i = slot_of(pages_[n].index);
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = n;
  }
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
  static constexpr CounterSpec kHit{"hit_bytes", "B", "read bytes that were resident (hits)"};
  static constexpr CounterSpec kMiss{"miss_bytes", "B", "read bytes fetched from HBM (misses)"};
  CounterSet c;
  c.add(kHit, hit_bytes_);
  c.add(kMiss, miss_bytes_);
  return c;
}

}  // namespace ascend::model
