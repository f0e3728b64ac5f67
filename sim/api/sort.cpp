#include <cmath>
#include <map>

#include "sim/api/kernel_operator.h"
#include "sim/params.h"

namespace AscendC::detail {

namespace {
SortCosts g_costs;
std::map<const ascend::model::AivCore*, std::array<uint16_t, 4>> g_mrgsort;
}  // namespace

void bind_sort_costs(const ascend::Params& p) {
  g_costs.sort32_cycles = p.real("sort.sort32_cycles");
  g_costs.merge_elements_per_cycle = p.real("sort.merge_elements_per_cycle");
  g_mrgsort.clear();
}

const SortCosts& sort_costs() {
  return g_costs;
}

void issue_vector_cycles(const char* name, double cycles, std::function<void()> effect) {
  // The vector pipe charges ceil(repeats * 256 / vector.bytes_per_cycle) cycles per instruction;
  // express `cycles` in those units so that the width parameter does not scale it.
  double per_repeat = 256.0 / core().timing().vector_bytes_per_cycle;
  auto repeats = static_cast<uint64_t>(std::ceil(cycles / per_repeat - 1e-9));
  issue_vector(name, std::max<uint64_t>(1, repeats), std::move(effect));
}

void record_mrgsort_result(const ascend::model::AivCore* core, std::array<uint16_t, 4> n) {
  g_mrgsort[core] = n;
}

std::array<uint16_t, 4> last_mrgsort_result(const ascend::model::AivCore* core) {
  auto it = g_mrgsort.find(core);
  if (it == g_mrgsort.end()) fault("GetMrgSortResult before any MrgSort on this core");
  return it->second;
}

}  // namespace AscendC::detail
