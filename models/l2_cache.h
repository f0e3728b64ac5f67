// A die's L2 cache as the cube cores' GM reads see it: which GM blocks are resident, LRU over
// the capacity, filled by every AIC MTE2 read and by every write landing in the die's memory.
// Only an AIC's MTE2 consults it: its hit bytes stream at the engine's L2 rate and leave the HBM
// alone, its misses stream at the DDR rate through the HBM (CostModel::dma_engine_hold). The AIV
// paths were calibrated without it and do not consult it. Residency is kept per block of
// `block_bytes` (the 512-B line by default), grouped in pages of 8 lines for the LRU order: a page
// is the unit of recency and eviction, a line the unit of residency (a few bytes per page keep
// a die's state small at EP 256).
#pragma once

#include <sysc/kernel/sc_module.h>

#include <cstdint>
#include <list>
#include <unordered_map>

#include "models/counters.h"
#include "models/global_memory.h"
#include "models/transfer.h"

namespace ascend::model {

// A GM span read or written as rows: `rows` of `row_bytes` at `pitch` (rows = 1: contiguous).
struct GmSpan {
  GmAddr addr = 0;
  uint64_t rows = 1, row_bytes = 0, pitch = 0;
  uint64_t bytes() const { return rows * row_bytes; }
};

class L2Cache : public sc_core::sc_module {
 public:
  L2Cache(const sc_core::sc_module_name& name, uint64_t capacity_bytes, uint64_t block_bytes);
  // The bytes of `s` already resident; the rest becomes resident (evicting the least recent).
  uint64_t read(const GmSpan& s);
  void write(const GmSpan& s);  // the span becomes resident
  // hit_bytes and miss_bytes of the reads so far.
  CounterSet counters() const;
  bool enabled() const { return capacity_blocks_ > 0; }

 private:
  uint64_t access(const GmSpan& s);  // resident bytes of s before it is made resident
  bool touch(uint64_t block);        // whether it was resident; now the most recent
  struct Page {
    uint64_t index;
    uint8_t lines;  // resident lines, a bit each
  };
  static constexpr uint64_t kLinesPerPage = 8;
  const uint64_t block_bytes_, capacity_blocks_;
  uint64_t resident_ = 0;  // lines
  std::list<Page> lru_;    // most recent first
  std::unordered_map<uint64_t, std::list<Page>::iterator> where_;
  uint64_t hit_bytes_ = 0, miss_bytes_ = 0;
};

}  // namespace ascend::model
