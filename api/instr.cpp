#include "api/instr.h"

#include <cstring>
#include <memory>
#include <vector>

#include "api/spares.h"

namespace AscendC {
namespace detail {

m::PipeId pipe_of(pipe_t p) {
  switch (p) {
    case PIPE_V:
      return m::PipeId::V;
    case PIPE_MTE2:
      return m::PipeId::MTE2;
    case PIPE_MTE3:
      return m::PipeId::MTE3;
    case PIPE_MTE1:
      return m::PipeId::MTE1;
    case PIPE_M:
      return m::PipeId::M;
    case PIPE_FIX:
      return m::PipeId::FIX;
    default:
      return m::PipeId::S;
  }
}

std::string unusable_tensor(uint64_t offset) {
  return offset == kOtherKindsTensor
             ? "a LocalTensor of a buffer this core does not have (an AIV has no L1/L0: A1, B1, "
               "C1, A2, B2, C2, CO1; an AIC no UB: VECIN, VECOUT, VECCALC)"
             : "a LocalTensor that was never allocated";
}

void check_ub(const m::Core* c, uint64_t offset, uint64_t bytes, const char* instr) {
  if (!c) fault(std::string(instr) + " on " + unusable_tensor(offset));
  if (c != &core()) fault(std::string(instr) + " on another core's LocalTensor");
  if (c->core_kind() == m::CoreKind::Aic) {  // inside one buffer, inside what was allocated there
    const m::LocalBuffer* b = c->buffer_of(offset, bytes == 0 ? 1 : bytes);
    if (!b || offset + bytes > uint64_t{b->base()} + b->allocated())
      fault(std::string(instr) + ": local range [" + std::to_string(offset) + ", " +
            std::to_string(offset + bytes) + ") " +
            (b ? "beyond the " + std::to_string(b->allocated()) + " B of " + b->basename() +
                     " allocated by InitBuffer (" + std::to_string(b->capacity()) + " B)"
               : std::string("does not lie inside one buffer (L1, L0A, L0B, L0C, BT)")));
    return;
  }
  if (offset + bytes > c->ub_allocated())
    fault(std::string(instr) + ": UB range [" + std::to_string(offset) + ", " +
          std::to_string(offset + bytes) + ") beyond the " + std::to_string(c->ub_allocated()) +
          " B allocated by InitBuffer (UB " + std::to_string(c->timing().ub_bytes) + " B)");
}

void check_ub_aligned(uint64_t offset, const char* instr) {
  if (offset % 32)
    fault(std::string(instr) + ": UB address " + std::to_string(offset) + " is not 32-B aligned");
}

static bool in_hccl_window(uint64_t gm) {
  const HcclWindows& w = hccl();
  size_t die = static_cast<size_t>(m::GlobalMemory::die_of(gm));
  if (die >= w.data.size()) return false;
  auto inside = [gm](uint64_t base, uint64_t bytes) { return gm >= base && gm < base + bytes; };
  return inside(w.data[die], w.data_bytes) || inside(w.status[die], w.status_bytes) ||
         (!w.tp_data.empty() &&
          (inside(w.tp_data[die], w.data_bytes) || inside(w.tp_status[die], w.status_bytes)));
}

// fault.stall_rank: a core of that rank reaching a DMA or a GM access at or after
// fault.stall_at_us stops there for good; the hang report names the fault.
static void stall_if_faulted(m::Core& c) {
  const RuntimeFaults& f = Runtime::active().faults();
  if (f.stall_rank != c.die() || c.scalar_now() < f.stall_at_ps) return;
  c.stall_forever("a stall injected by fault.stall_rank = " + std::to_string(f.stall_rank) +
                  " (the rank stops for good from fault.stall_at_us)");
}

// fault.corrupt_rank: the first record written into that rank's HCCL data window lands with one
// bit flipped in its middle byte.
static void corrupt_if_faulted(uint64_t at, uint32_t bytes) {
  const HcclWindows& w = hccl();
  const int r = Runtime::active().faults().corrupt_rank;
  if (r < 0 || static_cast<size_t>(r) >= w.data.size() || bytes == 0 || at < w.data[r] ||
      at >= w.data[r] + w.data_bytes || !Runtime::active().take_corruption())
    return;
  uint8_t b = 0;
  memory().read(at + bytes / 2, &b, 1);
  b ^= 0x10;
  memory().write(at + bytes / 2, &b, 1);
}

// fault.double_flag_rank: a write of that rank's cores into any rank's HCCL status window lands a
// second time, fault.double_flag_delay_us later (a duplicated delivery).
static void duplicate_if_faulted(const m::Core& c, uint64_t at, const uint8_t* s, uint32_t bytes) {
  const RuntimeFaults& f = Runtime::active().faults();
  if (f.double_flag_rank != c.die()) return;
  const HcclWindows& w = hccl();
  const size_t die = static_cast<size_t>(m::GlobalMemory::die_of(at));
  auto inside = [at](uint64_t base, uint64_t n) { return at >= base && at < base + n; };
  if (die >= w.status.size() ||
      !(inside(w.status[die], w.status_bytes) ||
        (!w.tp_status.empty() && inside(w.tp_status[die], w.status_bytes))))
    return;
  Runtime::active().land_again(at, std::vector<uint8_t>(s, s + bytes), f.double_flag_delay_ps);
}

namespace {

// The bytes of one DMA between its start and its completion. Recycled, with the capacity of its
// staging buffer, so that the many small transfers of a run (flags, counts, ids) allocate
// nothing.
struct DmaMove {
  void recycle() {}  // keeps its staging buffer for the next transfer (see above)
  DmaDesc d;
  m::Core* core = nullptr;
  uint32_t skip = 0, keep = 0;
  // The bytes in flight; every one is written at the start before any is read, so the buffer
  // only grows and is never cleared.
  std::unique_ptr<uint8_t[]> staged;
  uint64_t staged_cap = 0;

  void read_source() {  // at the start
    const uint64_t bytes = uint64_t{d.block_count} * keep;
    if (bytes > staged_cap) {
      staged.reset(new uint8_t[bytes]);  // default-initialized: not zeroed
      staged_cap = bytes;
    }
    for (uint32_t b = 0; b < d.block_count; ++b) {
      uint8_t* s = staged.get() + uint64_t{b} * keep;
      if (d.to_gm) {
        std::memcpy(s, core->ub() + d.ub + uint64_t{b} * d.ub_stride + skip, keep);
      } else {
        memory().read(d.gm + uint64_t{b} * d.gm_stride + skip, s, keep);
      }
    }
  }
  void land() {  // at completion
    for (uint32_t b = 0; b < d.block_count; ++b) {
      const uint8_t* s = staged.get() + uint64_t{b} * keep;
      if (d.to_gm) {
        uint64_t at = d.gm + uint64_t{b} * d.gm_stride + skip;
        if (d.atomic_op) {  // read, combine, write back: the op happens where the bytes land
          std::vector<uint8_t> sum(keep);
          memory().read(at, sum.data(), keep);
          d.atomic_op(sum.data(), s, keep);
          memory().write(at, sum.data(), keep);
        } else {
          memory().write(at, s, keep);
        }
        corrupt_if_faulted(at, keep);
        duplicate_if_faulted(*core, at, s, keep);
        continue;
      }
      uint8_t* ub = core->ub() + d.ub + uint64_t{b} * d.ub_stride;
      std::memcpy(ub + d.pad_left + skip, s, keep);
      if (!d.pad) continue;
      for (uint32_t i = 0; i < d.pad_left; i += d.pad_elem)
        std::memcpy(ub + i, d.pad_value, d.pad_elem);
      uint8_t* right = ub + d.pad_left + d.block_bytes;
      for (uint32_t i = 0; i < d.pad_right; i += d.pad_elem)
        std::memcpy(right + i, d.pad_value, d.pad_elem);
    }
  }
};

}  // namespace

void issue_dma(const DmaDesc& d) {
  m::Core& c = core();
  stall_if_faulted(c);
  if (d.block_count == 0 || d.block_bytes == 0) fault(std::string(d.name) + " of 0 bytes");
  if (d.block_count > 4095)
    fault(std::string(d.name) + ": blockCount " + std::to_string(d.block_count) + " > 4095");
  check_ub_aligned(d.ub, d.name);
  uint64_t ub_block = d.to_gm ? d.block_bytes : uint64_t{d.pad_left} + d.block_bytes + d.pad_right;
  uint64_t ub_span = uint64_t{d.block_count - 1} * d.ub_stride + ub_block;
  check_ub(d.ub_core, d.ub, ub_span, d.name);
  if (d.ub + ub_span > d.ub_hi)
    fault(std::string(d.name) + ": " + std::to_string(ub_span) +
          " B of UB beyond a LocalTensor of " + std::to_string(d.ub_hi - d.ub) + " B");
  if (d.to_gm && c.core_kind() == m::CoreKind::Aic) {  // the AIC's MTE3 reads L1 only
    const m::LocalBuffer* b = c.buffer_of(d.ub, ub_span);
    if (!b || std::string(b->basename()) != "l1")
      fault(std::string(d.name) +
            " to GM on an AIC: the source must be in L1 (A1, B1, C1); L0A, "
            "L0B, L0C and BT are not copied out by MTE3");
  }
  uint64_t gm_end = d.gm + uint64_t{d.block_count - 1} * d.gm_stride + d.block_bytes;
  if (gm_bounds() == GmBounds::Allocation) {
    const auto* r = memory().region_of(d.gm, 1);
    if (!r || gm_end > r->base + r->bytes)
      fault(std::string(d.name) + (d.to_gm ? " to " : " from ") + describe_gm(d.gm) + " +" +
            std::to_string(gm_end - d.gm) + " B: outside its GM allocation" +
            (r ? " (" + std::to_string(r->bytes) + " B)" : std::string()));
  } else if (d.gm < d.gm_lo || gm_end > d.gm_hi) {
    fault(std::string(d.name) + (d.to_gm ? " to " : " from ") + describe_gm(d.gm) + " +" +
          std::to_string(gm_end - d.gm) + " B: outside its GlobalTensor (" +
          std::to_string(d.gm_hi - d.gm_lo) + " B)");
  }

  m::Instr in;
  in.pipe = d.to_gm ? m::PipeId::MTE3 : m::PipeId::MTE2;
  in.name = d.name;
  if (c.race_checker()) {  // each block: MTE2 writes UB and reads GM, MTE3 the reverse
    // HCCL windows are ordered by the values polled in them (flags), which the check cannot see:
    // it covers the core's other GM (inputs, outputs, workspaces) only.
    bool window = in_hccl_window(d.gm);
    for (uint32_t b = 0; b < d.block_count; ++b) {
      uint64_t u = d.ub + uint64_t{b} * d.ub_stride, g = d.gm + uint64_t{b} * d.gm_stride;
      c.note_access({u, u + ub_block, !d.to_gm, false});
      if (!window) c.note_access({g, g + d.block_bytes, d.to_gm, true});
    }
  }
  // The UB side as one range (a strided DMA: its whole span), for the lazy scalar's claims.
  m::UbRange ub_side{static_cast<uint32_t>(d.ub), static_cast<uint32_t>(d.ub + ub_span)};
  (d.to_gm ? in.ub_reads : in.ub_writes) = ub_side;
  in.ub_noted = true;
  in.work.kind = d.to_gm ? m::Work::Kind::DmaOut : m::Work::Kind::DmaIn;
  in.work.amount = uint64_t{d.block_count} * d.block_bytes;
  in.work.gm = d.gm;
  in.work.l2_bypass = d.l2_bypass;
  // The source is read when the transfer starts; the bytes land at completion.
  m::Core* cp = &c;
  // A timing-only run moves only the bytes of each block after the payload prefix.
  uint32_t skip = std::min(skipped_prefix(state()), d.block_bytes);
  // A plain copy GM -> UB, the kind a sleeping poll can replay (models/poll_replay.h).
  if (!d.to_gm && d.pad_left == 0 && d.pad_right == 0 && !d.pad && skip == 0 &&
      d.gm_stride <= UINT32_MAX && d.ub_stride <= UINT32_MAX)
    in.gm_read =
        m::GmBlocks{static_cast<uint16_t>(d.block_count), static_cast<uint32_t>(d.gm_stride),
                    static_cast<uint32_t>(d.ub_stride)};
  if (skip == d.block_bytes) {
    c.issue(std::move(in));  // all payload: timed, no effect
    return;
  }
  Spares<DmaMove>::Ptr move = Spares<DmaMove>::take();
  move->d = d;
  if (d.to_gm) move->d.atomic_op = state().atomic_op;
  move->core = cp;
  move->skip = skip;
  move->keep = d.block_bytes - skip;
  DmaMove* raw = move.get();  // the completion owns it; the start comes first
  in.on_start = [raw] { raw->read_source(); };
  in.effect = [owned = std::move(move)] { owned->land(); };
  c.issue(std::move(in));
}

void issue_vector(const char* name, uint64_t repeats, m::Effect effect) {
  if (state().saturated_mode)
    fault(std::string(name) +
          ": the saturated overflow mode (AscendCUtils::SetOverflow(0)) is not modelled; the "
          "vector unit computes in inf/nan mode");
  if (skipped_prefix(state()) == CoreState::kAllPayload) effect = nullptr;
  m::Instr in;
  in.pipe = m::PipeId::V;
  in.name = name;
  in.work.kind = m::Work::Kind::Vector;
  in.work.amount = repeats;
  in.effect = std::move(effect);
  core().issue(std::move(in));
}

static void check_event_id(HardEvent e, int id, const char* what) {
  if (id < 0 || id >= m::kUserEventIds)
    fault(std::string(what) + "<" + m::event_name(e) + ">(" + std::to_string(id) +
          "): event id outside [0, " + std::to_string(m::kUserEventIds) + ")");
}

static void enqueue_flag(m::Instr::Kind kind, HardEvent e, uint32_t id) {
  m::Instr in;
  in.kind = kind;
  in.pipe = kind == m::Instr::Kind::SetFlag ? m::event_src(e) : m::event_dst(e);
  in.event = e;
  in.event_id = id;
  in.name = kind == m::Instr::Kind::SetFlag ? "SetFlag" : "WaitFlag";
  core().issue(std::move(in));
}

void raw_set_flag(HardEvent e, uint32_t id) {
  if (m::event_src(e) == m::PipeId::S) {
    core().scalar_set_flag(e, id);
  } else {
    enqueue_flag(m::Instr::Kind::SetFlag, e, id);
  }
}

void raw_wait_flag(HardEvent e, uint32_t id) {
  if (m::event_dst(e) == m::PipeId::S) {
    core().scalar_wait_flag(e, id);
  } else {
    enqueue_flag(m::Instr::Kind::WaitFlag, e, id);
  }
}

void set_flag(HardEvent e, int id) {
  check_event_id(e, id, "SetFlag");
  raw_set_flag(e, static_cast<uint32_t>(id));
}

void wait_flag(HardEvent e, int id) {
  check_event_id(e, id, "WaitFlag");
  raw_wait_flag(e, static_cast<uint32_t>(id));
}

void pipe_barrier(pipe_t p) {
  if (p == PIPE_S) fault("PipeBarrier<PIPE_S> is a hardware error");
  if (p == PIPE_ALL) return core().pipe_barrier_all();
  m::Instr in;
  in.kind = m::Instr::Kind::Barrier;
  in.pipe = pipe_of(p);
  in.name = "PipeBarrier";
  core().issue(std::move(in));
}

// The scalar reaches its own die's GM only; another die's memory is reached with DataCopy.
static void check_scalar_gm(const m::Core& c, uint64_t addr, size_t bytes, const char* what) {
  if (!memory().region_of(addr, bytes))
    fault(std::string(what) + " on " + describe_gm(addr) + ": not inside a GM allocation");
  if (m::GlobalMemory::die_of(addr) != c.die())
    fault(std::string(what) + " on " + describe_gm(addr) +
          ": the scalar unit only reaches its own die's GM (use DataCopy)");
}

void scalar_gm_read(uint64_t addr, void* dst, size_t bytes) {
  m::Core& c = core();
  check_scalar_gm(c, addr, bytes, "GetValue");
  stall_if_faulted(c);
  if (!in_hccl_window(addr)) c.scalar_access("GetValue (GM)", {addr, addr + bytes, false, true});
  c.scalar_work(c.timing().scalar_gm_latency_cycles);
  c.scalar_sync();  // GM may change under the scalar: read it at the scalar's time
  memory().read(addr, dst, bytes);
}

void scalar_gm_write(uint64_t addr, const void* src, size_t bytes) {
  m::Core& c = core();
  check_scalar_gm(c, addr, bytes, "SetValue");
  stall_if_faulted(c);
  if (!in_hccl_window(addr)) c.scalar_access("SetValue (GM)", {addr, addr + bytes, true, true});
  c.scalar_work(c.timing().scalar_gm_latency_cycles);
  c.scalar_sync();  // others may read it: write it at the scalar's time
  memory().write(addr, src, bytes);
  duplicate_if_faulted(c, addr, static_cast<const uint8_t*>(src), static_cast<uint32_t>(bytes));
}

void scalar_ub_access(uint64_t offset, uint64_t bytes, bool write) {
  m::Core& c = core();
  c.scalar_ub_work(c.timing().issue_cycles, static_cast<uint32_t>(offset),
                   static_cast<uint32_t>(offset + bytes), write);
  c.scalar_access(write ? "SetValue (UB)" : "GetValue (UB)",
                  {offset, offset + bytes, write, false});
}

void assert_failed(const char* expr, const char* file, int line) {
  fault(std::string("ASSERT(") + expr + ") failed at " + file + ":" + std::to_string(line));
}

void note_ub(uint64_t offset, uint64_t bytes, Access access) {
  core().note_access({offset, offset + bytes, access == kWrite, false});
}

}  // namespace detail
}  // namespace AscendC
