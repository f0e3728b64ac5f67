// Ascend C's CPU-debug entry points, as a main.cpp uses them, running the kernel on ascend-sim
// instead of the CPU twin (ascend_sim_sdk.h says how it is configured).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ascend_sim_sdk.h"
#include "kernel_operator.h"
#include "securec.h"  // memcpy_s, as the CPU-debug headers bring it

// The SoC a sample's own CMake names (its run.sh maps the A2 family to Ascend910B1); under
// ascend-sim the die is chosen at run time (ASCEND_SIM_PRESET).
#ifndef SOC_VERSION
#define SOC_VERSION "Ascend910B1"
#endif

enum class KernelMode { MIX_MODE, AIC_MODE, AIV_MODE };

namespace AscendC {
inline void* GmAlloc(size_t size) {
  return ::ascend::sdk::gm_alloc(size);
}
inline void GmFree(void* ptr) {
  ::ascend::sdk::gm_free(ptr);
}
inline void SetKernelMode(KernelMode mode) {
  ::ascend::sdk::set_mode(mode == KernelMode::AIV_MODE   ? ::ascend::sdk::Mode::Aiv
                          : mode == KernelMode::AIC_MODE ? ::ascend::sdk::Mode::Aic
                                                         : ::ascend::sdk::Mode::Mix);
}
}  // namespace AscendC

// ICPU_RUN_KF(kernel, blockDim, args...): pointers from GmAlloc become simulated GM addresses;
// other arguments (a tiling struct, sizes) are passed by value.
#define ICPU_RUN_KF(func, blockdim, ...)                                                         \
  ::ascend::sdk::run_kernel(                                                                     \
      #func, static_cast<uint32_t>(blockdim), [](auto... kernel_args) { func(kernel_args...); }, \
      ##__VA_ARGS__)
#define ICPU_SET_TILING_KEY(key) ::ascend::sdk::set_tiling_key(static_cast<uint64_t>(key))
// A kernel that branches on its tiling key.
#define TILING_KEY_IS(key) (::ascend::sdk::tiling_key() == static_cast<uint64_t>(key))
