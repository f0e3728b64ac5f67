// The INI parser (--config): any text is either refused as bad input or loads values that are
// each valid for their key, and that config.ini (write_ini) writes back and reads again the same.
#include <sstream>

#include "kernels/kernel.h"
#include "tests/fuzz/fuzz_common.h"
#include "tests/fuzz/fuzz_params.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ascend;
  static const Params registry = declare_all_params();
  Params p = registry;
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (fuzz::accepted([&] { p.load_ini_text(text, "fuzz.ini"); })) fuzz::check_values(p, registry);
  return 0;
}
