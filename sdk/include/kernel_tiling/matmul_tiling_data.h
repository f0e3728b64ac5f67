// The Matmul API's kernel-side tiling (TCubeTiling) as kernel_tiling/kernel_tiling.h gives it.
#pragma once

#include "kernel_operator.h"
