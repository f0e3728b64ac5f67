#include "sim/params.h"

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/parsers.hpp>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "models/errors.h"

namespace ascend {

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

bool parse_number(const std::string& s, double& out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return errno == 0 && end && *end == '\0' && std::isfinite(out);
}

// Why config.ini (and stats.json) could not hold a value as it is, or "": a '#' starts a comment
// in an INI file, a control character would break its line, and JSON holds UTF-8 text only.
std::string unstorable(const std::string& v) {
  for (size_t i = 0; i < v.size(); ++i) {
    const auto c = static_cast<unsigned char>(v[i]);
    if (c == '#') return "holds a '#', which starts a comment in config.ini";
    if (c < 0x20 || c == 0x7f) return "holds a control character";
    if (c < 0x80) continue;
    // A UTF-8 sequence: its lead byte gives its length; no overlong form, surrogate or > U+10FFFF.
    const size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
    if (n == 0 || c > 0xf4 || i + n > v.size()) return "is not valid UTF-8 text";
    uint32_t cp = c & (0x7f >> n);
    for (size_t k = 1; k < n; ++k) {
      const auto d = static_cast<unsigned char>(v[i + k]);
      if ((d & 0xc0) != 0x80) return "is not valid UTF-8 text";
      cp = cp << 6 | (d & 0x3f);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
      return "is not valid UTF-8 text";
    i += n - 1;
  }
  return "";
}

std::string fmt(double v) {
  std::ostringstream os;
  os << std::setprecision(12) << v;
  return os.str();
}

// Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps.
// Three rows of the table (i - 2, i - 1, i), one allocation.
size_t edit_distance(const std::string& a, const std::string& b) {
  const size_t w = b.size() + 1;
  std::vector<size_t> rows(3 * w);
  for (size_t j = 0; j < w; ++j) rows[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t* d = &rows[(i % 3) * w];
    const size_t* up = &rows[((i - 1) % 3) * w];
    const size_t* up2 = &rows[((i + 1) % 3) * w];  // row i - 2
    d[0] = i;
    for (size_t j = 1; j < w; ++j) {
      size_t sub = up[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      d[j] = std::min({up[j] + 1, d[j - 1] + 1, sub});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[j] = std::min(d[j], up2[j - 2] + 1);
    }
  }
  return rows[(a.size() % 3) * w + b.size()];
}

std::string suggestion(const std::string& word, const std::vector<std::string>& candidates) {
  std::string guess = closest(word, candidates);
  return guess.empty() ? "" : " (did you mean " + guess + "?)";
}

}  // namespace

std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  // A typo, not another word: at most a third of the word, and at most 3 edits.
  const size_t limit = std::min<size_t>(3, std::max<size_t>(1, word.size() / 3));
  std::string best;
  size_t best_d = std::string::npos;
  for (const std::string& c : candidates) {
    // Lengths further apart than the limit are further apart than it in edits too.
    if (std::max(c.size(), word.size()) - std::min(c.size(), word.size()) > limit) continue;
    size_t d = edit_distance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  return best_d <= limit ? best : "";
}

std::string describe_range(const ParamSpec& s) {
  switch (s.type) {
    case ParamSpec::Type::Int:
      return "an integer in [" + fmt(s.min) + ", " + fmt(s.max) + "]";
    case ParamSpec::Type::Real:
      return "a number in [" + fmt(s.min) + ", " + fmt(s.max) + "]";
    case ParamSpec::Type::Choice: {
      std::string r = "one of {";
      for (size_t i = 0; i < s.choices.size(); ++i) r += (i ? ", " : "") + s.choices[i];
      return r + "}";
    }
    case ParamSpec::Type::Text:
      return "text";
  }
  return "";
}

ParamSpec int_param(std::string key, std::string unit, std::string def, double min, double max,
                    std::string description, std::string source) {
  return {
      std::move(key),         ParamSpec::Type::Int, std::move(unit), std::move(def), min, max, {},
      std::move(description), std::move(source)};
}
ParamSpec real_param(std::string key, std::string unit, std::string def, double min, double max,
                     std::string description, std::string source) {
  return {
      std::move(key),         ParamSpec::Type::Real, std::move(unit), std::move(def), min, max, {},
      std::move(description), std::move(source)};
}
ParamSpec choice_param(std::string key, std::string def, std::vector<std::string> choices,
                       std::string description, std::string source) {
  return {
      std::move(key),         ParamSpec::Type::Choice, "", std::move(def), 0, 0, std::move(choices),
      std::move(description), std::move(source)};
}
ParamSpec text_param(std::string key, std::string def, std::string description,
                     std::string source) {
  return {std::move(key),         ParamSpec::Type::Text, "", std::move(def), 0, 0, {},
          std::move(description), std::move(source)};
}

void Params::declare(ParamSpec spec) {
  if (specs_.count(spec.key))
    throw SimError(kExitInternal, "parameter declared twice: " + spec.key);
  std::string key = spec.key, def = spec.default_value;
  specs_.emplace(key, std::move(spec));
  set(key, def, "default");
}

void Params::retire(const std::string& key, std::string replaced_by) {
  if (specs_.count(key) || retired_.count(key))
    throw SimError(kExitInternal, "parameter retired twice or still declared: " + key);
  retired_.emplace(key, std::move(replaced_by));
}

const ParamSpec& Params::spec(const std::string& key) const {
  auto it = specs_.find(key);
  if (it == specs_.end()) {
    std::vector<std::string> keys;
    for (const auto& kv : specs_) keys.push_back(kv.first);
    throw SimError(kExitBadInput, "unknown parameter '" + key + "'" + suggestion(key, keys) +
                                      " (ascend-sim --list-params lists every key)");
  }
  return it->second;
}

void Params::set(const std::string& raw_key, const std::string& raw_value,
                 const std::string& origin) {
  std::string key = trim(raw_key), value = trim(raw_value);
  if (auto r = retired_.find(key); r != retired_.end())
    throw SimError(kExitBadInput, "parameter " + key + " = '" + value + "' (from " + origin +
                                      ") was removed: " + r->second);
  const ParamSpec& s = spec(key);
  auto bad = [&](const std::string& why) {
    return SimError(kExitBadInput, "parameter " + key + " = '" + value + "' (from " + origin +
                                       ") " + why + "; allowed: " + describe_range(s) +
                                       (s.unit.empty() ? "" : " " + s.unit));
  };
  if (const std::string why = unstorable(value); !why.empty()) throw bad(why);
  if (s.type == ParamSpec::Type::Int || s.type == ParamSpec::Type::Real) {
    double v;
    if (!parse_number(value, v)) throw bad("is not a number");
    if (s.type == ParamSpec::Type::Int && v != std::floor(v)) throw bad("is not an integer");
    if (v < s.min || v > s.max) throw bad("is out of range");
  } else if (s.type == ParamSpec::Type::Choice) {
    bool ok = false;
    for (const auto& c : s.choices) ok = ok || c == value;
    if (!ok) throw bad("is not a known choice" + suggestion(value, s.choices));
  }
  values_[key] = value;
  origins_[key] = origin;
}

void Params::set_assignment(const std::string& kv, const std::string& origin) {
  size_t eq = kv.find('=');
  if (eq == std::string::npos)
    throw SimError(kExitBadInput,
                   "'" + kv + "' (from " + origin + ") is not of the form key=value");
  set(kv.substr(0, eq), kv.substr(eq + 1), origin);
}

// INI: "[section]" then "key = value" lines give section.key; '#' and ';' start comments.
// boost::program_options parses it; every key is then checked against the registry.
void Params::load_ini_text(const std::string& text, const std::string& origin) {
  std::istringstream in(text);
  namespace po = boost::program_options;
  po::options_description none;
  po::parsed_options parsed = [&] {
    try {
      return po::parse_config_file(in, none, /*allow_unregistered=*/true);
    } catch (const po::error& e) {
      throw SimError(kExitBadInput, origin + ": " + e.what());
    }
  }();
  for (const auto& opt : parsed.options) {
    std::string value = opt.value.empty() ? "" : opt.value.front();
    set(opt.string_key, value, origin);
  }
}

void Params::load_ini_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw SimError(kExitBadInput, "cannot read config file '" + path + "'");
  std::stringstream ss;
  ss << f.rdbuf();
  load_ini_text(ss.str(), path);
}

int64_t Params::integer(const std::string& key) const {
  const ParamSpec& s = spec(key);
  if (s.type != ParamSpec::Type::Int) throw SimError(kExitInternal, key + " is not an integer");
  return static_cast<int64_t>(std::llround(std::strtod(values_.at(key).c_str(), nullptr)));
}

double Params::real(const std::string& key) const {
  const ParamSpec& s = spec(key);
  if (s.type != ParamSpec::Type::Real && s.type != ParamSpec::Type::Int)
    throw SimError(kExitInternal, key + " is not a number");
  return std::strtod(values_.at(key).c_str(), nullptr);
}

const std::string& Params::text(const std::string& key) const {
  spec(key);
  return values_.at(key);
}

const std::string& Params::origin(const std::string& key) const {
  spec(key);
  return origins_.at(key);
}

std::vector<const ParamSpec*> Params::specs() const {
  std::vector<const ParamSpec*> out;
  for (const auto& kv : specs_) out.push_back(&kv.second);
  return out;
}

void Params::write_ini(std::ostream& os) const {
  std::string section;
  for (const auto& kv : values_) {
    size_t dot = kv.first.find('.');
    std::string sec = kv.first.substr(0, dot), name = kv.first.substr(dot + 1);
    if (sec != section) {
      os << (section.empty() ? "" : "\n") << "[" << sec << "]\n";
      section = sec;
    }
    const ParamSpec& s = specs_.at(kv.first);
    os << name << " = " << kv.second << (s.unit.empty() ? "" : "  # " + s.unit) << "\n";
  }
}

void Params::write_help(std::ostream& os, const Filter& keep) const {
  size_t shown = 0;
  for (const ParamSpec* s : specs()) {
    if (keep && !keep(*s)) continue;
    ++shown;
    os << s->key << " = " << values_.at(s->key) << (s->unit.empty() ? "" : " " + s->unit)
       << "   (default " << s->default_value << "; " << describe_range(*s) << ")\n"
       << "    " << s->description << "\n";
    if (!s->source.empty()) os << "    source: " << s->source << "\n";
  }
  os << shown << " parameter(s). Sources: [KEY] names a reference and H/M/L the confidence (high: "
     << "official document or platform file; medium; low: estimate), defined in " << kSourcesDoc
     << "; 'workload' and 'CLI' are choices of the run, not hardware facts.\n";
}

nlohmann::json Params::to_json(const Filter& keep) const {
  nlohmann::json out = nlohmann::json::array();
  const char* types[] = {"int", "real", "choice", "text"};
  for (const ParamSpec* s : specs()) {
    if (keep && !keep(*s)) continue;
    nlohmann::json j = {{"key", s->key},
                        {"value", values_.at(s->key)},
                        {"default", s->default_value},
                        {"type", types[static_cast<int>(s->type)]},
                        {"unit", s->unit},
                        {"range", describe_range(*s)},
                        {"description", s->description},
                        {"source", s->source}};
    if (s->type == ParamSpec::Type::Int || s->type == ParamSpec::Type::Real) {
      j["min"] = s->min;
      j["max"] = s->max;
    }
    if (s->type == ParamSpec::Type::Choice) j["choices"] = s->choices;
    out.push_back(j);
  }
  return out;
}

}  // namespace ascend
