// The kit's include path for confusion_transpose_tiling_data (the API's own: api/tiling/confusion_transpose_tiling_data.h).
#pragma once

#include "api/tiling/confusion_transpose_tiling_data.h"
