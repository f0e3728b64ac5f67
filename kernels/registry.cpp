#include <algorithm>

#include "kernels/dispatch/dispatch_host.h"
#include "kernels/ffn_worker_batching/ffn_tiling.h"
#include "kernels/kernel.h"
#include "models/errors.h"
#include "sim/hardware_params.h"

namespace ascend {

KernelDef stream_kernel_def();
KernelDef pipeline_kernel_def();
KernelDef syncbug_kernel_def();
KernelDef ub_write_kernel_def();
KernelDef dma_probe_kernel_def();
KernelDef flag_ring_kernel_def();
KernelDef dispatch_kernel_def();
KernelDef combine_kernel_def();
KernelDef moe_kernel_def();
KernelDef alltoallv_kernel_def();
KernelDef ffn_worker_batching_kernel_def();
KernelDef ffn_kernel_def();

namespace {

// --dump size estimates: the tensors each kernel's dump() writes (kernels/*/ *.cpp), per rank and
// call, from the same attributes (the .npy headers, 128 B each, are left out).
dispatch::Attrs dispatch_attrs(const Params& p, int dies) {
  dispatch::Attrs a = dispatch::attrs_of(p, dies, static_cast<int>(p.integer("die.aiv_count")));
  dispatch::validate(a);  // the run would stop on the same message
  return a;
}

uint64_t dispatch_rank_dump(const dispatch::Attrs& a, int g) {
  const int r = dispatch::ep_rank(a, g);
  const uint64_t bs = a.bs, h = a.hidden, k = a.topk, rows = dispatch::capacity_rows(a, r),
                 l = dispatch::local_experts(a, r), tp = a.tp;
  const uint64_t v3 = (a.mask_2d ? bs * k : 0) + (a.expert_scales ? bs * k * 4 + rows * 4 : 0) +
                      (a.smooth_scales ? (a.shared_experts + dispatch::experts0(a)) * h * 4ull : 0);
  return bs * h * 2 + bs * k * 4 + bs + tp * rows * (dispatch::out_row_bytes(a) + 4) +
         rows * 128 * 4 + l * 8 + tp * a.ep * l * 4 + (tp > 1 ? tp * 4 : 0) + v3;
}

uint64_t combine_rank_dump(const dispatch::Attrs& a, int g, bool shared_x) {
  const int r = dispatch::ep_rank(a, g);
  const uint64_t bs = a.bs, h = a.hidden, k = a.topk, rows = dispatch::capacity_rows(a, r),
                 l = dispatch::local_experts(a, r), tp = a.tp;
  const uint64_t v3 = (a.copy_experts + a.const_experts ? bs * h * 2 : 0) +
                      a.const_experts * (8 + h * 2ull) + (a.mask_2d ? bs * k : 0);
  return tp * rows * h * 2 + rows * 128 * 4 + tp * a.ep * l * 4 + (tp > 1 ? tp * 4 : 0) +
         bs * k * 8 + (shared_x ? bs * h * 2 : 0) + bs + bs * h * 2 + v3;
}

// Host memory of the MoE kernels' tensors with payload, measured: per rank and call its tokens
// (BS x H x 2 B), what it sends and receives (about K rows each), the outputs and the golden
// reference (about K rows each); 43 MiB a rank for the default dispatch (RSS 685 MiB at EP 16).
// Combine and moe hold both directions.
uint64_t moe_payload(const Params& p, int dies, int directions) {
  const uint64_t bs = static_cast<uint64_t>(p.integer("dispatch.bs")),
                 h = static_cast<uint64_t>(p.integer("dispatch.hidden")),
                 k = static_cast<uint64_t>(p.integer("dispatch.topk"));
  return static_cast<uint64_t>(dies) * bs * h * 2 * (1 + 3 * k) * directions;
}
uint64_t dispatch_payload(const Params& p, int dies) {
  return moe_payload(p, dies, 1);
}
uint64_t round_trip_payload(const Params& p, int dies) {
  return moe_payload(p, dies, 2);
}
// moe with FFN experts also holds every expert's weight1 and weight2 (H x N1 each, 2 B), once on
// the host and once in GM, for each layer: the default workload's 256 experts need 30 GB.
uint64_t moe_layer_payload(const Params& p, int dies) {
  uint64_t bytes = round_trip_payload(p, dies);
  if (p.text("moe.experts") == "ffn")
    bytes += static_cast<uint64_t>(p.integer("dispatch.experts")) *
             static_cast<uint64_t>(p.integer("dispatch.hidden")) *
             static_cast<uint64_t>(p.integer("moe.ffn_intermediate")) * 2 * 2 * 2 *
             static_cast<uint64_t>(p.integer("moe.layers"));
  return bytes;
}

uint64_t dispatch_dump(const Params& p, int dies) {
  dispatch::Attrs a = dispatch_attrs(p, dies);
  uint64_t sum = 0;
  for (int r = 0; r < dies; ++r) sum += dispatch_rank_dump(a, r);
  return sum * static_cast<uint64_t>(p.integer("dispatch.calls"));
}

uint64_t alltoallv_dump(const Params& p, int dies) {
  dispatch::Attrs a = dispatch_attrs(p, dies);
  uint64_t sum = 0;
  for (int r = 0; r < dies; ++r) sum += dispatch_rank_dump(a, r);
  return sum;
}

uint64_t combine_dump(const Params& p, int dies) {
  dispatch::Attrs a = dispatch_attrs(p, dies);
  uint64_t sum = 0;
  for (int r = 0; r < dies; ++r)
    sum += combine_rank_dump(a, r, p.integer("combine.shared_expert_x") != 0);
  return sum;
}

uint64_t moe_dump(const Params& p, int dies) {
  dispatch::Attrs a = dispatch_attrs(p, dies);
  uint64_t sum = 0;
  for (int r = 0; r < dies; ++r) sum += dispatch_rank_dump(a, r) + combine_rank_dump(a, r, false);
  return sum * static_cast<uint64_t>(p.integer("moe.layers"));
}

uint64_t ffn_dump(const Params& p, int) {
  const ffn::Attrs a = ffn::attrs_of(p);
  // Per FFN rank and call: the context's token_info and token_data, y and its five id/scale
  // vectors, group_list, actual_token_num.
  const uint64_t y = static_cast<uint64_t>(ffn::call_rows(a));
  const uint64_t per_call = ffn::token_info_bytes(a) + ffn::token_data_bytes(a) +
                            y * (ffn::row_bytes(a) + 5 * 4) +
                            static_cast<uint64_t>(ffn::expert_num(a)) * 16 + 8;
  return per_call * static_cast<uint64_t>(a.ffn) * a.layers * a.micro_batches;
}

uint64_t ffn_op_dump(const Params& p, int) {
  // x, weight1, weight2, the biases, expert_tokens and y.
  const uint64_t e = static_cast<uint64_t>(p.integer("ffn_op.experts")),
                 k1 = static_cast<uint64_t>(p.integer("ffn_op.hidden")),
                 n1 = static_cast<uint64_t>(p.integer("ffn_op.intermediate"));
  const uint64_t m = static_cast<uint64_t>(p.integer("ffn_op.tokens"));
  return m * k1 * 4 + e * k1 * n1 * 4 + e * (n1 + k1) * 4 + e * 8;
}

// The CLI flags of each kernel family. A kernel reads exactly the flags it lists; any other
// kernel's flag is bad input for it (exit 2).
const Shorthand kSeed = {"seed", "sim.seed", "seed of the generated inputs"};
const std::vector<Shorthand> kMoeWorkloadV2 = {
    {"bs", "dispatch.bs", "tokens per rank"},
    {"hidden", "dispatch.hidden", "hidden size H"},
    {"topk", "dispatch.topk", "experts per token K"},
    {"experts", "dispatch.experts", "MoE experts"},
    {"shared-experts", "dispatch.shared_experts", "shared experts"},
    {"shared-expert-ranks", "dispatch.shared_expert_ranks", "ranks of shared experts"},
    {"quant", "dispatch.quant", "none | int8"},
    {"dtype", "dispatch.dtype", "bf16 | fp16"},
    {"token-nums-type", "dispatch.token_nums_type", "0 cumsum | 1 count per expert"},
    {"active-tokens", "dispatch.active_tokens", "the first N tokens are active"},
    {"routing", "dispatch.routing", "uniform | balanced | zipf:ALPHA"},
    kSeed};
// The V3 inputs: dispatch, combine and moe; not the alltoallv baseline.
const std::vector<Shorthand> kMoeWorkload = [] {
  std::vector<Shorthand> v = kMoeWorkloadV2;
  v.insert(v.end(),
           {{"zero-experts", "dispatch.zero_experts", "zero experts (ids after the MoE ones)"},
            {"copy-experts", "dispatch.copy_experts", "copy experts (after the zero ones)"},
            {"const-experts", "dispatch.const_experts", "const experts (after the copy ones)"},
            {"mask", "dispatch.mask", "1d | 2d xActiveMask"},
            {"expert-scales", "dispatch.expert_scales", "1: [NEW] expertScales -> expandScales"},
            {"smooth-scales", "dispatch.smooth_scales", "1: smooth scales before quantization"},
            {"dead-ranks", "fault.dead_ranks", "dead ranks, e.g. 5,17"},
            {"scale-down", "fault.scale_down", "1: elastic scale-down of the dead ranks"},
            {"tp", "dispatch.tp", "tpWorldSize 1 or 2 (2: EP x 2 dies, needs L = 1)"}});
  return v;
}();
const Shorthand kCommQuant = {"comm-quant", "combine.comm_quant",
                              "none | int8 communication quantization"};
const std::vector<Shorthand> kFfnWorkload = {
    {"bs", "ffn.bs", "tokens per micro-batch"},
    {"hidden", "ffn.hidden", "hidden size H"},
    {"topk", "ffn.topk", "experts per token K (selected experts = K + 1)"},
    {"experts", "ffn.experts", "MoE experts per layer"},
    {"routing", "ffn.routing", "uniform | balanced | zipf:ALPHA"},
    {"attn-ranks", "ffn.attn_ranks", "attention ranks A"},
    {"micro-batches", "ffn.micro_batches", "micro-batches M"},
    {"layers", "ffn.layers", "layers"},
    {"token-dtype", "ffn.token_dtype", "fp16 | bf16 | int8"},
    {"need-schedule", "ffn.need_schedule", "1 RECV | 0 NORM"},
    {"mask-rate", "ffn.mask_rate", "share of masked entries"},
    kSeed};

const std::vector<Shorthand> kFfnOpWorkload = {
    {"experts", "ffn_op.experts", "local experts E"},
    {"expert-tokens", "ffn_op.expert_tokens",
     "tokens per expert, e.g. 16,0,40 (overrides --tokens)"},
    {"tokens", "ffn_op.tokens", "tokens M, spread evenly over the experts"},
    {"hidden", "ffn_op.hidden", "hidden size K1 = N2"},
    {"intermediate", "ffn_op.intermediate", "intermediate size N1"},
    {"dtype", "ffn_op.dtype", "fp16 | bf16"},
    {"inner-precise", "ffn_op.inner_precise", "0 high precision | 1 high performance (fp16)"},
    {"activation", "ffn_op.activation", "relu | gelu | fastgelu | silu | swiglu"},
    {"bias", "ffn_op.bias", "1: bias1 and bias2"},
    {"split", "ffn_op.split", "plain | expert_parallel | mixed"},
    kSeed};

// The workload prefix, the CLI flags and the tensor I/O of a kernel: what the CLI checks its
// flags against.
KernelDef with(KernelDef k, std::string workload, std::vector<Shorthand> flags, bool inputs,
               uint64_t (*dump_bytes)(const Params&, int),
               uint64_t (*payload_bytes)(const Params&, int) = nullptr) {
  k.payload_bytes = payload_bytes;
  k.workload = std::move(workload);
  k.shorthands = std::move(flags);
  k.inputs = inputs;
  k.dumps = dump_bytes != nullptr;
  k.dump_bytes = dump_bytes;
  return k;
}

std::vector<Shorthand> plus(std::vector<Shorthand> v, const Shorthand& s) {
  v.push_back(s);
  return v;
}

}  // namespace

const std::vector<KernelDef>& all_kernels() {
  static const std::vector<KernelDef> kernels = {
      with(dispatch_kernel_def(), "dispatch", kMoeWorkload, true, dispatch_dump, dispatch_payload),
      with(combine_kernel_def(), "dispatch", plus(kMoeWorkload, kCommQuant), true, combine_dump,
           round_trip_payload),
      with(moe_kernel_def(), "dispatch", plus(kMoeWorkload, kCommQuant), true, moe_dump,
           moe_layer_payload),
      with(alltoallv_kernel_def(), "dispatch", kMoeWorkloadV2, true, alltoallv_dump,
           dispatch_payload),
      with(ffn_worker_batching_kernel_def(), "ffn", kFfnWorkload, false, ffn_dump),
      with(ffn_kernel_def(), "ffn_op", kFfnOpWorkload, true, ffn_op_dump),
      with(pipeline_kernel_def(), "", {kSeed}, false, nullptr),
      with(stream_kernel_def(), "", {kSeed}, false, nullptr),
      with(syncbug_kernel_def(), "", {kSeed}, false, nullptr),
      with(ub_write_kernel_def(), "", {}, false, nullptr),
      with(dma_probe_kernel_def(), "", {}, false, nullptr),
      with(flag_ring_kernel_def(), "", {}, false, nullptr)};
  return kernels;
}

const std::set<std::string>& kernel_groups() {
  static const std::set<std::string> groups = [] {
    std::set<std::string> g;
    for (const KernelDef& k : all_kernels()) {
      Params own;  // what the kernel declares, apart from everything else
      k.declare(own);
      for (const ParamSpec* s : own.specs()) g.insert(s->key.substr(0, s->key.find('.')));
      g.insert(k.name);
    }
    return g;
  }();
  return groups;
}

bool belongs_to_other_kernel(const KernelDef& k, const std::string& key) {
  // A key of a kernel group that no kernel declares is the hardware's or the run's: every kernel
  // reads it (fault.degraded_port, beside the fault.* keys of dispatch, combine and moe).
  static const std::set<std::string> hardware = [] {
    Params p;
    declare_hardware_params(p);
    std::set<std::string> keys;
    for (const ParamSpec* s : p.specs()) keys.insert(s->key);
    return keys;
  }();
  return kernel_groups().count(key.substr(0, key.find('.'))) > 0 && !hardware.count(key) &&
         !k.reads(key);
}

bool KernelDef::reads(const std::string& key) const {
  std::string group = key.substr(0, key.find('.'));
  if (group == "ep" || group == "sim" || group == "run" || group == workload) return true;
  // Its own name's group, unless that group is another kernel's workload (`ffn` is
  // FfnWorkerBatching's; the FFN operator's parameters are ffn_op.*).
  if (group == name)
    return std::none_of(all_kernels().begin(), all_kernels().end(),
                        [&](const KernelDef& k) { return k.name != name && k.workload == group; });
  return std::find(also_reads.begin(), also_reads.end(), group) != also_reads.end();
}

int single_die(const Params& p, const char* kernel) {
  if (p.integer("ep.world_size") > 1)
    throw SimError(kExitBadInput, std::string("kernel ") + kernel +
                                      " runs on one die; ep.world_size = " +
                                      p.text("ep.world_size") + " must be 1");
  return 1;
}

int ep_ranks(const Params& p, int default_ranks) {
  int64_t ep = p.integer("ep.world_size");
  return ep == 0 ? default_ranks : static_cast<int>(ep);
}

namespace {
// The healthy machine's run of a kernel scaled down after a fault: the same parameters without
// dead ranks, launched first; returns its span (first launch to the end of its last).
model::Tick run_healthy(const KernelDef& k, Simulation& sim, const Params& p) {
  Params healthy = p;
  healthy.set("fault.dead_ranks", "", "the healthy comparison");
  healthy.set("fault.scale_down", "0", "the healthy comparison");
  healthy.set("run.input_dir", "", "the healthy comparison");
  std::unique_ptr<KernelRun> run = k.plan(healthy, sim.cluster().dies());
  const size_t first = sim.records().size();
  run->place(sim);
  run->launch(sim);
  run->figures(sim);
  std::deque<KernelRecord>& recs = sim.records();
  for (size_t i = first; i < recs.size(); ++i) recs[i].name = "healthy:" + recs[i].name;
  const KernelRecord& last = recs.back();
  return last.start + last.latency() - recs[first].start;
}
}  // namespace

std::string run_stages(const KernelDef& k, KernelRun& run, Simulation& sim, const Params& p) {
  if (k.reads("fault.scale_down") && p.integer("fault.scale_down") != 0 &&
      p.integer("fault.compare_healthy") != 0) {
    // The healthy comparison runs on the same simulation, where run-time faults are injected too.
    for (const char* key : {"fault.stall_rank", "fault.corrupt_rank", "fault.double_flag_rank",
                            "fault.flip_rank", "fault.degraded_port"})
      if (p.text(key) != p.spec(key).default_value)
        throw SimError(kExitBadInput, std::string(key) + " = " + p.text(key) +
                                          " with fault.compare_healthy = 1: the healthy "
                                          "comparison would be faulted too; set "
                                          "fault.compare_healthy=0");
    run.healthy_latency(run_healthy(k, sim, p));
  }
  run.place(sim);
  try {
    run.launch(sim);
  } catch (const SimError& e) {
    if (e.code != kExitDeadlock) throw;
    throw SimError(e.code, e.what() + run.stuck());
  }
  run.figures(sim);
  const std::string dump_dir = p.text("run.dump_dir");
  if (!dump_dir.empty()) run.dump(sim, dump_dir);
  if (p.integer("run.check") == 0) return "not checked (run.check = 0)";
  const bool payload = p.integer("sim.payload") != 0;
  const std::string diff = run.check(sim, payload);
  if (!diff.empty()) {
    const std::string faults = injected_faults(p);
    throw SimError(kExitCheckFailed, k.name + ": " + diff + (faults.empty() ? "" : "; " + faults));
  }
  return run.checked(payload);
}

void require_window(const Params& p, const std::string& kernel, uint64_t needed,
                    const std::string& formula) {
  const uint64_t have = static_cast<uint64_t>(p.integer("hccl.buffsize_MB")) << 20;
  if (needed > have)
    throw SimError(kExitBadInput, "kernel " + kernel + " needs an HCCL window of " +
                                      std::to_string(needed) + " B (" + formula +
                                      ") but hccl.buffsize_MB gives " + std::to_string(have) +
                                      " B");
}

Params declare_all_params() {
  Params p;
  declare_hardware_params(p);
  ParamSpec run = choice_param("run.kernel", "dispatch", {}, "the kernel to run (--kernel)", "CLI");
  p.declare(text_param("run.dump_dir", "",
                       "--dump DIR: write the kernel's inputs and outputs as DIR/rank{r}/NAME.npy",
                       "CLI"));
  p.declare(text_param("run.input_dir", "",
                       "--input DIR: read the kernel's inputs from DIR/rank{r}/NAME.npy", "CLI"));
  p.declare(int_param("run.dump_max_MiB", "MiB", "4096", 1, 1e9,
                      "--dump refuses to start (exit 2) when its estimated size is above this",
                      "CLI"));
  p.declare(int_param("run.memory_MiB", "MiB", "0", 0, 1e9,
                      "memory a run may take; a run estimated above it is refused before it "
                      "starts (exit 2); 0: what the machine has available (MemAvailable, or the "
                      "cgroup's limit)",
                      "CLI"));
  p.declare(int_param(
      "run.check", "", "1", 0, 1,
      "compare every output with the golden reference after the run (--no-check: 0)", "CLI"));
  p.declare(int_param("run.racecheck", "", "0", 0, 1,
                      "check every core for pipes that touch the same UB or GM bytes with no "
                      "flag, barrier or queue ordering them (--racecheck: 1); exit 6 if any",
                      "CLI"));
  for (const KernelDef& k : all_kernels()) {
    run.choices.push_back(k.name);
    k.declare(p);
  }
  p.declare(run);
  return p;
}

const KernelDef& find_kernel(const std::string& name) {
  std::string known;
  std::vector<std::string> names;
  for (const KernelDef& k : all_kernels()) {
    if (k.name == name) return k;
    known += (known.empty() ? "" : ", ") + k.name;
    names.push_back(k.name);
  }
  std::string guess = closest(name, names);
  throw SimError(kExitBadInput, "unknown kernel '" + name + "'" +
                                    (guess.empty() ? "" : " (did you mean " + guess + "?)") +
                                    "; known kernels: " + known);
}

}  // namespace ascend
