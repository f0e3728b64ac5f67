// fp32 and int4 on the cube and in Cast: fp32 Mmad against a float reference (A by LoadData 2D or
// the transposing image-to-column load with kDirectionAlign, B by the b32 load into L0B), a b32
// image-to-column convolution against a direct unrolling, int4b_t packing, Cast to and from it in
// each rounding mode, the int4 Mmad, and the fp32/int4 Mmad cost rules to the cycle.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
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
using ascend::test::Order;
namespace m = ascend::model;

using ascend::test::local;
using ascend::test::with_aic;

uint32_t align(uint32_t v, uint32_t a) {
  return (v + a - 1) / a * a;
}

std::vector<float> random_float(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-2, 2);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

// C[i][j] = sum over k of A(i, k) * B(k, j) in fp32, ascending k, each product rounded to fp32 and
// then added (the rule api/cube.h states for fp32 operands).
template <class FA, class FB>
std::vector<float> reference(int M, int K, int N, FA a, FB b) {
  std::vector<float> c(size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k) {
        const float p = a(i, k) * b(k, j);
        acc = acc + p;
      }
      c[size_t(i) * N + j] = acc;
    }
  return c;
}

int mismatches(const std::vector<float>& got, const std::vector<float>& want) {
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i) bad += std::memcmp(&got[i], &want[i], sizeof(float)) != 0;
  return bad;
}

// B (K x N, ND in GM) into L0B as Mmad reads it: ND -> NZ in L1 (8-column blocks of K rows padded
// to 16), then the b32 image-to-column load of the 1 x K' map of N channels, which writes L0B
// transposed (as the vendor's batch_matmul example does).
void b_by_load3d(const GlobalTensor<float>& gb, const LocalTensor<float>& b1,
                 const LocalTensor<float>& b2, int K, int N) {
  Nd2NzParams pb;
  pb.nValue = K;
  pb.dValue = N;
  pb.srcDValue = N;
  pb.dstNzC0Stride = align(K, 16);
  DataCopy(b1, gb, pb);
  Order<HardEvent::MTE2_MTE1>();
  LoadData3DParamsV2<float> l;
  l.l1H = align(K, 16);
  l.l1W = 1;
  l.channelSize = align(N, 8);
  l.kExtension = align(N, 8);
  l.mExtension = align(K, 16);
  l.enTranspose = true;
  LoadData(b2, b1, l);
}

// fp32: A by LoadData 2D (its NZ fractals as they are), B by the b32 load into L0B; Mmad gives
// the float reference's bits.
TEST(CubeFp32, MmadOfLoad2dAAndLoad3dBGivesTheFloatSum) {
  auto r = ascend::test::in_child([] {
    Bench b({}, 1, with_aic());
    const int M = 30, K = 40, N = 70;
    const uint32_t mp = align(M, 16), kp = align(K, 8), np = align(N, 16);
    std::vector<float> a = random_float(size_t(M) * K, 1), bm = random_float(size_t(K) * N, 2);
    uint64_t ga = b.alloc(a.size() * 4), gb = b.alloc(bm.size() * 4), gc = b.alloc(M * N * 4);
    b.sim().write(ga, a.data(), a.size() * 4);
    b.sim().write(gb, bm.data(), bm.size() * 4);
    b.run(LaunchShape::mixed(1, 0), [&] {
      TPipe pipe;
      LocalTensor<float> a1 = local<float, TPosition::A1>(pipe, mp * kp);
      LocalTensor<float> b1 = local<float, TPosition::B1>(pipe, align(K, 16) * align(N, 8));
      LocalTensor<float> a2 = local<float, TPosition::A2>(pipe, mp * kp);
      LocalTensor<float> b2 = local<float, TPosition::B2>(pipe, align(K, 16) * np);
      LocalTensor<float> c1 = local<float, TPosition::CO1>(pipe, mp * np);
      Nd2NzParams pa;
      pa.nValue = M;
      pa.dValue = K;
      pa.srcDValue = K;
      pa.dstNzC0Stride = mp;
      DataCopy(a1, global<float>(ga, a.size()), pa);
      b_by_load3d(global<float>(gb, bm.size()), b1, b2, K, N);
      for (uint32_t i = 0; i < mp / 16; ++i) {
        LoadData2DParams l;
        l.repeatTimes = kp / 8;
        l.srcStride = mp / 16;
        LoadData(a2[i * kp * 16], a1[i * 128], l);
      }
      Order<HardEvent::MTE1_M>();
      MmadParams mm;
      mm.m = M;
      mm.n = N;
      mm.k = K;
      Mmad(c1, a2, b2, mm);
      Order<HardEvent::M_FIX>();
      FixpipeParamsV220 f(N, M, mp, N, false);
      Fixpipe(global<float>(gc, M * N), c1, f);
    });
    std::vector<float> got(size_t(M) * N);
    b.sim().read(gc, got.data(), got.size() * 4);
    auto want = reference(
        M, K, N, [&](int i, int k) { return a[size_t(i) * K + k]; },
        [&](int k, int j) { return bm[size_t(k) * N + j]; });
    return nlohmann::json{{"bad", mismatches(got, want)}};
  });
  EXPECT_EQ(r["bad"], 0) << r.dump();
}

// fp32 with A given transposed (K x M in GM): the transposing b32 load writes A into L0A with k
// padded to 16 (two 16 x 8 fractals per square), which Mmad reads with kDirectionAlign.
TEST(CubeFp32, TransposedAByLoad3dWithKDirectionAlignGivesTheFloatSum) {
  auto r = ascend::test::in_child([] {
    Bench b({}, 1, with_aic());
    const int M = 30, K = 40, N = 70;
    const uint32_t mp = align(M, 16), k16 = align(K, 16), np = align(N, 16);
    std::vector<float> at = random_float(size_t(K) * M, 3), bm = random_float(size_t(K) * N, 4);
    uint64_t ga = b.alloc(at.size() * 4), gb = b.alloc(bm.size() * 4), gc = b.alloc(M * N * 4);
    b.sim().write(ga, at.data(), at.size() * 4);
    b.sim().write(gb, bm.data(), bm.size() * 4);
    b.run(LaunchShape::mixed(1, 0), [&] {
      TPipe pipe;
      LocalTensor<float> a1 = local<float, TPosition::A1>(pipe, k16 * align(M, 16));
      LocalTensor<float> b1 = local<float, TPosition::B1>(pipe, k16 * align(N, 8));
      LocalTensor<float> a2 = local<float, TPosition::A2>(pipe, mp * k16);
      LocalTensor<float> b2 = local<float, TPosition::B2>(pipe, k16 * np);
      LocalTensor<float> c1 = local<float, TPosition::CO1>(pipe, mp * np);
      Nd2NzParams pa;
      pa.nValue = K;
      pa.dValue = M;
      pa.srcDValue = M;
      pa.dstNzC0Stride = k16;
      DataCopy(a1, global<float>(ga, at.size()), pa);
      b_by_load3d(global<float>(gb, bm.size()), b1, b2, K, N);
      LoadData3DParamsV2<float> l;
      l.l1H = 1;
      l.l1W = k16;
      l.channelSize = align(M, 8);
      l.kExtension = align(M, 8);
      l.mExtension = k16;
      l.enTranspose = true;
      LoadData(a2, a1, l);
      Order<HardEvent::MTE1_M>();
      MmadParams mm;
      mm.m = M;
      mm.n = N;
      mm.k = K;
      mm.kDirectionAlign = true;
      Mmad(c1, a2, b2, mm);
      Order<HardEvent::M_FIX>();
      FixpipeParamsV220 f(N, M, mp, N, false);
      Fixpipe(global<float>(gc, M * N), c1, f);
    });
    std::vector<float> got(size_t(M) * N);
    b.sim().read(gc, got.data(), got.size() * 4);
    auto want = reference(
        M, K, N, [&](int i, int k) { return at[size_t(k) * M + i]; },
        [&](int k, int j) { return bm[size_t(k) * N + j]; });
    return nlohmann::json{{"bad", mismatches(got, want)}};
  });
  EXPECT_EQ(r["bad"], 0) << r.dump();
}

// b32 image to column: a 4 x 4 map of 16 channels (two planes of C0 = 8), a 3 x 3 filter padded
// by one, unrolled into L0A and multiplied by weights loaded (2D) from their transposed NZ form;
// the result is the direct unrolling's product.
TEST(CubeFp32, Load3dOfB32UnrollsTheMapAsADirectIm2col) {
  auto r = ascend::test::in_child([] {
    Bench b({}, 1, with_aic());
    const int H = 4, W = 4, C = 16, F = 3, N = 16, K = C * F * F, M = H * W;
    std::vector<float> map = random_float(size_t(H) * W * C, 5);
    std::vector<float> wt = random_float(size_t(N) * K, 6);  // W^T: N rows of K
    uint64_t gm = b.alloc(map.size() * 4), gw = b.alloc(wt.size() * 4), gc = b.alloc(M * N * 4);
    b.sim().write(gm, map.data(), map.size() * 4);
    b.sim().write(gw, wt.data(), wt.size() * 4);
    b.run(LaunchShape::mixed(1, 0), [&] {
      TPipe pipe;
      LocalTensor<float> m1 = local<float, TPosition::A1>(pipe, H * W * C);
      LocalTensor<float> b1 = local<float, TPosition::B1>(pipe, K * N);
      LocalTensor<float> a2 = local<float, TPosition::A2>(pipe, M * K);
      LocalTensor<float> b2 = local<float, TPosition::B2>(pipe, K * N);
      LocalTensor<float> c1 = local<float, TPosition::CO1>(pipe, M * N);
      Nd2NzParams pm;  // pixels as rows of channels -> NC1HWC0 (plane c1 after H x W rows)
      pm.nValue = H * W;
      pm.dValue = C;
      pm.srcDValue = C;
      pm.dstNzC0Stride = H * W;
      DataCopy(m1, global<float>(gm, map.size()), pm);
      Nd2NzParams pb;  // W^T (N x K) -> 16 x 8 fractals, which are L0B's as they are
      pb.nValue = N;
      pb.dValue = K;
      pb.srcDValue = K;
      pb.dstNzC0Stride = N;
      DataCopy(b1, global<float>(gw, wt.size()), pb);
      Order<HardEvent::MTE2_MTE1>();
      LoadData3DParamsV2<float> l;
      l.padList[0] = l.padList[1] = l.padList[2] = l.padList[3] = 1;
      l.l1H = H;
      l.l1W = W;
      l.channelSize = C;
      l.kExtension = K;
      l.mExtension = M;
      l.filterH = l.filterW = F;
      LoadData(a2, m1, l);
      LoadData2DParams lb;
      lb.repeatTimes = K / 8;
      lb.srcStride = 1;
      LoadData(b2, b1, lb);
      Order<HardEvent::MTE1_M>();
      MmadParams mm;
      mm.m = M;
      mm.n = N;
      mm.k = K;
      Mmad(c1, a2, b2, mm);
      Order<HardEvent::M_FIX>();
      FixpipeParamsV220 f(N, M, M, N, false);
      Fixpipe(global<float>(gc, M * N), c1, f);
    });
    // Column k of the unrolled matrix: plane k / 72, window point (k / 8) % 9, channel k % 8.
    std::vector<float> unrolled(size_t(M) * K, 0.0f);
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x)
        for (int k = 0; k < K; ++k) {
          const int plane = k / (8 * F * F), p = (k / 8) % (F * F), ch = plane * 8 + k % 8;
          const int iy = y - 1 + p / F, ix = x - 1 + p % F;
          if (iy >= 0 && iy < H && ix >= 0 && ix < W)
            unrolled[size_t(y * W + x) * K + k] = map[size_t(iy * W + ix) * C + ch];
        }
    std::vector<float> got(size_t(M) * N);
    b.sim().read(gc, got.data(), got.size() * 4);
    auto want = reference(
        M, K, N, [&](int i, int k) { return unrolled[size_t(i) * K + k]; },
        [&](int k, int j) { return wt[size_t(j) * K + k]; });
    return nlohmann::json{{"bad", mismatches(got, want)}};
  });
  EXPECT_EQ(r["bad"], 0) << r.dump();
}

// int4b_t: two a byte, the even element in the low nibble; a tensor of it counts elements, so a
// byte tensor reinterpreted holds twice as many and an offset of 2 is one byte on.
TEST(Int4, TensorsPackTwoElementsAByteLowNibbleFirst) {
  auto r = ascend::test::in_child([] {
    Bench b;
    nlohmann::json out;
    b.run(1, [&] {
      TPipe pipe;
      LocalTensor<int8_t> bytes = ascend::test::ub_tensor<int8_t>(pipe, 32);
      for (uint32_t i = 0; i < 32; ++i) bytes.SetValue(i, 0);
      LocalTensor<int4b_t> q = bytes.ReinterpretCast<int4b_t>();
      out["size"] = q.GetSize();
      const int vals[6] = {-8, 7, -1, 3, 0, -5};
      for (uint32_t i = 0; i < 6; ++i) q.SetValue(i, int4b_t(vals[i]));
      out["b0"] = uint8_t(bytes.GetValue(0));
      out["b1"] = uint8_t(bytes.GetValue(1));
      out["b2"] = uint8_t(bytes.GetValue(2));
      std::vector<int> back;
      for (uint32_t i = 0; i < 6; ++i) back.push_back(int32_t{q.GetValue(i)});
      out["back"] = back;
      out["at2"] = int32_t{q[2].GetValue(0)};
      out["at2_size"] = q[2].GetSize();
      out["bytes_again"] = q.ReinterpretCast<int8_t>().GetSize();
    });
    return out;
  });
  EXPECT_EQ(r["size"], 64) << r.dump();
  EXPECT_EQ(r["b0"], 0x78) << r.dump();  // -8 low (0x8), 7 high (0x7)
  EXPECT_EQ(r["b1"], 0x3F) << r.dump();  // -1 low (0xF), 3 high
  EXPECT_EQ(r["b2"], 0xB0) << r.dump();  // 0 low, -5 high (0xB)
  EXPECT_EQ(r["back"], nlohmann::json({-8, 7, -1, 3, 0, -5})) << r.dump();
  EXPECT_EQ(r["at2"], -1) << r.dump();
  EXPECT_EQ(r["at2_size"], 62) << r.dump();
  EXPECT_EQ(r["bytes_again"], 32) << r.dump();
}

// The reference of half -> int4b_t: rounded by the mode, saturated to [-8, 7].
int int4_ref(float v, RoundMode mode) {
  double r;
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      r = std::floor(v);
      break;
    case RoundMode::CAST_CEIL:
      r = std::ceil(v);
      break;
    case RoundMode::CAST_TRUNC:
      r = std::trunc(v);
      break;
    case RoundMode::CAST_ROUND:  // half away from zero
      r = std::round(v);
      break;
    default:  // RINT, NONE: nearest, ties to even
      r = std::nearbyint(v);
  }
  return int(std::min(7.0, std::max(-8.0, r)));
}

// Cast half -> int4b_t in each rounding mode, level 2 (a count) and level 0 (mask 128, four
// repeats, the destination's repeats 2 blocks apart, as the vendor's cast example), then back to
// half (exact).
TEST(Int4, CastFromHalfRoundsByTheModeSaturatesAndCastsBack) {
  const std::vector<float> base = {-9.5f, -8.5f, -7.5f, -2.5f, -1.5f, -0.5f, -0.25f, 0.0f,
                                   0.5f,  1.5f,  2.5f,  2.75f, 6.5f,  7.5f,  9.0f,   -3.75f};
  std::vector<float> x;
  for (int i = 0; i < 512; ++i) x.push_back(base[i % base.size()] + (i / 16 % 4) * 0.125f);
  const RoundMode modes[] = {RoundMode::CAST_RINT,  RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                             RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC, RoundMode::CAST_NONE};
  for (RoundMode mode : modes)
    for (int level0 = 0; level0 < 2; ++level0) {
      auto r = ascend::test::in_child([&] {
        Bench b;
        std::vector<half> xh;
        for (float v : x) xh.push_back(half(v));
        uint64_t gx = b.alloc(512 * 2), gq = b.alloc(256), gy = b.alloc(512 * 2);
        b.sim().write(gx, xh.data(), 512 * 2);
        b.run(1, [&] {
          TPipe pipe;
          LocalTensor<half> t = ascend::test::ub_tensor<half>(pipe, 512);
          LocalTensor<int8_t> q8 = ascend::test::ub_tensor<int8_t>(pipe, 256);
          LocalTensor<half> y = ascend::test::ub_tensor<half>(pipe, 512);
          DataCopy(t, global<half>(gx, 512), 512);
          Order<HardEvent::MTE2_V>();
          LocalTensor<int4b_t> q = q8.ReinterpretCast<int4b_t>();
          if (level0)
            Cast<int4b_t, half>(q, t, mode, 128, 4, {1, 1, 2, 8});
          else
            Cast(q, t, mode, 512);
          Cast(y, q, RoundMode::CAST_NONE, 512);
          Order<HardEvent::V_MTE3>();
          DataCopy(global<int8_t>(gq, 256), q8, 256);
          DataCopy(global<half>(gy, 512), y, 512);
        });
        std::vector<uint8_t> packed(256);
        std::vector<half> back(512);
        b.sim().read(gq, packed.data(), 256);
        b.sim().read(gy, back.data(), 512 * 2);
        int bad_packed = 0, bad_back = 0;
        for (int i = 0; i < 512; ++i) {
          const int want = int4_ref(float(xh[i]), mode);
          const int nib = (packed[i / 2] >> (i % 2 ? 4 : 0)) & 0xF;
          bad_packed += (nib >= 8 ? nib - 16 : nib) != want;
          bad_back += float(back[i]) != float(want);
        }
        return nlohmann::json{{"bad_packed", bad_packed}, {"bad_back", bad_back}};
      });
      EXPECT_EQ(r["bad_packed"], 0) << int(mode) << " level0 " << level0 << r.dump();
      EXPECT_EQ(r["bad_back"], 0) << int(mode) << " level0 " << level0 << r.dump();
    }
}

// int4 Mmad: A (M x K) and B^T (N x K) packed in GM, ND -> NZ in bytes (the copy moves two
// elements as one int8, so its column counts are halved), LoadData 2D of 16 x 64 fractals, an int32
// product; against an integer reference.
TEST(Int4, MmadOfPackedOperandsGivesTheIntegerProduct) {
  auto r = ascend::test::in_child([] {
    Bench b({}, 1, with_aic());
    const int M = 40, K = 70, N = 50;
    const uint32_t mp = align(M, 16), kp = align(K, 64), np = align(N, 16);
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> d(-8, 7);
    std::vector<int> a(size_t(M) * K), bt(size_t(N) * K);
    for (int& v : a) v = d(rng);
    for (int& v : bt) v = d(rng);
    auto pack = [](const std::vector<int>& v) {
      std::vector<uint8_t> p((v.size() + 1) / 2, 0);
      for (size_t i = 0; i < v.size(); ++i) p[i / 2] |= uint8_t((v[i] & 0xF) << (i % 2 ? 4 : 0));
      return p;
    };
    std::vector<uint8_t> pa = pack(a), pb = pack(bt);
    uint64_t ga = b.alloc(pa.size()), gb = b.alloc(pb.size()), gc = b.alloc(M * N * 4);
    b.sim().write(ga, pa.data(), pa.size());
    b.sim().write(gb, pb.data(), pb.size());
    b.run(LaunchShape::mixed(1, 0), [&] {
      TPipe pipe;
      auto l1 = [&](uint32_t elems) {
        return local<int8_t, TPosition::A1>(pipe, elems / 2).ReinterpretCast<int4b_t>();
      };
      LocalTensor<int4b_t> a1 = l1(mp * kp), b1 = l1(np * kp);
      LocalTensor<int4b_t> a2 =
          local<int8_t, TPosition::A2>(pipe, mp * kp / 2).ReinterpretCast<int4b_t>();
      LocalTensor<int4b_t> b2 =
          local<int8_t, TPosition::B2>(pipe, np * kp / 2).ReinterpretCast<int4b_t>();
      LocalTensor<int32_t> c1 = local<int32_t, TPosition::CO1>(pipe, mp * np);
      GlobalTensor<int4b_t> gat = global<int4b_t>(ga, size_t(M) * K);
      GlobalTensor<int4b_t> gbt = global<int4b_t>(gb, size_t(N) * K);
      Nd2NzParams p;
      p.nValue = M;
      p.dValue = K / 2;
      p.srcDValue = K / 2;
      p.dstNzC0Stride = mp;
      DataCopy(a1, gat, p);
      p.nValue = N;
      p.dstNzC0Stride = np;
      DataCopy(b1, gbt, p);
      Order<HardEvent::MTE2_MTE1>();
      for (uint32_t i = 0; i < mp / 16; ++i) {  // A: row block i, its k fractals
        LoadData2DParams l;
        l.repeatTimes = kp / 64;
        l.srcStride = mp / 16;
        LoadData(a2[i * kp * 16], a1[i * 1024], l);
      }
      for (uint32_t k = 0; k < kp / 64; ++k) {  // B: k block k, its n fractals
        LoadData2DParams l;
        l.repeatTimes = np / 16;
        l.srcStride = 1;
        LoadData(b2[k * np * 64], b1[k * np * 64], l);
      }
      Order<HardEvent::MTE1_M>();
      MmadParams mm;
      mm.m = M;
      mm.n = N;
      mm.k = K;
      Mmad(c1, a2, b2, mm);
      Order<HardEvent::M_FIX>();
      FixpipeParamsV220 f(N, M, mp, N, false);
      Fixpipe(global<int32_t>(gc, M * N), c1, f);
    });
    std::vector<int32_t> got(size_t(M) * N);
    b.sim().read(gc, got.data(), got.size() * 4);
    int bad = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        int want = 0;
        for (int k = 0; k < K; ++k) want += a[size_t(i) * K + k] * bt[size_t(j) * K + k];
        bad += got[size_t(i) * N + j] != want;
      }
    return nlohmann::json{{"bad", bad}};
  });
  EXPECT_EQ(r["bad"], 0) << r.dump();
}

// The cost rules: an fp32 Mmad of 128 x 40 x 256 holds the cube 8 x 16 blocks x (k padded to 48,
// at cube.mmad_fp32_k_per_cycle = 4 a cycle: 12) cycles plus the overhead, not one cycle less or
// more; an int4 one of 128 x 256 x 256, 8 x 16 x (256 / cube.mmad_int4_k0 = 4).
TEST(CubeTiming, Fp32AndInt4MmadHoldTheCubeForTheirRatesCycles) {
  Bench b({}, 1, with_aic());
  auto& fp32 = b.run(LaunchShape::mixed(1, 0), [&] {
    TPipe pipe;
    LocalTensor<float> a2 = local<float, TPosition::A2>(pipe, 128 * 48);
    LocalTensor<float> b2 = local<float, TPosition::B2>(pipe, 48 * 256);
    LocalTensor<float> c1 = local<float, TPosition::CO1>(pipe, 128 * 256);
    MmadParams p;
    p.m = 128;
    p.k = 41;
    p.n = 256;
    Mmad(c1, a2, b2, p);
  });
  const m::CoreTiming& t = b.timing();
  EXPECT_EQ(t.cube.mmad_fp32_k_per_cycle, 4u);
  EXPECT_EQ(fp32.ranks[0].aics[0]["cube.busy_ps"],
            t.clock.cycles(8 * 16 * (48 / 4) + t.cube.mmad_overhead_cycles));
  EXPECT_EQ(fp32.ranks[0].aics[0]["CUBE.instrs"], 1u);
  auto& int4 = b.run(LaunchShape::mixed(1, 0), [&] {
    TPipe pipe;
    LocalTensor<int4b_t> a2 =
        local<int8_t, TPosition::A2>(pipe, 128 * 128).ReinterpretCast<int4b_t>();
    LocalTensor<int4b_t> b2 =
        local<int8_t, TPosition::B2>(pipe, 256 * 128).ReinterpretCast<int4b_t>();
    LocalTensor<int32_t> c1 = local<int32_t, TPosition::CO1>(pipe, 128 * 256);
    MmadParams p;
    p.m = 128;
    p.k = 256;
    p.n = 256;
    Mmad(c1, a2, b2, p);
  });
  EXPECT_EQ(t.cube.mmad_int4_k0, 64u);
  EXPECT_EQ(int4.ranks[0].aics[0]["cube.busy_ps"],
            t.clock.cycles(8 * 16 * 4 + t.cube.mmad_overhead_cycles));
}

// The same rule through the parameter: with cube.mmad_fp32_k_per_cycle = 8 (the HF32 rate of the
// performance table) the fp32 Mmad takes half the k cycles.
TEST(CubeTiming, Fp32MmadRateIsTheParameter) {
  Bench b({"cube.mmad_fp32_k_per_cycle=8"}, 1, with_aic());
  auto& rec = b.run(LaunchShape::mixed(1, 0), [&] {
    TPipe pipe;
    LocalTensor<float> a2 = local<float, TPosition::A2>(pipe, 16 * 64);
    LocalTensor<float> b2 = local<float, TPosition::B2>(pipe, 64 * 16);
    LocalTensor<float> c1 = local<float, TPosition::CO1>(pipe, 16 * 16);
    MmadParams p;
    p.m = 16;
    p.k = 64;
    p.n = 16;
    Mmad(c1, a2, b2, p);
  });
  const m::CoreTiming& t = b.timing();
  EXPECT_EQ(rec.ranks[0].aics[0]["cube.busy_ps"],
            t.clock.cycles(64 / 8 + t.cube.mmad_overhead_cycles));
}

}  // namespace
