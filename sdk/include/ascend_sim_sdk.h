// Runs a kernel engineer's own Ascend C kernel on one simulated die, from the CPU-debug entry
// points of tikicpulib.h (GmAlloc, ICPU_RUN_KF, ...): the buffers GmAlloc hands out are mirrored
// into the simulated GM for each launch, the kernel runs on `blockDim` AIVs (AIV_MODE), AICs
// (AIC_MODE) or AI Cores of one AIC and two AIVs (MIX_MODE, the default, as in the CPU twin), the
// outputs come back into the same buffers, and the run's stats.json, trace.json and waves.vcd are
// written.
//
// Configuration, without touching main.cpp (environment), or with configure():
//   ASCEND_SIM_PRESET  a3 (default), a2, 910b4
//   ASCEND_SIM_CONFIG  an INI file of parameters (as ascend-sim --config)
//   ASCEND_SIM_SET     key=value overrides separated by ';' (as ascend-sim --set)
//   ASCEND_SIM_OUT     output folder (default ascend-sim-out; empty: write nothing)
//   ASCEND_SIM_TRACE   0 to skip trace.json (default 1)
//   ASCEND_SIM_VCD     0 to skip waves.vcd (default 1)
//   ASCEND_SIM_QUIET   1: no summary on stdout
// A bad setting, a kernel fault, a deadlock or a race (run.racecheck=1) ends the program with
// ascend-sim's exit status (2, 5, 3, 6) and its message on stderr.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace ascend::sdk {

// Overrides the environment; call before the first launch.
void configure(const std::string& preset, const std::vector<std::string>& sets,
               const std::string& out_dir);

void* gm_alloc(size_t bytes);
void gm_free(void* ptr);
enum class Mode { Aiv, Aic, Mix };
void set_mode(Mode m);
void set_tiling_key(uint64_t key);
// An integer parameter of the simulated die (the preset and its overrides), for the host's
// platform queries (tiling/platform/platform_ascendc.h); a bad setting ends the program (exit 2).
int64_t platform_integer(const char* key);
uint64_t tiling_key();

// The GmAlloc buffer holding `p`: its first byte and the bytes from `p` to its end; nullptr if
// `p` is in none (the ACL runtime's device memory is GmAlloc buffers).
const void* gm_buffer_of(const void* p, size_t* bytes_left);

// Mirrors every live GmAlloc buffer into simulated GM.
void prepare_launch(const char* kernel);
// Runs `program` on blockDim cores, brings the buffers back, writes the outputs.
void launch(const char* kernel, uint32_t block_dim, std::function<void()> program);

// A `kernel<<<blockDim, l2ctrl, stream>>>(args...)` launch of the .asc flow (ascend-sim-asc
// rewrites it into launch_kernel). Its cores follow the kernel's qualifier: __vector__ AIVs,
// __cube__ AICs, __mix__(1, 2) or __mix__(1, 1) AI Cores of an AIC and 2 or 1 AIVs; a kernel
// declared __aicore__ (or outside the launching file) follows set_mode(), AIV_MODE when it was
// not called (ICPU_RUN_KF's default is MIX_MODE, as the CPU twin's).
enum class KernelKind { Default, Vector, Cube, Mix12, Mix11 };
// Records the launch on `stream` (an aclrtStream; nullptr is the default stream) and fails the
// program if the stream is not a live one.
void stream_launch(void* stream, const char* kernel);
void launch_as(const char* kernel, KernelKind kind, uint32_t block_dim,
               std::function<void()> program);

// Pointers reach the kernel as they are, as in the CPU twin: a GmAlloc buffer's pointer becomes
// its simulated GM address where the kernel hands it to the facade (SetGlobalBuffer); host memory
// that is not a GmAlloc buffer may be read by kernel code directly but is no GM to the facade
// (SetGlobalBuffer on it is a kernel fault naming it).
template <class T>
void check_argument() {
  static_assert(std::is_pointer_v<T> || std::is_trivially_copyable_v<T>,
                "ICPU_RUN_KF: a kernel argument passed by value must be trivially copyable");
}

template <class F, class... Args>
void run_kernel(const char* kernel, uint32_t block_dim, F f, Args... args) {
  (check_argument<Args>(), ...);
  prepare_launch(kernel);
  std::tuple<Args...> passed{args...};
  launch(kernel, block_dim, [f, passed] { std::apply(f, passed); });
}

// The launch runs to its end before launch_kernel returns (the die is simulated in the caller's
// thread): launches on a stream run in the order they are made, and aclrtSynchronizeStream finds
// them done. l2ctrl is accepted and ignored, as it is by the A2/A3 runtime.
template <class F, class BlockDim, class L2Ctrl, class... Args>
void launch_kernel(const char* kernel, KernelKind kind, F f, BlockDim block_dim, L2Ctrl l2ctrl,
                   void* stream, Args... args) {
  static_assert(std::is_integral_v<BlockDim>, "<<<blockDim, ...>>>: blockDim must be an integer");
  (void)l2ctrl;
  (check_argument<Args>(), ...);
  stream_launch(stream, kernel);
  prepare_launch(kernel);
  std::tuple<Args...> passed{args...};
  launch_as(kernel, kind, static_cast<uint32_t>(block_dim), [f, passed] { std::apply(f, passed); });
}

}  // namespace ascend::sdk
