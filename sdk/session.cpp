// The session behind tikicpulib.h: one simulated die per program, created at the first launch from
// the environment (or configure()), kept for every later launch so that they share one timeline,
// one stats.json and one trace.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "api/runtime.h"
#include "ascend_sim_sdk.h"
#include "models/errors.h"
#include "sim/hardware_params.h"
#include "sim/simulation.h"
#include "sim/summary.h"

namespace ascend::sdk {
namespace {

struct Buffer {
  uint8_t* host;
  size_t bytes;
  uint64_t gm = 0;  // its mirror in simulated GM, from the first launch that sees it
};

struct Settings {
  bool set = false;  // by configure()
  std::string preset, out_dir;
  std::vector<std::string> sets;
};

class Session {
 public:
  static Session& get() {
    static Session* s = new Session;  // never destroyed: SystemC outlives static destructors
    return *s;
  }

  Settings settings;
  std::map<uint8_t*, Buffer> buffers;  // by host address
  // MIX_MODE unless SetKernelMode says otherwise, as the CPU twin's default.
  Mode mode = Mode::Mix;
  bool mode_set = false;
  int mix_ratio = 2;                  // AIVs per AIC of a MIX_MODE launch
  const char* entry = "ICPU_RUN_KF";  // how the program launched (stats.json: run.entry)
  uint64_t key = 0;
  int next_buffer = 0;

  Simulation& sim() {
    if (!sim_) start();
    return *sim_;
  }
  // The die's parameters (the preset and its overrides), read before the first launch too.
  const Params& params() {
    if (!params_loaded_) load_params();
    return params_;
  }
  bool started() const { return sim_ != nullptr; }
  Buffer* find(const void* p) {
    auto it = buffers.upper_bound(static_cast<uint8_t*>(const_cast<void*>(p)));
    if (it == buffers.begin()) return nullptr;
    --it;
    const uint8_t* b = static_cast<const uint8_t*>(p);
    return b < it->second.host + it->second.bytes ? &it->second : nullptr;
  }
  void run(const char* kernel, uint32_t block_dim, std::function<void()> program);
  // stats.json (every launch), trace.json and waves.vcd: written once, when the program ends or
  // fails. Writing stats.json at each launch cost time in the launches made so far, which a
  // program that launches thousands of times paid quadratically.
  void write_outputs();
  LaunchShape shape(const char* kernel, uint32_t block_dim) const;
  [[noreturn]] void fail(const SimError& e);

 private:
  void start();
  void load_params();
  // The console summary (sim/summary.h); its wall time is the session's launches so far.
  void print_summary(const KernelRecord& r) const;

  Params params_;
  bool params_loaded_ = false;
  std::string preset_;
  bool quiet_ = false;
  std::unique_ptr<Simulation> sim_;
  double launches_wall_s_ = 0;  // the simulator's wall time over every launch
  std::string last_kernel_, last_entry_;
};

std::string env(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : fallback;
}

std::vector<std::string> split_sets(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ';')) {
    size_t a = item.find_first_not_of(" \t\n"), b = item.find_last_not_of(" \t\n");
    if (a != std::string::npos) out.push_back(item.substr(a, b - a + 1));
  }
  return out;
}

// A host pointer into a GmAlloc buffer is GM to the kernel, as in the CPU twin: it reaches the
// kernel unchanged (so kernel code may read its tiling through it) and becomes the buffer's
// simulated address where the kernel hands it to the facade (SetGlobalBuffer).
uint64_t host_to_gm(uint64_t addr) {
  const Buffer* b = Session::get().find(reinterpret_cast<const void*>(addr));
  return b && b->gm ? b->gm + (addr - reinterpret_cast<uint64_t>(b->host)) : addr;
}

void Session::load_params() {
  params_loaded_ = true;
  declare_hardware_params(params_);
  params_.declare(int_param("run.racecheck", "", "0", 0, 1,
                            "check every core for pipes that touch the same UB or GM bytes with "
                            "nothing ordering them; exit 6 if any",
                            "CLI"));
  preset_ = settings.set ? settings.preset : env("ASCEND_SIM_PRESET", "a3");
  apply_preset(params_, preset_);
  std::string config = env("ASCEND_SIM_CONFIG", "");
  if (!config.empty()) params_.load_ini_file(config);
  for (const std::string& kv : settings.set ? settings.sets : split_sets(env("ASCEND_SIM_SET", "")))
    params_.set_assignment(kv, settings.set ? "configure()" : "ASCEND_SIM_SET");
  params_.set("ep.world_size", "1", "one die");
  // A user's kernel may rightly run far longer than the built-in kernels' 50 ms wait timeout (an
  // 8192^3 Matmul on one AIC runs about 90 ms): its watchdog is 10 s unless set.
  if (params_.origin("sim.poll_timeout_us") == "default")
    params_.set("sim.poll_timeout_us", "10000000", "the SDK's watchdog for a user's kernel");
}

void Session::start() {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  AscendC::detail::set_host_gm_map(host_to_gm);
  AscendC::detail::set_gm_bounds(AscendC::detail::GmBounds::Allocation);
  if (!params_loaded_) load_params();
  RunOptions ro;
  ro.out_dir = settings.set ? settings.out_dir : env("ASCEND_SIM_OUT", "ascend-sim-out");
  ro.trace = !ro.out_dir.empty() && env("ASCEND_SIM_TRACE", "1") != "0";
  ro.vcd = !ro.out_dir.empty() && env("ASCEND_SIM_VCD", "1") != "0";
  quiet_ = env("ASCEND_SIM_QUIET", "0") == "1";
  // The AICs are built for every program (a few idle threads for a vector-only one): any launch
  // may be AIC_MODE or MIX_MODE, and the die is built once, at the first.
  ro.aic = params_.integer("die.aic_count") > 0;
  sim_ = std::make_unique<Simulation>(params_, 1, ro);
}

// The cores a launch starts, as the CPU twin starts them for each KernelMode: AIV_MODE blockDim
// AIVs; AIC_MODE blockDim AICs; MIX_MODE blockDim AI Cores, each an AIC and its two AIVs (1:2,
// GetBlockNum() = blockDim, GetBlockIdx() in [0, 2 blockDim) on the AIVs).
LaunchShape Session::shape(const char* kernel, uint32_t block_dim) const {
  const int aiv = static_cast<int>(params_.integer("die.aiv_count"));
  const int aic = static_cast<int>(params_.integer("die.aic_count"));
  const int blocks = static_cast<int>(block_dim);
  auto refuse = [&](const std::string& limit) {
    return SimError(kExitBadInput, std::string(kernel) + ": blockDim " + std::to_string(block_dim) +
                                       " outside [1, " + limit + "] on preset " + preset_);
  };
  switch (mode) {
    case Mode::Aiv:
      if (blocks < 1 || blocks > aiv)
        throw refuse(std::to_string(aiv) + "] (AIV_MODE: die.aiv_count AIV cores");
      return LaunchShape::vector(blocks);
    case Mode::Aic:
      if (blocks < 1 || blocks > aic)
        throw refuse(std::to_string(aic) + "] (AIC_MODE: die.aic_count AIC cores");
      return LaunchShape::mixed(blocks, 0);
    case Mode::Mix:
      break;
  }
  const int limit = std::min(aic, aiv / mix_ratio);
  if (blocks < 1 || blocks > limit)
    throw refuse(std::to_string(limit) + "] (MIX_MODE: AI Cores of one AIC and " +
                 (mix_ratio == 2 ? "two AIVs" : "one AIV") + ", die.aic_count and die.aiv_count");
  return LaunchShape::mixed(blocks, mix_ratio);
}

void Session::run(const char* kernel, uint32_t block_dim, std::function<void()> program) {
  Simulation& s = sim();
  const LaunchShape launch = shape(kernel, block_dim);
  for (auto& [host, b] : buffers) s.write(b.gm, b.host, b.bytes);
  auto t0 = std::chrono::steady_clock::now();
  KernelRecord& r = s.run_kernel(kernel, launch, [&program](int) { return program; });
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (auto& [host, b] : buffers) s.read(b.gm, b.host, b.bytes);
  launches_wall_s_ += wall;
  last_kernel_ = kernel;
  last_entry_ = entry;
  if (!quiet_) print_summary(r);
}

void Session::write_outputs() {
  if (!sim_) return;
  nlohmann::json extra = {{"run", {{"entry", last_entry_}}}};
  sim_->write_stats(launches_wall_s_, preset_, last_kernel_, extra);
  sim_->close_traces();
}

void Session::print_summary(const KernelRecord& r) const {
  SummaryInfo info;
  info.kernel = r.name;
  info.preset = preset_;
  info.die_aiv = static_cast<int>(params_.integer("die.aiv_count"));
  info.die_aic = static_cast<int>(params_.integer("die.aic_count"));
  const std::string& out = sim_->out_dir();
  if (!out.empty()) info.outputs = out + "/stats.json, trace.json, waves.vcd (written at exit)";
  std::ostringstream os;
  write_summary(os, {&r}, info, sim_->simulator_figures(launches_wall_s_));
  std::cout << os.str() << std::flush;
}

[[noreturn]] void Session::fail(const SimError& e) {
  const char* kind[] = {
      "", "internal error", "bad input", "deadlock or hang", "check failed", "kernel fault", ""};
  bool named = e.code == kExitDeadlock || e.code == kExitRace;
  std::cerr << "ascend-sim: " << (named ? "" : std::string(kind[e.code]) + ": ") << e.what()
            << "\n";
  try {
    write_outputs();  // what happened up to the failure stays inspectable
  } catch (const std::exception&) {
  }
  std::cout.flush();
  std::_Exit(e.code);
}

}  // namespace

void configure(const std::string& preset, const std::vector<std::string>& sets,
               const std::string& out_dir) {
  Settings& st = Session::get().settings;
  st.set = true;
  st.preset = preset;
  st.sets = sets;
  st.out_dir = out_dir;
}

void* gm_alloc(size_t bytes) {
  Session& s = Session::get();
  // Beyond any die's HBM (and the rounding below would wrap): no buffer, as malloc would say.
  if (bytes > (size_t{1} << 40)) {
    std::cerr << "ascend-sim: GmAlloc of " << bytes << " B: more than 1 TiB, no buffer\n";
    return nullptr;
  }
  size_t padded = (bytes + 511) / 512 * 512;  // whole 512-B lines, 512-B aligned like GM
  void* p = std::aligned_alloc(512, padded ? padded : 512);
  if (!p) return nullptr;
  std::memset(p, 0, padded ? padded : 512);
  s.buffers[static_cast<uint8_t*>(p)] = Buffer{static_cast<uint8_t*>(p), bytes};
  return p;
}

void gm_free(void* ptr) {
  Session& s = Session::get();
  auto it = s.buffers.find(static_cast<uint8_t*>(ptr));
  if (it == s.buffers.end()) {
    std::cerr << "ascend-sim: GmFree of a pointer GmAlloc did not return\n";
    std::_Exit(kExitBadInput);
  }
  s.buffers.erase(it);
  std::free(ptr);
}

const void* gm_buffer_of(const void* p, size_t* bytes_left) {
  const Buffer* b = Session::get().find(p);
  if (!b) return nullptr;
  if (bytes_left) *bytes_left = b->bytes - (static_cast<const uint8_t*>(p) - b->host);
  return b->host;
}

void set_mode(Mode m) {
  Session::get().mode = m;
  Session::get().mode_set = true;
}

int64_t platform_integer(const char* key) {
  Session& s = Session::get();
  try {
    return s.params().integer(key);
  } catch (const SimError& e) {
    s.fail(e);
  }
}
void set_tiling_key(uint64_t key) {
  Session::get().key = key;
}
uint64_t tiling_key() {
  return Session::get().key;
}

void prepare_launch(const char* kernel) {
  Session& s = Session::get();
  try {
    Simulation& sim = s.sim();
    for (auto& [host, b] : s.buffers)
      if (!b.gm)
        b.gm = sim.alloc(0, std::string(kernel) + ".GmAlloc" + std::to_string(s.next_buffer++),
                         b.bytes ? b.bytes : 1);
  } catch (const SimError& e) {
    s.fail(e);
  }
}

void launch(const char* kernel, uint32_t block_dim, std::function<void()> program) {
  Session& s = Session::get();
  static const bool registered =
      std::atexit([] {
        // The outputs cover every launch: they are
        // written when the program ends.
        try {
          Session::get().write_outputs();
        } catch (const std::exception& e) {
          std::cerr << "ascend-sim: cannot write the outputs: " << e.what() << "\n";
        }
      }) == 0;
  (void)registered;
  try {
    s.run(kernel, block_dim, std::move(program));
  } catch (const SimError& e) {
    s.fail(e);
  } catch (const std::exception& e) {
    s.fail(SimError(kExitInternal, e.what()));
  }
}

void launch_as(const char* kernel, KernelKind kind, uint32_t block_dim,
               std::function<void()> program) {
  Session& s = Session::get();
  const Mode set = s.mode;
  switch (kind) {
    case KernelKind::Default:
      if (!s.mode_set) s.mode = Mode::Aiv;
      break;
    case KernelKind::Vector:
      s.mode = Mode::Aiv;
      break;
    case KernelKind::Cube:
      s.mode = Mode::Aic;
      break;
    case KernelKind::Mix12:
    case KernelKind::Mix11:
      s.mode = Mode::Mix;
      s.mix_ratio = kind == KernelKind::Mix11 ? 1 : 2;
      break;
  }
  s.entry = "<<<>>>";
  launch(kernel, block_dim, std::move(program));
  s.mode = set;  // the qualifier is the kernel's, not the program's
  s.mix_ratio = 2;
  s.entry = "ICPU_RUN_KF";
}

}  // namespace ascend::sdk

// SystemC's library refers to sc_main; a program that uses tikicpulib.h has its own main().
int sc_main(int, char**) {
  std::cerr << "ascend-sim: sc_main is not used by programs built on tikicpulib.h\n";
  return 1;
}
