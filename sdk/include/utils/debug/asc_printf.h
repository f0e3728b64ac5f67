// The device printf of the modern flow's examples: under ascend-sim the facade's printf
// (sim/api/debug.h, printed, no simulated time).
#pragma once

#include "kernel_operator.h"
