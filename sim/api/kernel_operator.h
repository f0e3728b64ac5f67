// The kernel API: a facade over the models that reads like Ascend C's kernel_operator.h, so a
// kernel's Process() can be ported with few changes and timed. A kernel includes only this header,
// as a real Ascend C kernel includes only kernel_operator.h; it gathers the facade's headers by
// topic.
//
// Every call is issued by the calling core's scalar unit into the pipe that executes it (see
// models/core.h for the timing rules). What an instruction does to the data is real and
// happens when it completes: DMA moves bytes, vector instructions compute their results.
// Misuse that real hardware would turn into garbage or a crash (UB overflow, GM out of bounds,
// a misaligned DataCopy, an AllocTensor with every buffer taken) is a kernel fault: the run stops
// with exit status 5 and a message naming the kernel, core and instruction.
#pragma once

#include "sim/api/activation.h"  // SwiGLU, GeGLU, ReGlu, Gelu, Sigmoid, Silu, Swish
#include "sim/api/arange.h"      // Arange, ArithProgression (high-level)
#include "sim/api/block_sync.h"  // IBSet/IBWait, WaitPreBlock/NotifyNextBlock, GroupBarrier
#include "sim/api/broadcast.h"   // Broadcast<T, dim, axis> (high-level)
#include "sim/api/confusion_transpose.h"  // Transpose with a ConfusionTransposeTiling
#include "sim/api/cube.h"            // the AIC: Nd2Nz DataCopy, LoadData, Mmad, Fixpipe, cross-core
#include "sim/api/data_copy.h"       // DataCopy, DataCopyPad, SetAtomicAdd/None
#include "sim/api/debug.h"           // printf, PRINTF, DumpTensor (no simulated time)
#include "sim/api/gather.h"          // Gather, GatherMask
#include "sim/api/hccl.h"            // GetWindAddrByRankId, GetRankId, ...
#include "sim/api/layernorm.h"       // LayerNorm(Grad, GradBeta), DeepNorm, RmsNorm (high-level)
#include "sim/api/layout.h"          // Coord, Shape, Stride, Layout: coordinates to indices
#include "sim/api/list_tensor.h"     // ListTensorDesc, TensorDesc
#include "sim/api/math.h"            // Acosh, Erf, Log, Exp, Frac, Ceil, Power, Fmod, CumSum, ...
#include "sim/api/matmul.h"          // Matmul (the high-level API), TCubeTiling, MatmulApiTiling
#include "sim/api/nchwconv.h"        // TransDataTo5HD, Transpose with TransposeParamsExt
#include "sim/api/not_modelled.h"    // names not modelled yet: a compile error naming them
#include "sim/api/pad.h"             // Pad, UnPad, InitGlobalMemory (high-level APIs)
#include "sim/api/quant.h"           // AscendQuant per tensor, AscendAntiQuant (high-level)
#include "sim/api/reduce.h"          // ReduceMax/Min/Sum, WholeReduceSum, BlockReduceMax, Brcb
#include "sim/api/reduce_pattern.h"  // ReduceMax/ReduceMin<T, Pattern::Reduce::AR/RA> (high-level)
#include "sim/api/select.h"          // Select with a byte mask (high-level)
#include "sim/api/sim_ext.h"         // simulator extensions: SimNowPs, SimStall, PayloadScope
#include "sim/api/softmax.h"         // SoftMax, LogSoftMax, AdjustSoftMaxRes (high-level)
#include "sim/api/softmax_flash.h"   // SoftmaxFlashV2, SoftmaxFlashV3 (high-level)
#include "sim/api/sort.h"            // Sort, Sort32, MrgSort, CreateVecIndex, GetMrgSortResult
#include "sim/api/static_alloc.h"    // InitSocState, block_idx, LocalMemAllocator
#include "sim/api/std_traits.h"      // AscendC::Std: type traits, min/max, tuple
#include "sim/api/sync.h"            // GetBlockIdx/Num, SetFlag/WaitFlag, PipeBarrier, SyncAll
#include "sim/api/tensor.h"          // GlobalTensor, LocalTensor
#include "sim/api/topk.h"            // TopK (high-level)
#include "sim/api/tpipe.h"           // TPipe, TQue, TQueBind, TBuf, GetTPipePtr
#include "sim/api/transdata.h"       // TransData, Layout, MakeShape (high-level)
#include "sim/api/types.h"           // GM_ADDR, pipe_t, TPosition, HardEvent, ASSERT
#include "sim/api/vector.h"  // Duplicate, Adds, Muls, Abs, Add, ..., Exp, Ln, Relu, Cast, Copy, ShiftLeft/Right
// The mask register, the level-0 forms, Compare, Select, And/Or/Not, Transpose
#include "sim/api/vector_level0.h"
#include "sim/api/welford.h"  // WelfordUpdate, WelfordFinalize (high-level)

// As in Ascend C, the element types and the pipes are global names too.
using AscendC::bfloat16_t;
using AscendC::GetBlockIdx;  // global names too, as on the device
using AscendC::GetBlockNum;
using AscendC::GetTPipePtr;  // GetTPipePtr()->FetchEventID(...)
using AscendC::half;
using AscendC::PIPE_ALL;
using AscendC::PIPE_FIX;
using AscendC::PIPE_M;
using AscendC::PIPE_MTE1;
using AscendC::PIPE_MTE2;
using AscendC::PIPE_MTE3;
using AscendC::PIPE_S;
using AscendC::pipe_t;
using AscendC::PIPE_V;
using AscendC::QuantMode_t;
