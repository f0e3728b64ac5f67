#include "sim/hardware_params.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <type_traits>

#include "models/errors.h"
#include "sim/field_params.h"

namespace ascend {

namespace {

using AscendC::detail::RuntimeConfig;
using model::ClusterConfig;

// Source keys and letters are defined in docs/sources.md: H = official doc / platform ini / Huawei
// paper, M = consistent third party, L = estimate. "est." marks values derived by us.
const char* kIniC = "[INI-C] 910PR_9363.ini (Ascend910C4, one die), H";
const char* kCM = "[CM] Zuo et al., CloudMatrix384, arXiv 2506.12708";

// The calibration source of the DMA parameters (the fit: tests/validation/fit_dma.py).
const char* const kMskpp = "fit to the [MSKPP-T] 910B1 per-instruction DMA tables";

// The hardware: every number of the models' configuration.
const std::vector<FieldParam<ClusterConfig>>& cluster_fields() {
  static const std::vector<FieldParam<ClusterConfig>> fields = {
      field<ClusterConfig>(
          int_param("die.aiv_count", "cores", kFromField, 1, 96,
                    "AIV (vector) cores per die; a kernel launches on up to this many",
                    std::string(kIniC) + " [SoCInfo]; [CM] 3.3.1"),
          [](ClusterConfig & c) -> auto& { return c.aiv_per_die; }),
      field<ClusterConfig>(
          real_param("core.clock_GHz", "GHz", kFromField, 0.1, 5,
                     "AI Core clock; every cycle count converts to ps as ceil(cycles*1000/GHz)",
                     std::string(kIniC) + " cube_freq=1850"),
          [](ClusterConfig & c) -> auto& { return c.core.clock.ghz; }),
      field<ClusterConfig>(
          int_param("ub.size_KiB", "KiB", kFromField, 16, 1024,
                    "Unified Buffer per AIV core (allocation is 32-B aligned)",
                    std::string(kIniC) + " ub_size=196608"),
          [](ClusterConfig & c) -> auto& { return c.core.ub_bytes; }, 1024),
      field<ClusterConfig>(
          real_param(
              "hbm.bandwidth_GBps", "GB/s", kFromField, 1, 100000,
              "HBM bandwidth of one die, shared by all its cores' reads and writes; nominal, and "
              "transfers move at this full rate",
              "[CM] 3.3.1: 3.2 TB/s per 910C package = 1.6 TB/s per die, H"),
          [](ClusterConfig & c) -> auto& { return c.hbm.gbps; }),
      field<ClusterConfig>(
          real_param("hbm.read_latency_ns", "ns", kFromField, 0, 100000,
                     "latency added to a GM read after its bytes have streamed",
                     "est. from the CA-model L2 read latency 241 cycles at 1.85 GHz [SIM-CFG], L"),
          [](ClusterConfig & c) -> auto& { return c.hbm.read_latency_ns; }),
      field<ClusterConfig>(
          real_param("hbm.write_latency_ns", "ns", kFromField, 0, 100000,
                     "latency added to a GM write before its bytes are visible (and acknowledged)",
                     std::string(kMskpp) +
                         ": a lone 1 KiB MTE3 takes 90 ns (the CA-model L2 write latency, 96 "
                         "cycles = 52 ns [SIM-CFG], leaves the table's small writes 25% too fast), "
                         "M"),
          [](ClusterConfig & c) -> auto& { return c.hbm.write_latency_ns; }),
      field<ClusterConfig>(
          int_param("hbm.capacity_GiB", "GiB", kFromField, 1, 1024,
                    "HBM capacity of one die (GM allocations beyond it fail)",
                    "[CM] 3.3.1: 128 GB per 910C = 64 GB per die, H"),
          [](ClusterConfig & c) -> auto& { return c.hbm.capacity_bytes; }, uint64_t{1} << 30),
      field<ClusterConfig>(
          real_param("mte2.bytes_per_cycle", "B/cycle", kFromField, 1, 4096,
                     "per-core MTE2 (GM->UB) engine rate; a lone large read is bound by "
                     "mte2.outstanding_bytes instead",
                     std::string(kMskpp) +
                         " with dma.setup_cycles, hbm.read_latency_ns, mte2.outstanding_bytes "
                         "(the platform ini's ddr=32 is below the measured 78 GB/s), M"),
          [](ClusterConfig & c) -> auto& { return c.core.mte2_bytes_per_cycle; }),
      field<ClusterConfig>(
          real_param("mte3.bytes_per_cycle", "B/cycle", kFromField, 1, 4096,
                     "per-core MTE3 (UB->GM) engine rate; a lone large write is bound by "
                     "mte3.outstanding_bytes instead",
                     std::string(kMskpp) +
                         " with dma.setup_cycles, hbm.write_latency_ns, mte3.outstanding_bytes "
                         "([INI-C] UB->GM=64), M"),
          [](ClusterConfig & c) -> auto& { return c.core.mte3_bytes_per_cycle; }),
      field<ClusterConfig>(
          int_param(
              "dma.setup_cycles", "cycles", kFromField, 0, 100000,
              "fixed cost of every DMA instruction on its MTE engine, before its first "
              "request",
              std::string(kMskpp) + " (with the path latencies it sets the 1-4 KiB floor), M"),
          [](ClusterConfig & c) -> auto& { return c.core.dma_setup_cycles; }),
      field<ClusterConfig>(
          int_param("mte2.outstanding_bytes", "B", kFromField, 0, 1 << 24,
                    "GM read bytes one MTE2 may have requested and not yet received: a core reads "
                    "at most this / the path latency (0: no limit)",
                    std::string(kMskpp) +
                        ": 78 GB/s at >= 64 KiB with a 130 ns read latency, 19 x 512 B, M"),
          [](ClusterConfig & c) -> auto& { return c.core.mte2_outstanding_bytes; }),
      field<ClusterConfig>(
          int_param("mte3.outstanding_bytes", "B", kFromField, 0, 1 << 24,
                    "bytes of the die's own GM one MTE3 may have written and not yet had "
                    "acknowledged: a core writes at most this / the round trip (0: no limit)",
                    std::string(kMskpp) +
                        ": 110 GB/s at >= 64 KiB with a 72 ns write latency, 15 x 512 B, M"),
          [](ClusterConfig & c) -> auto& { return c.core.mte3_outstanding_bytes; }),
      field<ClusterConfig>(
          int_param("mte3.remote_outstanding_bytes", "B", kFromField, 0, 1 << 24,
                    "bytes one MTE3 may have written over the fabric and not yet had "
                    "acknowledged: a core writes at most this / the round trip (request, "
                    "acknowledgement, completion) to another die (0: no limit)",
                    "fit: [CM] Table 7, combine (a core's 14-KiB rows keep pace with its 7-KiB "
                    "dispatch records: the UB path keeps far more in flight than the local one); "
                    "results do not move above 48 KiB (32 KiB: +2% on combine), L"),
          [](ClusterConfig & c) -> auto& { return c.core.mte3_remote_outstanding_bytes; }),
      field<ClusterConfig>(
          int_param("dma.aligned_bytes", "B", kFromField, 32, 4096,
                    "GM alignment for full DMA rate", "[DMA]; GM cache line 512 B [ACDOC], H"),
          [](ClusterConfig & c) -> auto& { return c.core.dma_aligned_bytes; }),
      field<ClusterConfig>(
          real_param("dma.unaligned_efficiency", "", kFromField, 0.05, 1,
                     "DMA rate factor when the GM address is not dma.aligned_bytes-aligned",
                     "[DMA]: 32-B-aligned GM gets ~70% of the 512-B-aligned bandwidth (A2), H"),
          [](ClusterConfig & c) -> auto& { return c.core.dma_unaligned_efficiency; }),
      field<ClusterConfig>(
          real_param("vector.bytes_per_cycle", "B/cycle", kFromField, 1, 4096,
                     "vector unit throughput: one 256-B repeat per cycle at 256",
                     "est. from [VEC] 256 B per repeat and [HC31] 2048-bit vector, M"),
          [](ClusterConfig & c) -> auto& { return c.core.vector_bytes_per_cycle; }),
      field<ClusterConfig>(
          int_param("vector.overhead_cycles", "cycles", kFromField, 0, 10000,
                    "fixed start-up cost of every vector instruction", "est., uncalibrated, L"),
          [](ClusterConfig & c) -> auto& { return c.core.vector_overhead_cycles; }),
      field<ClusterConfig>(
          int_param(
              "scalar.issue_cycles", "cycles", kFromField, 1, 10000,
              "scalar cycles to issue one instruction into a pipe queue (or run a flag/barrier)",
              "est., uncalibrated, L"),
          [](ClusterConfig & c) -> auto& { return c.core.issue_cycles; }),
      field<ClusterConfig>(
          int_param("scalar.gm_latency_cycles", "cycles", kFromField, 1, 100000,
                    "scalar GetValue/SetValue on GM (the scalar stalls this long)",
                    "est. = CA-model L2 read latency [SIM-CFG], L"),
          [](ClusterConfig & c) -> auto& { return c.core.scalar_gm_latency_cycles; }),
      field<ClusterConfig>(
          real_param("core.system_counter_MHz", "MHz", kFromField, 1, 10000,
                     "the system counter GetSystemCycle reads (its cycles over this rate are "
                     "the time)",
                     "[ASC-API] GetSystemCycle: 50 MHz on Atlas A2 and A3, H"),
          [](ClusterConfig & c) -> auto& { return c.core.system_counter_mhz; }),
      field<ClusterConfig>(
          int_param(
              "pipe.queue_depth", "instrs", kFromField, 1, 4096,
              "issue queue depth of each pipe; the scalar stalls while the target queue is full",
              "est., uncalibrated, L"),
          [](ClusterConfig & c) -> auto& { return c.core.queue_depth; }),
      field<ClusterConfig>(
          int_param("die.aic_count", "cores", kFromField, 0, 48,
                    "AIC (cube) cores per die, each paired with two AIVs (AIV 2i and 2i+1 with "
                    "AIC i); built only for a kernel that uses the cube",
                    std::string(kIniC) + " [SoCInfo] cube_core_cnt; [CUBE] 1.1, H"),
          [](ClusterConfig & c) -> auto& { return c.aic_per_die; }),
      field<ClusterConfig>(
          int_param("cube.l1_KiB", "KiB", kFromField, 16, 4096,
                    "L1 buffer per AIC (positions A1, B1, C1; 32-B aligned)",
                    "[CUBE] 1.1 [ARCH] 2201, H"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.l1_bytes; }, 1024),
      field<ClusterConfig>(
          int_param("cube.l0a_KiB", "KiB", kFromField, 4, 1024,
                    "L0A buffer per AIC (position A2; 512-B fractals)", "[CUBE] 1.1 [ARCH], H"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.l0a_bytes; }, 1024),
      field<ClusterConfig>(
          int_param("cube.l0b_KiB", "KiB", kFromField, 4, 1024,
                    "L0B buffer per AIC (position B2; 512-B fractals)", "[CUBE] 1.1 [ARCH], H"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.l0b_bytes; }, 1024),
      field<ClusterConfig>(
          int_param("cube.l0c_KiB", "KiB", kFromField, 4, 2048,
                    "L0C buffer per AIC (position CO1; fp32/int32 accumulators)",
                    "[CUBE] 1.1 [ARCH], H"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.l0c_bytes; }, 1024),
      field<ClusterConfig>(
          int_param("cube.bt_bytes", "B", kFromField, 64, 65536,
                    "BiasTable per AIC (position C2; 64-B aligned)",
                    "[CUBE] 1.1 [ARCH], [INI-C] bt_size, H"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.bt_bytes; }),
      field<ClusterConfig>(
          real_param("cube.mte2_bytes_per_cycle", "B/cycle", kFromField, 1, 4096,
                     "AIC MTE2 engine rate, GM -> L1/L0A/L0B (with ND -> NZ on the way), for "
                     "bytes resident in the die's L2",
                     "[CUBE] 1.3 [KPP] GM->L1 at >= 128 KB: 139-156 B/cycle (its L2 state is "
                     "not stated; above [INI-C]'s L2 read rate 110), M"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.mte2_bytes_per_cycle; }),
      field<ClusterConfig>(
          real_param("cube.mte2_miss_bytes_per_cycle", "B/cycle", kFromField, 1, 4096,
                     "AIC MTE2 engine rate for bytes not in the L2 (read from HBM)",
                     "[INI-C] [AICoreMemoryRates] ddr 32 B/cycle per core; [KPP] misses 2-4.5x "
                     "slower than hits, H"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.mte2_miss_bytes_per_cycle; }),
      field<ClusterConfig>(
          int_param("l2.capacity_MiB", "MiB", kFromField, 0, 4096,
                    "the die's L2 as the AICs' GM reads see it (0: every read misses); AIV "
                    "paths do not consult it",
                    "[INI-C] l2_size = 201326592 (192 MiB per 910C die), H"),
          [](ClusterConfig & c) -> auto& { return c.l2_capacity_bytes; }, uint64_t{1} << 20),
      field<ClusterConfig>(
          int_param("l2.line_bytes", "B", kFromField, 32, 1 << 20,
                    "the grain the model keeps L2 residency in: the cache line, or coarser to "
                    "keep a die's state small (a block holding other cores' columns then counts "
                    "as resident for them)",
                    "[ACDOC] the 512-B GM cache line; [PYPTO-CM] l2LineSize = 512, H"),
          [](ClusterConfig & c) -> auto& { return c.l2_block_bytes; }),
      field<ClusterConfig>(
          int_param("cube.mte2_setup_cycles", "cycles", kFromField, 0, 100000,
                    "fixed cost of every AIC MTE2 instruction on its engine",
                    "est. from [CUBE] 1.3 [KPP] GM->L1 at 1-4 KB (5.9-17.5 B/cycle), L"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.mte2_setup_cycles; }),
      field<ClusterConfig>(
          int_param("cube.mte2_outstanding_bytes", "B", kFromField, 0, 1 << 24,
                    "GM read bytes one AIC MTE2 may have requested and not yet received (0: no "
                    "limit)",
                    "est.: at least [KPP]'s 156 B/cycle over the 130-ns read latency (40 KiB / 240 "
                    "cycles = 170 B/cycle), so the engine rate binds, L"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.mte2_outstanding_bytes; }),
      field<ClusterConfig>(
          real_param("cube.mte1_l0a_bytes_per_cycle", "B/cycle", kFromField, 1, 4096,
                     "MTE1 rate L1 -> L0A (LoadData)",
                     "[CUBE] 1.3 [ARCH] 256 B/cycle (the ini's 512 conflicts; [KPP] measures "
                     "255-261), H"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.mte1_l0a_bytes_per_cycle; }),
      field<ClusterConfig>(
          real_param("cube.mte1_l0b_bytes_per_cycle", "B/cycle", kFromField, 1, 4096,
                     "MTE1 rate L1 -> L0B (LoadData)",
                     "[CUBE] 1.3 [ARCH] 128 B/cycle ([KPP] measures 129-131), H"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.mte1_l0b_bytes_per_cycle; }),
      field<ClusterConfig>(
          int_param("cube.mte1_setup_cycles", "cycles", kFromField, 0, 10000,
                    "fixed cost of every LoadData on MTE1",
                    "est. from [KPP] L1->L0A 1 KB at 171 B/cycle vs 261 at 64 KB, L"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.mte1_setup_cycles; }),
      field<ClusterConfig>(
          int_param("cube.mmad_overhead_cycles", "cycles", kFromField, 0, 10000,
                    "fixed cost of every Mmad, on top of one cycle per 16x16x16 fractal step "
                    "(16x32x16 for int8)",
                    "[CUBE] 1.4: [PYPTO-CM] 0.0107 us; fits the [KPP] 910B3 m=k=16 table "
                    "(c0 ~ 23), M"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.mmad_overhead_cycles; }),
      field<ClusterConfig>(
          int_param("cube.mmad_int8_k0", "elements", kFromField, 16, 128,
                    "k of one int8 Mmad fractal step: 16 x k0 x 16 MACs per cycle (fp16/bf16: "
                    "16 x 16 x 16), so int8 runs at k0 / 16 times the fp16 rate",
                    "[CUBE] 1.1 [INI-C] section DtypeMKN: int8 16x32x16 (fp16 16x16x16), H"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.mmad_int8_k0; }),
      field<ClusterConfig>(
          int_param("cube.mmad_int4_k0", "elements", kFromField, 16, 256,
                    "k of one int4 Mmad fractal step: 16 x k0 x 16 MACs per cycle, so int4 runs "
                    "at k0 / 16 times the fp16 rate",
                    "[ASC-API] appendix cube instruction performance, dav-2201: int4b_t cube_k "
                    "64, k0 64, H"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.mmad_int4_k0; }),
      field<ClusterConfig>(
          int_param("cube.mmad_fp32_k_per_cycle", "elements", kFromField, 1, 16,
                    "k of an fp32 Mmad per cycle: 16 x this x 16 MACs per cycle over k padded "
                    "to the fp32 fractal's 8, so fp32 runs at this / 16 times the fp16 rate",
                    "[ASC-API] appendix cube instruction performance, dav-2201: float cube_k 4, "
                    "k0 8, H"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.mmad_fp32_k_per_cycle; }),
      field<ClusterConfig>(
          real_param("cube.fb_bytes_per_cycle", "B/cycle", kFromField, 1, 4096,
                     "L1 -> fixpipe buffer (FB) on the FIX pipe: a VDEQF16 Fixpipe's per-channel "
                     "uint64 deqScale (8 B per column) before its L0C -> GM move",
                     "[CUBE] 1.3 [KPP] L1->FB 37.5 GB/s (22 B/cycle) at <= 1 KB, M"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.fb_bytes_per_cycle; }),
      field<ClusterConfig>(
          real_param("cube.fix_l1_bytes_per_cycle", "B/cycle", kFromField, 1, 4096,
                     "FIXPIPE rate L0C -> L1 (Fixpipe into L1; the bytes written, after the cast)",
                     "[INI-C] [AICoreMemoryRates] l0c_to_ub 256, the ini's one L0C-out rate (A2/A3 "
                     "have no L0C -> UB path; their L0C -> L1 rate is not published), L"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.fix_l1_bytes_per_cycle; }),
      field<ClusterConfig>(
          real_param("cube.fixpipe_bytes_per_cycle", "B/cycle", kFromField, 1, 4096,
                     "FIXPIPE rate L0C -> GM (the bytes written, after the cast)",
                     "[CUBE] 1.3 [KPP] L0C->GM ND at >= 16 KB: 117-121 B/cycle, M"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.fix_bytes_per_cycle; }),
      field<ClusterConfig>(
          int_param("cube.fixpipe_min_cycles", "cycles", kFromField, 0, 100000,
                    "the least time a FIXPIPE transfer holds its engine",
                    "[CUBE] 1.3 [KPP] L0C->GM 1-4 KB: 80-85 cycles, M"),
          [](ClusterConfig & c) -> auto& { return c.core.cube.fix_min_cycles; }),
      field<ClusterConfig>(
          int_param("crosscore.flag_cycles", "cycles", kFromField, 0, 100000,
                    "CrossCoreSetFlag: from the set to the other cores' counters",
                    "est., unpublished ([CUBE] 6), L"),
          [](ClusterConfig & c) -> auto& { return c.core.crosscore_flag_cycles; }),
      field<ClusterConfig>(
          int_param("syncall.cycles", "cycles", kFromField, 0, 1000000,
                    "SyncAll: all cores leave this long after the last one arrives",
                    "est., uncalibrated, L"),
          [](ClusterConfig & c) -> auto& { return c.core.syncall_cycles; }),
      field<ClusterConfig>(
          choice_param(
              "fabric.topology", kFromField, {"a3", "a2"},
              "a3: CloudMatrix384 UB supernode; a2: 8-die HCCS full mesh per server, RoCE between",
              "[CM] 3.3.2-3.3.3 (a3); [ARTH] (a2)"),
          [](ClusterConfig & c) -> auto& { return c.fabric.topology; }),
      field<ClusterConfig>(
          int_param("fabric.dies_per_chip", "dies", kFromField, 1, 2,
                    "a3: dies per 910C package, joined by the die-to-die link",
                    std::string(kCM) + " 3.3.1, H"),
          [](ClusterConfig & c) -> auto& { return c.fabric.dies_per_chip; }),
      field<ClusterConfig>(
          int_param("fabric.dies_per_node", "dies", kFromField, 2, 768,
                    "a3: dies behind one node's L1 UB switches (8 NPUs x 2 dies)",
                    std::string(kCM) + " 3.3.2, H"),
          [](ClusterConfig & c) -> auto& { return c.fabric.dies_per_node; }),
      // A UB port's rate is one nominal figure times a measured efficiency per direction of use:
      // the effective rate follows the nominal, so a wider link is one key (port_GBps), and the
      // efficiencies are dimensionless shares of it.
      field<ClusterConfig>(
          real_param("fabric.port_GBps", "GB/s", kFromField, 1, 100000,
                     "a3: UB port of a die per direction, nominal (7 x 224 Gb/s SerDes); writes "
                     "move at fabric.port_GBps x fabric.write_efficiency, reads at "
                     "fabric.port_GBps x fabric.read_efficiency",
                     std::string(kCM) + " 3.3.1, H"),
          [](ClusterConfig & c) -> auto& { return c.fabric.ub_port_GBps; }),
      // The defaults are 137/196 and 167/196 printed to round-trip exactly, so that 196 x
      // efficiency is exactly 137 and 167 GB/s.
      field<ClusterConfig>(
          real_param("fabric.write_efficiency", "", kFromField, 0.01, 1,
                     "a3: share of fabric.port_GBps a UB write achieves (effective / nominal; "
                     "default 137/196)",
                     std::string(kCM) +
                         " Table 1, NPU->NPU write intra-node 137 GB/s (inter 135) of 196, H"),
          [](ClusterConfig & c) -> auto& { return c.fabric.ub_write_efficiency; }),
      field<ClusterConfig>(
          real_param("fabric.read_efficiency", "", kFromField, 0.01, 1,
                     "a3: share of fabric.port_GBps a UB read achieves (effective / nominal; "
                     "default 167/196)",
                     std::string(kCM) +
                         " Table 1, NPU->NPU read intra-node 167 GB/s (inter 164) of 196, H"),
          [](ClusterConfig & c) -> auto& { return c.fabric.ub_read_efficiency; }),
      field<ClusterConfig>(
          real_param(
              "fabric.d2d_GBps", "GB/s", kFromField, 1, 100000,
              "a3: die-to-die link inside a package, per direction; nominal, and transfers move at "
              "this full rate (no measured efficiency published)",
              std::string(kCM) + " 3.3.1, H"),
          [](ClusterConfig & c) -> auto& { return c.fabric.d2d_GBps; }),
      // Faults injected at run time (every kernel): one degraded fabric port.
      field<ClusterConfig>(
          text_param("fault.degraded_port", kFromField,
                     "a fault: the fabric port of this name (stats.json ports[].name, e.g. "
                     "die3.ub_egress, node0.uplink) runs at fault.degraded_factor of its rate; "
                     "\"\" for none",
                     "workload"),
          [](ClusterConfig & c) -> auto& { return c.fabric.degraded_port; }),
      field<ClusterConfig>(
          real_param("fault.degraded_factor", "", kFromField, 0.001, 1,
                     "a fault: the share of its rate fault.degraded_port keeps (1: healthy)",
                     "workload"),
          [](ClusterConfig & c) -> auto& { return c.fabric.degraded_factor; }),
      field<ClusterConfig>(
          real_param(
              "fabric.node_uplink_GBps", "GB/s", kFromField, 1, 1000000,
              "a3: a node's bandwidth into the L2 switch level, per direction (7 L1 chips x 448); "
              "nominal, and transfers move at this full rate",
              std::string(kCM) + " 3.3.2, H"),
          [](ClusterConfig & c) -> auto& { return c.fabric.node_uplink_GBps; }),
      field<ClusterConfig>(
          real_param("fabric.write_latency_intra_node_ns", "ns", kFromField, 0, 1e6,
                     "a3: one 512-B write to another die of the node, DMA start to data visible",
                     std::string(kCM) + " Table 1, H"),
          [](ClusterConfig & c) -> auto& { return c.fabric.write_512B_intra_node_ns; }),
      field<ClusterConfig>(
          real_param("fabric.read_latency_intra_node_ns", "ns", kFromField, 0, 1e6,
                     "a3: one 512-B read from another die of the node",
                     std::string(kCM) + " Table 1, H"),
          [](ClusterConfig & c) -> auto& { return c.fabric.read_512B_intra_node_ns; }),
      field<ClusterConfig>(
          real_param("fabric.write_latency_inter_node_ns", "ns", kFromField, 0, 1e6,
                     "a3: one 512-B write to a die of another node",
                     std::string(kCM) + " Table 1, H"),
          [](ClusterConfig & c) -> auto& { return c.fabric.write_512B_inter_node_ns; }),
      field<ClusterConfig>(
          real_param("fabric.read_latency_inter_node_ns", "ns", kFromField, 0, 1e6,
                     "a3: one 512-B read from a die of another node",
                     std::string(kCM) + " Table 1, H"),
          [](ClusterConfig & c) -> auto& { return c.fabric.read_512B_inter_node_ns; }),
      field<ClusterConfig>(
          real_param("fabric.write_latency_d2d_ns", "ns", kFromField, 0, 1e6,
                     "a3: one 512-B write to the other die of the package",
                     "est. = intra-node value (no published die-to-die figure), L"),
          [](ClusterConfig & c) -> auto& { return c.fabric.write_512B_d2d_ns; }),
      field<ClusterConfig>(
          real_param("fabric.read_latency_d2d_ns", "ns", kFromField, 0, 1e6,
                     "a3: one 512-B read from the other die of the package",
                     "est. = intra-node value (no published die-to-die figure), L"),
          [](ClusterConfig & c) -> auto& { return c.fabric.read_512B_d2d_ns; }),
      field<ClusterConfig>(
          int_param("fabric.dies_per_server", "dies", kFromField, 2, 64,
                    "a2: dies in one HCCS full mesh",
                    "[ARTH] npu-smi topo: HCCS between all 8 NPUs, M"),
          [](ClusterConfig & c) -> auto& { return c.fabric.dies_per_server; }),
      field<ClusterConfig>(
          real_param(
              "fabric.hccs_link_GBps", "GB/s", kFromField, 1, 100000,
              "a2: one HCCS link between two dies, per direction; transfers move at this full rate",
              "est. 392 GB/s / 7 peers, L"),
          [](ClusterConfig & c) -> auto& { return c.fabric.hccs_link_GBps; }),
      field<ClusterConfig>(
          real_param(
              "fabric.roce_GBps", "GB/s", kFromField, 0.1, 100000,
              "a2: RoCE NIC of a die per direction (200 Gb/s line rate); transfers move at this "
              "full rate",
              "[ARTH] hccn_tool 200000 Mb/s, H"),
          [](ClusterConfig & c) -> auto& { return c.fabric.roce_GBps; }),
      field<ClusterConfig>(
          real_param("fabric.write_latency_hccs_ns", "ns", kFromField, 0, 1e6,
                     "a2: one 512-B write over HCCS", "est. = A3 intra-node value, L"),
          [](ClusterConfig & c) -> auto& { return c.fabric.write_512B_hccs_ns; }),
      field<ClusterConfig>(
          real_param("fabric.read_latency_hccs_ns", "ns", kFromField, 0, 1e6,
                     "a2: one 512-B read over HCCS", "est. = A3 intra-node value, L"),
          [](ClusterConfig & c) -> auto& { return c.fabric.read_512B_hccs_ns; }),
      field<ClusterConfig>(
          real_param("fabric.write_latency_roce_ns", "ns", kFromField, 0, 1e7,
                     "a2: one 512-B write over RoCE between servers", "est., uncalibrated, L"),
          [](ClusterConfig & c) -> auto& { return c.fabric.write_512B_roce_ns; }),
      field<ClusterConfig>(
          real_param("fabric.read_latency_roce_ns", "ns", kFromField, 0, 1e7,
                     "a2: one 512-B read over RoCE between servers", "est., uncalibrated, L"),
          [](ClusterConfig & c) -> auto& { return c.fabric.read_512B_roce_ns; }),
      field<ClusterConfig>(
          real_param(
              "fabric.write_response_ratio", "ratio", kFromField, 0, 4,
              "a remote write is complete for its core (PipeBarrier, SetFlag after it) when its "
              "acknowledgement is back, this ratio of the path's fixed latency after the bytes "
              "land; 0: complete on landing. The fabric.write_latency_* values are one-way",
              "est.: a symmetric path returns the acknowledgement in the data's fixed latency; "
              "[CM] Table 1 write latencies read as one-way (as perftest's ib_write_lat, half a "
              "ping-pong); [CM] Table 7 growth from EP 8 to 128 needs it (tests/validation), M"),
          [](ClusterConfig & c) -> auto& { return c.fabric.write_response_ratio; }),
      field<ClusterConfig>(
          real_param("fabric.write_completion_ns", "ns", kFromField, 0, 1e6,
                     "a remote write completes for its core this long after its acknowledgement "
                     "has crossed back: the target commits the bytes and answers, the engine "
                     "retires the request (any path class)",
                     "fit: [CM] Table 7, dispatch and combine at EP 8/32/128 (tests/validation): "
                     "their time per record, nearly the same for 7-KiB and 14-KiB records and "
                     "growing with the path latency, L"),
          [](ClusterConfig & c) -> auto& { return c.fabric.write_completion_ns; }),
      field<ClusterConfig>(
          int_param("sim.thread_stack_KiB", "KiB", kFromField, 32, 65536,
                    "stack of each kernel core's SC_THREAD", "simulator setting"),
          [](ClusterConfig & c) -> auto& { return c.thread_stack_bytes; }, 1024),
      field<ClusterConfig>(
          int_param("sim.lazy_scalar", "", kFromField, 0, 1,
                    "1: a core's scalar program runs ahead of simulated time while nothing can "
                    "observe it, and wakes only when it must; 0: it waits out every cycle. The "
                    "timing is identical (a switch for checking that)",
                    "simulator setting"),
          [](ClusterConfig & c) -> auto& { return c.lazy_scalar; }),
      field<ClusterConfig>(
          int_param("sim.sleeping_polls", "", kFromField, 0, 1,
                    "1: a polling loop written with SimPollUntil sleeps while the words it polls "
                    "stay the same, and the core replays its iterations, one event each, with "
                    "their exact timing; 0: every iteration runs. The timing is identical (a "
                    "switch for checking that)",
                    "simulator setting"),
          [](ClusterConfig & c) -> auto& { return c.sleeping_polls; }),
      choice_field<ClusterConfig>(
          "sim.arbitration",
          {{"fifo", ClusterConfig::Arbitration::Fifo},
           {"calendar", ClusterConfig::Arbitration::Calendar}},
          "how each shared resource (a die's HBM, a fabric port) orders the transfers it serves: "
          "fifo, in the order they are booked; calendar, each in the first gap at or after its "
          "ready time that holds it (docs/model/memory.md). The model books every transfer at its "
          "start, in time order, where the two are identical (a switch for checking that); "
          "stats.modules=1 then lists each resource's booking_inversions",
          "simulator setting", [](ClusterConfig & c) -> auto& { return c.arbitration; }),
      field<ClusterConfig>(
          int_param("sim.check_issue_timing", "", kFromField, 0, 1,
                    "1: every instruction that leaves a pipe's queue, and every scalar wait on a "
                    "full queue, WaitFlag<X_S> or PipeBarrier<PIPE_ALL>, is checked against the "
                    "max-plus recurrences a pipe timed at issue would use (docs/model/core.md); "
                    "the first that differs stops the run (exit 1, an internal error). The timing "
                    "is identical",
                    "simulator setting"),
          [](ClusterConfig & c) -> auto& { return c.check_issue_timing; }),
      field<ClusterConfig>(
          int_param("compiler.auto_sync", "", kFromField, 0, 1,
                    "1: a scalar GetValue of UB bytes an unfinished instruction of the core "
                    "still writes waits for it, as the flag the compiler inserts (Ascend C is "
                    "built with the bisheng/ccec automatic synchronisation on); 0: it reads them "
                    "as they are (and --racecheck reports the pair)",
                    "est.: the ccec --cce-auto-sync option, on in Ascend C's default build; "
                    "kernels that synchronise themselves never wait on it, L"),
          [](ClusterConfig & c) -> auto& { return c.auto_sync; })};
  return fields;
}

// What the kernel API's runtime is given (windows, payload, sorting costs).
const std::vector<FieldParam<RuntimeConfig>>& runtime_fields() {
  static const std::vector<FieldParam<RuntimeConfig>> fields = {
      field<RuntimeConfig>(
          int_param(
              "hccl.buffsize_MB", "MiB", kFromField, 1, 65536,
              "HCCL data window (windowsIn) of every rank, in its HBM (HCCL_BUFFSIZE). CANN's own "
              "default is 200, but the default dispatch scenario (EP 16, 256 experts, BS 128, H "
              "7168) needs 956 MiB by the operator's formula; windows are sparse and cost nothing "
              "until written",
              "CANN HCCL_BUFFSIZE (default 200); dispatch README formula"),
          [](RuntimeConfig & c) -> auto& { return c.windows.data_bytes; }, uint64_t{1} << 20),
      field<RuntimeConfig>(
          int_param("hccl.status_KiB", "KiB", kFromField, 64, 65536,
                    "HCCL status window (windowsExp) of every rank",
                    "[NEW] status area = first 1 MB"),
          [](RuntimeConfig & c) -> auto& { return c.windows.status_bytes; }, uint64_t{1} << 10),
      // ---- sorting instructions (api/sort.h: Sort, MrgSort), used by FfnWorkerBatching.
      // No published cycle counts were found; both are estimates.
      field<RuntimeConfig>(
          real_param("sort.sort32_cycles", "cycles", kFromField, 1, 100000,
                     "Sort: cycles to sort one group of 32 (score, index) proposals (one "
                     "Sort32 repeat)",
                     "est., uncalibrated (about one cycle per element), L"),
          [](RuntimeConfig & c) -> auto& { return c.sort.sort32_cycles; }),
      field<RuntimeConfig>(
          real_param("sort.merge_elements_per_cycle", "elements/cycle", kFromField, 0.01, 1024,
                     "MrgSort and the merge passes of a full Sort: proposals merged per cycle",
                     "est., uncalibrated, L"),
          [](RuntimeConfig & c) -> auto& { return c.sort.merge_elements_per_cycle; }),
      field<RuntimeConfig>(
          int_param(
              "sim.payload", "", kFromField, 0, 1,
              "1: move and compute everything; 0: timing-only, payload (hidden states, scales) is "
              "timed but not moved, ids/counts/triples/flags move for real; the timing is "
              "identical",
              "simulator setting"),
          [](RuntimeConfig & c) -> auto& { return c.payload; })};
  return fields;
}

}  // namespace

void declare_hardware_params(Params& p) {
  for (const auto& f : cluster_fields()) p.declare(f.spec);
  for (const auto& f : runtime_fields()) p.declare(f.spec);
  // Faults injected at run time, for every kernel (beside fault.degraded_port above; dead ranks
  // are dispatch's, combine's and moe's own: fault.dead_ranks).
  p.declare(int_param("fault.stall_rank", "", "-1", -1, 767,
                      "a fault: every core of this rank stops for good at its first DMA or GM "
                      "access from fault.stall_at_us on; the others wait for it (exit 3 and a "
                      "report naming the stall); -1 for none",
                      "workload"));
  p.declare(real_param("fault.stall_at_us", "us", "0", 0, 1e9,
                       "a fault: when fault.stall_rank stops (simulated time)", "workload"));
  p.declare(int_param("fault.corrupt_rank", "", "-1", -1, 767,
                      "a fault: the first record written into this rank's HCCL data window lands "
                      "with one bit flipped (--check names the tensor it reaches, exit 4); -1 for "
                      "none",
                      "workload"));
  p.declare(int_param("fault.double_flag_rank", "", "-1", -1, 767,
                      "a fault: every write this rank's cores make into an HCCL status window "
                      "(a flag) lands a second time, fault.double_flag_delay_us later; -1 for none",
                      "workload"));
  p.declare(
      real_param("fault.double_flag_delay_us", "us", "5", 0, 1e6,
                 "a fault: how long after the first the duplicate of fault.double_flag_rank's "
                 "flags lands",
                 "workload"));
  p.declare(int_param("fault.flip_rank", "", "-1", -1, 767,
                      "a fault: this rank's 0/1 window flip (MC2 kernels: dispatch, combine, "
                      "alltoallv) takes the wrong half; -1 for none",
                      "workload"));
  // ---- the fabric between dies ([CM] 3.3, [ARTH])
  p.declare(
      int_param("ep.world_size", "ranks", "0", 0, 768,
                "ranks (dies) of the run; --ep sets it; 0: the kernel's default (dispatch 16, "
                "ub_write and flag_ring 2, single-die kernels 1)",
                "MoeDistributeDispatch limit W in [2, 768]"));

  p.retire("fabric.write_GBps",
           "the effective UB write rate is now fabric.port_GBps x fabric.write_efficiency "
           "(default 196 GB/s x 137/196 = 137 GB/s); for a write rate of W GB/s set "
           "fabric.write_efficiency = W / fabric.port_GBps, or change fabric.port_GBps");
  p.retire("fabric.read_GBps",
           "the effective UB read rate is now fabric.port_GBps x fabric.read_efficiency "
           "(default 196 GB/s x 167/196 = 167 GB/s); for a read rate of R GB/s set "
           "fabric.read_efficiency = R / fabric.port_GBps, or change fabric.port_GBps");

  p.declare(
      real_param("sim.poll_timeout_us", "us", "50000", 1, 1e9,
                 "a kernel still running this long after launch is reported as a hang (exit 3)",
                 "the kernels' own 50 ms wait timeout ([OLD] WaitDispatch)"));

  p.declare(int_param("sim.seed", "", "1", 0, 4294967295.0,
                      "seed of every generated input (same seed, same inputs, same timing)",
                      "simulator setting"));

  p.declare(int_param("stats.modules", "", "0", 0, 1,
                      "1: stats.json also holds, per launch, the counters of every module that "
                      "counted something, by module path (kernels[].modules; --list-counters "
                      "describes them); about 1 KiB per core",
                      "simulator setting"));

  p.declare(text_param("trace.ranks", "0-7",
                       "which ranks --trace and --vcd record: 'all' or a list like 0-3,7",
                       "simulator setting"));
  p.declare(text_param("trace.cores", "0-3",
                       "which cores --trace and --vcd record: 'all' or a list like 0-3,7",
                       "simulator setting"));
  p.declare(text_param("trace.scope", "",
                       "which modules --trace and --vcd record, as comma-separated glob patterns "
                       "of module paths ('*' stays within one level): cluster.die3.aiv*.mte2, "
                       "cluster.fabric.node*; a module is recorded with everything under it; "
                       "when set, it replaces trace.ranks and trace.cores (--list-modules "
                       "shows the paths)",
                       "simulator setting"));
}

model::ClusterConfig cluster_config(const Params& p, int dies) {
  model::ClusterConfig c;
  for (const auto& f : cluster_fields()) f.apply(c, p);
  c.dies = dies;
  // A timing-only run writes only each record's metadata (a few bytes per window slot).
  if (!p.integer("sim.payload")) c.gm_page_bytes = 256;
  if (c.fabric.dies_per_node % c.fabric.dies_per_chip)
    throw SimError(kExitBadInput, "fabric.dies_per_node = " + p.text("fabric.dies_per_node") +
                                      " is not a multiple of fabric.dies_per_chip");
  return c;
}

AscendC::detail::RuntimeConfig runtime_config(const Params& p) {
  RuntimeConfig c;
  for (const auto& f : runtime_fields()) f.apply(c, p);
  c.faults.stall_rank = static_cast<int>(p.integer("fault.stall_rank"));
  c.faults.stall_at_ps = static_cast<uint64_t>(std::llround(p.real("fault.stall_at_us") * 1e6));
  c.faults.corrupt_rank = static_cast<int>(p.integer("fault.corrupt_rank"));
  c.faults.double_flag_rank = static_cast<int>(p.integer("fault.double_flag_rank"));
  c.faults.double_flag_delay_ps =
      static_cast<uint64_t>(std::llround(p.real("fault.double_flag_delay_us") * 1e6));
  c.faults.flip_rank = static_cast<int>(p.integer("fault.flip_rank"));
  return c;
}

void apply_preset(Params& p, const std::string& name) {
  std::string known;
  for (const auto& [n, text] : presets()) {
    if (n == name) return p.load_ini_text(text, "preset " + name);
    known += (known.empty() ? "" : ", ") + n;
  }
  throw SimError(kExitBadInput, "unknown preset '" + name + "'; known presets: " + known);
}

}  // namespace ascend
