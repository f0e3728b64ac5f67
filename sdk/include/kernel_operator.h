// What an Ascend C kernel file includes. Under ascend-sim it is the simulator's facade: every
// AscendC:: call is issued by the calling core's scalar unit into the pipe that executes it and
// timed there (sim/api/kernel_operator.h).
#pragma once

#include "sim/api/kernel_operator.h"
