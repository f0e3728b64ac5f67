// Command lines: flag combinations through everything ascend-sim checks before it builds a
// simulation (the flags, --preset, --config, --set, the kernel's own flags, --out/--dump
// directories, the dump's size, the trace scope, the kernel's plan; run_cli with
// CliStop::BeforeElaboration). Each input byte picks a word from a vocabulary (every flag, every
// kernel's flags, kernel and preset names, numbers, key=value assignments); 0xff takes the next
// bytes, up to a NUL, as a word of its own. A command is refused as bad input or passes.
#include <fstream>
#include <iostream>
#include <sstream>

#include "apps/ascend-sim/cli.h"
#include "kernels/kernel.h"
#include "sim/hardware_params.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

std::string scratch;
std::vector<std::string> words;

void build_vocabulary() {
  using namespace ascend;
  words = {"--help",
           "--version",
           "--kernel",
           "--preset",
           "--config",
           "c.ini",
           "--set",
           "--out",
           "o",
           "--trace",
           "--vcd",
           "--no-check",
           "--racecheck",
           "--quiet",
           "--list-params",
           "--list-kernels",
           "--json",
           "--list-modules",
           "--dry-run",
           "--ep",
           "--dump",
           "d",
           "--input",
           "in",
           "0",
           "1",
           "2",
           "3",
           "4",
           "7",
           "8",
           "16",
           "64",
           "256",
           "768",
           "769",
           "-1",
           "1e9",
           "0.5",
           "abc",
           "",
           "=",
           "all",
           "0-3",
           "zipf:1.2",
           "uniform",
           "int8",
           "none",
           "bf16",
           "fp16",
           "2d",
           "hbm.",
           "fabric."};
  for (const KernelDef& k : all_kernels()) {
    words.push_back(k.name);
    for (const Shorthand& s : k.shorthands) words.push_back("--" + s.flag);
  }
  for (const auto& [name, text] : presets()) words.push_back(name);
  const Params p = declare_all_params();
  for (const ParamSpec* s : p.specs()) {
    words.push_back(s->key + "=" + s->default_value);
    if (s->type == ParamSpec::Type::Int || s->type == ParamSpec::Type::Real) {
      std::ostringstream lo, hi;
      lo << s->key << "=" << s->min;
      hi << s->key << "=" << s->max;
      words.push_back(lo.str());
      words.push_back(hi.str());
    }
    for (const std::string& c : s->choices) words.push_back(s->key + "=" + c);
  }
}

// The class of `--kernel stream --bs 4` (once silently accepted): when a command that names its
// kernel with --kernel passes, every kernel flag in it is one that kernel declares. Commands the
// check cannot read plainly are left alone: an informational flag that returns first (or a
// prefix of one, which the parser accepts), or the kernel chosen otherwise (run.kernel).
void check_flags_of_the_kernel(const std::vector<std::string>& args) {
  using namespace ascend;
  const KernelDef* kernel = nullptr;
  int named = 0;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a.find("run.kernel") != std::string::npos) return;
    for (const char* info : {"--help", "--version", "--list-kernels", "--list-params"})
      if (a.size() >= 3 && std::string(info).rfind(a.substr(0, a.find('=')), 0) == 0) return;
    if (a == "--kernel" && i + 1 < args.size()) {
      ++named;
      for (const KernelDef& k : all_kernels())
        if (k.name == args[i + 1]) kernel = &k;
    }
  }
  if (named != 1 || !kernel) return;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i].rfind("--", 0) != 0 || args[i - 1] == "--set") continue;
    const std::string flag = args[i].substr(2, args[i].find('=') - 2);
    bool other = false, own = false;
    for (const KernelDef& k : all_kernels())
      for (const Shorthand& s : k.shorthands)
        if (s.flag == flag) (&k == kernel ? own : other) = true;
    if (other && !own) fuzz::finding("--" + flag + " accepted for kernel " + kernel->name);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  scratch = ascend::fuzz::enter_scratch_dir();
  std::ofstream("c.ini") << "[ep]\nworld_size = 4\n[dispatch]\nbs = 8\nhidden = 1024\n";
  std::cout.rdbuf(nullptr);  // help and listings: only the status matters
  std::cerr.rdbuf(nullptr);
  build_vocabulary();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args = {"ascend-sim"};
  for (size_t i = 0; i < size && args.size() < 64; ++i) {
    if (data[i] != 0xff) {
      args.push_back(words[data[i] % words.size()]);
      continue;
    }
    std::string w;
    for (++i; i < size && data[i] != 0; ++i)
      w += data[i] == '/' ? '_' : static_cast<char>(data[i]);  // stays in the scratch directory
    args.push_back(w);
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const bool ok = ascend::fuzz::accepted([&] {
    ascend::run_cli(static_cast<int>(args.size()), argv.data(), ascend::CliStop::BeforeElaboration);
  });
  if (ok) check_flags_of_the_kernel(args);
  ascend::fuzz::clean_scratch_dir(scratch, "c.ini");
  return 0;
}
