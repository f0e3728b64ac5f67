// --set values for every parameter type: the first two bytes choose a key of the registry (so
// every Int, Real, Choice and Text key is reached), the rest is the value; a leading '=' in the
// value instead makes the whole input one raw "key=value" assignment. Values are refused as bad
// input or valid, and survive config.ini.
#include "kernels/kernel.h"
#include "tests/fuzz/fuzz_common.h"
#include "tests/fuzz/fuzz_params.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ascend;
  static const Params registry = declare_all_params();
  static const std::vector<const ParamSpec*> specs = registry.specs();
  if (size < 2) return 0;
  const ParamSpec& s = *specs[(data[0] | (data[1] << 8)) % specs.size()];
  const std::string value(reinterpret_cast<const char*>(data + 2), size - 2);
  Params p = registry;
  bool ok = !value.empty() && value[0] == '='
                ? fuzz::accepted([&] { p.set_assignment(value.substr(1), "--set"); })
                : fuzz::accepted([&] { p.set(s.key, value, "--set"); });
  if (ok) fuzz::check_values(p, registry);
  return 0;
}
