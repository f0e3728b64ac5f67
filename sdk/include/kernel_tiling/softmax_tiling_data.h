// The kit's include path for softmax_tiling_data (the API's own: api/tiling/softmax_tiling_data.h).
#pragma once

#include "api/tiling/softmax_tiling_data.h"
