// Ascend C names this facade does not model yet. A kernel that calls one fails to compile with
// a message that names it, rather than running without it (docs/guides/own-kernel.md).
#pragma once

#include <type_traits>

namespace AscendC {
namespace detail {
template <class...>
inline constexpr bool kNotModelled = false;
}  // namespace detail

#define ASCEND_SIM_NOT_MODELLED(name, why)                                         \
  template <class... Args>                                                         \
  void name(Args&&...) {                                                           \
    static_assert(detail::kNotModelled<Args...>,                                   \
                  "ascend-sim: AscendC::" #name " is not modelled yet (" why ")"); \
  }

ASCEND_SIM_NOT_MODELLED(Sin, "vector math")
ASCEND_SIM_NOT_MODELLED(Cos, "vector math")
ASCEND_SIM_NOT_MODELLED(Tanh, "vector math")
ASCEND_SIM_NOT_MODELLED(Rsqrt, "vector math; Sqrt and Reciprocal are")
ASCEND_SIM_NOT_MODELLED(Scatter, "scatters by index")
ASCEND_SIM_NOT_MODELLED(MulAddDst, "fused multiply-add")
ASCEND_SIM_NOT_MODELLED(LoadData2dTranspose, "the cube core's transposing loads beyond LoadData")
ASCEND_SIM_NOT_MODELLED(LoadData3DV2, "im2col loads (LoadData 3D)")

#undef ASCEND_SIM_NOT_MODELLED

}  // namespace AscendC

// The kernel-type declaration of newer samples: every kernel here runs on the AIV cores.
#ifndef KERNEL_TASK_TYPE_DEFAULT
#define KERNEL_TASK_TYPE_DEFAULT(type)
#endif
