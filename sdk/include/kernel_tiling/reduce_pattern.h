// The kit's include path for reduce_pattern (the API's own: api/tiling/reduce_pattern.h).
#pragma once

#include "api/tiling/reduce_pattern.h"
