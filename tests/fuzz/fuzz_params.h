// The oracle of the parameter harnesses: accepted values are valid, and survive config.ini.
#pragma once

#include "sim/params.h"

namespace ascend::fuzz {

// Every value of `p` is valid for its key (a number in range, a known choice), and writing `p` as
// config.ini and loading that into `registry` (fresh defaults) gives back every value exactly.
void check_values(const Params& p, const Params& registry);

}  // namespace ascend::fuzz
