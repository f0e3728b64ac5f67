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
#include <vector>

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

class L2Cache : public sc_core::sc_module, public Counted {
 public:
  L2Cache(const sc_core::sc_module_name& name, uint64_t capacity_bytes, uint64_t block_bytes);
  // The bytes of `s` already resident; the rest becomes resident (evicting the least recent).
  uint64_t read(const GmSpan& s);
  void write(const GmSpan& s);  // the span becomes resident
  // hit_bytes and miss_bytes of the reads so far.
  CounterSet counters() const override;
  bool enabled() const { return capacity_blocks_ > 0; }

 private:
  uint64_t access(const GmSpan& s);  // resident bytes of s before it is made resident
  bool touch(uint64_t block);        // whether it was resident; now the most recent

  // The resident pages in recency order: a doubly linked list in one array (node 0 is the list's
  // head; its next is the most recent page, its prev the least recent), found through an
  // open-addressed table of node numbers. The same order as a linked list of pages with a hash
  // map, without an allocation or a scattered node per page.
  struct Page {
    uint64_t index = 0;
    uint32_t prev = 0, next = 0;
    uint8_t lines = 0;  // resident lines, a bit each
  };
  uint32_t find(uint64_t page) const;  // its node, 0 when not resident
  uint32_t add_front(uint64_t page, uint8_t lines);
  void move_front(uint32_t node);
  void unlink(uint32_t node);
  void remove_back();
  size_t slot_of(uint64_t page) const {
    return static_cast<size_t>((page * 0x9E3779B97F4A7C15ull) >> slot_shift_);
  }
  void grow();

  static constexpr uint64_t kLinesPerPage = 8;
  const uint64_t block_bytes_, capacity_blocks_;
  uint64_t resident_ = 0;        // lines
  std::vector<Page> pages_;      // [0]: the head
  std::vector<uint32_t> free_;   // nodes to reuse
  std::vector<uint32_t> slots_;  // node numbers by hash of the page (0: empty), linear probing
  size_t used_ = 0;              // resident pages
  int slot_shift_ = 64;
  uint64_t hit_bytes_ = 0, miss_bytes_ = 0;
};

}  // namespace ascend::model
