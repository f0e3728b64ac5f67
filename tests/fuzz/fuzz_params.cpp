#include "tests/fuzz/fuzz_params.h"

#include <algorithm>
#include <sstream>

#include "tests/fuzz/fuzz_common.h"

namespace ascend::fuzz {

void check_values(const Params& p, const Params& registry) {
  for (const ParamSpec* s : p.specs()) {
    const std::string& v = p.text(s->key);
    if (s->type == ParamSpec::Type::Int || s->type == ParamSpec::Type::Real) {
      const double x = p.real(s->key);
      if (!(x >= s->min && x <= s->max)) finding(s->key + " = '" + v + "' accepted out of range");
      if (s->type == ParamSpec::Type::Int &&
          (p.integer(s->key) < s->min || p.integer(s->key) > s->max))
        finding(s->key + " = '" + v + "' accepted as an integer out of range");
    } else if (s->type == ParamSpec::Type::Choice &&
               std::find(s->choices.begin(), s->choices.end(), v) == s->choices.end()) {
      finding(s->key + " = '" + v + "' accepted but is not a choice");
    }
  }
  std::ostringstream ini;
  p.write_ini(ini);
  Params again = registry;
  if (!accepted([&] { again.load_ini_text(ini.str(), "config.ini"); }))
    finding("config.ini written from accepted values is refused:\n" + ini.str());
  for (const ParamSpec* s : p.specs())
    if (again.text(s->key) != p.text(s->key))
      finding(s->key + " = '" + p.text(s->key) + "' reads back from config.ini as '" +
              again.text(s->key) + "'");
}

}  // namespace ascend::fuzz
