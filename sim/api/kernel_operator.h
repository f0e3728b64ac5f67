// The kernel API: a facade over the models that reads like Ascend C's kernel_operator.h, so a
// kernel's Process() can be ported with few changes and timed. A kernel includes only this header,
// as a real Ascend C kernel includes only kernel_operator.h; it gathers the facade's headers by
// topic.
//
// Every call is issued by the calling core's scalar unit into the pipe that executes it (see
// models/aiv_core.h for the timing rules). What an instruction does to the data is real and
// happens when it completes: DMA moves bytes, vector instructions compute their results.
// Misuse that real hardware would turn into garbage or a crash (UB overflow, GM out of bounds,
// a misaligned DataCopy, an AllocTensor with every buffer taken) is a kernel fault: the run stops
// with exit status 5 and a message naming the kernel, core and instruction.
#pragma once

#include "sim/api/data_copy.h"  // DataCopy, DataCopyPad
#include "sim/api/hccl.h"       // GetWindAddrByRankId, GetRankId, ...
#include "sim/api/reduce.h"     // ReduceMax, ReduceSum, BlockReduceMax, Brcb
#include "sim/api/sim_ext.h"    // simulator extensions: SimNowPs, SimStall, PayloadScope
#include "sim/api/sort.h"       // Sort, MrgSort, CreateVecIndex, GetMrgSortResult
#include "sim/api/sync.h"       // GetBlockIdx/Num, SetFlag/WaitFlag, PipeBarrier, SyncAll
#include "sim/api/tensor.h"     // GlobalTensor, LocalTensor
#include "sim/api/tpipe.h"      // TPipe, TQue, TQueBind, TBuf
#include "sim/api/types.h"      // GM_ADDR, pipe_t, TPosition, HardEvent
#include "sim/api/vector.h"     // Duplicate, Adds, Muls, Abs, Add, Sub, Mul, Div, Max, Min, Cast
