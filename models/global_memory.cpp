#include "models/global_memory.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace ascend::model {

GlobalMemory::GlobalMemory(uint64_t die_capacity_bytes, uint64_t page_bytes)
    : capacity_(die_capacity_bytes), page_bytes_(page_bytes), page_shift_(0) {
  while ((uint64_t{1} << page_shift_) < page_bytes_) ++page_shift_;
}

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

const uint8_t* GlobalMemory::find(uint64_t page_no) const {
  const size_t mask = table_.size() - 1;
  for (size_t i = slot_of(page_no);; i = (i + 1) & mask) {
    const Slot& slot = table_[i];
    if (slot.key == page_no + 1) return slot.page;
    if (slot.key == 0) return nullptr;
  }
}

uint8_t* GlobalMemory::page(uint64_t page_no, bool create) {
  if (const uint8_t* p = find(page_no)) return const_cast<uint8_t*>(p);
  if (!create) return nullptr;
  if (2 * (pages_ + 1) > table_.size()) grow();
  const uint64_t per_slab = std::max<uint64_t>(1, kSlabBytes / page_bytes_);
  if (pages_ % per_slab == 0) {
    auto* slab = static_cast<uint8_t*>(std::calloc(per_slab, page_bytes_));  // zeros
    if (!slab) throw std::bad_alloc();
    slabs_.emplace_back(slab);
  }
  uint8_t* p = slabs_.back().get() + (pages_ % per_slab) * page_bytes_;
  ++pages_;
  const size_t mask = table_.size() - 1;
  size_t i = slot_of(page_no);
  while (table_[i].key != 0) i = (i + 1) & mask;
  table_[i] = Slot{page_no + 1, p};
  return p;
}

void GlobalMemory::grow() {
  std::vector<Slot> old = std::move(table_);
  table_.assign(old.size() * 2, Slot{});
  --shift_;
  const size_t mask = table_.size() - 1;
  for (const Slot& s : old) {
    if (s.key == 0) continue;
    size_t i = slot_of(s.key - 1);
    while (table_[i].key != 0) i = (i + 1) & mask;
    table_[i] = s;
  }
}

void GlobalMemory::read(GmAddr addr, void* dst, uint64_t bytes) const {
  auto* out = static_cast<uint8_t*>(dst);
  while (bytes > 0) {
    uint64_t off = addr & (page_bytes_ - 1);
    uint64_t n = std::min(bytes, page_bytes_ - off);
    if (const uint8_t* p = find(addr >> page_shift_)) {
      std::memcpy(out, p + off, n);
    } else {
      std::memset(out, 0, n);
    }
    addr += n;
    out += n;
    bytes -= n;
  }
}

void GlobalMemory::write(GmAddr addr, const void* src, uint64_t bytes) {
  auto* in = static_cast<const uint8_t*>(src);
  while (bytes > 0) {
    uint64_t off = addr & (page_bytes_ - 1);
    uint64_t n = std::min(bytes, page_bytes_ - off);
    std::memcpy(page(addr >> page_shift_, true) + off, in, n);
    addr += n;
    in += n;
    bytes -= n;
  }
}

}  // namespace ascend::model
