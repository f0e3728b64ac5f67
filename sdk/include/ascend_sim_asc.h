// Included first in every source ascend-sim-asc compiles (the .asc flow): the kernel qualifiers
// of the ASC language and the launch its <<<...>>> launches are rewritten into.
#pragma once

#include "ascend_sim_sdk.h"

// The kind of core a kernel runs on; ascend-sim-asc reads them from the source to launch it.
#define __vector__
#define __cube__
#define __mix__(aic, aiv)
