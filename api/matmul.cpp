#include "api/matmul.h"

#include <algorithm>
#include <iostream>
#include <set>
#include <string>

#include "api/runtime.h"

namespace AscendC::detail {

void matmul_fault(const std::string& what) {
  fault("Matmul: " + what);
}

void note_once(const char* what) {
  static std::set<std::string> said;
  if (said.insert(what).second) std::cerr << what << "\n";
}

KfcChannel& kfc_channel(m::Core& aic) {
  std::shared_ptr<KfcChannel>& ch = Runtime::active().state_of(aic).kfc;
  if (!ch) {
    ch = std::make_shared<KfcChannel>();
    ch->answers.resize(aic.cross_peers(2).size());
  }
  return *ch;
}

// A cube-only launch (a __cube__ kernel, AIC_MODE) has no AIVs: its AIC runs the calls itself.
bool kfc_mode(bool dual_master) {
  return !dual_master && !core().cross_peers(2).empty();
}

namespace {
m::Core& aic_of(m::Core& aiv) {
  if (aiv.core_kind() != m::CoreKind::Aiv || aiv.cross_peers(2).empty())
    fault("Matmul: an AIV-driven call outside a mixed launch");
  return *aiv.cross_peers(2)[0];
}
// The scalar reads or writes a message in GM.
void message_gm_access(m::Core& c) {
  c.scalar_work(c.timing().scalar_gm_latency_cycles);
}
}  // namespace

void kfc_send(KfcMessage msg) {
  m::Core& c = core();
  m::Core& aic = aic_of(c);
  KfcChannel& ch = kfc_channel(aic);
  message_gm_access(c);
  msg.sub = c.sub_block_idx();
  msg.arrival = c.scalar_now() + c.timing().clock.cycles(c.timing().crosscore_flag_cycles);
  ch.requests.push_back(std::move(msg));
  c.scalar_cross_set(aic, m::Core::kKfcRequest);
}

int64_t kfc_answer() {
  m::Core& c = core();
  KfcChannel& ch = kfc_channel(aic_of(c));
  c.cross_wait_flag(m::Core::kKfcReply, 1, "Matmul: waiting for its AIC's answer");
  message_gm_access(c);
  std::vector<int64_t>& q = ch.answers[c.sub_block_idx()];
  if (q.empty()) throw ascend::SimError(ascend::kExitInternal, "a KFC answer without its value");
  const int64_t v = q.front();
  q.erase(q.begin());
  return v;
}

void kfc_wait_block() {
  core().cross_wait_flag(m::Core::kKfcBlock, 1,
                         "Matmul: GetTensorC<false> waiting for its AIC's next block of C");
}

KfcMessage kfc_receive() {
  m::Core& c = core();
  KfcChannel& ch = kfc_channel(c);
  c.cross_wait_flag(m::Core::kKfcRequest, 1, "Matmul server: waiting for its AIVs' calls");
  // The flag counts the messages that have arrived: the earliest sent is one of them (its
  // sender's thread posted it before its flag could rise), ties in AIV order.
  auto first = std::min_element(
      ch.requests.begin(), ch.requests.end(), [](const KfcMessage& a, const KfcMessage& b) {
        return a.arrival != b.arrival ? a.arrival < b.arrival : a.sub < b.sub;
      });
  if (first == ch.requests.end())
    throw ascend::SimError(ascend::kExitInternal, "a KFC request flag without its message");
  KfcMessage msg = std::move(*first);
  ch.requests.erase(first);
  message_gm_access(c);
  return msg;
}

void kfc_answer_to(int sub, int64_t value) {
  m::Core& c = core();
  KfcChannel& ch = kfc_channel(c);
  message_gm_access(c);
  ch.answers[sub].push_back(value);
  c.scalar_cross_set(*c.cross_peers(2)[sub], m::Core::kKfcReply);
}

void kfc_block_written(int sub, pipe_t pipe) {
  kfc_pipe_set(pipe, sub, m::Core::kKfcBlock);
}

void kfc_reserve_staging(uint64_t slot) {
  m::Core& c = core();
  KfcChannel& ch = kfc_channel(c);
  slot = (slot + 511) / 512 * 512;
  if (ch.staging_slot >= slot) return;
  ch.staging = Runtime::active().kfc_staging(c, slot * c.cross_peers(2).size());
  ch.staging_slot = slot;
}

}  // namespace AscendC::detail
namespace matmul_tiling {

namespace {
int up16(int v) {
  return (v + 15) / 16 * 16;
}
int down16(int v) {
  return v / 16 * 16;
}
int up_to(int v, int a) {
  return (v + a - 1) / a * a;
}
int down_to(int v, int a) {
  return v / a * a;
}
}  // namespace

// The single-core split of [FFN-NOTE] section 3.1, as ops-transformer's FFN tiling computes it:
// baseN 256; baseK fills half of L0B (double buffer); baseM the smaller of half of L0A and what
// L0C holds (fp16: 128 / 64 / 256; int8: 128 / 128 / 256, its fractal 32 deep in k), each no
// larger than the shape needs; K chunks of stepK * baseK in L1, double-buffered, with stepK at most
// 4. int8: baseK a multiple of 32 (C0) and baseN of 32 (B's transposing load takes 32 x 32
// squares).
int64_t MatmulApiTiling::GetTiling(AscendC::TCubeTiling& t) {
  error_.clear();
  auto fail = [this](const std::string& why) {
    error_ = why;
    return int64_t{-1};
  };
  if (m_ <= 0 || n_ <= 0 || k_ <= 0) return fail("SetShape with a zero or negative dimension");
  if (a_ != b_ ||
      (a_ != DataType::DT_FLOAT16 && a_ != DataType::DT_BF16 && a_ != DataType::DT_INT8))
    return fail("A and B must both be fp16, both bf16 or both int8");
  const bool int8 = a_ == DataType::DT_INT8;
  if (int8 && (trans_a_ || trans_b_)) return fail("a transposed int8 A or B is not modelled");
  if (int8 && c_ != DataType::DT_FLOAT16 && c_ != DataType::DT_INT32)
    return fail("an int8 Matmul writes int32 or fp16 (dequantized) C");
  if (int8 && bias_ && bias_type_ != DataType::DT_INT32)
    return fail("an int8 Matmul's bias is int32");
  const int sa = static_cast<int>(size_of(a_));
  const int c0 = 32 / sa, n_align = int8 ? 32 : 16;
  int base_n = fix_n_ > 0 ? fix_n_ : std::min(256, up_to(n_, n_align));
  int base_k = fix_k_ > 0 ? fix_k_
                          : std::min(up_to(k_, c0),
                                     down_to(static_cast<int>(lim_.l0b / 2) / (base_n * sa), c0));
  // A fixed baseM bounds baseK by half of L0A too (the free baseM is fitted to baseK below).
  if (fix_k_ <= 0 && fix_m_ > 0)
    base_k = std::min(base_k, down_to(static_cast<int>(lim_.l0a / 2) / (fix_m_ * sa), c0));
  if (base_k <= 0) return fail("baseN " + std::to_string(base_n) + " leaves no baseK in L0B");
  int base_m = fix_m_ > 0
                   ? fix_m_
                   : std::min({up16(m_), down16(static_cast<int>(lim_.l0a / 2) / (base_k * sa)),
                               down16(static_cast<int>(lim_.l0c) / (base_n * 4))});
  if (base_m % 16 || base_n % n_align || base_k % c0 || base_m <= 0)
    return fail("baseM must be a positive multiple of 16, baseN of " + std::to_string(n_align) +
                " and baseK of " + std::to_string(c0) + " (" + std::to_string(base_m) + "/" +
                std::to_string(base_n) + "/" + std::to_string(base_k) + ")");
  const int db = 2;
  if (uint64_t(base_m) * base_k * sa * db > lim_.l0a)
    return fail("baseM x baseK x " + std::to_string(sa) +
                " B x 2 (double buffer) = " + std::to_string(base_m * base_k * sa * db) +
                " B exceeds L0A (" + std::to_string(lim_.l0a) + " B)");
  if (uint64_t(base_n) * base_k * sa * db > lim_.l0b)
    return fail("baseK x baseN x " + std::to_string(sa) +
                " B x 2 (double buffer) = " + std::to_string(base_n * base_k * sa * db) +
                " B exceeds L0B (" + std::to_string(lim_.l0b) + " B)");
  if (uint64_t(base_m) * base_n * 4 > lim_.l0c)
    return fail("baseM x baseN x 4 B = " + std::to_string(base_m * base_n * 4) +
                " B exceeds L0C (" + std::to_string(lim_.l0c) + " B)");
  if (bias_ && uint64_t(base_n) * 4 > lim_.bt)
    return fail("baseN x 4 B of bias exceeds the BiasTable (" + std::to_string(lim_.bt) + " B)");
  const uint64_t bias_l1 = bias_ ? uint64_t(base_n) * size_of(bias_type_) : 0;
  const int k_steps = (k_ + base_k - 1) / base_k;
  const uint64_t per_step = 2ull * (base_m + base_n) * base_k * sa;  // A and B, double-buffered
  int step = static_cast<int>(
      std::min<uint64_t>({4, static_cast<uint64_t>(k_steps), (lim_.l1 - bias_l1) / per_step}));
  if (step < 1) return fail("one baseK step of A and B does not fit L1 twice");
  t = AscendC::TCubeTiling{};
  t.usedCoreNum = cores_;
  t.M = org_m_ > 0 ? org_m_ : m_;
  t.N = org_n_ > 0 ? org_n_ : n_;
  t.Ka = t.Kb = org_k_ > 0 ? org_k_ : k_;
  t.singleCoreM = m_;
  t.singleCoreN = n_;
  t.singleCoreK = k_;
  t.baseM = base_m;
  t.baseN = base_n;
  t.baseK = base_k;
  t.stepKa = t.stepKb = step;
  t.depthA1 = t.depthB1 = 2 * step;
  t.isBias = bias_ ? 1 : 0;
  t.iterateOrder = order_;
  t.dbL0A = t.dbL0B = 2;
  t.dbL0C = 1;
  t.ALayoutInfoB = a_layout_.b;
  t.ALayoutInfoS = a_layout_.s;
  t.ALayoutInfoN = a_layout_.n;
  t.ALayoutInfoG = a_layout_.g;
  t.ALayoutInfoD = a_layout_.d;
  t.BLayoutInfoB = b_layout_.b;
  t.BLayoutInfoS = b_layout_.s;
  t.BLayoutInfoN = b_layout_.n;
  t.BLayoutInfoG = b_layout_.g;
  t.BLayoutInfoD = b_layout_.d;
  t.CLayoutInfoB = c_layout_.b;
  t.CLayoutInfoS1 = c_layout_.s;
  t.CLayoutInfoN = c_layout_.n;
  t.CLayoutInfoG = c_layout_.g;
  t.CLayoutInfoS2 = c_layout_.d;
  t.BatchNum = batch_num_;
  got_m_ = m_;
  got_n_ = n_;
  got_k_ = k_;
  return 0;
}

int64_t MatmulApiTiling::GetMultiCoreTiling(AscendC::TCubeTiling& t) {
  // SetShape's -1 dimensions are SetOrgShape's (for this call).
  struct Restore {
    MatmulApiTiling& self;
    int m, n, k;
    ~Restore() {
      self.m_ = m;
      self.n_ = n;
      self.k_ = k;
    }
  } restore{*this, m_, n_, k_};
  if (m_ < 0) m_ = org_m_;
  if (n_ < 0) n_ = org_n_;
  if (k_ < 0) k_ = org_k_;
  if (single_m_ > 0 || single_n_ > 0 || single_k_ > 0) return GetFixedSplitTiling(t);
  if (m_ <= 0 || n_ <= 0 || k_ <= 0) {
    error_ = "SetShape with a zero or negative dimension";
    return -1;
  }
  if (cores_ < 1) {
    error_ = "SetDim with fewer than one core";
    return -1;
  }
  // Each core's block is a whole number of alignment units (16 rows or columns, or the fixed
  // base block), and the cores split M and N into equal blocks: dm divides M's units and dn N's,
  // so only the shape's own edge is a tail (kernels size per-core workspace slots by the block).
  // Of those splits, in order: the smallest block; the block that loads the least A and B per
  // base block of C (the highest compute intensity, with the fixed base block or 128 x 256); the
  // split whose cores' base blocks span the least (dm x baseM + dn x baseN); more cores along N.
  const int align_m = fix_m_ > 0 ? fix_m_ : 16, align_n = fix_n_ > 0 ? fix_n_ : 16;
  const uint64_t base_m = fix_m_ > 0 ? fix_m_ : 128, base_n = fix_n_ > 0 ? fix_n_ : 256;
  const int units_m = (m_ + align_m - 1) / align_m, units_n = (n_ + align_n - 1) / align_n;
  struct Split {
    uint64_t area, loads, span;
    int dn;
    bool better_than(const Split& o) const {
      if (area != o.area) return area < o.area;
      if (loads != o.loads) return loads < o.loads;
      if (span != o.span) return span < o.span;
      return dn > o.dn;
    }
  };
  Split best{~uint64_t{0}, 0, 0, 0};
  int best_m = m_, best_n = n_, best_used = 1;
  for (int dm = 1; dm <= std::min(cores_, units_m); ++dm) {
    if (units_m % dm) continue;
    for (int dn = 1; dm * dn <= cores_ && dn <= units_n; ++dn) {
      if (units_n % dn) continue;
      const uint64_t sm = uint64_t(std::min(m_, units_m / dm * align_m));
      const uint64_t sn = uint64_t(std::min(n_, units_n / dn * align_n));
      // Equal areas: the intensity sm x sn / (A rows loaded + B columns loaded) is highest where
      // the loads are least; A is read once per base column of C, B once per base row.
      const uint64_t loads = (sn + base_n - 1) / base_n * sm + (sm + base_m - 1) / base_m * sn;
      const Split s{sm * sn, loads, uint64_t(dm) * base_m + uint64_t(dn) * base_n, dn};
      if (s.better_than(best)) {
        best = s;
        best_m = int(sm);
        best_n = int(sn);
        best_used = dm * dn;
      }
    }
  }
  if (split_k_) {
    // K over the cores the M x N split leaves: the most equal parts that divide K into whole
    // C0 columns of A (a core's K is never a tail: the kernel offsets A and B by its index).
    const int c0 = 32 / static_cast<int>(size_of(a_));
    int parts = 1;
    for (int p = 2; p * best_used <= cores_; ++p)
      if (k_ % p == 0 && (k_ / p) % c0 == 0) parts = p;
    if (parts > 1) return GetBlockTiling(t, best_m, best_n, best_used * parts, k_ / parts);
  }
  return GetBlockTiling(t, best_m, best_n, best_used);
}

// The single-core tiling of one sm x sn block of the whole shape (SetShape's becomes the original
// shape where SetOrgShape gave none), on `used` cores; `sk` (> 0) of K each (K split).
int64_t MatmulApiTiling::GetBlockTiling(AscendC::TCubeTiling& t, int sm, int sn, int used, int sk) {
  const int m = m_, n = n_, k = k_, om = org_m_, on = org_n_, ok = org_k_;
  org_m_ = om > 0 ? om : m;
  org_n_ = on > 0 ? on : n;
  org_k_ = ok > 0 ? ok : k;
  m_ = sm;
  n_ = sn;
  if (sk > 0) k_ = sk;
  const int64_t r = GetTiling(t);
  m_ = m;
  n_ = n;
  k_ = k;
  org_m_ = om;
  org_n_ = on;
  org_k_ = ok;
  if (r == 0) t.usedCoreNum = used;
  return r;
}

}  // namespace matmul_tiling

namespace matmul_tiling {

// SetSingleShape's split: each core one singleM x singleN block of C over all of K; the cores
// cover the shape.
int64_t MatmulApiTiling::GetFixedSplitTiling(AscendC::TCubeTiling& t) {
  if (m_ <= 0 || n_ <= 0 || k_ <= 0) {
    error_ = "SetShape with a zero or negative dimension";
    return -1;
  }
  const int sm = single_m_ > 0 ? single_m_ : m_, sn = single_n_ > 0 ? single_n_ : n_,
            sk = single_k_ > 0 ? single_k_ : k_;
  if (sk < k_ && !split_k_) {
    error_ = "SetSingleShape with singleK below K needs EnableMultiCoreSplitK";
    return -1;
  }
  const int used = ((m_ + sm - 1) / sm) * ((n_ + sn - 1) / sn) * ((k_ + sk - 1) / sk);
  if (used > cores_) {
    error_ = "SetSingleShape: " + std::to_string(used) + " blocks for SetDim's " +
             std::to_string(cores_) + " cores";
    return -1;
  }
  return GetBlockTiling(t, sm, sn, used, sk);
}

}  // namespace matmul_tiling
