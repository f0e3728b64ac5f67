// ConfusionTransposeTiling, the kernel-side tiling of the high-level Transpose (Ascend C API:
// Transpose-Tiling): 18 uint32_t fields param0 .. param17, as Ascend C names them, written once
// as an X-macro the host's optiling::ConfusionTransposeTiling expands too. What each holds is
// this model's (api/confusion_transpose.h): for the NZ -> ND 0213 transpose, param0..3 are
// the shape [B, N, S, H/N], param4 the H/N columns' 16-element fractals.
#pragma once

#include <cstdint>

#define ASCEND_SIM_CONFUSION_TRANSPOSE_TILING_FIELDS(X) \
  X(param0)                                             \
  X(param1)                                             \
  X(param2)                                             \
  X(param3)                                             \
  X(param4)                                             \
  X(param5)                                             \
  X(param6)                                             \
  X(param7)                                             \
  X(param8)                                             \
  X(param9)                                             \
  X(param10)                                            \
  X(param11)                                            \
  X(param12)                                            \
  X(param13)                                            \
  X(param14)                                            \
  X(param15)                                            \
  X(param16)                                            \
  X(param17)

#define ASCEND_SIM_TILING_STRUCT_FIELD(name) uint32_t name = 0;
struct ConfusionTransposeTiling {
  ASCEND_SIM_CONFUSION_TRANSPOSE_TILING_FIELDS(ASCEND_SIM_TILING_STRUCT_FIELD)
};
#undef ASCEND_SIM_TILING_STRUCT_FIELD

namespace AscendC::tiling {
using ::ConfusionTransposeTiling;
}  // namespace AscendC::tiling
