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
  // config.ini as write_ini writes it, less the lines of values left at their defaults (loading
  // every key again would make each input ten times slower, for keys that did not change).
  std::ostringstream all;
  p.write_ini(all);
  std::istringstream lines(all.str());
  std::string line, section, ini;
  while (std::getline(lines, line)) {
    if (!line.empty() && line[0] == '[') {
      section = line.substr(1, line.find(']') - 1);
      ini += line + "\n";
      continue;
    }
    const std::string key = section + "." + line.substr(0, line.find(" = "));
    if (registry.has(key) && p.text(key) != registry.text(key)) ini += line + "\n";
  }
  Params again = registry;
  if (!accepted([&] { again.load_ini_text(ini, "config.ini"); }))
    finding("config.ini written from accepted values is refused:\n" + ini);
  for (const ParamSpec* s : p.specs())
    if (again.text(s->key) != p.text(s->key))
      finding(s->key + " = '" + p.text(s->key) + "' reads back from config.ini as '" +
              again.text(s->key) + "'");
}

}  // namespace ascend::fuzz
