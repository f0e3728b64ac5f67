// What a cube kernel includes for the high-level Matmul API (lib/matmul_intf.h in Ascend C).
// Under ascend-sim the API is the facade's (api/matmul.h). Kernels written against it name
// TCubeTiling, CubeFormat, MatmulConfig and its builders (CFG_NORM, CFG_MDL, GetMMConfig, ...)
// or GetSysWorkSpacePtr unqualified, or say
// `using namespace matmul;` and name GetBlockIdx too, as the samples do: these names are at global
// scope, and namespace matmul brings in AscendC's, as Ascend C's header does.
#pragma once

#include "kernel_operator.h"

using AscendC::BatchMode;
using AscendC::BatchOutMode;
using AscendC::CFG_IBSHARE_NORM;
using AscendC::CFG_MDL;
using AscendC::CFG_NORM;
using AscendC::CubeFormat;
using AscendC::DecompressionMode;
using AscendC::GetBasicConfig;
using AscendC::GetIBShareNormConfig;
using AscendC::GetMDLConfig;
using AscendC::GetMMConfig;
using AscendC::GetNormalConfig;
using AscendC::GetSpecialMDLConfig;
using AscendC::GetSysWorkSpacePtr;
using AscendC::IterateMode;
using AscendC::IterateOrder;
using AscendC::LayoutMode;
using AscendC::MatmulApiStaticTiling;
using AscendC::MatmulBatchParams;
using AscendC::MatmulBiasParams;
using AscendC::MatmulConfig;
using AscendC::MatmulConfigMode;
using AscendC::MatmulFuncParams;
using AscendC::MatmulQuantParams;
using AscendC::MatmulShapeParams;
using AscendC::MM_CFG_BB;
using AscendC::ScheduleType;
using AscendC::SHARED_CO1_BUFFER_SIZE;
using AscendC::TCubeTiling;
namespace matmul {
using namespace AscendC;
using AscendC::CubeFormat;
using AscendC::matmul::Matmul;
using AscendC::matmul::MatmulType;
}  // namespace matmul
