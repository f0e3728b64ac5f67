#include "kernels/kernel.h"

#include "models/errors.h"

namespace ascend {

KernelDef stream_kernel_def();
KernelDef pipeline_kernel_def();

const std::vector<KernelDef>& all_kernels() {
  static const std::vector<KernelDef> kernels = {pipeline_kernel_def(), stream_kernel_def()};
  return kernels;
}

const KernelDef& find_kernel(const std::string& name) {
  std::string known;
  for (const KernelDef& k : all_kernels()) {
    if (k.name == name) return k;
    known += (known.empty() ? "" : ", ") + k.name;
  }
  throw SimError(kExitBadInput, "unknown kernel '" + name + "'; known kernels: " + known);
}

}  // namespace ascend
