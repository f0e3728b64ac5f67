// The bytes of every die's HBM in one simulated address space. A GM address carries its die in
// bits [40, 56): addr = die << 40 | offset. Storage is sparse (pages made on first write; unwritten
// bytes read as zero), so a large window costs nothing until it is used. Pages are found through
// an open-addressed table of page numbers (one probe, usually; no node per page) and carved from
// slabs (no allocation per page). The page size is the caller's: 4 KiB suits runs that move whole
// tokens; a timing-only run writes a few bytes of metadata per window slot, each slot in a page
// of its own, so small pages keep it from holding kilobytes of zeros per record.
// Allocations are named regions; an access outside every region is an out-of-bounds access.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ascend::model {

using GmAddr = uint64_t;

class GlobalMemory {
 public:
  static constexpr int kDieShift = 40;
  static constexpr uint64_t kOffsetMask = (uint64_t{1} << kDieShift) - 1;
  static constexpr uint64_t kDefaultPageBytes = 4 * 1024;
  static constexpr uint64_t kAlign = 512;  // allocations are 512-B (cache line) aligned

  static int die_of(GmAddr a) { return static_cast<int>(a >> kDieShift); }

  struct Region {
    std::string name;
    GmAddr base;
    uint64_t bytes;
  };

  // `page_bytes`: a power of two, at least 64.
  explicit GlobalMemory(uint64_t die_capacity_bytes, uint64_t page_bytes = kDefaultPageBytes);

  // Reserves `bytes` on `die`; returns nullopt when the die's HBM capacity would be exceeded.
  std::optional<GmAddr> allocate(int die, const std::string& name, uint64_t bytes);
  // The region holding [addr, addr+bytes), or nullptr if the range is not inside one region
  // (valid until the next allocate).
  const Region* region_of(GmAddr addr, uint64_t bytes) const;

  void read(GmAddr addr, void* dst, uint64_t bytes) const;
  void write(GmAddr addr, const void* src, uint64_t bytes);
  uint64_t resident_bytes() const { return pages_ * page_bytes_; }
  uint64_t page_bytes() const { return page_bytes_; }

 private:
  // The page of that number: made (zeroed) when `create`, else null when never written.
  uint8_t* page(uint64_t page_no, bool create);
  const uint8_t* find(uint64_t page_no) const;
  struct Slot {
    uint64_t key = 0;  // page number + 1; 0: empty
    uint8_t* page = nullptr;
  };
  size_t slot_of(uint64_t page_no) const {  // where its probe starts (Fibonacci hashing)
    return static_cast<size_t>((page_no * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void grow();
  uint64_t capacity_;
  uint64_t page_bytes_;
  int page_shift_;
  std::vector<uint64_t> next_offset_;  // per die bump pointer
  // Per die, by base: a die's allocations come in address order (a bump pointer), so each list
  // is sorted as it grows and a lookup is a binary search over one die's few regions.
  std::vector<std::vector<Region>> regions_;
  static constexpr uint64_t kSlabBytes = 256 * 1024;
  // Own the pages, in the order made. calloc: zeroed without a clearing pass when the slab is
  // fresh from the system (reused heap memory is cleared, but is resident already).
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::vector<std::unique_ptr<uint8_t, Free>> slabs_;
  uint64_t pages_ = 0;                                 // made so far
  std::vector<Slot> table_ = std::vector<Slot>(1024);  // a power of two, at most half full
  int shift_ = 64 - 10;
};

}  // namespace ascend::model
