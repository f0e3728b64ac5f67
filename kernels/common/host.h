// Host-side pieces more than one kernel uses: GM reads, the seeds of generated inputs, the expert
// routing, the 1-D active mask as .npy, and the bf16/fp16 branch of a launch.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "api/kernel_operator.h"
#include "sim/params.h"
#include "sim/simulation.h"

namespace ascend::common {

// A tensor's GM address as a device argument: nullptr for a tensor not given (address 0).
inline GM_ADDR gm_arg(uint64_t addr) {
  return addr ? reinterpret_cast<GM_ADDR>(addr) : nullptr;
}

// n values of type V from GM at addr.
template <class V>
std::vector<V> read_vec(Simulation& sim, uint64_t addr, size_t n) {
  std::vector<V> v(n);
  if (n) sim.read(addr, v.data(), n * sizeof(V));
  return v;
}

// The seed of the inputs generated for one rank (or session) and call: sim.seed, rank and call
// mixed so that every rank and call draws differently and a kernel reusing dispatch's routing
// gets the same ids for the same seed. `salt` gives a second stream from the same seed.
uint32_t input_seed(uint64_t seed, int rank, int call, uint32_t salt = 0);
uint32_t input_seed(const Params& p, int rank, int call, uint32_t salt = 0);  // seed: sim.seed

// uniform, balanced (round-robin) or zipf:ALPHA (expert 0 hottest) over `experts` experts, and
// `special` special experts after them (V3: zero, copy, const), each drawn with `special_weight`
// times a uniform expert's weight (balanced: all ids in turn).
class Routing {
 public:
  // Bad text is bad input naming `key` (checked when planning, before anything is built).
  Routing(const std::string& key, const std::string& text, int experts, int special = 0,
          double special_weight = 1.0);
  // Token t of `rank` (bs tokens per rank) picks topk distinct experts into out[0, topk).
  template <class Id>
  void pick(int rank, int bs, int t, int topk, std::mt19937& rng, Id* out) const {
    std::vector<double> wt = weight_;
    for (int k = 0; k < topk; ++k) {
      int e;
      if (balanced_) {
        e = static_cast<int>((static_cast<int64_t>(rank) * bs * topk + t * topk + k) % experts_);
      } else {
        std::discrete_distribution<int> draw(wt.begin(), wt.end());
        e = draw(rng);
        wt[e] = 0;  // distinct experts per token
      }
      out[k] = e;
    }
  }

 private:
  int experts_;
  bool balanced_;
  std::vector<double> weight_;
};

// Router weights of `tokens` tokens x `topk`: per token the softmax of random logits in [-2, 2]
// (positive, summing to 1), as a router's top-K weights.
std::vector<float> softmax_weights(int tokens, int topk, std::mt19937& rng);

// The 1-D active mask x_active_mask (BS,) |b1: a prefix of true values. read_active_mask returns
// the prefix length (-1 when the file is missing); a true value after a false one is bad input.
int read_active_mask(const std::string& dir, int bs);
void write_active_mask(const std::string& dir, int bs, int active);  // only when active < bs

// Where --dump writes one rank's tensors of one call: DIR[/call{c}]/LEAF (the call level only
// when there are several calls).
std::string dump_dir(const std::string& dir, int calls, int call, const std::string& leaf);

// The device code's bf16 or fp16 instantiation: Kernel<T>{}.Init(args), Process().
template <template <class> class Kernel, class Args>
void run_device(bool bf16, const Args& args) {
  if (bf16) {
    Kernel<AscendC::bfloat16_t> k;
    k.Init(args);
    k.Process();
  } else {
    Kernel<AscendC::half> k;
    k.Init(args);
    k.Process();
  }
}

}  // namespace ascend::common
