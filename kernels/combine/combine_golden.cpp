#include "kernels/combine/combine_golden.h"

#include <cmath>
#include <string>

#include "api/numeric.h"
#include "models/errors.h"

namespace ascend::combine {

using AscendC::RoundMode;

namespace {
float widen(uint16_t bits, bool is_bf16) {
  return is_bf16 ? AscendC::to_float(AscendC::bfloat16_t::from_bits(bits))
                 : AscendC::to_float(AscendC::half::from_bits(bits));
}
uint16_t narrow(float v, bool is_bf16) {
  return is_bf16 ? AscendC::to_bf16(v, RoundMode::CAST_RINT).bits
                 : AscendC::to_half(v, RoundMode::CAST_RINT).bits;
}
[[noreturn]] void bad(const std::string& what) {
  throw SimError(kExitBadInput, "combine inputs: " + what);
}
}  // namespace

bool RankInputs::takes_part(const Attrs& a, int t) const {
  if (t >= active_tokens(a)) return false;
  if (mask2d.empty()) return true;
  for (int k = 0; k < a.d.topk; ++k)
    if (mask2d[static_cast<size_t>(t) * a.d.topk + k]) return true;
  return false;
}

bool RankInputs::receives(const Attrs& a, int t, int k) const {
  if (!takes_part(a, t)) return false;
  if (k >= a.d.topk) return true;  // a shared slot
  const size_t i = static_cast<size_t>(t) * a.d.topk + k;
  return (mask2d.empty() || mask2d[i]) && ids[i] < a.d.experts;
}

void softmax_gates(const ConstExperts& c, int i, const uint16_t* x, int hidden, bool is_bf16,
                   float* p1, float* p2) {
  float a[2];
  for (int g = 0; g < 2; ++g) {
    const uint16_t* w = &(g ? c.gate2 : c.gate1)[static_cast<size_t>(i) * hidden];
    float acc = widen(x[0], is_bf16) * widen(w[0], is_bf16);  // Mul, then ReduceSum
    for (int j = 1; j < hidden; ++j) acc += widen(x[j], is_bf16) * widen(w[j], is_bf16);
    a[g] = acc;
  }
  const float e = static_cast<float>(std::exp(static_cast<double>(-std::fabs(a[0] - a[1]))));
  const float hi = 1.0f / (1.0f + e), lo = e / (1.0f + e);
  *p1 = a[0] >= a[1] ? hi : lo;
  *p2 = a[0] >= a[1] ? lo : hi;
}

std::vector<float> const_expert(const ConstExperts& c, int i, const uint16_t* x, int hidden,
                                bool is_bf16) {
  std::vector<float> out(hidden);
  float p1 = 0, p2 = 0;
  if (c.softmax()) {
    softmax_gates(c, i, x, hidden, is_bf16, &p1, &p2);
  } else {
    p1 = widen(c.alpha1[i], is_bf16);
    p2 = widen(c.alpha2[i], is_bf16);
  }
  const uint16_t* v = &c.v[static_cast<size_t>(i) * hidden];
  for (int j = 0; j < hidden; ++j) {  // Muls, Muls, Add in fp32; no rounding to the dtype
    const float a = widen(x[j], is_bf16) * p1, b = widen(v[j], is_bf16) * p2;
    out[j] = a + b;
  }
  return out;
}

namespace {
std::vector<std::vector<Origin>> locate_group(const Attrs& a, const std::vector<RankInputs>& in) {
  const int w = a.d.ep, slots = slots_per_token(a.d);
  std::vector<std::vector<Origin>> where(w);
  for (int r = 0; r < w; ++r)
    where[r].assign(static_cast<size_t>(in[r].active_tokens(a)) * slots, Origin{});
  for (int r = 0; r < w; ++r) {
    int rows = in[r].rows_to_send();
    if (rows < 0 || rows > dispatch::capacity_rows(a.d, r) ||
        static_cast<size_t>(3 * rows) > in[r].assist.size())
      bad("rank " + std::to_string(r) + " sends " + std::to_string(rows) +
          " rows (ep_send_counts), more than its expand_x / assist_info hold");
    for (int i = 0; i < rows; ++i) {
      int src = in[r].assist[3 * i], t = in[r].assist[3 * i + 1], k = in[r].assist[3 * i + 2];
      std::string at = "rank " + std::to_string(r) + ", assist_info_for_combine row " +
                       std::to_string(i) + " = (" + std::to_string(src) + ", " + std::to_string(t) +
                       ", " + std::to_string(k) + ")";
      if (src < 0 || src >= w || k < 0 || k >= slots || t < 0 || t >= in[src].active_tokens(a))
        bad(at + " names no active (rank, token, slot)");
      if (!in[src].receives(a, t, k))
        bad(at + " names a slot that is masked or a special expert's (never sent)");
      Origin& o = where[src][static_cast<size_t>(t) * slots + k];
      if (o.rank >= 0)
        bad(at + " duplicates rank " + std::to_string(o.rank) + ", row " + std::to_string(o.row));
      o = {r, i};
    }
  }
  for (int r = 0; r < w; ++r)
    for (size_t i = 0; i < where[r].size(); ++i)
      if (where[r][i].rank < 0 &&
          in[r].receives(a, static_cast<int>(i / slots), static_cast<int>(i % slots)))
        bad("token " + std::to_string(i / slots) + " of rank " + std::to_string(r) + ", slot " +
            std::to_string(i % slots) + " is computed by no rank (no triple names it)");
  return where;
}
}  // namespace

uint16_t tp_add(uint16_t own, uint16_t peer, bool is_bf16) {
  if (is_bf16) return narrow(widen(own, true) + widen(peer, true), true);  // fp32 add, RINT
  return AscendC::to_half(static_cast<double>(widen(own, false)) + widen(peer, false),
                          RoundMode::CAST_RINT)
      .bits;  // fp16: a native add, one rounding
}

std::vector<RankInputs> tp_group(const Attrs& a, bool is_bf16, const std::vector<RankInputs>& in,
                                 int tp, bool sums) {
  const uint64_t h = static_cast<uint64_t>(a.d.hidden);
  std::vector<RankInputs> group;
  for (int e = 0; e < a.d.ep; ++e) {
    const int g = e * 2 + tp;
    const RankInputs &own = in[g], &peer = in[g ^ 1];
    const std::string at = "rank " + std::to_string(g) + ", tp_send_counts ";
    if (own.tp_send_counts.size() != 2 || peer.tp_send_counts.size() != 2)
      bad(at + "missing (tp = 2 needs them on every rank)");
    const int n = own.rows_to_send(), peer_n = peer.rows_to_send();
    if (own.tp_send_counts[tp] != n || own.tp_send_counts[1 - tp] != peer_n ||
        peer.tp_send_counts[tp] != n)
      bad(at + "{" + std::to_string(own.tp_send_counts[0]) + ", " +
          std::to_string(own.tp_send_counts[1]) + "} disagree with the rows the ranks send (" +
          std::to_string(tp ? peer_n : n) + ", " + std::to_string(tp ? n : peer_n) + ")");
    RankInputs r = own;
    r.tp_send_counts.clear();
    r.ep_send_counts.resize(own.ep_send_counts.size() / 2);
    r.expand_x.clear();
    if (sums && !own.expand_x.empty()) {
      r.expand_x.resize(static_cast<size_t>(n) * h);
      const uint16_t* partial = &peer.expand_x[static_cast<size_t>(peer_n) * h];
      for (size_t i = 0; i < r.expand_x.size(); ++i)
        r.expand_x[i] = tp_add(own.expand_x[i], partial[i], is_bf16);
    }
    group.push_back(std::move(r));
  }
  return group;
}

std::vector<std::vector<Origin>> locate(const Attrs& a, const std::vector<RankInputs>& in) {
  if (a.d.tp == 1) return locate_group(a, in);
  std::vector<std::vector<Origin>> where(in.size());
  for (int t = 0; t < 2; ++t) {
    std::vector<std::vector<Origin>> w = locate_group(a, tp_group(a, false, in, t, false));
    for (int e = 0; e < a.d.ep; ++e) where[static_cast<size_t>(e) * 2 + t] = std::move(w[e]);
  }
  return where;
}

void comm_quantize(const uint16_t* x, int hidden, bool is_bf16, int8_t* q, uint16_t* scales) {
  const int padded = static_cast<int>(align_up(static_cast<uint64_t>(hidden), 16));
  const float inv127 = 1.0f / 127.0f;
  for (int b = 0; b < padded / 8; ++b) {
    float m = 0;
    for (int i = b * 8; i < std::min(hidden, b * 8 + 8); ++i)
      m = std::max(m, std::fabs(widen(x[i], is_bf16)));
    float s = m * inv127;  // fp32 scale
    for (int i = b * 8; i < std::min(hidden, b * 8 + 8); ++i) {
      float v = widen(x[i], is_bf16) / s;
      q[i] = AscendC::to_i8(AscendC::to_float(AscendC::to_half(v, RoundMode::CAST_RINT)),
                            RoundMode::CAST_RINT);
    }
    scales[b] = narrow(s, is_bf16);  // XType on the wire
  }
}

void comm_dequantize(const int8_t* q, const uint16_t* scales, int hidden, bool is_bf16,
                     uint16_t* out) {
  for (int i = 0; i < hidden; ++i) {
    float v = AscendC::to_float(AscendC::to_half(q[i], RoundMode::CAST_NONE));
    out[i] = narrow(v * widen(scales[i / 8], is_bf16), is_bf16);
  }
}

namespace {
std::vector<std::vector<uint16_t>> golden_group(const Attrs& a, bool is_bf16,
                                                const std::vector<RankInputs>& in) {
  const int w = a.d.ep, h = a.d.hidden, k_top = a.d.topk, slots = slots_per_token(a.d);
  std::vector<std::vector<Origin>> where = locate_group(a, in);
  std::vector<std::vector<uint16_t>> out(w);
  std::vector<int8_t> q(align_up(h, 16));
  std::vector<uint16_t> scales(align_up(h, 16) / 8), row(h);
  // The row as the receiver sees it in its window slot.
  auto received = [&](const Origin& o) -> const uint16_t* {
    const uint16_t* x = &in[o.rank].expand_x[static_cast<size_t>(o.row) * h];
    if (!a.comm_quant) return x;
    comm_quantize(x, h, is_bf16, q.data(), scales.data());
    comm_dequantize(q.data(), scales.data(), h, is_bf16, row.data());
    return row.data();
  };
  std::vector<float> acc(h);
  for (int r = 0; r < w; ++r) {
    int n = in[r].active_tokens(a);
    out[r].resize(static_cast<size_t>(n) * h);
    // Special ids follow E0, the tiling's moeExpertNum (E0 = E without a scale-down); the
    // inputs hold no id in [E, E0).
    const int z = a.d.zero_experts, c = a.d.copy_experts, e_moe = dispatch::experts0(a.d);
    for (int t = 0; t < n; ++t) {
      if (!in[r].takes_part(a, t)) continue;  // its row is not written
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int k = 0; k < slots; ++k) {
        const size_t tk = static_cast<size_t>(t) * k_top + k;
        if (k < k_top && !in[r].mask2d.empty() && !in[r].mask2d[tk]) continue;
        const int e = k < k_top ? in[r].ids[tk] : 0;
        std::vector<float> local;  // a const expert's output in fp32, computed here
        const uint16_t* v = nullptr;
        if (k >= k_top || e < e_moe) {
          v = received(where[r][static_cast<size_t>(t) * slots + k]);
        } else if (e < e_moe + z) {
          continue;  // zero expert
        } else if (e < e_moe + z + c) {
          v = &in[r].ori_x[static_cast<size_t>(t) * h];  // copy expert
        } else {
          local = const_expert(*in[r].consts, e - e_moe - z - c,
                               &in[r].ori_x[static_cast<size_t>(t) * h], h, is_bf16);
          const float wt = in[r].expert_scales[tk];
          for (int i = 0; i < h; ++i) acc[i] += local[static_cast<size_t>(i)] * wt;
          continue;
        }
        if (k < k_top) {
          float wt = in[r].expert_scales[tk];
          for (int i = 0; i < h; ++i) acc[i] += widen(v[i], is_bf16) * wt;  // Muls, then Add
        } else {
          for (int i = 0; i < h; ++i) acc[i] += widen(v[i], is_bf16);  // shared: unweighted
        }
      }
      if (!in[r].shared_expert_x.empty())
        for (int i = 0; i < h; ++i)
          acc[i] += widen(in[r].shared_expert_x[static_cast<size_t>(t) * h + i], is_bf16);
      for (int i = 0; i < h; ++i) out[r][static_cast<size_t>(t) * h + i] = narrow(acc[i], is_bf16);
    }
  }
  return out;
}

}  // namespace

std::vector<std::vector<uint16_t>> golden(const Attrs& a, bool is_bf16,
                                          const std::vector<RankInputs>& in) {
  if (a.d.tp == 1) return golden_group(a, is_bf16, in);
  std::vector<std::vector<uint16_t>> out(in.size());
  for (int t = 0; t < 2; ++t) {
    std::vector<std::vector<uint16_t>> o = golden_group(a, is_bf16, tp_group(a, is_bf16, in, t));
    for (int e = 0; e < a.d.ep; ++e) out[static_cast<size_t>(e) * 2 + t] = std::move(o[e]);
  }
  return out;
}

}  // namespace ascend::combine
