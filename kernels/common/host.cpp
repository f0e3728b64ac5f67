#include "kernels/common/host.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "kernels/common/elastic.h"
#include "models/errors.h"
#include "sim/npy.h"

namespace ascend::common {

uint32_t input_seed(uint64_t seed, int rank, int call, uint32_t salt) {
  return static_cast<uint32_t>(seed * 1000003 + static_cast<uint64_t>(rank) * 7919 +
                               static_cast<uint64_t>(call)) ^
         salt;
}

uint32_t input_seed(const Params& p, int rank, int call, uint32_t salt) {
  return input_seed(static_cast<uint64_t>(p.integer("sim.seed")), rank, call, salt);
}

Routing::Routing(const std::string& key, const std::string& text, int experts, int special,
                 double special_weight)
    : experts_(experts + special), balanced_(text == "balanced"), weight_(experts_, 1.0) {
  std::fill(weight_.begin() + experts, weight_.end(), special_weight);
  if (text.rfind("zipf:", 0) == 0) {
    double alpha = -1;
    try {
      alpha = std::stod(text.substr(5));
    } catch (const std::exception&) {
    }
    if (!(alpha >= 0 && alpha <= 10))
      throw SimError(kExitBadInput, key + " = '" + text + "': zipf:ALPHA with ALPHA in [0, 10]");
    for (int e = 0; e < experts; ++e) weight_[e] = 1.0 / std::pow(e + 1.0, alpha);
  } else if (text != "uniform" && !balanced_) {
    throw SimError(kExitBadInput, key + " = '" + text + "': one of uniform, balanced, zipf:ALPHA");
  }
}

std::vector<float> softmax_weights(int tokens, int topk, std::mt19937& rng) {
  std::vector<float> w(static_cast<size_t>(tokens) * topk);
  std::uniform_real_distribution<float> logit(-2.0f, 2.0f);
  for (int t = 0; t < tokens; ++t) {
    float sum = 0;
    float* row = &w[static_cast<size_t>(t) * topk];
    for (int k = 0; k < topk; ++k) sum += (row[k] = std::exp(logit(rng)));
    for (int k = 0; k < topk; ++k) row[k] /= sum;
  }
  return w;
}

int read_active_mask(const std::string& dir, int bs) {
  const std::string path = dir + "/x_active_mask.npy";
  if (!std::filesystem::exists(path)) return -1;
  npy::Array m = npy::read_expect(path, "|b1", {static_cast<uint64_t>(bs)});
  int n = 0;
  while (n < bs && m.bytes[n]) ++n;
  for (int t = n; t < bs; ++t)
    if (m.bytes[t])
      throw SimError(kExitBadInput, path + ": token " + std::to_string(t) +
                                        " is active after an inactive one; a 1-D mask is a prefix");
  return n;
}

std::string dump_dir(const std::string& dir, int calls, int call, const std::string& leaf) {
  return dir + (calls > 1 ? "/call" + std::to_string(call) : "") + "/" + leaf;
}

void write_active_mask(const std::string& dir, int bs, int active) {
  if (active >= bs) return;
  std::vector<uint8_t> mask(static_cast<size_t>(bs), 0);
  for (int t = 0; t < active; ++t) mask[t] = 1;
  npy::write(dir + "/x_active_mask.npy", "|b1", {static_cast<uint64_t>(bs)}, mask.data());
}

bool Elastic::is_dead(int rank) const {
  return std::binary_search(dead.begin(), dead.end(), rank);
}

std::vector<int32_t> Elastic::info() const {
  std::vector<int32_t> v = {scale_down ? 1 : 0, world, shared_ranks, experts};
  v.insert(v.end(), table1.begin(), table1.end());
  v.insert(v.end(), table2.begin(), table2.end());
  v.resize(4 + 2 * static_cast<size_t>(world0), -1);
  return v;
}

std::string Elastic::dead_list() const {
  std::string s;
  for (int r : dead) s += (s.empty() ? "" : ", ") + std::to_string(r);
  return s;
}

}  // namespace ascend::common
