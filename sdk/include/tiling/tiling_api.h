// The host's Matmul tiling (tiling/tiling_api.h in Ascend C): matmul_tiling::MatmulApiTiling,
// which fills a TCubeTiling for one core's shape while keeping to the L1/L0 limits
// (sim/api/matmul.h). The platform query and optiling's serialized TCubeTiling are not modelled:
// the host hands the kernel the AscendC::TCubeTiling struct itself.
#pragma once

#include "kernel_operator.h"
#include "tiling/pad_tiling_host.h"  // PadTilingFunc, UnPadTilingFunc, Get(Un)PadMaxMinTmpSize
