#include "api/cube.h"

namespace AscendC {
namespace detail {

void require_aic(const char* instr) {
  if (core().core_kind() != m::CoreKind::Aic)
    fault(std::string(instr) + " runs on the cube core (AIC); this is an AIV");
}

int local_buffer(const m::Core* c, uint64_t offset, uint64_t bytes, int want, const char* instr,
                 const char* what) {
  check_ub(c, offset, bytes, instr);  // allocated, inside one buffer, this core's
  static const char* const kNames[] = {"L1", "L0A", "L0B", "L0C", "BT"};
  const m::LocalBuffer* b = c->buffer_of(offset, bytes == 0 ? 1 : bytes);
  int index = 0;
  while (c->buffers()[index].get() != b) ++index;
  if (want >= 0 && index != want)
    fault(std::string(instr) + ": " + what + " is in " + kNames[index] + ", not " + kNames[want]);
  // L0A/L0B fractals are 512-B aligned, L0C 64-B, L1 and BT 32-B ([CUBE] 1.1).
  const uint64_t align = index == 1 || index == 2 ? 512 : index == 3 ? 64 : 32;
  if ((offset - b->base()) % align)
    fault(std::string(instr) + ": " + what + " at " + kNames[index] + " offset " +
          std::to_string(offset - b->base()) + " is not " + std::to_string(align) + "-B aligned");
  return index;
}

void CubeOp::recycle() {
  start = nullptr;
  finish = nullptr;
  // The bytes a DMA staged are freed: held in a spare op they would raise the peak memory of a
  // payload run (measured: +7% on --kernel ffn).
  std::vector<uint8_t>().swap(staged_);
}

CubeOpPtr cube_op() {
  if (skipped_prefix(state()) == CoreState::kAllPayload) return nullptr;
  return Spares<CubeOp>::take();
}

void issue_cube(m::PipeId pipe, const m::Work& work, const char* name,
                std::initializer_list<LocalRange> reads, std::initializer_list<LocalRange> writes,
                uint64_t gm_lo, uint64_t gm_hi, bool gm_write, CubeOpPtr op) {
  m::Core& c = core();
  m::Instr in;
  in.pipe = pipe;
  in.name = name;
  in.work = work;
  for (const LocalRange& r : reads) {
    c.note_access({r.lo, r.hi, false, false});
    in.ub_reads.cover(static_cast<uint32_t>(r.lo), static_cast<uint32_t>(r.hi));
  }
  for (const LocalRange& r : writes) {
    c.note_access({r.lo, r.hi, true, false});
    in.ub_writes.cover(static_cast<uint32_t>(r.lo), static_cast<uint32_t>(r.hi));
  }
  if (gm_hi > gm_lo) c.note_access({gm_lo, gm_hi, gm_write, true});
  in.ub_noted = true;
  if (op) {
    CubeOp* raw = op.get();
    if (op->start) in.on_start = [raw] { raw->start(); };
    in.effect = [owned = std::move(op)] {
      if (owned->finish) owned->finish();
    };
  }
  c.issue(std::move(in));
}

void cross_set(int mode, pipe_t pipe, int flag) {
  m::Core& c = core();
  if (mode < 0 || mode > 2)
    fault("CrossCoreSetFlag: mode " + std::to_string(mode) + " (0, 1 or 2)");
  if (flag < 0 || flag >= m::Core::kCrossFlags)
    fault("CrossCoreSetFlag: flag id " + std::to_string(flag) + " outside [0, 16)");
  if (pipe == PIPE_S || pipe == PIPE_ALL)
    fault("CrossCoreSetFlag on PIPE_S or PIPE_ALL is not allowed");
  if (c.cross_peers(mode).empty())
    fault("CrossCoreSetFlag<" + std::to_string(mode) + ">: this launch gives the core no peer " +
          "for that mode (mode 1 needs two AIVs per AI Core, mode 2 a mixed launch)");
  m::Instr in;
  in.kind = m::Instr::Kind::CrossSet;
  in.pipe = pipe_of(pipe);
  in.event_id = static_cast<uint32_t>(flag);
  in.work.amount = static_cast<uint64_t>(mode);
  in.name = "CrossCoreSetFlag";
  c.issue(std::move(in));
}

void kfc_pipe_set(pipe_t pipe, int sub, uint32_t flag) {
  m::Instr in;
  in.kind = m::Instr::Kind::CrossSet;
  in.pipe = pipe_of(pipe);
  in.event_id = flag;
  in.work.amount = m::Core::kCrossToPeer + static_cast<uint64_t>(sub);
  in.name = "Matmul block written";
  core().issue(std::move(in));
}

void cross_wait(int mode, int flag) {
  m::Core& c = core();
  if (mode < 0 || mode > 2)
    fault("CrossCoreWaitFlag: mode " + std::to_string(mode) + " (0, 1 or 2)");
  if (flag < 0 || flag >= m::Core::kCrossFlags)
    fault("CrossCoreWaitFlag: flag id " + std::to_string(flag) + " outside [0, 16)");
  // Sets that reach this core for the mode: one when every core of the kind has set it (0: the
  // FFTS counts the group's sets and raises the flag on each once they are all in), both AIVs
  // (1), the AIC (an AIV, 2) or its AIVs (an AIC, 2).
  int need = mode == 0                           ? 1
             : mode == 1                         ? 2
             : c.core_kind() == m::CoreKind::Aic ? static_cast<int>(c.cross_peers(2).size())
                                                 : 1;
  if (need == 0 || c.cross_peers(mode).empty())
    fault("CrossCoreWaitFlag<" + std::to_string(mode) + ">: no core of this launch sets it");
  c.cross_wait_flag(static_cast<uint32_t>(flag), need);
}

}  // namespace detail
}  // namespace AscendC
