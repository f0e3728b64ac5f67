// Core identity (GetBlockIdx/GetBlockNum) and synchronisation: flags, pipe barriers, SyncAll.
#pragma once

#include "api/tensor.h"

namespace AscendC {

inline int64_t GetBlockIdx() {
  return detail::core().block_idx();
}
inline int64_t GetBlockNum() {
  return detail::core().block_num();
}

template <HardEvent E>
void SetFlag(int32_t id) {
  detail::set_flag(E, id);
}
template <HardEvent E>
void WaitFlag(int32_t id) {
  detail::wait_flag(E, id);
}
template <pipe_t P>
void PipeBarrier() {
  detail::pipe_barrier(P);
}
// SyncAll<true>: the launch's cores of the caller's kind on this die (every core of an AIV-only
// kernel); SyncAll<false>: every AIC and AIV of a mixed launch.
template <bool isAIVOnly = true>
void SyncAll() {
  detail::core().sync_all(!isAIVOnly);
}

// A superkernel's sub-kernels may overlap: what comes before WaitPreTaskEnd may run beside the
// previous sub-kernel, what follows SetNextTaskStart beside the next one. Launches here run one
// after another (no superkernel), so the previous one has always ended and nothing overlaps:
// both are free, and the time of a sequence of launches is their sum (an upper bound).
// The control register's overflow mode (Ascend C API: AscendCUtils::SetOverflow): 1 the inf/nan
// mode the vector unit computes in, 0 the saturated mode, not modelled (api/instr.cpp faults
// a vector instruction issued in it).
struct AscendCUtils {
  static void SetOverflow(uint64_t ctrlValue) { detail::state().saturated_mode = ctrlValue == 0; }
};

inline void WaitPreTaskEnd() {}
inline void SetNextTaskStart() {}

// Waits for the scalar's earlier memory accesses of kind `dsb` to finish before later ones start.
// The model's scalar GM and UB accesses complete before the next instruction issues
// (GlobalTensor::GetValue/SetValue, ReadGmByPassDCache), so the order it asks for already holds.
template <MemDsbT dsb>
void DataSyncBarrier() {}

// The scalar data cache is not modelled (scalar GM accesses go straight to GM), so cache
// maintenance has nothing to do; kept so that ported kernels compile unchanged.
enum class CacheLine { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
enum class DcciDst { CACHELINE_ALL, CACHELINE_UB, CACHELINE_OUT };
template <class T, CacheLine L, DcciDst D>
void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}

}  // namespace AscendC
