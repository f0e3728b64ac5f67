// What a cube kernel includes for the high-level Matmul API (lib/matmul_intf.h in Ascend C).
// Under ascend-sim the API is the facade's (sim/api/matmul.h): it runs on the AIC that calls it,
// each IterateAll timed by the DataCopy/LoadData/Mmad/Fixpipe it issues. Kernels written against
// it say `using namespace matmul;` and name TCubeTiling unqualified, as the samples do.
#pragma once

#include "kernel_operator.h"

using AscendC::TCubeTiling;
namespace matmul {
using AscendC::CubeFormat;
using AscendC::matmul::Matmul;
using AscendC::matmul::MatmulType;
}  // namespace matmul
