#include "models/global_memory.h"

#include <algorithm>
#include <cstring>

namespace ascend::model {

std::optional<GmAddr> GlobalMemory::allocate(int die, const std::string& name, uint64_t bytes) {
  if (static_cast<size_t>(die) >= next_offset_.size()) {
    next_offset_.resize(die + 1, kAlign);
    regions_.resize(die + 1);
  }
  uint64_t& next = next_offset_[die];  // offset 0 stays unused so a null address never resolves
  uint64_t size = (bytes + kAlign - 1) / kAlign * kAlign;
  if (size == 0) size = kAlign;
  if (next + size > capacity_) return std::nullopt;
  GmAddr base = (static_cast<GmAddr>(die) << kDieShift) | next;
  next += size;
  regions_[die].push_back(Region{name, base, bytes});
  return base;
}

const GlobalMemory::Region* GlobalMemory::region_of(GmAddr addr, uint64_t bytes) const {
  const size_t die = static_cast<size_t>(die_of(addr));
  if (die >= regions_.size()) return nullptr;
  const std::vector<Region>& rs = regions_[die];
  auto it = std::upper_bound(rs.begin(), rs.end(), addr,
                             [](GmAddr a, const Region& r) { return a < r.base; });
  if (it == rs.begin()) return nullptr;
  --it;
  const Region& r = *it;
  if (addr < r.base || addr + bytes > r.base + r.bytes || addr + bytes < addr) return nullptr;
  return &r;
}

uint8_t* GlobalMemory::page(uint64_t page_no, bool create) {
  auto it = pages_.find(page_no);
  if (it != pages_.end()) return it->second.get();
  if (!create) return nullptr;
  auto p = std::make_unique<uint8_t[]>(kPageBytes);
  std::memset(p.get(), 0, kPageBytes);
  uint8_t* raw = p.get();
  pages_.emplace(page_no, std::move(p));
  return raw;
}

void GlobalMemory::read(GmAddr addr, void* dst, uint64_t bytes) const {
  auto* out = static_cast<uint8_t*>(dst);
  while (bytes > 0) {
    uint64_t off = addr % kPageBytes;
    uint64_t n = std::min(bytes, kPageBytes - off);
    auto it = pages_.find(addr / kPageBytes);
    if (it == pages_.end()) {
      std::memset(out, 0, n);
    } else {
      std::memcpy(out, it->second.get() + off, n);
    }
    addr += n;
    out += n;
    bytes -= n;
  }
}

void GlobalMemory::write(GmAddr addr, const void* src, uint64_t bytes) {
  auto* in = static_cast<const uint8_t*>(src);
  while (bytes > 0) {
    uint64_t off = addr % kPageBytes;
    uint64_t n = std::min(bytes, kPageBytes - off);
    std::memcpy(page(addr / kPageBytes, true) + off, in, n);
    addr += n;
    in += n;
    bytes -= n;
  }
}

}  // namespace ascend::model
