// The kit's include path for pad_tiling_data (the API's own: api/tiling/pad_tiling_data.h).
#pragma once

#include "api/tiling/pad_tiling_data.h"
