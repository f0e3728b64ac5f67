#include "kernels/ffn_op/ffn_op_host.h"

#include <cstring>
#include <random>

#include "kernels/common/host.h"
#include "kernels/ffn_op/ffn_op_kernel.h"

namespace ascend::ffn_op {

std::function<void()> program(const Tiling& t, bool bf16, const Device& d) {
  return [t, bf16, d] {
    AscendC::TPipe pipe;
    auto run = [&](auto kernel) {
      using common::gm_arg;
      kernel.Init(gm_arg(d.x), gm_arg(d.w1), gm_arg(d.b1), gm_arg(d.w2), gm_arg(d.b2),
                  gm_arg(d.expert_tokens), gm_arg(d.y), gm_arg(d.ws1), gm_arg(d.ws2), t, &pipe);
      if (t.antiquant)
        kernel.InitAntiquant(gm_arg(d.w1q), gm_arg(d.scale1), gm_arg(d.offset1), gm_arg(d.w2q),
                             gm_arg(d.scale2), gm_arg(d.offset2), gm_arg(d.ww1), gm_arg(d.ww2),
                             &pipe);
      kernel.Process();
    };
    if (t.quant) {
      auto quant = [&](auto kernel) {
        using common::gm_arg;
        kernel.Init(gm_arg(d.x), gm_arg(d.w1), gm_arg(d.b1), gm_arg(d.w2), gm_arg(d.b2),
                    gm_arg(d.expert_tokens), gm_arg(d.y), gm_arg(d.ws1), gm_arg(d.ws2),
                    gm_arg(d.deq_scale1), gm_arg(d.deq_scale2), gm_arg(d.scale), gm_arg(d.offset),
                    gm_arg(d.deq_ws), gm_arg(d.ws3), t, &pipe);
        kernel.Process();
      };
      if (t.quant_bf16) {
        quant(kernels::KernelFfnQuant<AscendC::bfloat16_t>{});
      } else {
        quant(kernels::KernelFfnQuant<AscendC::half>{});
      }
    } else if (bf16) {
      run(kernels::KernelFfn<AscendC::bfloat16_t, float>{});
    } else if (t.high_performance) {
      run(kernels::KernelFfn<AscendC::half, AscendC::half>{});
    } else {
      run(kernels::KernelFfn<AscendC::half, float>{});
    }
  };
}

Limits limits_of(const Params& p) {
  Limits lim;
  lim.l1 = static_cast<uint32_t>(p.integer("cube.l1_KiB") * 1024);
  lim.l0a = static_cast<uint32_t>(p.integer("cube.l0a_KiB") * 1024);
  lim.l0b = static_cast<uint32_t>(p.integer("cube.l0b_KiB") * 1024);
  lim.l0c = static_cast<uint32_t>(p.integer("cube.l0c_KiB") * 1024);
  lim.bt = static_cast<uint32_t>(p.integer("cube.bt_bytes"));
  lim.ub = static_cast<uint32_t>(p.integer("ub.size_KiB") * 1024);
  return lim;
}

Activation activation_of(const std::string& s) {
  if (s == "relu") return Activation::Relu;
  if (s == "gelu") return Activation::Gelu;
  if (s == "silu") return Activation::Silu;
  if (s == "swiglu") return Activation::Swiglu;
  if (s == "geglu") return Activation::Geglu;
  if (s == "reglu") return Activation::Reglu;
  return Activation::FastGelu;
}

Split split_of(const std::string& s) {
  if (s == "plain") return Split::Plain;
  if (s == "expert_parallel") return Split::ExpertParallel;
  return Split::Mixed;
}

namespace {
template <class T>
uint16_t antiquant_as(int8_t q, uint16_t scale, uint16_t offset) {
  namespace d = AscendC::detail;
  T w = AscendC::cast_to<T>(static_cast<double>(q), AscendC::RoundMode::CAST_NONE);
  w = d::add(w, T::from_bits(offset));
  w = d::mul(w, T::from_bits(scale));
  return w.bits;
}
}  // namespace

uint16_t antiquant_weight(int8_t q, uint16_t scale, uint16_t offset, bool bf16) {
  return bf16 ? antiquant_as<AscendC::bfloat16_t>(q, scale, offset)
              : antiquant_as<AscendC::half>(q, scale, offset);
}

uint64_t ws1_bytes(const Tiling& t) {
  return static_cast<uint64_t>(t.tokens) * t.n1 * (t.high_performance ? 2 : 4);
}
uint64_t ws2_bytes(const Tiling& t) {
  return static_cast<uint64_t>(t.tokens) * t.k2 * (t.quant ? 1 : 2);
}
uint64_t ws3_bytes(const Tiling& t) {
  return t.quant_bf16 ? static_cast<uint64_t>(t.tokens) * t.n2 * 4 : 0;
}
uint64_t deq_ws_bytes(const Tiling& t) {
  if (!t.quant || !t.deq_fp32) return 0;
  return static_cast<uint64_t>(t.experts) * (t.n1 + t.n2) * 8;
}

std::vector<uint16_t> random_matrix(uint64_t rows, uint64_t cols, double scale, bool bf16,
                                    uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-scale, scale);
  std::vector<uint16_t> v(rows * cols);
  for (uint16_t& x : v) {
    const double r = d(rng);
    x = bf16 ? AscendC::cast_to<AscendC::bfloat16_t>(r, AscendC::RoundMode::CAST_RINT).bits
             : AscendC::cast_to<AscendC::half>(r, AscendC::RoundMode::CAST_RINT).bits;
  }
  return v;
}

}  // namespace ascend::ffn_op
