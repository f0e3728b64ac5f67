// Parameters bound to the fields of a configuration struct, each declared once with the field it
// sets: its default is that field's initializer, and reading the parameters fills the struct.
// The hardware's configuration (sim/hardware_params.cpp) and a kernel's attributes (its `Attrs`,
// kernels/*/) are both bound this way, so that a number is written once and read as a field.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/params.h"

namespace ascend {

// The default of a parameter bound to a field: the field's initializer (field() fills it in).
inline const char* const kFromField = "";

// The shortest text that reads back as exactly `v` (1.85, not 1.8500000000000001).
inline std::string shortest(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<int64_t>(v));
  char buf[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// A parameter bound to a field of the configuration C.
template <class C>
struct FieldParam {
  ParamSpec spec;
  std::function<void(C&, const Params&)> apply;
};

// `get` returns the field of a C; `scale` turns the parameter's unit into the field's (KiB -> B:
// 1024). A text field takes the text (a choice's name); a bool field, an integer 0 or 1.
template <class C, class Get>
FieldParam<C> field(ParamSpec spec, Get get, uint64_t scale = 1) {
  using F = std::remove_reference_t<decltype(get(std::declval<C&>()))>;
  C defaults;
  const F& def = get(defaults);
  if constexpr (std::is_same_v<F, std::string>) {
    spec.default_value = def;
  } else if constexpr (std::is_same_v<F, bool>) {
    spec.default_value = def ? "1" : "0";
  } else if constexpr (std::is_integral_v<F> && std::is_signed_v<F>) {
    spec.default_value = std::to_string(static_cast<int64_t>(def) / static_cast<int64_t>(scale));
  } else if constexpr (std::is_integral_v<F>) {
    spec.default_value = std::to_string(static_cast<uint64_t>(def) / scale);
  } else {
    spec.default_value = shortest(def / static_cast<double>(scale));
  }
  std::string key = spec.key;
  return {std::move(spec), [get, key, scale](C& c, const Params& p) {
            if constexpr (std::is_same_v<F, std::string>) {
              (void)scale;  // text has no unit
              get(c) = p.text(key);
            } else if constexpr (std::is_same_v<F, bool>) {
              (void)scale;
              get(c) = p.integer(key) != 0;
            } else if constexpr (std::is_integral_v<F> && std::is_signed_v<F>) {
              get(c) = static_cast<F>(p.integer(key) * static_cast<int64_t>(scale));
            } else if constexpr (std::is_integral_v<F>) {
              get(c) = static_cast<F>(static_cast<uint64_t>(p.integer(key)) * scale);
            } else {
              get(c) = p.real(key) * static_cast<double>(scale);
            }
          }};
}

// The type of the field a getter binds (Get: C& -> field&).
template <class C, class Get>
using FieldType = std::decay_t<std::invoke_result_t<Get, C&>>;

// A choice bound to a field that takes a value per name ({{"int8", true}, {"none", false}}): the
// parameter's choices are the names in this order, its default the name of the field's
// initializer. The values' type is the field's.
template <class C, class Get>
FieldParam<C> choice_field(std::string key,
                           std::vector<std::pair<std::string, FieldType<C, Get>>> values,
                           std::string description, std::string source, Get get) {
  C defaults;
  const auto& def = get(defaults);
  std::vector<std::string> names;
  std::string def_name;
  for (const auto& [name, value] : values) {
    names.push_back(name);
    if (value == def && def_name.empty()) def_name = name;
  }
  if (def_name.empty()) throw std::logic_error(key + ": the field's initializer has no name");
  ParamSpec spec =
      choice_param(key, def_name, std::move(names), std::move(description), std::move(source));
  return {std::move(spec), [get, key, values](C& c, const Params& p) {
            const std::string& name = p.text(key);
            for (const auto& [n, value] : values)
              if (n == name) get(c) = value;
          }};
}

template <class C>
void declare_fields(Params& p, const std::vector<FieldParam<C>>& fields) {
  for (const FieldParam<C>& f : fields) p.declare(f.spec);
}

// A C with every bound field read from the parameters (the others keep their initializers).
template <class C>
C read_fields(const Params& p, const std::vector<FieldParam<C>>& fields) {
  C c;
  for (const FieldParam<C>& f : fields) f.apply(c, p);
  return c;
}

}  // namespace ascend
