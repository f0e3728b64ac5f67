// The host's tiling APIs (tiling/tiling_api.h in Ascend C): matmul_tiling::MatmulApiTiling and
// MultiCoreMatmulTiling, which fill a TCubeTiling (or optiling::TCubeTiling, serialized for the
// kernel) within the AIC's buffers (api/matmul.h); the Pad/UnPad tiling functions.
#pragma once

#include "kernel_operator.h"
#include "register/tilingdata_base.h"  // BEGIN_TILING_DATA_DEF and the other definition macros
#include "securec.h"  // memcpy_s, which host tiling code copies its tiling structs with
#include "tiling/adv_tiling_host.h"  // the vector family's Get*MaxMinTmpSize and tiling functions
#include "tiling/layernorm_tiling_host.h"  // the LayerNorm family's tiling
#include "tiling/math_tiling_host.h"       // Get*MaxMinTmpSize of the math, activation, Sum APIs
#include "tiling/pad_tiling_host.h"  // PadTilingFunc, UnPadTilingFunc, Get(Un)PadMaxMinTmpSize
#include "tiling/platform/platform_ascendc.h"
#include "tiling/softmax_tiling_host.h"
#include "tiling/topk_tiling_host.h"  // TopKTilingFunc, GetTopKMaxMinTmpSize
#include "tiling/transpose_tiling_host.h"  // GetTransposeTilingInfo, GetTransposeMaxMinTmpSize  // SoftMaxTilingFunc, GetSoftMaxMin/MaxTmpSize
