// Kernel-side shorthands for tests: a GM tensor over an allocation, a UB tensor in its own TBuf,
// and a SetFlag/WaitFlag pair that orders one pipe after another.
#pragma once

#include <random>
#include <vector>

#include "api/kernel_operator.h"
#include "api/numeric.h"

namespace ascend::test {

// `n` floats drawn uniformly from [lo, hi) by a seeded generator (the same on every machine).
inline std::vector<float> uniform(size_t n, float lo, float hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(gen);
  return v;
}

template <class T>
AscendC::GlobalTensor<T> global(uint64_t addr, uint64_t count) {
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(reinterpret_cast<GM_ADDR>(addr)), count);
  return g;
}

// A tensor of exactly `count` elements at position P (UB, L1, L0A/B/C...), in its own TBuf of
// `pipe`.
template <class T, AscendC::TPosition P>
AscendC::LocalTensor<T> local(AscendC::TPipe& pipe, uint32_t count) {
  AscendC::TBuf<P> buf;
  pipe.InitBuffer(buf, count * sizeof(T));
  return buf.template Get<T>(count);
}

// A UB tensor of exactly `count` elements, in its own TBuf of `pipe`.
template <class T>
AscendC::LocalTensor<T> ub_tensor(AscendC::TPipe& pipe, uint32_t count) {
  return local<T, AscendC::TPosition::VECCALC>(pipe, count);
}

// Orders pipe SRC before pipe DST (with DST = S, the scalar waits until SRC has completed).
template <AscendC::HardEvent E>
void Order() {
  AscendC::SetFlag<E>(0);
  AscendC::WaitFlag<E>(0);
}

// The host tiling of a Matmul of fp16 A and B into fp32 C, all ND in GM (the tests' usual case),
// for the caller to give its shape and split.
inline matmul_tiling::MatmulApiTiling fp16_matmul_tiling() {
  matmul_tiling::MatmulApiTiling api;
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT16);
  api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT);
  return api;
}

// bf16 bits as a float, and a float rounded (RINT) to bf16 bits.
inline float bf(uint16_t bits) {
  return AscendC::to_float(AscendC::bfloat16_t::from_bits(bits));
}
inline uint16_t to_bf(float v) {
  return AscendC::to_bf16(v, AscendC::RoundMode::CAST_RINT).bits;
}

}  // namespace ascend::test
