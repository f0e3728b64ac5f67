// What a cube kernel includes for the high-level Matmul API (lib/matmul_intf.h in Ascend C).
// Under ascend-sim the API is the facade's (sim/api/matmul.h). Kernels written against it say
// `using namespace matmul;` and name TCubeTiling, GetBlockIdx or GetSysWorkSpacePtr unqualified,
// as the samples do: namespace matmul brings in AscendC's names, as Ascend C's does.
#pragma once

#include "kernel_operator.h"

using AscendC::TCubeTiling;
namespace matmul {
using namespace AscendC;
using AscendC::CubeFormat;
using AscendC::matmul::Matmul;
using AscendC::matmul::MatmulType;
}  // namespace matmul
