#include "api/sort.h"

#include <cmath>

namespace AscendC::detail {

void issue_vector_cycles(const char* name, double cycles, m::Effect effect) {
  // The vector pipe charges ceil(repeats * 256 / vector.bytes_per_cycle) cycles per instruction;
  // express `cycles` in those units so that the width parameter does not scale it.
  double per_repeat = 256.0 / core().timing().vector_bytes_per_cycle;
  auto repeats = static_cast<uint64_t>(std::ceil(cycles / per_repeat - 1e-9));
  issue_vector(name, std::max<uint64_t>(1, repeats), std::move(effect));
}

std::array<uint16_t, 4> last_mrgsort_result() {
  const CoreState& s = state();
  if (!s.has_mrgsort) fault("GetMrgSortResult before any MrgSort on this core");
  return s.mrgsort;
}

}  // namespace AscendC::detail
