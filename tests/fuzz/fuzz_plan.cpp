// Kernel attribute sets through the plan stage only (KernelDef::plan: no SystemC object, no
// simulation). The first byte chooses the kernel; then each record of three or more bytes sets
// one key that kernel reads (or a hardware key): a key byte, a mode byte and the value's bytes,
// turned into a value of the key's type (a number in or around its range, a choice, text) so
// that most sets pass the registry and reach the plan. The plan refuses the set as bad input or
// accepts it; the estimate of --dump and the ranks must then be sane.
#include <cmath>
#include <cstring>
#include <iostream>

#include "kernels/kernel.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

using ascend::ParamSpec;

std::string number_value(const ParamSpec& s, uint8_t mode, const uint8_t* v, size_t n) {
  uint32_t raw = 0;
  std::memcpy(&raw, v, std::min<size_t>(n, 4));
  const double lo = s.min, hi = s.max;
  double x;
  switch (mode % 8) {
    case 0:
      x = lo;
      break;
    case 1:
      x = hi;
      break;
    case 2:
      x = lo + raw % 17;
      break;  // small values
    case 3:
      x = std::pow(2.0, raw % 40) - (raw >> 8) % 2;
      break;  // powers of two and one less
    case 4:
      x = hi + 1;
      break;  // just outside
    case 5:
      x = lo - 1;
      break;
    default:
      x = lo + std::fmod(static_cast<double>(raw), hi - lo + 1);
      break;
  }
  if (s.type == ParamSpec::Type::Real && mode % 8 >= 6) x += (raw % 1000) / 1000.0;
  char buf[64];
  std::snprintf(buf, sizeof buf, s.type == ParamSpec::Type::Int ? "%.0f" : "%.17g", x);
  return buf;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::cerr.rdbuf(nullptr);  // the plans' warnings: only the outcome matters
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ascend;
  static const Params registry = declare_all_params();
  if (size < 1) return 0;
  const KernelDef& k = all_kernels()[data[0] % all_kernels().size()];
  std::vector<const ParamSpec*> keys;
  for (const ParamSpec* s : registry.specs())
    if (!belongs_to_other_kernel(k, s->key) && s->key.rfind("trace.", 0) != 0 &&
        s->key != "run.dump_dir" && s->key != "run.input_dir" && s->key != "run.kernel")
      keys.push_back(s);
  Params p = registry;
  p.set("run.kernel", k.name, "fuzz");
  size_t i = 1;
  while (i + 3 <= size) {
    const ParamSpec& s = *keys[data[i] % keys.size()];
    const uint8_t mode = data[i + 1];
    const size_t n = std::min<size_t>(data[i + 2] % 8, size - i - 3);
    const uint8_t* v = data + i + 3;
    i += 3 + n;
    std::string value;
    if (s.type == ParamSpec::Type::Choice)
      value = mode < 240 ? s.choices[mode % s.choices.size()] : std::string(v, v + n);
    else if (s.type == ParamSpec::Type::Text)
      value = std::string(v, v + n);
    else
      value = number_value(s, mode, v, n);
    fuzz::accepted([&] { p.set(s.key, value, "--set"); });  // a refused value leaves the key
  }
  fuzz::accepted([&] {
    const int dies = k.dies(p);
    if (dies < 1 || dies > 768) fuzz::finding(k.name + " plans " + std::to_string(dies) + " ranks");
    if (p.integer("ep.world_size") == 0) p.set("ep.world_size", std::to_string(dies), "resolved");
    std::unique_ptr<KernelRun> run = k.plan(p, dies);
    if (!run) fuzz::finding(k.name + "'s plan returned nothing");
    (void)k.uses_cube(p);
    if (k.dump_bytes) (void)k.dump_bytes(p, dies);
  });
  return 0;
}
