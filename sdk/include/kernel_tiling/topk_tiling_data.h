// The kit's include path for topk_tiling_data (the API's own: api/tiling/topk_tiling_data.h).
#pragma once

#include "api/tiling/topk_tiling_data.h"
