// ascend-sim: preset + workload + kernel -> run -> stats.json, config.ini, trace.json, waves.vcd.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>

#include "kernels/kernel.h"
#include "models/errors.h"
#include "sim/hardware_params.h"
#include "sim/simulation.h"

namespace po = boost::program_options;

// SystemC prints its banner before sc_main runs, so this must happen during static initialisation.
static const bool kNoBanner = setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0) == 0;
using namespace ascend;

namespace {

// Flags that are shorthands for a parameter: --flag VALUE is --set key=VALUE. A key that starts
// with '*' belongs to the workload of the chosen kernel: '*.bs' is dispatch.bs for dispatch,
// combine and moe, and ffn.bs for ffn_worker_batching (KernelDef::workload).
struct Shorthand {
  const char* flag;
  const char* key;
  const char* help;
};
const Shorthand kShorthands[] = {
    {"ep", "ep.world_size", "ranks (dies) of the EP group"},
    {"bs", "*.bs", "tokens per rank (dispatch, combine, moe) or per micro-batch (ffn)"},
    {"hidden", "*.hidden", "hidden size H"},
    {"topk", "*.topk", "experts per token K (ffn: selected experts = K + 1)"},
    {"experts", "*.experts", "MoE experts (ffn: per layer)"},
    {"shared-experts", "dispatch.shared_experts", "dispatch/combine/moe: shared experts"},
    {"shared-expert-ranks", "dispatch.shared_expert_ranks",
     "dispatch/combine/moe: ranks of shared experts"},
    {"quant", "dispatch.quant", "dispatch/moe: none | int8"},
    {"dtype", "dispatch.dtype", "dispatch/combine/moe: bf16 | fp16"},
    {"token-nums-type", "dispatch.token_nums_type", "dispatch: 0 cumsum | 1 count per expert"},
    {"active-tokens", "dispatch.active_tokens",
     "dispatch/combine/moe: the first N tokens are active"},
    {"comm-quant", "combine.comm_quant", "combine/moe: none | int8 communication quantization"},
    {"routing", "*.routing", "uniform | balanced | zipf:ALPHA"},
    {"seed", "sim.seed", "seed of the generated inputs"},
    {"attn-ranks", "ffn.attn_ranks", "ffn_worker_batching: attention ranks A"},
    {"micro-batches", "ffn.micro_batches", "ffn_worker_batching: micro-batches M"},
    {"layers", "ffn.layers", "ffn_worker_batching: layers"},
    {"token-dtype", "ffn.token_dtype", "ffn_worker_batching: fp16 | bf16 | int8"},
    {"need-schedule", "ffn.need_schedule", "ffn_worker_batching: 1 RECV | 0 NORM"},
    {"mask-rate", "ffn.mask_rate", "ffn_worker_batching: share of masked entries"},
    {"dump", "run.dump_dir", "write inputs and outputs as DIR/rank{r}/NAME.npy"},
    {"input", "run.input_dir", "read inputs from DIR/rank{r}/NAME.npy"},
};

}  // namespace

int run_cli(int argc, char** argv) {
  po::options_description opts(
      "ascend-sim: a cycle-approximate simulator of the Ascend AI Core\nOptions");
  auto add = opts.add_options();
  add("help,h", "this help");
  add("kernel", po::value<std::string>(), "kernel to run (--list-kernels); default dispatch");
  add("preset", po::value<std::string>()->default_value("a3"), "hardware preset");
  add("config", po::value<std::vector<std::string>>(), "INI file of parameters (repeatable)");
  add("set", po::value<std::vector<std::string>>(), "key=value, overrides everything (repeatable)");
  add("out", po::value<std::string>(), "directory for stats.json and config.ini (and traces)");
  add("trace", "also write trace.json (ranks and cores chosen by trace.ranks, trace.cores)");
  add("vcd", "also write waves.vcd (ranks and cores chosen by trace.ranks, trace.cores)");
  add("no-check", "skip the comparison with the golden reference (run.check = 0)");
  add("racecheck", "report pipes that touch the same UB/GM bytes unordered (exit 6)");
  add("list-params", "every parameter with unit, default, range, description and source");
  add("list-kernels", "the kernels and what they do");
  for (const Shorthand& s : kShorthands) add(s.flag, po::value<std::string>(), s.help);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(opts).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw SimError(kExitBadInput, std::string(e.what()) + " (ascend-sim --help lists the options)");
  }
  if (vm.count("help")) {
    std::cout << opts
              << "\nExit status: 0 ok, 2 bad input, 3 deadlock or hang, 4 outputs differ "
                 "from the golden reference, 5 kernel fault (UB overflow, GM out of bounds, API "
                 "misuse), 6 --racecheck found unordered pipes.\n";
    return 0;
  }
  if (vm.count("list-kernels")) {
    for (const KernelDef& k : all_kernels())
      std::cout << std::left << std::setw(12) << k.name << k.summary << "\n";
    return 0;
  }

  Params params = declare_all_params();
  std::string preset = vm["preset"].as<std::string>();
  apply_preset(params, preset);
  if (vm.count("config"))
    for (const auto& f : vm["config"].as<std::vector<std::string>>()) params.load_ini_file(f);
  if (vm.count("kernel")) params.set("run.kernel", vm["kernel"].as<std::string>(), "--kernel");
  auto apply_sets = [&] {
    if (vm.count("set"))
      for (const auto& kv : vm["set"].as<std::vector<std::string>>())
        params.set_assignment(kv, "--set");
  };
  apply_sets();  // --set run.kernel=... decides what the workload shorthands mean
  const KernelDef& chosen = find_kernel(params.text("run.kernel"));
  const std::string workload = chosen.workload;
  for (const Shorthand& s : kShorthands) {
    if (!vm.count(s.flag)) continue;
    std::string key = s.key, flag = std::string("--") + s.flag;
    if (key[0] == '*') key = workload + key.substr(1);
    if (!params.has(key) || !chosen.reads(key))
      throw SimError(kExitBadInput, flag + " does not apply to kernel " +
                                        params.text("run.kernel") + " (no parameter " + key + ")");
    params.set(key, vm[s.flag].as<std::string>(), flag);
  }
  if (vm.count("no-check")) params.set("run.check", "0", "--no-check");
  if (vm.count("racecheck")) params.set("run.racecheck", "1", "--racecheck");
  apply_sets();  // --set overrides everything
  if (vm.count("list-params")) {
    params.write_help(std::cout);
    return 0;
  }

  RunOptions ro;
  ro.trace = vm.count("trace") > 0;
  ro.vcd = vm.count("vcd") > 0;
  if (vm.count("out")) ro.out_dir = vm["out"].as<std::string>();
  if ((ro.trace || ro.vcd) && ro.out_dir.empty()) ro.out_dir = "out";

  const KernelDef& kernel = find_kernel(params.text("run.kernel"));
  auto t0 = std::chrono::steady_clock::now();
  Simulation sim(params, kernel.dies(params), ro);
  std::string check;
  try {
    check = kernel.run(sim, params);
  } catch (...) {
    sim.close_traces();  // what happened up to the failure stays inspectable
    throw;
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  sim.write_outputs(wall, preset, kernel.name);

  const KernelRecord& r = sim.records().back();
  const nlohmann::json& rank0 = r.ranks.at(0);
  std::cout << std::fixed << std::setprecision(3);
  std::cout << "ascend-sim: kernel " << kernel.name << " on preset " << preset << ", "
            << r.rank_latency.size() << " rank(s) x " << r.cores << " of "
            << params.integer("die.aiv_count") << " AIV cores\n";
  const auto& recs = sim.records();
  if (recs.size() > 1) {  // several launches (moe): each, then launch of the first to end
    for (const KernelRecord& k : recs)
      std::cout << "  " << std::left << std::setw(20) << k.name << std::right
                << model::ps_to_ns(k.latency()) / 1000.0 << " us\n";
    std::cout << "  total               "
              << model::ps_to_ns(r.start + r.latency() - recs.front().start) / 1000.0 << " us\n";
  } else {
    std::cout << "  latency        " << model::ps_to_ns(r.latency()) / 1000.0 << " us\n";
  }
  if (r.extra.contains("bandwidth_GBps"))
    std::cout << "  bandwidth      " << r.extra["bandwidth_GBps"].get<double>() << " GB/s ("
              << r.extra["bytes"].get<uint64_t>() << " B)\n";
  std::cout << "  pipe busy      core 0:";
  for (const char* lane : {"SCALAR", "VECTOR", "MTE2", "MTE3"})
    std::cout << " " << lane << " " << std::setprecision(1)
              << rank0["pipe_busy_pct"][lane].at(0).get<double>() << "%";
  std::cout << "\n  check          " << check << "\n" << std::setprecision(3);
  nlohmann::json s = sim.stats(wall)["simulator"];
  std::cout << "  simulator      " << wall << " s wall, " << s["scheduler_events"] << " events, "
            << std::setprecision(1) << s["peak_rss_MiB"].get<double>() << " MiB peak RSS\n";
  if (!ro.out_dir.empty()) {
    std::cout << "  outputs        " << ro.out_dir << "/stats.json, " << ro.out_dir
              << "/config.ini";
    if (ro.trace) std::cout << ", " << ro.out_dir << "/trace.json";
    if (ro.vcd) std::cout << ", " << ro.out_dir << "/waves.vcd";
    std::cout << "\n";
  }
  return 0;
}

// SystemC's own main() sets up the kernel and calls sc_main.
int sc_main(int argc, char** argv) {
  (void)kNoBanner;
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
