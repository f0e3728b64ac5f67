// A kernel file that defines ASCENDC_CUBE_ONLY calls the Matmul on the AIC in a mixed launch too:
// REGIST_MATMUL_OBJ does not make the AIC a server of its AIVs, so the AIC runs the Matmul itself
// and releases its AIVs with a cross-core flag, after which they read C. Without the define the
// AIC would wait for its AIVs' messages that never come.
#define ASCENDC_CUBE_ONLY
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "api/kernel_operator.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

namespace {

using namespace AscendC;
using ascend::LaunchShape;
using ascend::RunOptions;
using ascend::test::Bench;
using ascend::test::global;

constexpr int M = 32, N = 32, K = 64;

TEST(MatmulCubeOnly, TheAicRunsTheMatmulItselfInAMixedLaunch) {
  RunOptions o;
  o.aic = true;
  Bench b({}, 1, o);
  std::vector<half> a(size_t(M) * K), w(size_t(K) * N);
  for (size_t i = 0; i < a.size(); ++i) a[i] = half(static_cast<float>(int(i % 7) - 3) / 2.0f);
  for (size_t i = 0; i < w.size(); ++i) w[i] = half(static_cast<float>(int(i % 5) - 2) / 4.0f);
  const uint64_t ga = b.alloc(a.size() * 2), gb = b.alloc(w.size() * 2),
                 gc = b.alloc(size_t(M) * N * 4), gd = b.alloc(size_t(M) * N * 4);
  b.sim().write(ga, a.data(), a.size() * 2);
  b.sim().write(gb, w.data(), w.size() * 2);
  matmul_tiling::MatmulApiTiling api = ascend::test::fp16_matmul_tiling();
  api.SetShape(M, N, K);
  api.SetOrgShape(M, N, K);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0) << api.error();
  using AT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  b.run(LaunchShape::mixed(1, 2), [&] {
    TPipe pipe;
    if ASCEND_IS_AIC {
      Matmul<AT, AT, CT> mm;
      REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
      mm.SetTensorA(global<half>(ga, a.size()));
      mm.SetTensorB(global<half>(gb, w.size()));
      mm.IterateAll(global<float>(gc, size_t(M) * N));
      mm.End();
      CrossCoreSetFlag<2, PIPE_FIX>(3);
    }
    if ASCEND_IS_AIV {
      // Each AIV copies its half of C's rows to D once the AIC has written C.
      CrossCoreWaitFlag(3);
      const uint32_t half_elems = M / 2 * N, at = GetSubBlockIdx() * half_elems;
      TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
      pipe.InitBuffer(q, 1, half_elems * 4);
      LocalTensor<float> x = q.AllocTensor<float>();
      DataCopy(x, global<float>(gc, size_t(M) * N)[at], half_elems);
      q.EnQue(x);
      x = q.DeQue<float>();
      DataCopy(global<float>(gd, size_t(M) * N)[at], x, half_elems);
      q.FreeTensor(x);
    }
  });
  std::vector<float> d(size_t(M) * N);
  b.sim().read(gd, d.data(), d.size() * 4);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += static_cast<float>(a[size_t(i) * K + k]) * static_cast<float>(w[size_t(k) * N + j]);
      ASSERT_EQ(d[size_t(i) * N + j], acc) << "row " << i << " column " << j;
    }
}

}  // namespace
