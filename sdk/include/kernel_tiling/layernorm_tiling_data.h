// The kit's include path for layernorm_tiling_data (the API's own: api/tiling/layernorm_tiling_data.h).
#pragma once

#include "api/tiling/layernorm_tiling_data.h"
