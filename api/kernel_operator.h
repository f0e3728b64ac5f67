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

#include "api/activation.h"           // SwiGLU, GeGLU, ReGlu, Gelu, Sigmoid, Silu, Swish
#include "api/arange.h"               // Arange, ArithProgression (high-level)
#include "api/block_sync.h"           // IBSet/IBWait, WaitPreBlock/NotifyNextBlock, GroupBarrier
#include "api/broadcast.h"            // Broadcast<T, dim, axis> (high-level)
#include "api/confusion_transpose.h"  // Transpose with a ConfusionTransposeTiling
#include "api/cube.h"            // the AIC: Nd2Nz DataCopy, LoadData, Mmad, Fixpipe, cross-core
#include "api/data_copy.h"       // DataCopy, DataCopyPad, SetAtomicAdd/None
#include "api/debug.h"           // printf, PRINTF, DumpTensor (no simulated time)
#include "api/gather.h"          // Gather, GatherMask
#include "api/hccl.h"            // GetWindAddrByRankId, GetRankId, ...
#include "api/layernorm.h"       // LayerNorm(Grad, GradBeta), DeepNorm, RmsNorm (high-level)
#include "api/layout.h"          // Coord, Shape, Stride, Layout: coordinates to indices
#include "api/list_tensor.h"     // ListTensorDesc, TensorDesc
#include "api/math.h"            // Acosh, Erf, Log, Exp, Frac, Ceil, Power, Fmod, CumSum, ...
#include "api/matmul.h"          // Matmul (the high-level API), TCubeTiling, MatmulApiTiling
#include "api/nchwconv.h"        // TransDataTo5HD, Transpose with TransposeParamsExt
#include "api/not_modelled.h"    // names not modelled yet: a compile error naming them
#include "api/pad.h"             // Pad, UnPad, InitGlobalMemory (high-level APIs)
#include "api/quant.h"           // AscendQuant per tensor, AscendAntiQuant (high-level)
#include "api/reduce.h"          // ReduceMax/Min/Sum, WholeReduceSum, BlockReduceMax, Brcb
#include "api/reduce_pattern.h"  // ReduceMax/ReduceMin<T, Pattern::Reduce::AR/RA> (high-level)
#include "api/select.h"          // Select with a byte mask (high-level)
#include "api/sim_ext.h"         // simulator extensions: SimNowPs, SimStall, PayloadScope
#include "api/softmax.h"         // SoftMax, LogSoftMax, AdjustSoftMaxRes (high-level)
#include "api/softmax_flash.h"   // SoftmaxFlashV2, SoftmaxFlashV3 (high-level)
#include "api/sort.h"            // Sort, Sort32, MrgSort, CreateVecIndex, GetMrgSortResult
#include "api/static_alloc.h"    // InitSocState, block_idx, LocalMemAllocator
#include "api/std_traits.h"      // AscendC::Std: type traits, min/max, tuple
#include "api/sync.h"            // GetBlockIdx/Num, SetFlag/WaitFlag, PipeBarrier, SyncAll
#include "api/tensor.h"          // GlobalTensor, LocalTensor
#include "api/topk.h"            // TopK (high-level)
#include "api/tpipe.h"           // TPipe, TQue, TQueBind, TBuf, GetTPipePtr
#include "api/transdata.h"       // TransData, Layout, MakeShape (high-level)
#include "api/types.h"           // GM_ADDR, pipe_t, TPosition, HardEvent, ASSERT
#include "api/vector.h"  // Duplicate, Adds, Muls, Abs, Add, ..., Exp, Ln, Relu, Cast, Copy, ShiftLeft/Right
// The mask register, the level-0 forms, Compare, Select, And/Or/Not, Transpose
#include "api/vector_level0.h"
#include "api/welford.h"  // WelfordUpdate, WelfordFinalize (high-level)

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
