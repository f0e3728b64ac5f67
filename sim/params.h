// The one registry of parameters: every hardware number and workload knob is declared once with
// its unit, default, valid range, description and source. Values come, in rising precedence, from
// the defaults, a preset, a --config INI file and --set key=value. An unknown key, an unparsable
// value or a value out of range is a bad-input error naming the key, the value and what is allowed.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace ascend {

struct ParamSpec {
  enum class Type { Int, Real, Choice, Text };
  std::string key;
  Type type = Type::Real;
  std::string unit;  // "" for dimensionless
  std::string default_value;
  double min = 0, max = 0;           // Int and Real
  std::vector<std::string> choices;  // Choice
  std::string description;
  std::string source;  // where the number comes from, with confidence
};

// Constructors that keep declarations to a line or two each.
ParamSpec int_param(std::string key, std::string unit, std::string def, double min, double max,
                    std::string description, std::string source);
ParamSpec real_param(std::string key, std::string unit, std::string def, double min, double max,
                     std::string description, std::string source);
ParamSpec choice_param(std::string key, std::string def, std::vector<std::string> choices,
                       std::string description, std::string source);
ParamSpec text_param(std::string key, std::string def, std::string description, std::string source);

class Params {
 public:
  // Declares a parameter; declaring the same key twice is a programming error.
  void declare(ParamSpec spec);
  // A key that no longer exists: setting it (--set, --config, a preset) is a bad-input error that
  // names what replaced it, instead of the generic unknown-parameter message.
  void retire(const std::string& key, std::string replaced_by);
  bool has(const std::string& key) const { return specs_.count(key) > 0; }

  void set(const std::string& key, const std::string& value, const std::string& origin);
  void set_assignment(const std::string& key_eq_value, const std::string& origin);  // "k=v"
  void load_ini_text(const std::string& text, const std::string& origin);
  void load_ini_file(const std::string& path);

  int64_t integer(const std::string& key) const;
  double real(const std::string& key) const;
  const std::string& text(const std::string& key) const;

  const ParamSpec& spec(const std::string& key) const;
  std::vector<const ParamSpec*> specs() const;  // sorted by key

  // Where the current value came from: "default", a preset, a config file's path, "--set", ...
  const std::string& origin(const std::string& key) const;

  void write_ini(std::ostream& os) const;  // the resolved values, one [section] per prefix
  // --list-params: the parameters `keep` accepts (all when it is empty), as text or as JSON.
  using Filter = std::function<bool(const ParamSpec&)>;
  void write_help(std::ostream& os, const Filter& keep = {}) const;
  nlohmann::json to_json(const Filter& keep = {}) const;

 private:
  std::map<std::string, std::string> retired_;  // removed key -> what replaced it
  std::map<std::string, ParamSpec> specs_;
  std::map<std::string, std::string> values_;
  std::map<std::string, std::string> origins_;
};

std::string describe_range(const ParamSpec& s);

// The file of the repository that defines the source keys ([CM], [INI-C], ...) and confidence
// letters (H, M, L) of the parameters' sources.
constexpr const char* kSourcesDoc = "docs/sources.md";

// The candidate closest to `word` by edit distance, or "" when none is close enough to be a
// plausible misspelling (for "did you mean ...?").
std::string closest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace ascend
