#include "api/runtime.h"

#include <cstdio>
#include <sstream>

#include "api/sim_ext.h"
#include "models/cluster.h"
#include "models/errors.h"

namespace AscendC {
namespace detail {

Runtime* Runtime::active_ = nullptr;

Runtime::Runtime(m::Cluster& cluster, RuntimeConfig cfg)
    : cfg_(std::move(cfg)), cluster_(cluster), memory_(cluster.gm()) {
  for (int d = 0; d < cluster.dies(); ++d)
    cluster.die(d).for_each_core([this](m::Core& c) { states_.push_back(CoreState{&c}); });
  if (cluster.dies() > 0) cores_per_die_ = cluster.die(0).cores.size() + cluster.die(0).aics.size();
  active_ = this;
}

Runtime::~Runtime() {
  if (active_ == this) active_ = nullptr;
}

Runtime& Runtime::active() {
  if (!active_) throw ascend::SimError(ascend::kExitInternal, "kernel API used without a run");
  return *active_;
}

void Runtime::begin_launch() {
  for (CoreState& s : states_) s = CoreState{s.core};
}

CoreState& Runtime::current() {
  const m::Core* running = m::Core::running();
  if (running != last_core_ || !last_state_) {
    // states_ lists each die's cores in their order (AIVs, then AICs), which a core's index is.
    size_t i = running ? static_cast<size_t>(running->die()) * cores_per_die_ +
                             static_cast<size_t>(running->index())
                       : states_.size();
    if (i >= states_.size() || states_[i].core != running)
      throw ascend::SimError(ascend::kExitInternal, "kernel API called outside a running kernel");
    last_core_ = running;
    last_state_ = &states_[i];
  }
  return *last_state_;
}

void print_block_prefix() {
  const m::Core* c = m::Core::running();
  if (c)
    std::printf("[%s Block %d/%d] ", m::core_kind_name(c->core_kind()), c->block_idx(),
                c->block_num());
}

CoreState& Runtime::state_of(const m::Core& c) {
  const size_t i = static_cast<size_t>(c.die()) * cores_per_die_ + static_cast<size_t>(c.index());
  if (i >= states_.size() || states_[i].core != &c)
    throw ascend::SimError(ascend::kExitInternal, "a core outside this simulation");
  return states_[i];
}

uint64_t Runtime::kfc_staging(const m::Core& aic, uint64_t bytes) {
  const size_t i = static_cast<size_t>(&state_of(aic) - states_.data());
  if (kfc_staging_.size() < states_.size()) kfc_staging_.resize(states_.size(), {0, 0});
  auto& [addr, have] = kfc_staging_[i];
  if (have < bytes) {
    std::optional<uint64_t> a = memory_.allocate(aic.die(), "Matmul KFC staging", bytes);
    if (!a)
      throw ascend::SimError(ascend::kExitBadInput, "GM is full: no room for the Matmul API's " +
                                                        std::to_string(bytes) + " B of staging");
    addr = *a;
    have = bytes;
  }
  return addr;
}

void fault(const std::string& what) {
  m::Core& c = core();
  c.kernel_fault("kernel '" + c.kernel_name() + "' die " + std::to_string(c.die()) + " core " +
                 std::to_string(c.index()) + " at " + std::to_string(m::ps_to_ns(m::now())) +
                 " ns: " + what);
}

void effect_fault(m::Core* c, const std::string& what) {
  c->effect_fault("kernel '" + c->kernel_name() + "' die " + std::to_string(c->die()) + " core " +
                  std::to_string(c->index()) + " at " + std::to_string(m::ps_to_ns(m::now())) +
                  " ns: " + what);
}

namespace {
HostGmMap host_gm_map = nullptr;
GmBounds dma_gm_bounds = GmBounds::Tensor;
}  // namespace
void set_gm_bounds(GmBounds b) {
  dma_gm_bounds = b;
}
GmBounds gm_bounds() {
  return dma_gm_bounds;
}
void set_host_gm_map(HostGmMap map) {
  host_gm_map = map;
}
uint64_t gm_of(uint64_t addr) {
  return host_gm_map ? host_gm_map(addr) : addr;
}

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << std::hex << v;
  return os.str();
}

std::string describe_gm(uint64_t addr) {
  std::ostringstream os;
  os << "die " << m::GlobalMemory::die_of(addr) << " GM 0x" << std::hex
     << (addr & m::GlobalMemory::kOffsetMask);
  return os.str();
}

}  // namespace detail

namespace detail {
void Runtime::land_again(uint64_t at, std::vector<uint8_t> bytes, uint64_t delay) {
  cluster_.scheduler().at(m::now() + delay, [this, at, b = std::move(bytes)] {
    memory_.write(at, b.data(), b.size());
  });
}
}  // namespace detail

bool SimWindowFlipFault() {
  return detail::Runtime::active().faults().flip_rank == detail::core().die();
}

uint64_t SimNowPs() {
  return detail::core().scalar_now();
}

namespace detail {
void poll_iteration_begin() {
  core().polls().iteration_begin();
}
bool poll_iteration_end(bool done) {
  return core().polls().iteration_end(done);
}
uint64_t poll_sleep() {
  return core().polls().sleep();
}
void* poll_core() {
  return &core();
}
void poll_abandon(void* c) noexcept {
  static_cast<m::Core*>(c)->polls().abandon();
}
}  // namespace detail

int64_t GetSystemCycle() {
  const auto& c = detail::core();
  return static_cast<int64_t>(static_cast<double>(c.scalar_now()) * c.timing().system_counter_mhz /
                              1e6);
}

uint64_t SimLastWriteLandedPs() {
  return detail::core().last_write_landed();
}

uint64_t SimCyclesIn(uint64_t ps) {
  return static_cast<uint64_t>(static_cast<double>(ps) * detail::core().timing().clock.ghz /
                               1000.0);
}

void SimStall(uint64_t cycles) {
  detail::core().scalar_work(cycles);
}

PayloadScope::PayloadScope() : PayloadScope(detail::CoreState::kAllPayload) {}
PayloadScope::PayloadScope(uint32_t prefix_bytes)
    : state_(&detail::state()), saved_(detail::state().payload_prefix) {
  detail::state().payload_prefix = prefix_bytes;
}
PayloadScope::~PayloadScope() {
  static_cast<detail::CoreState*>(state_)->payload_prefix = saved_;
}

}  // namespace AscendC
