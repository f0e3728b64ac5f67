// The kernel-side tiling structs of Ascend C (kernel_tiling/kernel_tiling.h): plain structs a
// kernel copies from its tiling buffer in GM, as the host's optiling classes serialized them.
#pragma once

#include "kernel_tiling/confusion_transpose_tiling_data.h"  // ConfusionTransposeTiling
#include "kernel_tiling/layernorm_tiling_data.h"  // LayerNormTiling, LayerNormGrad(Beta)Tiling
#include "kernel_tiling/matmul_tiling_data.h"     // TCubeTiling
#include "kernel_tiling/pad_tiling_data.h"        // PadTiling, UnPadTiling
#include "kernel_tiling/softmax_tiling_data.h"    // SoftMaxTiling
#include "kernel_tiling/topk_tiling_data.h"       // TopkTiling
