// HCCL communication windows, as an MC2 kernel reaches them.
#pragma once

#include <cstdint>

#include "sim/api/types.h"

namespace AscendC {

// As an MC2 kernel reaches them: an AIV writes a peer's window directly with MTE3 (and reads it
// with MTE2) over UBmem; no other communication engine is involved. One rank is one die.
GM_ADDR GetWindAddrByRankId(uint32_t rank);       // the rank's data window (windowsIn)
GM_ADDR GetWindStateAddrByRankId(uint32_t rank);  // the rank's status window (windowsExp)
uint64_t GetWindSize();                           // bytes of a data window (hccl.buffsize_MB)
uint64_t GetWindStateSize();                      // bytes of a status window (hccl.status_KiB)
uint32_t GetRankId();                             // this core's rank
uint32_t GetRankDim();                            // ranks in the EP group

}  // namespace AscendC
