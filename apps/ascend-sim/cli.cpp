// The ascend-sim command line: preset + workload + kernel -> run -> stats.json, config.ini,
// trace.json, waves.vcd.
#include "apps/ascend-sim/cli.h"

#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "kernels/kernel.h"
#include "models/errors.h"
#include "sim/hardware_params.h"
#include "sim/progress.h"
#include "sim/simulation.h"
#include "sim/stats_schema.h"
#include "sim/summary.h"

namespace po = boost::program_options;

namespace ascend {

extern const char* const kVersion;      // generated/version.cpp (cmake/version.cmake)
extern const char* const kGitDescribe;  // `git describe --always --dirty` at build time

namespace {

// Flags every kernel reads: --flag VALUE is --set key=VALUE. The kernels declare their own
// (KernelDef::shorthands); a kernel's flag given to another kernel is bad input.
const Shorthand kRunFlags[] = {
    {"ep", "ep.world_size", "ranks (dies) of the EP group, 1 to 768 (omit: the kernel's default)"},
    {"dump", "run.dump_dir",
     "write inputs and outputs as DIR/rank{r}/NAME.npy (kernels marked in --list-kernels; "
     "refused above run.dump_max_MiB)"},
    {"input", "run.input_dir",
     "read inputs from DIR/rank{r}/NAME.npy (kernels marked in "
     "--list-kernels)"},
};

// Every kernel's flags, once each (the first kernel's help), with the kernels that read it.
std::map<std::string, std::pair<std::string, std::string>> kernel_flags() {
  std::map<std::string, std::pair<std::string, std::string>> flags;
  for (const KernelDef& k : all_kernels())
    for (const Shorthand& s : k.shorthands) {
      auto [it, fresh] = flags.emplace(s.flag, std::make_pair(s.help, k.name));
      if (!fresh) it->second.second += ", " + k.name;
    }
  return flags;
}

std::string version_line() {
  return std::string("ascend-sim ") + kVersion + " (git " + kGitDescribe + ")";
}

// A shell-ready rendering of the command line, for stats.json.
std::string quoted_command(int argc, char** argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    bool plain = !a.empty() && a.find_first_not_of(
                                   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
                                   "VWXYZ0123456789-_=.,:/+@%") == std::string::npos;
    std::string q = "'";
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += (i ? " " : "") + (plain ? a : q + "'");
  }
  return out;
}

// What an unexpected positional argument probably meant.
std::string positional_hint(const std::string& arg) {
  for (const KernelDef& k : all_kernels())
    if (k.name == arg) return "did you mean --kernel " + arg + "?";
  for (const auto& [name, text] : presets())
    if (name == arg) return "did you mean --preset " + arg + "?";
  if (arg.find('=') != std::string::npos) return "did you mean --set " + arg + "?";
  std::vector<std::string> names;
  for (const KernelDef& k : all_kernels()) names.push_back(k.name);
  std::string guess = closest(arg, names);
  if (!guess.empty()) return "did you mean --kernel " + guess + "?";
  return "options start with --; ascend-sim --help lists them";
}

std::string list_of(bool (*pick)(const KernelDef&)) {
  std::string out;
  for (const KernelDef& k : all_kernels())
    if (pick(k)) out += (out.empty() ? "" : ", ") + k.name;
  return out;
}

// A directory the run writes into: created if missing; anything that prevents writing there is
// bad input (exit 2), found before the simulation is built.
void require_writable_dir(const std::string& dir, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw SimError(kExitBadInput,
                   what + ": cannot create directory '" + dir + "': " + ec.message());
  if (!fs::is_directory(dir, ec))
    throw SimError(kExitBadInput, what + ": '" + dir + "' exists and is not a directory");
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    throw SimError(kExitBadInput, what + ": directory '" + dir + "' is not writable");
}

void print_kernels(bool json) {
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const KernelDef& k : all_kernels()) {
      nlohmann::json flags = nlohmann::json::array();
      for (const Shorthand& s : k.shorthands) flags.push_back("--" + s.flag);
      out.push_back({{"name", k.name},
                     {"summary", k.summary},
                     {"workload", k.workload},
                     {"flags", flags},
                     {"dump", k.dumps},
                     {"input", k.inputs}});
    }
    std::cout << out.dump(2) << "\n";
    return;
  }
  size_t w = 6;
  for (const KernelDef& k : all_kernels()) w = std::max(w, k.name.size());
  auto row = [&](const std::string& name, const std::string& workload, const std::string& dump,
                 const std::string& input, const std::string& summary) {
    std::cout << std::left << std::setw(static_cast<int>(w) + 2) << name << std::setw(10)
              << workload << std::setw(6) << dump << std::setw(7) << input << summary << "\n";
  };
  row("kernel", "workload", "dump", "input", "summary");
  for (const KernelDef& k : all_kernels())
    row(k.name, k.workload.empty() ? "-" : k.workload + ".", k.dumps ? "yes" : "-",
        k.inputs ? "yes" : "-", k.summary);
  std::cout << "\nworkload: the prefix the shorthands (--bs, --hidden, ...) set; dump / input: "
               "whether --dump DIR and --input DIR apply.\n";
}

// Keys of another kernel's namespace that --set or a --config file gave a value the chosen kernel
// never reads: a warning, since a config file may hold keys for several kernels (a config file's
// key only when it differs from the default, so a config.ini of another run stays quiet).
void warn_unread(const Params& params, const KernelDef& k, const std::set<std::string>& configs) {
  for (const ParamSpec* s : params.specs()) {
    const std::string& origin = params.origin(s->key);
    bool from_set = origin == "--set", from_config = configs.count(origin) > 0;
    if (!from_set && !(from_config && params.text(s->key) != s->default_value)) continue;
    if (!belongs_to_other_kernel(k, s->key)) continue;
    std::cerr << "ascend-sim: warning: " << s->key << " = " << params.text(s->key) << " (from "
              << origin << ") is not read by kernel " << k.name << "; it has no effect\n";
  }
}

}  // namespace

int run_cli(int argc, char** argv, CliStop stop) {
  po::options_description opts(
      "ascend-sim: a cycle-approximate simulator of the Ascend AI Core\nOptions");
  auto add = opts.add_options();
  add("help,h", "this help");
  add("version", "print the version and the git commit it was built from");
  add("kernel", po::value<std::string>(), "kernel to run (--list-kernels); default dispatch");
  add("preset", po::value<std::string>()->default_value("a3"), "hardware preset");
  add("config", po::value<std::vector<std::string>>(), "INI file of parameters (repeatable)");
  add("set", po::value<std::vector<std::string>>(), "key=value, overrides everything (repeatable)");
  add("out", po::value<std::string>(), "directory for stats.json and config.ini (and traces)");
  add("trace",
      "also write trace.json (ranks and cores chosen by trace.ranks, trace.cores, or modules by "
      "trace.scope)");
  add("vcd",
      "also write waves.vcd (ranks and cores chosen by trace.ranks, trace.cores, or modules by "
      "trace.scope)");
  add("no-check", "skip the comparison with the golden reference (run.check = 0)");
  add("racecheck", "report pipes that touch the same UB/GM bytes unordered (exit 6)");
  add("quiet",
      "no progress line on stderr (shown when stderr is a terminal and a run takes over 2 s)");
  add("list-params",
      "every parameter with unit, default, range, description and source; "
      "--list-params PREFIX... only keys starting with a PREFIX; with --kernel K only the keys K "
      "reads");
  add("list-kernels", "the kernels: workload prefix, --dump/--input support, summary");
  add("list-stats", "what every field of stats.json means: path, unit, description");
  add("list-counters",
      "the model's counters, as their modules declare them: module, name, unit, meaning (of the "
      "machine --preset and --set describe)");
  add("json", "--list-params, --list-kernels, --list-stats and --list-counters as JSON");
  add("list-modules",
      "print the SystemC module tree of the run (with --ep, --preset, --set) and stop before "
      "simulating");
  add("dry-run",
      "check the command (flags, keys, values, ranks, trace scope, --out and --dump) and the "
      "kernel's attribute limits, and stop before simulating");
  for (const Shorthand& s : kRunFlags)
    add(s.flag.c_str(), po::value<std::string>(), s.help.c_str());
  const auto flags = kernel_flags();
  for (const auto& [flag, help] : flags)
    add(flag.c_str(), po::value<std::string>(), (help.first + " (" + help.second + ")").c_str());
  // Boost.Program_options (1.74) fills its error messages by replacing placeholders such as
  // %original_token% with the argument until none is left: an argument holding one makes that
  // loop endless (a fuzz finding, a hang). Such an argument is refused before the parser sees it.
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    for (size_t p = a.find('%'); p != std::string::npos; p = a.find('%', p + 1)) {
      const size_t q = a.find('%', p + 1);
      if (q == std::string::npos) break;
      const std::string name = a.substr(p + 1, q - p - 1);
      if (!name.empty() &&
          name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos)
        throw SimError(kExitBadInput, "argument '" + a + "' holds '%" + name +
                                          "%', which the option parser cannot report on");
    }
  }
  po::variables_map vm;
  std::vector<std::string> positional;
  try {
    po::parsed_options parsed = po::command_line_parser(argc, argv).options(opts).run();
    positional = po::collect_unrecognized(parsed.options, po::include_positional);
    po::store(parsed, vm);
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    std::string name = e.get_option_name();
    std::vector<std::string> flags;
    for (const auto& o : opts.options()) flags.push_back("--" + o->long_name());
    std::string guess = closest(name, flags);
    throw SimError(kExitBadInput, std::string(e.what()) +
                                      (guess.empty() ? "" : " (did you mean " + guess + "?)") +
                                      " (ascend-sim --help lists the options)");
  } catch (const po::error& e) {
    throw SimError(kExitBadInput, std::string(e.what()) + " (ascend-sim --help lists the options)");
  }
  const bool list_params = vm.count("list-params") > 0, json = vm.count("json") > 0;
  // Positional arguments are prefixes of --list-params, and nothing anywhere else.
  if (!positional.empty() && !list_params)
    throw SimError(kExitBadInput, "unexpected argument '" + positional.front() +
                                      "': " + positional_hint(positional.front()));
  if (vm.count("help")) {
    std::cout << opts
              << "\nExit status: 0 ok, 2 bad input, 3 deadlock or hang, 4 outputs differ "
                 "from the golden reference, 5 kernel fault (UB overflow, GM out of bounds, API "
                 "misuse), 6 --racecheck found unordered pipes, 1 internal error.\n";
    return 0;
  }
  if (vm.count("version")) {
    std::cout << version_line() << "\n";
    return 0;
  }
  if (vm.count("list-kernels")) {
    print_kernels(json);
    return 0;
  }
  if (vm.count("list-stats")) {
    if (json) {
      nlohmann::json out = nlohmann::json::array();
      for (const StatField& f : stats_fields())
        out.push_back({{"path", f.path}, {"unit", f.unit}, {"description", f.description}});
      std::cout << out.dump(2) << "\n";
    } else {
      std::cout << stats_table_markdown();
    }
    return 0;
  }
  if (json && !list_params && !vm.count("list-counters"))
    throw SimError(kExitBadInput,
                   "--json applies only to --list-params, --list-kernels, "
                   "--list-stats and --list-counters");

  Params params = declare_all_params();
  std::string preset = vm["preset"].as<std::string>();
  apply_preset(params, preset);
  if (vm.count("config"))
    for (const auto& f : vm["config"].as<std::vector<std::string>>()) params.load_ini_file(f);
  if (vm.count("kernel")) {
    const std::string& name = vm["kernel"].as<std::string>();
    find_kernel(name);  // an unknown name: the list and a did-you-mean
    params.set("run.kernel", name, "--kernel");
  }
  auto apply_sets = [&] {
    if (vm.count("set"))
      for (const auto& kv : vm["set"].as<std::vector<std::string>>())
        params.set_assignment(kv, "--set");
  };
  apply_sets();  // --set run.kernel=... decides what the workload shorthands mean
  const KernelDef& chosen = find_kernel(params.text("run.kernel"));
  for (const Shorthand& s : kRunFlags) {
    if (!vm.count(s.flag)) continue;
    params.set(s.key, vm[s.flag].as<std::string>(), "--" + s.flag);
    if (s.key == "ep.world_size" && params.integer(s.key) == 0)
      throw SimError(kExitBadInput,
                     "--ep 0: the EP group has 1 to 768 ranks; leave --ep out for the kernel's "
                     "default");
  }
  for (const auto& [flag, help] : flags) {  // the chosen kernel's flags, and no other kernel's
    if (!vm.count(flag)) continue;
    const auto own = std::find_if(chosen.shorthands.begin(), chosen.shorthands.end(),
                                  [&, f = flag](const Shorthand& s) { return s.flag == f; });
    if (own == chosen.shorthands.end())
      throw SimError(kExitBadInput, "--" + flag + " does not apply to kernel " + chosen.name +
                                        ": it is a flag of " + help.second +
                                        " (the parameters of " + chosen.name +
                                        ": --list-params --kernel " + chosen.name + ")");
    params.set(own->key, vm[flag].as<std::string>(), "--" + flag);
  }
  if (vm.count("no-check")) params.set("run.check", "0", "--no-check");
  if (vm.count("racecheck")) params.set("run.racecheck", "1", "--racecheck");
  apply_sets();  // --set overrides everything
  if (list_params) {
    // With --kernel, only what that kernel reads; with prefixes, only keys starting with one.
    const bool by_kernel = vm.count("kernel") > 0;
    Params::Filter keep = [&](const ParamSpec& s) {
      if (by_kernel && belongs_to_other_kernel(chosen, s.key)) return false;
      if (positional.empty()) return true;
      for (const std::string& p : positional)
        if (s.key.rfind(p, 0) == 0) return true;
      return false;
    };
    if (json)
      std::cout << params.to_json(keep).dump(2) << "\n";
    else
      params.write_help(std::cout, keep);
    return 0;
  }

  // Input that would do nothing is refused (or, for a config file's keys, warned about).
  const KernelDef& kernel = chosen;
  std::set<std::string> configs;
  if (vm.count("config"))
    for (const auto& f : vm["config"].as<std::vector<std::string>>()) configs.insert(f);
  warn_unread(params, kernel, configs);
  const std::string dump_dir = params.text("run.dump_dir"),
                    input_dir = params.text("run.input_dir");
  if (!dump_dir.empty() && !kernel.dumps)
    throw SimError(kExitBadInput, "kernel " + kernel.name +
                                      " writes no tensors: --dump (run.dump_dir) applies to " +
                                      list_of([](const KernelDef& k) { return k.dumps; }));
  if (!input_dir.empty() && !kernel.inputs)
    throw SimError(kExitBadInput, "kernel " + kernel.name +
                                      " reads no input tensors: --input (run.input_dir) applies "
                                      "to " +
                                      list_of([](const KernelDef& k) { return k.inputs; }));
  if (!input_dir.empty() && !std::filesystem::is_directory(input_dir))
    throw SimError(
        kExitBadInput,
        "--input (run.input_dir): directory '" + input_dir + "' cannot be read: " +
            (std::filesystem::exists(input_dir) ? "not a directory" : "it does not exist"));

  RunOptions ro;
  ro.aic = kernel.uses_cube(params);
  ro.trace = vm.count("trace") > 0;
  ro.vcd = vm.count("vcd") > 0;
  if (vm.count("out")) ro.out_dir = vm["out"].as<std::string>();
  if ((ro.trace || ro.vcd) && ro.out_dir.empty()) ro.out_dir = "out";

  const int dies = kernel.dies(params);
  // ep.world_size = 0 means the kernel's default: config.ini records the ranks it resolved to,
  // so that --config config.ini reruns the same run.
  if (params.integer("ep.world_size") == 0)
    params.set("ep.world_size", std::to_string(dies), "resolved");
  // The plan stage: the kernel's attributes against its limits, before any SystemC object exists.
  std::unique_ptr<KernelRun> planned = kernel.plan(params, dies);
  // What the machine must hold: memory and threads, refused up front (--dry-run included).
  check_resources(params, dies, ro.aic,
                  kernel.payload_bytes ? kernel.payload_bytes(params, dies) : 0);

  // A trace scope that selects nothing of this run would write an empty trace.
  std::set<int> traced_cores;
  if ((ro.trace || ro.vcd) && params.text("trace.scope").empty()) {
    std::set<int> ranks = parse_scope("trace.ranks", params.text("trace.ranks"));
    traced_cores = parse_scope("trace.cores", params.text("trace.cores"));
    const int aiv = static_cast<int>(params.integer("die.aiv_count"));
    if (!ranks.empty() && *ranks.begin() >= dies)
      throw SimError(kExitBadInput, "trace.ranks = '" + params.text("trace.ranks") +
                                        "' selects no rank of this run: ranks are 0-" +
                                        std::to_string(dies - 1) +
                                        " (ep.world_size = " + std::to_string(dies) + ")");
    if (!traced_cores.empty() && *traced_cores.begin() >= aiv)
      throw SimError(kExitBadInput, "trace.cores = '" + params.text("trace.cores") +
                                        "' selects no core of a die: cores are 0-" +
                                        std::to_string(aiv - 1) +
                                        " (die.aiv_count = " + std::to_string(aiv) + ")");
  }
  if (!ro.out_dir.empty()) require_writable_dir(ro.out_dir, "--out");
  uint64_t dump_estimate = 0;
  if (!dump_dir.empty()) {
    dump_estimate = kernel.dump_bytes ? kernel.dump_bytes(params, dies) : 0;
    const uint64_t cap = static_cast<uint64_t>(params.integer("run.dump_max_MiB")) << 20;
    if (dump_estimate > cap)
      throw SimError(kExitBadInput,
                     "--dump would write about " + std::to_string(dump_estimate >> 20) +
                         " MiB into '" + dump_dir +
                         "', above run.dump_max_MiB = " + params.text("run.dump_max_MiB") +
                         "; shrink the workload or raise the cap (--set "
                         "run.dump_max_MiB=" +
                         std::to_string((dump_estimate >> 20) + 1) + ")");
    require_writable_dir(dump_dir, "--dump");
  }

  if (stop == CliStop::BeforeElaboration) return 0;
  if (vm.count("list-modules")) {  // elaborated as the run would be, never started
    model::ClusterConfig config = cluster_config(params, dies);
    config.build_aics = ro.aic;  // a cube kernel's dies have their AICs and L2
    model::Cluster cluster("cluster", config);
    std::cout << model::module_tree(cluster);
    return 0;
  }
  if (vm.count("list-counters")) {  // elaborated with every kind of core, never started
    model::ClusterConfig config = cluster_config(params, dies);
    config.build_aics = true;
    model::Cluster cluster("cluster", config);
    const std::vector<CounterRow> rows = counter_rows(cluster);
    if (json) {
      nlohmann::json out = nlohmann::json::array();
      for (const CounterRow& r : rows)
        out.push_back({{"module", r.module},
                       {"name", r.name},
                       {"unit", r.unit},
                       {"description", r.description}});
      std::cout << out.dump(2) << "\n";
    } else {
      std::cout << counters_table_markdown(rows);
    }
    return 0;
  }
  if (vm.count("dry-run")) {
    std::cout << "ascend-sim: dry run: kernel " << kernel.name << " on preset " << preset << ", "
              << dies << " rank(s); the command passes the CLI's checks and the kernel's plan "
              << "(its attribute limits)\n";
    if (!dump_dir.empty())
      std::cout << "  dump           " << dump_dir << ", about " << std::fixed
                << std::setprecision(1) << static_cast<double>(dump_estimate) / (1 << 20)
                << " MiB (estimate: " << dump_estimate << " B)\n";
    return 0;
  }

  auto t0 = std::chrono::steady_clock::now();
  // The simulated machine is not torn down: the process ends right after the run, and SystemC
  // unregisters modules one by one in time that grows with the square of their number (6 s of
  // exit at EP 768, 184k modules). It stays reachable, so leak checkers do not count it.
  static Simulation* machine = nullptr;
  machine = new Simulation(params, dies, ro);
  Simulation& sim = *machine;
  std::string check;
  try {
    std::unique_ptr<ProgressLine> progress;
    if (!vm.count("quiet") && isatty(STDERR_FILENO))
      progress = std::make_unique<ProgressLine>(sim.cluster().scheduler());
    check = run_stages(kernel, *planned, sim, params);
  } catch (...) {
    sim.close_traces();  // what happened up to the failure stays inspectable
    throw;
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<std::string> args(argv, argv + argc);
  nlohmann::json extra = {{"run",
                           {{"version", kVersion},
                            {"git", kGitDescribe},
                            {"command_line", quoted_command(argc, argv)},
                            {"argv", args}}},
                          {"notes", nlohmann::json::object()}};
  extra["notes"]["kernels[].ports[].utilization_pct"] =
      stat_description("kernels[].ports[].utilization_pct");
  extra["notes"]["kernels[].ranks[].core_latency_ns"] =
      stat_description("kernels[].ranks[].core_latency_ns[]");
  sim.write_outputs(wall, preset, kernel.name, extra);  // closes the traces too

  SummaryInfo info;
  info.kernel = kernel.name;
  info.preset = preset;
  info.die_aiv = static_cast<int>(params.integer("die.aiv_count"));
  info.die_aic = static_cast<int>(params.integer("die.aic_count"));
  info.check = check;
  if (!dump_dir.empty()) {
    std::ostringstream d;
    d << dump_dir << ", about " << std::fixed << std::setprecision(1)
      << static_cast<double>(dump_estimate) / (1 << 20) << " MiB (estimate: " << dump_estimate
      << " B)";
    info.dump = d.str();
  }
  if (!ro.out_dir.empty()) {
    info.outputs = ro.out_dir + "/stats.json, " + ro.out_dir + "/config.ini";
    if (ro.trace) info.outputs += ", " + ro.out_dir + "/trace.json";
    if (ro.vcd) info.outputs += ", " + ro.out_dir + "/waves.vcd";
  }
  const auto& recs = sim.records();
  write_summary(std::cout, launches_of(recs), info, sim.simulator_figures(wall));
  // The traced cores exist on the die but the kernel may have run on fewer.
  if (!traced_cores.empty()) {
    int launched = 0;
    for (const KernelRecord& k : recs) launched = std::max(launched, k.cores);
    if (*traced_cores.begin() >= launched)
      std::cerr << "ascend-sim: warning: trace.cores = " << params.text("trace.cores")
                << " selects none of the " << launched
                << " core(s) the kernel ran on: the trace has no core lanes\n";
  }
  return 0;
}

int cli_main(int argc, char** argv) {
  try {
    return run_cli(argc, argv);
  } catch (const SimError& e) {
    const char* kind[] = {
        "", "internal error", "bad input", "deadlock or hang", "check failed", "kernel fault", ""};
    // Deadlock and race reports name themselves.
    bool named = e.code == kExitDeadlock || e.code == kExitRace;
    std::cerr << "ascend-sim: " << (named ? "" : std::string(kind[e.code]) + ": ") << e.what()
              << "\n";
    return e.code;
  } catch (const std::exception& e) {
    std::cerr << "ascend-sim: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}

}  // namespace ascend
