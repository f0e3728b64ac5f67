// What the scalar unit hands a pipe: an instruction (Instr) with the work it costs (Work), the
// memory it touches (UB ranges, GM blocks) and what it does to memory when it completes (Effect).
// The API builds these (sim/api/instr.h); the core queues, times and completes them.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/events.h"
#include "models/global_memory.h"
#include "models/inline_function.h"
#include "models/race_checker.h"
#include "models/time.h"

namespace ascend::model {

// The blocks of a DMA GM -> UB: `count` blocks of amount / count bytes, block b from GM
// work.gm + b * gm_stride to UB ub_writes.lo + b * ub_stride. count 0: not a plain copy.
struct GmBlocks {
  uint16_t count = 0;
  uint32_t gm_stride = 0, ub_stride = 0;
  bool operator==(const GmBlocks& o) const {
    return count == o.count && gm_stride == o.gm_stride && ub_stride == o.ub_stride;
  }
};

struct Work {
  // DmaIn: GM -> local (MTE2); DmaOut: local -> GM (MTE3, FIX); Mte1: L1 -> L0A/L0B; Mmad: cube.
  enum class Kind : uint8_t { Vector, DmaIn, DmaOut, Mte1, Mmad } kind = Kind::Vector;
  bool to_l0b = false;           // Mte1: into L0B (else L0A)
  bool to_fb = false;            // Mte1 kind on the FIX pipe: L1 -> fixpipe buffer (no MTE1 unit)
  bool to_l1 = false;            // Mte1 kind on the FIX pipe: L0C -> L1 (no MTE1 unit)
  bool int8 = false;             // Mmad: int8 operands
  bool fp32 = false;             // Mmad: fp32 operands (16 x 8 fractals)
  bool int4 = false;             // Mmad: int4 operands (16 x 64 fractals)
  uint16_t m = 0, k = 0, n = 0;  // Mmad: its shape
  uint64_t amount = 0;           // vector: repeats; DMA and MTE1: bytes
  GmAddr gm = 0;                 // DMA: GM-side address
  uint32_t gm_rows = 1;          // an AIC MTE2 read: its GM side as rows of amount / gm_rows B
  uint32_t gm_pitch = 0;         //   at this pitch (for the L2's residency)
  bool l2_bypass = false;        // an AIC MTE2 read that does not go through the L2
};

// A UB or GM byte range an instruction reads or writes (recorded only under the race check).
struct Access {
  uint64_t lo, hi;
  bool write;
  bool gm;
};

// What an instruction does to memory, kept inline (no allocation per instruction).
using Effect = InlineFunction<96>;

// A byte range [lo, hi) of a core's UB; empty when lo >= hi.
struct UbRange {
  uint32_t lo = 0, hi = 0;
  bool empty() const { return lo >= hi; }
  void cover(uint32_t l, uint32_t h) {  // grows to the smallest range holding both
    if (l >= h) return;
    if (empty()) {
      lo = l;
      hi = h;
    } else {
      lo = std::min(lo, l);
      hi = std::max(hi, h);
    }
  }
};

// The UB ranges an instruction writes, operand by operand (a few; more are merged into the last).
struct UbParts {
  static constexpr int kMax = 4;
  std::array<UbRange, kMax> part{};
  int n = 0;
  void add(uint32_t lo, uint32_t hi) {
    if (lo >= hi) return;
    if (n < kMax) {
      part[n++] = UbRange{lo, hi};
    } else {
      part[kMax - 1].cover(lo, hi);
    }
  }
  bool overlaps(uint32_t lo, uint32_t hi) const {
    for (int i = 0; i < n; ++i)
      if (part[i].lo < hi && lo < part[i].hi) return true;
    return false;
  }
};

struct Instr {
  // CrossSet: CrossCoreSetFlag (event_id: the flag id, work.amount: the mode).
  enum class Kind : uint8_t { Work, SetFlag, WaitFlag, Barrier, CrossSet } kind = Kind::Work;
  PipeId pipe = PipeId::V;
  Work work;
  HardEvent event = HardEvent::MTE2_V;
  uint32_t event_id = 0;
  const char* name = "";
  InlineFunction<8> on_start;  // reads the source of a DMA (a pointer's worth of capture)
  Effect effect;               // memory effect at completion
  // The UB bytes it reads and writes. A vector instruction whose operands were not noted
  // (Core::note_access) is taken to touch the whole UB.
  UbRange ub_reads, ub_writes;
  bool ub_noted = false;
  // A DMA in that copies its GM blocks into UB as they are (no padding, no payload skipped): the
  // kind of read a polling loop's replay repeats (PollReplay).
  GmBlocks gm_read;
  // Race check only: what the instruction touches, and the scalar's clock when it was issued
  // (kept apart so that an instruction stays small when the check is off).
  struct RaceInfo {
    std::vector<Access> accesses;
    RaceChecker::VClock issued_clock{};
    Tick issued_at = 0;
    uint64_t seq = 0;
  };
  std::unique_ptr<RaceInfo> race;
};

// What a blocked scalar waits for, as shown on the FLOWCTRL lane and in a deadlock report:
// text, then `arg` and `tail` when given, then "(id)" when id >= 0. Made into a string only when
// shown, so that a wait allocates nothing.
struct WaitName {
  const char* text;
  const char* arg = nullptr;
  int64_t id = -1;
  const char* tail = "";
  std::string str() const;
};

}  // namespace ascend::model
