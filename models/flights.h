// A core's instructions in flight: each work instruction from issue to completion, with what it
// does when it starts (a DMA reads its source) and completes (its effect), and the UB bytes it
// still claims. The lazy scalar asks it whether a scalar UB access could see or disturb one of
// them (then it must catch simulated time up, or wait for the compiler's inserted sync).
#pragma once

#include <cstdint>
#include <vector>

#include "models/instruction.h"

namespace ascend::model {

// Which UB bytes a core's unfinished instructions (issued, not yet done with the UB) will still
// read or write, counted per block. A scalar access of UB bytes that none of them touches cannot
// see or disturb them, so the lazy scalar need not catch simulated time up for it.
class UbClaims {
 public:
  static constexpr uint32_t kBlock = 1024;
  explicit UbClaims(uint32_t ub_bytes) : readers_(blocks(ub_bytes)), writers_(blocks(ub_bytes)) {}
  void claim(const UbRange& reads, const UbRange& writes) {
    add(readers_, reads, 1);
    add(writers_, writes, 1);
  }
  void release(const UbRange& reads, const UbRange& writes) {
    add(readers_, reads, -1);
    add(writers_, writes, -1);
  }
  // A scalar read must wait for pending writers of its bytes; a scalar write, for readers too.
  // Per 1-KiB block: a yes may be false (Flights::claimed() then looks at the exact ranges).
  bool conflicts(uint32_t lo, uint32_t hi, bool write) const {
    for (uint32_t b = lo / kBlock; b <= (hi - 1) / kBlock && b < writers_.size(); ++b)
      if (writers_[b] || (write && readers_[b])) return true;
    return false;
  }
  void clear() {
    std::fill(readers_.begin(), readers_.end(), 0);
    std::fill(writers_.begin(), writers_.end(), 0);
  }

 private:
  static size_t blocks(uint32_t ub_bytes) { return (ub_bytes + kBlock - 1) / kBlock; }
  static void add(std::vector<uint16_t>& v, const UbRange& r, int d) {
    if (r.empty()) return;
    for (uint32_t b = r.lo / kBlock; b <= (r.hi - 1) / kBlock && b < v.size(); ++b)
      v[b] = static_cast<uint16_t>(v[b] + d);
  }
  std::vector<uint16_t> readers_, writers_;  // unfinished instructions per block
};

class Flights {
 public:
  static constexpr uint32_t kNone = ~0u;
  struct Flight {
    bool live = false;
    PipeId pipe = PipeId::V;
    InlineFunction<8> on_start;
    Effect effect;
    UbRange start_reads;    // released when it starts (a DMA's UB source)
    UbRange reads, writes;  // released at completion
    UbParts write_parts;    // the written operands one by one (the compiler's auto-sync)
  };
  explicit Flights(uint32_t local_bytes) : claims_(local_bytes) {}

  // A new flight on `pipe` that claims `reads` and `writes` until it completes (and, of them,
  // `start_reads` only until it starts); its index. The caller fills in on_start and effect.
  uint32_t add(PipeId pipe, const UbRange& start_reads, const UbRange& reads, const UbRange& writes,
               const UbParts& write_parts) {
    claims_.claim(start_reads, writes);
    claims_.claim(reads, UbRange{});
    uint32_t i;
    if (free_.empty()) {
      flights_.emplace_back();
      i = static_cast<uint32_t>(flights_.size() - 1);
    } else {
      i = free_.back();
      free_.pop_back();
    }
    Flight& f = flights_[i];
    f.live = true;
    f.pipe = pipe;
    f.start_reads = start_reads;
    f.reads = reads;
    f.writes = writes;
    f.write_parts = write_parts;
    return i;
  }
  Flight& operator[](uint32_t i) { return flights_[i]; }
  // The instruction starts: it no longer claims its start reads; what it does now, to run.
  InlineFunction<8> start(uint32_t i) {
    Flight& f = flights_[i];
    claims_.release(f.start_reads, UbRange{});
    f.start_reads = UbRange{};
    return std::move(f.on_start);
  }
  // The instruction completes: it claims nothing more; its effect, to run.
  Effect complete(uint32_t i) {
    Flight& f = flights_[i];
    Effect effect = std::move(f.effect);
    claims_.release(f.reads, f.writes);
    f.live = false;
    free_.push_back(i);
    return effect;
  }
  // Whether an unfinished instruction claims bytes [lo, hi): writes them, or (for a scalar
  // write) reads them. The per-block counts answer most questions; a yes from them may be
  // false, and a false yes would cost a thread switch per scalar access beside a buffer in
  // flight, so the exact ranges decide.
  bool claimed(uint32_t lo, uint32_t hi, bool write) const {
    if (lo >= hi || !claims_.conflicts(lo, hi, write)) return false;
    auto touches = [&](const UbRange& r) { return r.lo < hi && lo < r.hi; };
    for (const Flight& f : flights_)
      if (f.live && (touches(f.writes) || (write && (touches(f.reads) || touches(f.start_reads)))))
        return true;
    return false;
  }
  // Whether an unfinished instruction still writes UB bytes of [lo, hi); its pipe in *pipe.
  bool unfinished_writer(uint32_t lo, uint32_t hi, PipeId* pipe) const {
    for (const Flight& f : flights_)
      if (f.live && f.write_parts.overlaps(lo, hi)) {
        *pipe = f.pipe;
        return true;
      }
    return false;
  }
  void clear_claims() { claims_.clear(); }

 private:
  std::vector<Flight> flights_;
  std::vector<uint32_t> free_;
  UbClaims claims_;
};

}  // namespace ascend::model
