// The Matmul API's kernel-side tiling (TCubeTiling) as kernel_tiling/kernel_tiling.h gives it: at
// global scope, as the generated header of Ascend C declares it.
#pragma once

#include "kernel_operator.h"

using AscendC::TCubeTiling;
