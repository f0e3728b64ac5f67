#include "models/cost_model.h"

#include <algorithm>
#include <cmath>

namespace ascend::model {

// overhead + ceil(repeats * 256 / vector.bytes_per_cycle) cycles.
Tick DefaultCostModel::vector(uint64_t repeats) const {
  uint64_t cycles =
      core_.vector_overhead_cycles +
      static_cast<uint64_t>(
          std::ceil(static_cast<double>(repeats) * 256.0 / core_.vector_bytes_per_cycle - 1e-9));
  return core_.clock.cycles(cycles);
}

// setup + ceil(bytes / (bytes_per_cycle x eff)) cycles, eff < 1 for a GM address off the
// dma.aligned_bytes grid. An AIC's MTE3 (L1 -> GM) streams at the AIV's MTE3 rate: no figure of
// its own is published.
Tick DefaultCostModel::dma_engine_hold(uint64_t bytes, GmAddr gm, DmaPath path,
                                       uint64_t l2_hit_bytes) const {
  const CubeTiming& c = core_.cube;
  if (path == DmaPath::AicMte2) {  // L2 hits at the L2 rate, misses at the DDR rate
    double eff = gm % core_.dma_aligned_bytes != 0 ? core_.dma_unaligned_efficiency : 1.0;
    double stream = static_cast<double>(l2_hit_bytes) / (c.mte2_bytes_per_cycle * eff) +
                    static_cast<double>(bytes - l2_hit_bytes) / (c.mte2_miss_bytes_per_cycle * eff);
    return core_.clock.cycles(c.mte2_setup_cycles +
                              static_cast<uint64_t>(std::ceil(stream - 1e-9)));
  }
  double rate = path == DmaPath::AivMte2                               ? core_.mte2_bytes_per_cycle
                : path == DmaPath::AivMte3 || path == DmaPath::AicMte3 ? core_.mte3_bytes_per_cycle
                : path == DmaPath::AicMte2                             ? c.mte2_bytes_per_cycle
                                                                       : c.fix_bytes_per_cycle;
  if (gm % core_.dma_aligned_bytes != 0) rate *= core_.dma_unaligned_efficiency;
  uint64_t stream = static_cast<uint64_t>(std::ceil(static_cast<double>(bytes) / rate - 1e-9));
  uint64_t cycles = path == DmaPath::AicFix    ? std::max<uint64_t>(c.fix_min_cycles, stream)
                    : path == DmaPath::AicMte2 ? c.mte2_setup_cycles + stream
                                               : core_.dma_setup_cycles + stream;
  return core_.clock.cycles(cycles);
}

// setup + ceil(bytes / rate): L1 -> L0A at mte1.l0a_bytes_per_cycle, L1 -> L0B at l0b.
Tick DefaultCostModel::mte1(uint64_t bytes, bool to_l0b) const {
  const CubeTiming& c = core_.cube;
  double rate = to_l0b ? c.mte1_l0b_bytes_per_cycle : c.mte1_l0a_bytes_per_cycle;
  return core_.clock.cycles(c.mte1_setup_cycles + static_cast<uint64_t>(std::ceil(
                                                      static_cast<double>(bytes) / rate - 1e-9)));
}

// One 16 x 16 x 16 fractal step per cycle (16 x cube.mmad_int8_k0 x 16 for int8, 16 x
// cube.mmad_int4_k0 x 16 for int4), plus a fixed cost. fp32 (16 x 8 fractals): k padded to whole
// fractals of 8, at cube.mmad_fp32_k_per_cycle of k per cycle (the vendor's cube performance
// table: 16 x 4 x 16 per cycle, a quarter of the fp16 rate).
Tick DefaultCostModel::mmad(uint32_t m, uint32_t k, uint32_t n, MmadOperands op) const {
  const CubeTiming& c = core_.cube;
  const uint64_t blocks = uint64_t{(m + 15) / 16} * ((n + 15) / 16);
  uint64_t k_steps;
  if (op == MmadOperands::Fp32) {
    const uint64_t kpc = c.mmad_fp32_k_per_cycle;
    k_steps = ((uint64_t{k} + 7) / 8 * 8 + kpc - 1) / kpc;
  } else {
    const uint64_t k0 = op == MmadOperands::Int8   ? c.mmad_int8_k0
                        : op == MmadOperands::Int4 ? c.mmad_int4_k0
                                                   : 16;
    k_steps = (k + k0 - 1) / k0;
  }
  return core_.clock.cycles(c.mmad_overhead_cycles + blocks * k_steps);
}

// ceil(bytes / rate): L1 -> FB at cube.fb_bytes_per_cycle.
Tick DefaultCostModel::fb_load(uint64_t bytes) const {
  return core_.clock.cycles(static_cast<uint64_t>(
      std::ceil(static_cast<double>(bytes) / core_.cube.fb_bytes_per_cycle - 1e-9)));
}

// ceil(bytes / rate): L0C -> L1 at cube.fix_l1_bytes_per_cycle (the bytes written, after the cast).
Tick DefaultCostModel::fix_to_l1(uint64_t bytes) const {
  return core_.clock.cycles(static_cast<uint64_t>(
      std::ceil(static_cast<double>(bytes) / core_.cube.fix_l1_bytes_per_cycle - 1e-9)));
}

// Local: the HBM's access latency. Remote: a route's latency parameter is the measured
// end-to-end time of one aligned 512-B access; the fixed part is what remains after the model's
// own time for those 512 B, so that a lone 512-B access takes exactly the measured time.
Tick DefaultCostModel::path_latency(const Route* route, bool write) const {
  if (!route) return ns_to_ps(write ? hbm_.write_latency_ns : hbm_.read_latency_ns);
  double rate = write ? core_.mte3_bytes_per_cycle : core_.mte2_bytes_per_cycle;
  Tick own = core_.clock.cycles(core_.dma_setup_cycles +
                                static_cast<uint64_t>(std::ceil(512.0 / rate - 1e-9)));
  own = std::max(own, transfer_ps(512, hbm_.gbps));
  for (const Hop& h : route->hops)
    own = std::max(own, transfer_ps(512, h.port->gbps() * h.efficiency));
  return route->latency > own ? route->latency - own : 0;
}

// bytes x latency / outstanding bytes: the requests of a window come back one latency after they
// leave, so an engine that may not exceed the window streams at window / latency (Little's law).
// This is what makes one core's large transfers slower than its engine rate (mskpp: 910B1 MTE2
// saturates near 78 GB/s) and its writes over a long fabric path slower still.
Tick DefaultCostModel::outstanding_bound(uint64_t bytes, Tick latency, DmaPath path,
                                         bool remote) const {
  uint32_t window = path == DmaPath::AicMte2   ? core_.cube.mte2_outstanding_bytes
                    : path == DmaPath::AicFix  ? 0  // the FIX table's rate already holds it
                    : path == DmaPath::AivMte2 ? core_.mte2_outstanding_bytes
                    : remote                   ? core_.mte3_remote_outstanding_bytes
                                               : core_.mte3_outstanding_bytes;
  if (window == 0 || latency == 0) return 0;
  return static_cast<Tick>(std::ceil(static_cast<double>(bytes) * static_cast<double>(latency) /
                                     static_cast<double>(window)));
}

// The acknowledgement carries no data: it pays the route's fixed latency (path_latency) back,
// scaled by the route's response_ratio, plus the route's completion time.
Tick DefaultCostModel::response_latency(const Route* route, bool write) const {
  if (!route || !write) return 0;
  return static_cast<Tick>(
             std::llround(static_cast<double>(path_latency(route, true)) * route->response_ratio)) +
         route->completion;
}

}  // namespace ascend::model
