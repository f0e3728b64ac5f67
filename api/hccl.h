// HCCL communication windows, as an MC2 kernel reaches them.
#pragma once

#include <cstdint>

#include "api/types.h"

namespace AscendC {

// The communication contexts of an MC2 kernel (GetHcclContext<HCCL_GROUP_ID_0> and <1> in the
// [OLD] kernels): the EP group and, with tpWorldSize 2, the TP group of this die and its peer.
constexpr uint8_t COMM_EP_IDX = 0;
constexpr uint8_t COMM_TP_IDX = 1;

// As an MC2 kernel reaches them: an AIV writes a peer's window directly with MTE3 (and reads it
// with MTE2) over UBmem; no other communication engine is involved. One rank is one die; each
// communicator has windows of its own. Without a TP group (tp = 1) the EP rank is the die.
GM_ADDR GetWindAddrByRankId(uint32_t rank, uint8_t ctx = COMM_EP_IDX);       // data (windowsIn)
GM_ADDR GetWindStateAddrByRankId(uint32_t rank, uint8_t ctx = COMM_EP_IDX);  // status (windowsExp)
uint64_t GetWindSize();                          // bytes of a data window (hccl.buffsize_MB)
uint64_t GetWindStateSize();                     // bytes of a status window (hccl.status_KiB)
uint32_t GetRankId(uint8_t ctx = COMM_EP_IDX);   // this core's rank in the communicator
uint32_t GetRankDim(uint8_t ctx = COMM_EP_IDX);  // ranks in the communicator

}  // namespace AscendC
