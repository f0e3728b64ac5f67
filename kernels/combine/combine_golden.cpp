#include "kernels/combine/combine_golden.h"

#include <cmath>
#include <string>

#include "models/errors.h"
#include "sim/api/numeric.h"

namespace ascend::combine {

using AscendC::RoundMode;

namespace {
float widen(uint16_t bits, bool is_bf16) {
  return is_bf16 ? AscendC::to_float(AscendC::bfloat16_t{bits})
                 : AscendC::to_float(AscendC::half{bits});
}
uint16_t narrow(float v, bool is_bf16) {
  return is_bf16 ? AscendC::to_bf16(v, RoundMode::CAST_RINT).bits
                 : AscendC::to_half(v, RoundMode::CAST_RINT).bits;
}
[[noreturn]] void bad(const std::string& what) {
  throw SimError(kExitBadInput, "combine inputs: " + what);
}
}  // namespace

std::vector<std::vector<Origin>> locate(const Attrs& a, const std::vector<RankInputs>& in) {
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
      Origin& o = where[src][static_cast<size_t>(t) * slots + k];
      if (o.rank >= 0)
        bad(at + " duplicates rank " + std::to_string(o.rank) + ", row " + std::to_string(o.row));
      o = {r, i};
    }
  }
  for (int r = 0; r < w; ++r)
    for (size_t i = 0; i < where[r].size(); ++i)
      if (where[r][i].rank < 0)
        bad("token " + std::to_string(i / slots) + " of rank " + std::to_string(r) + ", slot " +
            std::to_string(i % slots) + " is computed by no rank (no triple names it)");
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

std::vector<std::vector<uint16_t>> golden(const Attrs& a, bool is_bf16,
                                          const std::vector<RankInputs>& in) {
  const int w = a.d.ep, h = a.d.hidden, k_top = a.d.topk, slots = slots_per_token(a.d);
  std::vector<std::vector<Origin>> where = locate(a, in);
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
    for (int t = 0; t < n; ++t) {
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int k = 0; k < slots; ++k) {
        const uint16_t* v = received(where[r][static_cast<size_t>(t) * slots + k]);
        if (k < k_top) {
          float wt = in[r].expert_scales[static_cast<size_t>(t) * k_top + k];
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

}  // namespace ascend::combine
