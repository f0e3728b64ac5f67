// The kernel API's runtime: what the facade keeps between calls for one simulation, in one object
// the Simulation owns. It holds what a real AI Core keeps in its registers and its TPipe (per
// core: the TPipe in use, the queue event ids handed out, the payload scope, the last MrgSort's
// counts) and what the host bound before the launch (GM, the HCCL windows, payload on or off, the
// sort costs). The models know nothing of it.
//
// The core an API call belongs to is the one whose scalar program (its SC_THREAD) is running, as
// SystemC reports it: there is no "current core" global to keep in step.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/core.h"
#include "models/global_memory.h"

namespace ascend::model {
class Cluster;
}
namespace AscendC {
class TPipe;
}

namespace AscendC::detail {
namespace m = ascend::model;
struct KfcChannel;  // api/matmul.h

// Every rank's HCCL windows: data (windowsIn) and status (windowsExp), in that rank's HBM.
// Communicators: with tp = 1 the EP group is every die (rank = die). With tp = 2 (a host's
// Simulation::set_tp_groups) die d is rank d / tp of EP group d % tp and rank d % tp of TP group
// d / tp (the TP peers are the dies of one chip), and the TP communicator has windows of its own
// (tp_data, tp_status: per die, the same sizes).
struct HcclWindows {
  std::vector<uint64_t> data, status;
  uint64_t data_bytes = uint64_t{1024} << 20;    // hccl.buffsize_MB
  uint64_t status_bytes = uint64_t{1024} << 10;  // hccl.status_KiB
  int tp = 1;
  std::vector<uint64_t> tp_data, tp_status;
};

// Costs of the sorting instructions (sort.* parameters; see api/sort.h).
struct SortCosts {
  double sort32_cycles = 32;
  double merge_elements_per_cycle = 2;
};

// Faults injected at run time (fault.stall_rank, fault.stall_at_us, fault.corrupt_rank); -1 for
// none. With none, no instruction does anything different, so timing is untouched.
struct RuntimeFaults {
  int stall_rank = -1;        // every core of this rank stops for good at its first DMA or GM
  uint64_t stall_at_ps = 0;   // access from this time on
  int corrupt_rank = -1;      // the first record written into this rank's HCCL data window lands
                              // with one bit flipped
  int double_flag_rank = -1;  // every status-window write this rank's cores make lands again
  uint64_t double_flag_delay_ps = 0;  // this long after it first landed
  int flip_rank = -1;                 // SimWindowFlipFault() is true on this rank's cores
};

struct RuntimeConfig {
  bool payload = true;  // sim.payload: false = timing-only
  SortCosts sort;
  HcclWindows windows;
  RuntimeFaults faults;
};

// The API state of one core's kernel; reset at every launch.
struct CoreState {
  // Timing-only runs: the leading bytes of each DMA block (or, at kAllPayload, the whole
  // instruction) issued now carry payload, whose effect is skipped (see PayloadScope).
  static constexpr uint32_t kAllPayload = UINT32_MAX;
  m::Core* core = nullptr;
  uint32_t payload_prefix = 0;
  bool pipe_active = false;          // one TPipe per kernel, as in Ascend C
  ::AscendC::TPipe* pipe = nullptr;  // that TPipe (GetTPipePtr)
  uint8_t* sys_workspace = nullptr;  // SetSysWorkspace's (GetSysWorkSpacePtr)
  // SetAtomicAdd<T>: MTE3 writes to GM add their elements to what is there (nullptr: overwrite).
  void (*atomic_op)(uint8_t* gm, const uint8_t* src, uint64_t bytes) = nullptr;
  // SetPadValue's register: what DataCopyPad with isPad = false pads with (pad_register_bytes 0:
  // never set, the padding keeps what the UB held).
  std::array<uint8_t, 8> pad_register{};
  uint8_t pad_register_bytes = 0;
  // Unit flags: each Mmad with unitFlag 3 raises an M -> FIX flag on this id (taken from the
  // queues' ids at first use); a Fixpipe with a unitFlag waits for all of them.
  uint32_t unit_flag_event = 0;
  uint32_t unit_flags_raised = 0;
  // The FIX pipe's registers the L0C -> GM DataCopy reads: the scalar quantization parameter
  // (SetFixpipePreQuantFlag) and the NZ2ND matrices (SetFixpipeNz2ndFlag).
  uint64_t fix_pre_quant = 0;
  uint16_t fix_nd_num = 1, fix_src_nd_stride = 0;
  uint32_t fix_dst_nd_stride = 0;
  // The cube's index buffer of 4:2 sparse B (LoadDataWithSparse writes it, MmadWithSparse reads
  // it): a quarter of L0B, as Ascend C states, allocated at first use.
  std::vector<uint8_t> sparse_index = {};
  uint32_t next_queue_event = m::kQueueEventBase;
  bool has_mrgsort = false;
  // AscendCUtils::SetOverflow(0): the vector unit's saturated mode, which is not modelled (a
  // vector instruction issued in it is a kernel fault); SetOverflow(1), inf/nan, is the default.
  bool saturated_mode = false;
  std::array<uint16_t, 4> mrgsort{};  // per-list counts of the last MrgSort
  // The vector unit's mask register (SetVectorMask; all elements after a launch) and its mode
  // (SetMaskCount: the low word counts the elements of a whole instruction; SetMaskNorm: a
  // per-repeat bit mask), and the 128-bit CMPMASK register (Compare into the register,
  // GetCmpMask/SetCmpMask, Select's mode 0 mask).
  std::array<uint64_t, 2> vector_mask{~uint64_t{0}, ~uint64_t{0}};
  bool mask_counter = false;
  std::array<uint64_t, 2> cmp_mask{};
  double reduce_sum_spr = 0;                  // the last ReduceSum's result (GetReduceRepeatSumSpr)
  std::shared_ptr<KfcChannel> kfc = nullptr;  // an AIC's: the Matmul messages of its AIVs
};

class Runtime {
 public:
  // Becomes the active runtime until destroyed (one simulation at a time).
  Runtime(m::Cluster& cluster, RuntimeConfig cfg);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  static Runtime& active();
  // Every core's API state starts afresh (called before each launch).
  void begin_launch();

  // The state of the core whose scalar program is running now; a call from anywhere else is an
  // internal error.
  CoreState& current();
  // The state of `c` (a core of this simulation), whichever core is running.
  CoreState& state_of(const m::Core& c);
  // GM for the Matmul API's blocks of C on their way from AIC `aic` to its AIVs' UB: `bytes` at
  // least, on its die, kept for later launches (grown when a larger one is asked for).
  uint64_t kfc_staging(const m::Core& aic, uint64_t bytes);
  m::GlobalMemory& memory() { return memory_; }
  const HcclWindows& windows() const { return cfg_.windows; }
  // The TP communicators (before a launch): tp ranks per group and each die's TP windows.
  void set_tp(int tp, std::vector<uint64_t> data, std::vector<uint64_t> status) {
    cfg_.windows.tp = tp;
    cfg_.windows.tp_data = std::move(data);
    cfg_.windows.tp_status = std::move(status);
  }
  bool payload_moves() const { return cfg_.payload; }
  const RuntimeFaults& faults() const { return cfg_.faults; }
  // Whether fault.corrupt_rank's one corruption is still to come (and, when so, it is now done).
  bool take_corruption() { return !corrupted_ && (corrupted_ = true); }
  // fault.double_flag_rank: `bytes` at `at` land once more, `delay` from now (simulated time).
  void land_again(uint64_t at, std::vector<uint8_t> bytes, uint64_t delay);
  const SortCosts& sort_costs() const { return cfg_.sort; }

 private:
  RuntimeConfig cfg_;
  bool corrupted_ = false;
  m::Cluster& cluster_;
  m::GlobalMemory& memory_;
  std::vector<CoreState> states_;
  size_t cores_per_die_ = 0;                                // how states_ is laid out
  std::vector<std::pair<uint64_t, uint64_t>> kfc_staging_;  // per core: GM address, bytes
  const m::Core* last_core_ = nullptr;                      // one-entry cache of the lookup
  CoreState* last_state_ = nullptr;
  static Runtime* active_;
};

inline CoreState& state() {
  return Runtime::active().current();
}
inline m::Core& core() {
  return *state().core;
}
inline m::GlobalMemory& memory() {
  return Runtime::active().memory();
}
inline const HcclWindows& hccl() {
  return Runtime::active().windows();
}
// The bytes of each block a DMA issued now skips (0 unless timing-only inside a PayloadScope).
inline uint32_t skipped_prefix(const CoreState& s) {
  return Runtime::active().payload_moves() ? 0 : s.payload_prefix;
}

// A kernel fault naming the kernel, die, core and time (exit status 5); never returns.
[[noreturn]] void fault(const std::string& what);
// A kernel fault of core c found by an instruction's effect when it completes (the data it reads
// then): recorded as the run's fault, the simulation stops; the effect returns.
void effect_fault(m::Core* c, const std::string& what);
std::string describe_gm(uint64_t addr);
std::string hex(uint64_t v);  // lower-case hexadecimal digits, no prefix

// Host memory a program hands its kernels as GM, as the CPU-debug flow does (the SDK's GmAlloc
// buffers): the simulated GM address of a host pointer into such memory, or the value unchanged
// when it is none (a simulated address already). The SDK installs the map; without one every
// value is a simulated address.
using HostGmMap = uint64_t (*)(uint64_t addr);
void set_host_gm_map(HostGmMap map);
uint64_t gm_of(uint64_t addr);
// What bounds a DMA's GM range: the GlobalTensor it names (the simulator's own kernels: a range
// past the tensor is a bug there), or the GM allocation holding it, as the hardware and the CPU
// twin have it (users' programs, which may size a GlobalTensor to its valid data and let a DMA
// run into the spare bytes they allocated after it).
enum class GmBounds { Tensor, Allocation };
void set_gm_bounds(GmBounds b);
GmBounds gm_bounds();

}  // namespace AscendC::detail
