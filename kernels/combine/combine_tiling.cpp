#include "kernels/combine/combine_tiling.h"

#include <algorithm>
#include <vector>

#include "models/errors.h"

namespace ascend::combine {

namespace {

// in_order ([OLD]): wait for each token in turn.
void in_order(int64_t begin, int64_t end, const ReceiveOps& ops) {
  for (int64_t t = begin; t < end; ++t) {
    ops.wait(static_cast<int>(t));
    ops.combine(static_cast<int>(t));
  }
}

// ready_first ([NEW]): poll the unfinished tokens round-robin, combine whichever is ready.
void ready_first(int64_t begin, int64_t end, const ReceiveOps& ops) {
  std::vector<int> pending;
  for (int64_t t = begin; t < end; ++t) pending.push_back(static_cast<int>(t));
  while (!pending.empty()) {
    std::vector<int> left;
    for (int t : pending) {
      if (ops.ready(t)) {
        ops.combine(t);
      } else {
        left.push_back(t);
      }
    }
    pending.swap(left);
  }
}

}  // namespace

const common::Strategies<Receiver>& receivers() {
  static const common::Strategies<Receiver> r(
      "combine.receiver", {{"in_order", in_order}, {"ready_first", ready_first}});
  return r;
}

void validate(const Attrs& a) {
  dispatch::validate(a.d);
  if (a.shared_expert_x && a.d.shared_expert_ranks > 0)
    throw SimError(kExitBadInput,
                   "combine: shared_expert_x is allowed only without shared-expert ranks "
                   "(--shared-expert-ranks 0), as the operator document says");
  receivers().find(a.receiver);  // an unknown name: the registered ones
  if (a.d.tp == 2 && a.comm_quant)
    throw SimError(kExitBadInput,
                   "combine: communication quantization (--comm-quant int8, commQuantMode 2) is "
                   "tp < 2 only ([OLD]); with dispatch.tp = 2 use --comm-quant none");
  if (a.rows_per_barrier < 1 || a.rows_per_barrier > 64)
    throw SimError(kExitBadInput, "combine.rows_per_barrier = " +
                                      std::to_string(a.rows_per_barrier) + " is outside [1, 64]");
  if (flags_bytes(a) + kFlagBase > dispatch::kStatusHalf)
    throw SimError(kExitBadInput, "combine: the flags of BS x (K + shared) slots need " +
                                      std::to_string(flags_bytes(a)) +
                                      " B, more than a status half holds after +64 KB");
}

int shared_slots(const dispatch::Attrs& d) {
  return d.shared_expert_ranks > 0 ? d.shared_experts : 0;
}
int slots_per_token(const dispatch::Attrs& d) {
  return d.topk + shared_slots(d);
}
uint64_t slot_bytes(const Attrs& a) {
  return align_up(2ull * a.d.hidden, 512);
}
uint64_t quant_scale_offset(const Attrs& a) {
  return align_up(static_cast<uint64_t>(a.d.hidden), 32);
}
uint64_t wire_bytes(const Attrs& a) {
  if (!a.comm_quant) return 2ull * a.d.hidden;
  return quant_scale_offset(a) + 2 * align_up(static_cast<uint64_t>(a.d.hidden), 16) / 8;
}
uint64_t flags_bytes(const Attrs& a) {
  return static_cast<uint64_t>(a.d.bs) * slots_per_token(a.d) * 32;
}

// Per core: a row queue (a slot or an expandX row coming in), an out queue (a record or an xOut
// row going out), a bound queue (unquantized sends: a row in and straight out), the fp32
// accumulator and a fp32 term, and for communication quantization a fp32 broadcast of the block
// scales and a fp16 row; a small scratch holds flags, weights, triples and block maxima.
UbPlan ub_plan(const Attrs& a) {
  uint32_t h = static_cast<uint32_t>(a.d.hidden);
  UbPlan p{};
  p.row = static_cast<uint32_t>(align_up(std::max<uint64_t>(2ull * h, wire_bytes(a)), 32));
  p.out = p.row;
  // Unquantized sends pass rows straight through; with tp = 2 a row comes in with the TP peer's
  // partial row (one buffer of two rows), is added on VECTOR and leaves from the out queue.
  p.bind = a.comm_quant || a.d.tp == 2 ? 0 : p.row;
  if (a.d.tp == 2) p.row *= 2;
  p.acc = 4 * h;
  p.tmp = static_cast<uint32_t>(4 * align_up(h, 16));  // zero-padded to whole pairs of blocks
  p.bcast = a.comm_quant ? static_cast<uint32_t>(4 * align_up(h, 64)) : 0;  // whole repeats
  p.h16 = a.comm_quant ? 2 * h : 0;
  p.small = 10 * 1024;
  p.aux = a.d.const_experts ? 4 * h : 0;
  p.elastic = a.d.elastic_world
                  ? static_cast<uint32_t>(align_up(4ull * (4 + 2 * a.d.elastic_world), 32))
                  : 0;
  return p;
}
uint64_t UbPlan::total(int buffer_num) const {
  return static_cast<uint64_t>(buffer_num) * (row + out + bind) + acc + tmp + bcast + h16 + small +
         aux + elastic;
}
bool per_token_slots(const Attrs& a) {
  return dispatch::compacts(a.d);
}
int effective_buffer_num(const Attrs& a, uint64_t ub_bytes) {
  uint64_t cap = std::min<uint64_t>(ub_bytes, dispatch::kMaxUbBytes);
  if (a.buffer_num == 2 && ub_plan(a).total(2) > cap) return 1;
  return a.buffer_num;
}

}  // namespace ascend::combine
