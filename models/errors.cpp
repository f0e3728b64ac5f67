#include "models/errors.h"

#include <memory>
#include <systemc>

namespace ascend {

static std::unique_ptr<SimError> g_fault;

void record_fault(const SimError& e) {
  if (!g_fault) g_fault = std::make_unique<SimError>(e);
  sc_core::sc_stop();
}

void kernel_fault(const std::string& msg) {
  record_fault(SimError(kExitKernelFault, msg));
  throw KernelAbort{};
}

const SimError* first_kernel_fault() {
  return g_fault.get();
}

}  // namespace ascend
