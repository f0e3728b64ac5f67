// What a .asc program includes in its CPU-debug build (CMAKE_ASC_RUN_MODE cpu, ASCENDC_CPU_DEBUG):
// under ascend-sim its <<<...>>> launches run on the simulated die in every run mode, and this
// header adds the CPU-debug entry points (tikicpulib.h: GmAlloc, ICPU_RUN_KF, SetKernelMode).
#pragma once

#include "tikicpulib.h"
