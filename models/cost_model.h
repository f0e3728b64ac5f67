// The formulas that turn work into time: a vector instruction's duration, how long a DMA holds
// its core's engine, and a path's fixed latency. They sit behind one interface so that a
// calibrated variant is a new subclass plugged into the cluster (ClusterConfig::cost_model), not
// an edit of the core or the cluster. DefaultCostModel is the documented model
// (docs/model/core.md, docs/model/memory.md).
#pragma once

#include <cstdint>

#include "models/fabric.h"
#include "models/global_memory.h"
#include "models/time.h"

namespace ascend::model {

// The DMA engines: each has its own rate, fixed cost and outstanding window.
enum class DmaPath : uint8_t {
  AivMte2,  // GM -> UB
  AivMte3,  // UB -> GM
  AicMte2,  // GM -> L1 / L0A / L0B (with ND -> NZ on the way)
  AicFix,   // L0C -> GM (with the cast, quantization and ReLU on the way)
  AicMte3,  // L1 -> GM (dav-2201 copies L1 out to GM on the AIC's MTE3)
};
inline bool writes_gm(DmaPath p) {
  return p == DmaPath::AivMte3 || p == DmaPath::AicFix || p == DmaPath::AicMte3;
}

// The operand types an Mmad's rate depends on: fp16/bf16, int8, fp32, int4.
enum class MmadOperands : uint8_t { B16, Int8, Fp32, Int4 };

// The cube core's (AIC) timing; its buffers and engines.
struct CubeTiming {
  uint32_t l1_bytes = 512 * 1024, l0a_bytes = 64 * 1024, l0b_bytes = 64 * 1024,
           l0c_bytes = 128 * 1024, bt_bytes = 1024;
  double mte2_bytes_per_cycle = 156;      // GM -> L1, bytes resident in L2
  double mte2_miss_bytes_per_cycle = 32;  // GM -> L1, bytes read from HBM
  uint32_t mte2_setup_cycles = 60;
  uint32_t mte2_outstanding_bytes = 40 * 1024;
  double mte1_l0a_bytes_per_cycle = 256;  // L1 -> L0A
  double mte1_l0b_bytes_per_cycle = 128;  // L1 -> L0B
  uint32_t mte1_setup_cycles = 4;
  uint32_t mmad_overhead_cycles = 21;   // fixed cost of one Mmad
  uint32_t mmad_int8_k0 = 32;           // k of one int8 fractal step (16 x k0 x 16 per cycle)
  uint32_t mmad_int4_k0 = 64;           // k of one int4 fractal step (16 x k0 x 16 per cycle)
  uint32_t mmad_fp32_k_per_cycle = 4;   // fp32: 16 x this x 16 per cycle, k padded to 8
  double fb_bytes_per_cycle = 22;       // L1 -> fixpipe buffer (FB), on the FIX pipe
  double fix_bytes_per_cycle = 117;     // L0C -> GM
  double fix_l1_bytes_per_cycle = 256;  // L0C -> L1
  uint32_t fix_min_cycles = 80;         // a FIX transfer takes at least this long
};

struct CoreTiming {
  Clock clock;
  uint32_t issue_cycles = 2;
  uint32_t queue_depth = 32;
  uint32_t ub_bytes = 192 * 1024;
  double mte2_bytes_per_cycle = 80;
  double mte3_bytes_per_cycle = 78;
  uint32_t dma_setup_cycles = 17;
  // Bytes one engine may have requested and not yet had acknowledged (0: no limit).
  uint32_t mte2_outstanding_bytes = 19 * 512;
  uint32_t mte3_outstanding_bytes = 15 * 512;
  // Bytes one MTE3 may have written over the fabric and not yet had acknowledged (0: no limit).
  uint32_t mte3_remote_outstanding_bytes = 96 * 512;
  uint32_t dma_aligned_bytes = 512;
  double dma_unaligned_efficiency = 0.7;
  double vector_bytes_per_cycle = 256;
  uint32_t vector_overhead_cycles = 16;
  uint32_t scalar_gm_latency_cycles = 241;
  double system_counter_mhz = 50;  // the counter GetSystemCycle reads
  uint32_t syncall_cycles = 100;
  uint32_t crosscore_flag_cycles = 100;  // CrossCoreSetFlag -> the other core's counter
  CubeTiming cube;
};

struct HbmTiming {
  double gbps = 1600;
  double read_latency_ns = 130;
  double write_latency_ns = 72;
  uint64_t capacity_bytes = uint64_t{64} << 30;
};

class CostModel {
 public:
  virtual ~CostModel() = default;
  // A vector instruction of `repeats` 256-B units (of the wider of source and destination type).
  virtual Tick vector(uint64_t repeats) const = 0;
  // How long a DMA of `bytes` to/from GM address `gm` holds its engine.
  // `l2_hit_bytes` of an AIC MTE2 read are resident in the die's L2 (L2Cache): they stream at
  // the L2 rate, the rest at the DDR rate.
  virtual Tick dma_engine_hold(uint64_t bytes, GmAddr gm, DmaPath path,
                               uint64_t l2_hit_bytes = 0) const = 0;
  // An MTE1 move of `bytes` from L1 into L0A (to_l0b false) or L0B.
  virtual Tick mte1(uint64_t bytes, bool to_l0b) const = 0;
  // One Mmad of m x k x n of the operand type `op` (int8/int4 go deeper in k per cycle than
  // fp16, fp32 shallower).
  virtual Tick mmad(uint32_t m, uint32_t k, uint32_t n, MmadOperands op) const = 0;
  // A move of `bytes` from L1 into the fixpipe buffer (FB) on the FIX pipe (a VDEQF16 scale).
  virtual Tick fb_load(uint64_t bytes) const = 0;
  virtual Tick fix_to_l1(uint64_t bytes) const = 0;
  // The fixed latency a transfer pays after its last resource is done: `route` is null for the
  // die's own HBM, else the fabric route the data takes.
  virtual Tick path_latency(const Route* route, bool write) const = 0;
  // The least time from an engine's start to the end of a transfer of `bytes` over a path of
  // round trip `latency` (request out, response back), when the engine may keep only so many bytes
  // outstanding: it streams at most outstanding / latency. Transfers of one engine share the bound
  // (booked in order). `remote`: a write over the fabric, which has its own window. 0: no limit.
  virtual Tick outstanding_bound(uint64_t bytes, Tick latency, DmaPath path, bool remote) const = 0;
  // How long after a transfer's bytes have landed its initiator learns it: a remote write's
  // acknowledgement crossing `route` back, and the completion work at its ends. Null route (the
  // die's own HBM) or a read: 0.
  virtual Tick response_latency(const Route* route, bool write) const = 0;
};

class DefaultCostModel : public CostModel {
 public:
  DefaultCostModel(const CoreTiming& core, const HbmTiming& hbm) : core_(core), hbm_(hbm) {}
  Tick vector(uint64_t repeats) const override;
  Tick dma_engine_hold(uint64_t bytes, GmAddr gm, DmaPath path,
                       uint64_t l2_hit_bytes = 0) const override;
  Tick mte1(uint64_t bytes, bool to_l0b) const override;
  Tick mmad(uint32_t m, uint32_t k, uint32_t n, MmadOperands op) const override;
  Tick fb_load(uint64_t bytes) const override;
  Tick fix_to_l1(uint64_t bytes) const override;
  Tick path_latency(const Route* route, bool write) const override;
  Tick outstanding_bound(uint64_t bytes, Tick latency, DmaPath path, bool remote) const override;
  Tick response_latency(const Route* route, bool write) const override;

 protected:
  CoreTiming core_;
  HbmTiming hbm_;
};

}  // namespace ascend::model
