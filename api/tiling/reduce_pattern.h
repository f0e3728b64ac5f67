// AscendC::ReducePattern, shared by the host's size queries (GetReduceMaxMaxMinTmpSize) and the
// kernel's APIs that take one (Normalize's config): A2/A3 reduce AR (the inner axis) and RA.
#pragma once

#include <cstdint>

namespace AscendC {
enum class ReducePattern : uint32_t { AR = 0, RA = 1 };
}  // namespace AscendC
