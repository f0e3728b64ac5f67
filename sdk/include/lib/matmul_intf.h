// What a cube kernel includes for the high-level Matmul API (lib/matmul_intf.h in Ascend C).
// Under ascend-sim the API is the facade's (sim/api/matmul.h). Kernels written against it name
// TCubeTiling, CubeFormat, MatmulConfig, CFG_NORM or GetSysWorkSpacePtr unqualified, or say
// `using namespace matmul;` and name GetBlockIdx too, as the samples do: these names are at global
// scope, and namespace matmul brings in AscendC's, as Ascend C's header does.
#pragma once

#include "kernel_operator.h"

using AscendC::CFG_NORM;
using AscendC::CubeFormat;
using AscendC::GetSysWorkSpacePtr;
using AscendC::LayoutMode;
using AscendC::MatmulConfig;
using AscendC::TCubeTiling;
namespace matmul {
using namespace AscendC;
using AscendC::CubeFormat;
using AscendC::matmul::Matmul;
using AscendC::matmul::MatmulType;
}  // namespace matmul
