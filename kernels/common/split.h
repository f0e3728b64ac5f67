// SplitToCore: the core split every kernel of this tree uses, on the host (tiling) and on the
// device. Pure: n items over `cores` cores in contiguous ranges, the first n mod cores take one
// more.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

namespace ascend::common {

inline std::pair<int64_t, int64_t> split_to_core(int64_t n, int cores, int core) {  // [begin, end)
  int64_t per = n / cores, extra = n % cores;
  int64_t begin = core * per + std::min<int64_t>(core, extra);
  return {begin, begin + per + (core < extra ? 1 : 0)};
}

}  // namespace ascend::common
