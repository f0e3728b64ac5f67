#include "models/errors.h"

#include <systemc>

#include <memory>

namespace ascend {

static std::unique_ptr<SimError> g_fault;

void kernel_fault(const std::string& msg) {
  if (!g_fault) g_fault = std::make_unique<SimError>(kExitKernelFault, msg);
  sc_core::sc_stop();
  throw KernelAbort{};
}

const SimError* first_kernel_fault() { return g_fault.get(); }

}  // namespace ascend
