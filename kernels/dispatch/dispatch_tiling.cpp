#include "kernels/dispatch/dispatch_tiling.h"

#include <algorithm>

#include "models/errors.h"

namespace ascend::dispatch {

namespace {
[[noreturn]] void limit(const std::string& what, long value, const std::string& allowed) {
  throw SimError(kExitBadInput, "dispatch: " + what + " = " + std::to_string(value) +
                                    " is outside the A3 limit: " + allowed);
}
}  // namespace

void validate(const Attrs& a) {
  if (a.ep < 2 || a.ep > 768) limit("EP size (--ep)", a.ep, "[2, 768]");
  if (a.hidden < 1024 || a.hidden > 8192) limit("hidden size (--hidden)", a.hidden, "[1024, 8192]");
  if (a.bs < 1 || a.bs > 512) limit("tokens per rank (--bs)", a.bs, "[1, 512]");
  if (a.topk < 1 || a.topk > 16) limit("top-K (--topk)", a.topk, "[1, 16]");
  if (a.experts < 1 || a.experts > 1024) limit("MoE experts (--experts)", a.experts, "[1, 1024]");
  if (a.shared_experts < 0 || a.shared_experts > 4)
    limit("shared experts (--shared-experts)", a.shared_experts, "[0, 4]");
  if (a.shared_expert_ranks < 0 || a.shared_expert_ranks >= a.ep)
    limit("shared-expert ranks (--shared-expert-ranks)", a.shared_expert_ranks, "[0, ep - 1]");
  // Without shared-expert ranks a rank may still count one shared expert (computed locally,
  // never dispatched); with them, every shared expert has its ranks.
  if (a.shared_expert_ranks == 0 && a.shared_experts > 1)
    limit("shared experts (--shared-experts)", a.shared_experts,
          "0 or 1 when --shared-expert-ranks is 0");
  if (a.shared_expert_ranks > 0 && a.shared_experts == 0)
    limit("shared-expert ranks (--shared-expert-ranks)", a.shared_expert_ranks,
          "0 when --shared-experts is 0");
  if (a.shared_experts > 0 && a.shared_expert_ranks % a.shared_experts != 0)
    limit("shared-expert ranks (--shared-expert-ranks)", a.shared_expert_ranks,
          "a multiple of --shared-experts");
  int moe_ranks = a.ep - a.shared_expert_ranks;
  if (a.experts % moe_ranks != 0)
    limit("MoE experts (--experts)", a.experts,
          "a multiple of the MoE ranks (ep - shared-expert ranks = " + std::to_string(moe_ranks) +
              ")");
  if (a.experts / moe_ranks * a.ep > 2048)
    limit("local experts x EP size", a.experts / moe_ranks * a.ep, "<= 2048");
  if (a.topk > a.experts) limit("top-K (--topk)", a.topk, "<= MoE experts");
  if (a.active_tokens > a.bs) limit("active tokens (--active-tokens)", a.active_tokens, "<= --bs");
  if (a.token_nums_type != 0 && a.token_nums_type != 1)
    limit("token nums type", a.token_nums_type, "0 or 1");
  send_splits().find(a.split);  // an unknown name: the registered ones
  if (a.shared_send_cores >= a.cores)
    limit("shared send cores", a.shared_send_cores, "below the cores per die");
  if (shared_send_cores(a) >= a.cores)
    limit("cores per die (die.aiv_count)", a.cores,
          "more than the shared-expert send cores (" + std::to_string(shared_send_cores(a)) +
              "), so that some core sends to MoE experts");
  validate_v3(a);
  if (a.tp != 1 && a.tp != 2) limit("tpWorldSize (--tp)", a.tp, "1 or 2");
  if (a.tp == 2 && a.experts != moe_ranks)
    throw SimError(kExitBadInput,
                   "dispatch: tp = 2 needs one MoE expert per MoE rank (L = 1, [OLD] "
                   "aclnnMoeDistributeDispatchV3.md); --experts " +
                       std::to_string(a.experts) + " over " + std::to_string(moe_ranks) +
                       " MoE ranks gives L = " + std::to_string(a.experts / moe_ranks) +
                       " (use --experts " + std::to_string(moe_ranks) + ")");
}

// The V3 inputs' limits ([V3-API], [OLD]). The simulator routes over every id,
// so each kind of special expert is capped at 1024 (the operator allows up to 2^31 - 1).
void validate_v3(const Attrs& a) {
  for (auto [what, n] :
       {std::pair<const char*, int>{"zero experts (--zero-experts)", a.zero_experts},
        {"copy experts (--copy-experts)", a.copy_experts},
        {"const experts (--const-experts)", a.const_experts}})
    if (n < 0 || n > 1024) limit(what, n, "[0, 1024] in the simulator (the operator: < 2^31)");
  if (a.mask_2d && a.active_tokens >= 0)
    limit("active tokens (--active-tokens)", a.active_tokens,
          "-1 with a 2-D mask (dispatch.mask = 2d): one mask, 1-D or 2-D");
  const bool token_split = send_splits().find(a.split)(a, 1, a.topk, 1, 0).whole_tokens;
  if (token_split && compacts(a))
    throw SimError(
        kExitBadInput,
        "dispatch: send_split = token (the fullmesh_v2 template) supports neither 2-D "
        "masks nor special experts ([V3-API]: fullmesh_v2 不支持 xActiveMask 和特殊专家)");
  if (a.smooth_scales && !a.quant)
    throw SimError(kExitBadInput,
                   "dispatch: smooth scales (--smooth-scales 1) scale the token before int8 "
                   "quantization; with --quant none they do nothing (the operator ignores them)");
  if (a.smooth_scales && (!a.quant_before_send || token_split))
    throw SimError(kExitBadInput,
                   "dispatch: smooth scales quantize each (token, expert) pair apart, so they need "
                   "the sender to quantize per entry (quant_before_send = 1, send_split entry or "
                   "rank)");
}

uint64_t align_up(uint64_t v, uint64_t a) {
  return (v + a - 1) / a * a;
}
bool is_shared_rank(const Attrs& a, int rank) {
  return rank < a.shared_expert_ranks;
}
int local_experts(const Attrs& a, int rank) {
  return is_shared_rank(a, rank) ? 1 : a.experts / (a.ep - a.shared_expert_ranks);
}
int active_tokens(const Attrs& a) {
  return a.active_tokens < 0 ? a.bs : a.active_tokens;
}
int special_experts(const Attrs& a) {
  return a.zero_experts + a.copy_experts + a.const_experts;
}

int experts0(const Attrs& a) {
  return a.experts0 > 0 ? a.experts0 : a.experts;
}

bool valid_expert_id(const Attrs& a, int id) {
  const int e0 = experts0(a);
  return (id >= 0 && id < a.experts) || (id >= e0 && id < e0 + special_experts(a));
}

std::string expert_id_ranges(const Attrs& a) {
  const int e0 = experts0(a), n = special_experts(a);
  if (e0 == a.experts || n == 0)
    return "[0, " + std::to_string(a.experts + (e0 == a.experts ? n : 0)) + ")";
  return "[0, " + std::to_string(a.experts) + ") or [" + std::to_string(e0) + ", " +
         std::to_string(e0 + n) + ") (the special experts follow E0 = " + std::to_string(e0) +
         ", the experts before the scale-down)";
}
bool compacts(const Attrs& a) {
  return a.mask_2d || special_experts(a) > 0;
}
uint64_t out_row_bytes(const Attrs& a) {
  return static_cast<uint64_t>(a.hidden) * (a.quant ? 1 : a.dtype_bytes);
}
bool int8_on_wire(const Attrs& a) {
  return a.quant && a.quant_before_send;
}
uint64_t data_bytes(const Attrs& a) {
  return align_up(static_cast<uint64_t>(a.hidden) * (int8_on_wire(a) ? 1 : a.dtype_bytes), 32);
}
// [NEW] carries the expert scale right after the triple; here it has a 32-B block of its own
// after the triple's, so that the receiver stores it with one aligned DMA (20 B more per record).
uint64_t tail_bytes(const Attrs& a) {
  return a.expert_scales ? 32 + 4 : 12;
}
uint64_t record_bytes(const Attrs& a) {
  return data_bytes(a) + 32 + tail_bytes(a);
}
uint64_t slot_bytes(const Attrs& a) {
  return align_up(record_bytes(a), 512);
}
uint64_t combine_area_bytes(const Attrs& a) {
  return static_cast<uint64_t>(a.bs) * (a.topk + a.shared_experts) * align_up(2ull * a.hidden, 512);
}
uint64_t window_needed(const Attrs& a) {
  uint64_t l = static_cast<uint64_t>(a.experts / (a.ep - a.shared_expert_ranks));
  uint64_t lmax = std::max<uint64_t>(l, 1);
  return 2 * (lmax * a.bs * a.ep * align_up(align_up(2ull * a.hidden, 32) + 64, 512) +
              combine_area_bytes(a));
}

// A shared rank receives BS rows from every sender of its residue class; the document's
// BS x W x shared / S rounds up here so that W need not be a multiple of S / shared.
int capacity_rows(const Attrs& a, int rank) {
  if (is_shared_rank(a, rank)) {
    int r = a.shared_expert_ranks / a.shared_experts;
    return a.bs * ((a.ep + r - 1) / r);
  }
  return a.bs * a.ep * std::min(local_experts(a, rank), a.topk);
}

uint64_t tp_combine_offset(const Attrs& a, int rank) {
  return static_cast<uint64_t>(capacity_rows(a, rank)) * slot_bytes(a);
}
uint64_t tp_window_needed(const Attrs& a) {
  uint64_t rows = 0;
  for (int r : {0, a.ep - 1}) rows = std::max<uint64_t>(rows, capacity_rows(a, r));
  return 2 * (rows * slot_bytes(a) + rows * align_up(2ull * a.hidden, 512));
}

namespace {

// entry (the real kernel): contiguous (token, k) entries, the first n mod c cores one more.
SendShare by_entry(const Attrs&, int, int64_t entries, int cores, int core) {
  auto [begin, end] = split_to_core(entries, cores, core);
  return {begin, end, 0, 0, false};
}

// rank: each core walks every entry and sends those to the ranks = core mod cores.
SendShare by_rank(const Attrs&, int, int64_t entries, int cores, int core) {
  return {0, entries, cores, core, false};
}

// token (the fullmesh_v2 template's token split): contiguous whole tokens; each is read and
// quantized once and its K records leave from the same UB buffer.
SendShare by_token(const Attrs& a, int tokens, int64_t, int cores, int core) {
  auto [begin, end] = split_to_core(tokens, cores, core);
  return {begin * a.topk, end * a.topk, 0, 0, true};
}

}  // namespace

const common::Strategies<SendSplit>& send_splits() {
  static const common::Strategies<SendSplit> splits(
      "dispatch.send_split", {{"entry", by_entry}, {"rank", by_rank}, {"token", by_token}});
  return splits;
}

std::vector<SendShare> send_plan(const Attrs& a, int tokens, int cores, int64_t entries) {
  const SendSplit split = send_splits().find(a.split);
  const int moe_cores = cores - shared_send_cores(a);
  if (entries < 0) entries = static_cast<int64_t>(tokens) * a.topk;
  std::vector<SendShare> shares(static_cast<size_t>(cores));
  for (int c = 0; c < moe_cores; ++c) shares[c] = split(a, tokens, entries, moe_cores, c);
  return shares;
}

int shared_send_cores(const Attrs& a) {
  if (a.shared_experts == 0 || a.shared_expert_ranks == 0) return 0;
  if (a.shared_send_cores >= 0) return std::max(1, a.shared_send_cores);
  return std::max(1, a.cores * a.shared_experts / (a.topk + a.shared_experts));
}

// Per core: the expert-id list, 64 status blocks, a small scratch (reductions, prefix sums), and
// per queue buffer a token (quantized sends only) and a record; quantization adds fp32, |x| and
// fp16 work rows. Records move through two queues (send, local copy).
UbPlan ub_plan(const Attrs& a) {
  UbPlan p{};
  p.ids = static_cast<uint32_t>(align_up(4ull * a.bs * a.topk, 32));
  p.status = 64 * 32;
  p.small = 4096;
  p.token = int8_on_wire(a) ? static_cast<uint32_t>(align_up(2ull * a.hidden, 32)) : 0;
  p.record = static_cast<uint32_t>(align_up(record_bytes(a), 32));
  p.f32 = a.quant ? static_cast<uint32_t>(4 * a.hidden) : 0;
  p.abs = p.f32;
  p.f16 = a.quant ? static_cast<uint32_t>(2 * a.hidden) : 0;
  const bool whole_tokens = send_splits().find(a.split)(a, 1, a.topk, 1, 0).whole_tokens;
  p.triples = whole_tokens ? static_cast<uint32_t>(2 * align_up(tail_bytes(a), 32) * a.topk)
                           : 0;  // a record's tail per k, 2 buffers
  p.count = std::min<uint32_t>(p.ids, kCountChunk * 4);
  const uint64_t entries = static_cast<uint64_t>(a.bs) * a.topk;
  p.index = compacts(a)
                ? static_cast<uint32_t>(align_up(4 * entries, 32) + align_up(4ull * a.bs, 32))
                : 0;
  p.mask = a.mask_2d ? static_cast<uint32_t>(align_up(entries, 32)) : 0;
  p.escales = a.expert_scales ? static_cast<uint32_t>(align_up(4 * entries, 32)) : 0;
  p.elastic =
      a.elastic_world ? static_cast<uint32_t>(align_up(4ull * (4 + 2 * a.elastic_world), 32)) : 0;
  p.tp_counts = a.tp == 2 ? static_cast<uint32_t>(
                                align_up(4ull * a.ep * std::max(1, local_experts(a, a.ep - 1)), 32))
                          : 0;
  return p;
}

uint64_t UbPlan::total(const Attrs& a, int buffer_num) const {
  uint64_t queues = static_cast<uint64_t>(buffer_num) * (token + record + (a.quant ? record : 0));
  return ids + status + small + queues + f32 + abs + f16 + triples + 2ull * count + index + mask +
         escales + elastic + tp_counts;
}

int effective_buffer_num(const Attrs& a, uint64_t ub_bytes) {
  uint64_t cap = std::min(ub_bytes, kMaxUbBytes);
  if (a.buffer_num == 2 && ub_plan(a).total(a, 2) > cap) return 1;
  return a.buffer_num;
}

}  // namespace ascend::dispatch
