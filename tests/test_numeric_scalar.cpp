// half and bfloat16_t as scalar arithmetic types (api/numeric.h): conversions, operators and
// comparisons against exact references, and scalar code as Ascend C samples write it.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "api/kernel_operator.h"
#include "api/numeric.h"
#include "api/numeric_exact.h"
#include "tests/harness.h"

namespace {

using namespace AscendC;
constexpr RoundMode kRint = RoundMode::CAST_RINT;

float f32(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
template <class T>
T from(uint32_t bits) {
  return T::from_bits(static_cast<uint16_t>(bits));
}
template <class T>
bool is_nan_bits(uint16_t b) {
  return std::is_same_v<T, half> ? (b & 0x7FFF) > 0x7C00 : (b & 0x7FFF) > 0x7F80;
}
// The correctly rounded (nearest even) pattern of an exact double, by the slow reference.
template <class T>
uint16_t exact_round(double v) {
  if constexpr (std::is_same_v<T, half>)
    return numeric_exact::to_half(v, kRint).bits;
  else
    return numeric_exact::to_bf16(v, kRint).bits;
}
// The same by the fast encoder, itself checked against the reference on every pattern and on
// the points between them (test_numeric.cpp); fast enough for 2^32 pairs.
template <class T>
uint16_t fast_round(double v) {
  if constexpr (std::is_same_v<T, half>)
    return to_half(v, kRint).bits;
  else
    return to_bf16(v, kRint).bits;
}

struct Mismatch {
  std::mutex m;
  uint64_t count = 0;
  std::string first;
  void note(const char* op, uint32_t a, uint32_t b, uint16_t got, uint16_t want) {
    std::lock_guard<std::mutex> g(m);
    if (count++ == 0) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "%s %04x %04x: got %04x want %04x", op, a, b, got, want);
      first = buf;
    }
  }
};

// a + b and a * b of two 16-bit floats are exact in double (their exponents span < 53 bits), so
// rounding that double once is the correctly rounded result. Every pair, over two threads; a NaN
// result need only be a NaN (its payload is the host's pick among the operands').
template <class T>
void exhaustive_add_mul() {
  static float value[65536];
  for (uint32_t p = 0; p < 65536; ++p) value[p] = to_float(from<T>(p));
  Mismatch bad;
  std::atomic<uint32_t> next{0};
  const auto work = [&] {
    for (uint32_t a; (a = next.fetch_add(256)) < 65536;) {
      for (uint32_t ai = a; ai < a + 256; ++ai) {
        const T x = from<T>(ai);
        const double dx = value[ai];
        for (uint32_t b = 0; b < 65536; ++b) {
          const T y = from<T>(b);
          const uint16_t s = (x + y).bits, s_want = fast_round<T>(dx + value[b]);
          const uint16_t p = (x * y).bits, p_want = fast_round<T>(dx * value[b]);
          if (s != s_want && !(is_nan_bits<T>(s) && is_nan_bits<T>(s_want)))
            bad.note("+", ai, b, s, s_want);
          if (p != p_want && !(is_nan_bits<T>(p) && is_nan_bits<T>(p_want)))
            bad.note("*", ai, b, p, p_want);
        }
      }
    }
  };
  std::thread t(work);
  work();
  t.join();
  EXPECT_EQ(bad.count, 0u) << "first: " << bad.first;
}

// Patterns worth pairing with everything: zeros, the smallest and largest subnormals and normals,
// one and its neighbours, the largest finite, infinities and NaNs (both signs).
template <class T>
std::vector<uint16_t> special_patterns() {
  std::vector<uint16_t> v;
  const bool h = std::is_same_v<T, half>;
  const uint16_t one = h ? 0x3C00 : 0x3F80, inf = h ? 0x7C00 : 0x7F80, qnan = h ? 0x7E00 : 0x7FC0,
                 min_normal = h ? 0x0400 : 0x0080;
  for (uint16_t p : {uint16_t{0}, uint16_t{1}, uint16_t(min_normal - 1), min_normal,
                     uint16_t(min_normal + 1), uint16_t(one - 1), one, uint16_t(one + 1),
                     uint16_t(inf - 1), inf, qnan, uint16_t(inf + 1)}) {
    v.push_back(p);
    v.push_back(static_cast<uint16_t>(p | 0x8000));
  }
  return v;
}

// - and / against the slow exact reference: a - b is exact in double like a + b; a / b is not,
// but double's 53 bits are more than 2p + 2 for both formats, so its one rounding then ours is the
// correctly rounded quotient.
template <class T>
void sub_div_sample() {
  const auto check = [](uint16_t a, uint16_t b) {
    const T x = from<T>(a), y = from<T>(b);
    const double dx = to_float(x), dy = to_float(y);
    const uint16_t d = (x - y).bits, d_want = exact_round<T>(dx - dy);
    const uint16_t q = (x / y).bits, q_want = exact_round<T>(dx / dy);
    if (d != d_want && !(is_nan_bits<T>(d) && is_nan_bits<T>(d_want)))
      return ::testing::AssertionFailure()
             << std::hex << a << " - " << b << ": " << d << " vs " << d_want;
    if (q != q_want && !(is_nan_bits<T>(q) && is_nan_bits<T>(q_want)))
      return ::testing::AssertionFailure()
             << std::hex << a << " / " << b << ": " << q << " vs " << q_want;
    return ::testing::AssertionSuccess();
  };
  for (uint16_t s : special_patterns<T>())
    for (uint32_t p = 0; p < 65536; ++p) {
      ASSERT_TRUE(check(s, static_cast<uint16_t>(p)));
      ASSERT_TRUE(check(static_cast<uint16_t>(p), s));
    }
  std::mt19937 rng(7);
  for (int i = 0; i < 4000000; ++i)
    ASSERT_TRUE(check(static_cast<uint16_t>(rng()), static_cast<uint16_t>(rng())));
}

}  // namespace

TEST(NumericScalarExhaustive, HalfAddAndMulOverEveryPair) {
  exhaustive_add_mul<half>();
}
TEST(NumericScalarExhaustive, Bf16AddAndMulOverEveryPair) {
  exhaustive_add_mul<bfloat16_t>();
}
TEST(NumericScalar, HalfSubAndDivSampleAndSpecials) {
  sub_div_sample<half>();
}
TEST(NumericScalar, Bf16SubAndDivSampleAndSpecials) {
  sub_div_sample<bfloat16_t>();
}

TEST(NumericScalar, StaysATwoByteTriviallyCopyableType) {
  static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2);
  static_assert(std::is_trivially_copyable_v<half> && std::is_standard_layout_v<half>);
  static_assert(std::is_trivially_copyable_v<bfloat16_t> && std::is_standard_layout_v<bfloat16_t>);
  static_assert(half::from_bits(0x3C00).bits == 0x3C00);  // still usable in constant expressions
  EXPECT_EQ(half().bits, 0);
  EXPECT_EQ(bfloat16_t{}.bits, 0);
  half arr[4];
  EXPECT_EQ(arr[3].bits, 0);
}

// float -> half in every rounding class (nearest even): exact, below / at / above the tie with
// an even and an odd last bit, subnormal results, overflow, the largest finite, NaN, signed zeros
// and infinities. The expected patterns are written out; each is also the exact reference's.
TEST(NumericScalar, FloatToHalfRoundingClasses) {
  const float ulp1 = std::ldexp(1.0f, -10);  // half's ulp at 1
  struct Case {
    float f;
    uint16_t want;
  } cases[] = {
      {1.0f, 0x3C00},
      {-2.5f, 0xC100},
      {1.0f + ulp1 / 2 - ulp1 / 64, 0x3C00},  // below the tie
      {1.0f + ulp1 / 2, 0x3C00},              // tie, even last bit: stays
      {1.0f + ulp1 / 2 + ulp1 / 64, 0x3C01},  // above the tie
      {1.0f + ulp1 * 1.5f, 0x3C02},           // tie, odd last bit: up to even
      {1.0f + ulp1 * 1.5f - ulp1 / 64, 0x3C01},
      {std::ldexp(1.0f, -24), 0x0001},          // smallest subnormal
      {std::ldexp(1.0f, -25), 0x0000},          // tie to zero (even)
      {std::ldexp(1.0f, -25) * 1.01f, 0x0001},  // just above it
      {std::ldexp(3.0f, -25), 0x0002},          // tie between 1 and 2 ulps: to 2
      {std::ldexp(1023.5f, -24), 0x0400},       // rounds up into the smallest normal
      {std::ldexp(1023.25f, -24), 0x03FF},      // largest subnormal
      {65504.0f, 0x7BFF},                       // largest finite
      {65519.0f, 0x7BFF},                       // below the overflow tie
      {65520.0f, 0x7C00},                       // the tie: odd 0x7BFF rounds up to inf
      {1e9f, 0x7C00},
      {-1e9f, 0xFC00},
      {0.0f, 0x0000},
      {-0.0f, 0x8000},
      {std::numeric_limits<float>::infinity(), 0x7C00},
      {-std::numeric_limits<float>::infinity(), 0xFC00},
      {std::numeric_limits<float>::denorm_min(), 0x0000},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(half(c.f).bits, c.want) << std::hexfloat << c.f;
    EXPECT_EQ(half(c.f).bits, numeric_exact::to_half(c.f, kRint).bits) << std::hexfloat << c.f;
    half assigned = c.f;  // implicit, as `half h = someFloat;`
    EXPECT_EQ(assigned.bits, c.want);
  }
  const half nan = half(std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(std::isnan(float(nan)));
  EXPECT_EQ(nan.bits & 0x7E00, 0x7E00);                     // quiet
  EXPECT_EQ(half(f32(0x7F800001u)).bits & 0x7E00, 0x7E00);  // signalling becomes quiet
  EXPECT_EQ(half(f32(0xFFC00000u)).bits, 0xFE00);           // sign kept
  // From double: rounds once, not through float (which would round twice here).
  const double just_above_tie = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(half(just_above_tie).bits, 0x3C01);
  EXPECT_EQ(half(static_cast<float>(just_above_tie)).bits, 0x3C00);
}

TEST(NumericScalar, FloatToHalfMatchesReferenceOnEveryFloatPattern) {
  // Every float with a 16-bit stride in the pattern, plus its neighbours: all exponents, ties and
  // near-ties in both formats.
  for (uint64_t u = 0; u <= 0xFFFFFFFFu; u += 0x1000) {
    for (uint32_t d : {0u, 1u, 0xFFFu, 0x1000u - 1}) {
      const auto p = static_cast<uint32_t>(u + d);
      const float f = f32(p);
      const uint16_t h = half(f).bits, hw = numeric_exact::to_half(f, kRint).bits;
      const uint16_t b = bfloat16_t(f).bits, bw = numeric_exact::to_bf16(f, kRint).bits;
      ASSERT_EQ(h, hw) << std::hex << p;
      ASSERT_EQ(b, bw) << std::hex << p;
    }
  }
}

TEST(NumericScalar, FloatToBf16RoundingClasses) {
  const float ulp1 = std::ldexp(1.0f, -7);
  struct Case {
    float f;
    uint16_t want;
  } cases[] = {
      {1.0f, 0x3F80},
      {1.0f + ulp1 / 2, 0x3F80},                // tie, even: stays
      {1.0f + ulp1 / 2 + ulp1 / 1024, 0x3F81},  // above
      {1.0f + ulp1 * 1.5f, 0x3F82},             // tie, odd: up
      {1.0f + ulp1 * 1.5f - ulp1 / 1024, 0x3F81},
      {std::ldexp(1.0f, -133), 0x0001},  // smallest bf16 subnormal
      {std::ldexp(1.0f, -134), 0x0000},  // tie to zero
      {std::ldexp(3.0f, -134), 0x0002},  // tie to even 2
      {f32(0x7F7F7FFFu), 0x7F7F},        // below the overflow tie
      {f32(0x7F7F8000u), 0x7F80},        // the tie (odd): inf
      {f32(0x7F7FFFFFu), 0x7F80},        // float max: inf
      {-0.0f, 0x8000},
      {-std::numeric_limits<float>::infinity(), 0xFF80},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(bfloat16_t(c.f).bits, c.want) << std::hexfloat << c.f;
    EXPECT_EQ(bfloat16_t(c.f).bits, numeric_exact::to_bf16(c.f, kRint).bits);
  }
  EXPECT_EQ(bfloat16_t(std::numeric_limits<float>::quiet_NaN()).bits & 0x7FC0, 0x7FC0);
  EXPECT_EQ(bfloat16_t(f32(0x7F800001u)).bits & 0x7FC0, 0x7FC0);  // signalling becomes quiet
  // Between the two 16-bit types: exact through float, one rounding.
  EXPECT_EQ(bfloat16_t(half(1.5f)).bits, 0x3FC0);
  EXPECT_EQ(half(bfloat16_t(65536.0f)).bits, 0x7C00);
  EXPECT_EQ(half(bfloat16_t::from_bits(0x3F81)).bits, 0x3C08);
}

TEST(NumericScalar, ToAndFromIntegers) {
  // To integers: toward zero, as C++ converts a float.
  EXPECT_EQ(static_cast<int>(half(2.75f)), 2);
  EXPECT_EQ(static_cast<int>(half(-2.75f)), -2);
  EXPECT_EQ(static_cast<int>(half(0.999f)), 0);
  EXPECT_EQ(static_cast<int>(half(-0.5f)), 0);
  EXPECT_EQ(static_cast<int32_t>(half(65504.0f)), 65504);
  EXPECT_EQ(static_cast<uint8_t>(half(200.9f)), 200);
  EXPECT_EQ(static_cast<int64_t>(bfloat16_t(-3.0e10f)), -30064771072LL);  // bf16(-3e10) exactly
  // What C++ leaves undefined is defined: out of range saturates, NaN is 0.
  EXPECT_EQ(static_cast<int8_t>(half(300.0f)), 127);
  EXPECT_EQ(static_cast<int8_t>(half(-300.0f)), -128);
  EXPECT_EQ(static_cast<uint16_t>(half(-1.0f)), 0);
  EXPECT_EQ(static_cast<int32_t>(half::from_bits(0x7C00)), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(static_cast<int32_t>(bfloat16_t(1e20f)), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(static_cast<int>(half::from_bits(0x7E00)), 0);
  EXPECT_TRUE(static_cast<bool>(half(0.5f)));
  EXPECT_FALSE(static_cast<bool>(half::from_bits(0x8000)));
  int implicit = half(7.5f);  // implicit, as the device type converts
  EXPECT_EQ(implicit, 7);
  // From integers: exact up to 2048 (half) / 256 (bf16), then nearest even.
  EXPECT_EQ(half(0).bits, 0x0000);
  EXPECT_EQ(half(1).bits, 0x3C00);
  EXPECT_EQ(half(-2048).bits, 0xE800);
  EXPECT_EQ(half(2049).bits, 0x6800);  // tie, even: 2048
  EXPECT_EQ(half(2051).bits, 0x6802);  // tie, odd: up to 2052
  EXPECT_EQ(half(65504u).bits, 0x7BFF);
  EXPECT_EQ(half(65520).bits, 0x7C00);
  EXPECT_EQ(half(std::numeric_limits<int64_t>::min()).bits, 0xFC00);
  EXPECT_EQ(bfloat16_t(257).bits, 0x4380);  // tie, even: 256
  EXPECT_EQ(bfloat16_t(259).bits, 0x4382);  // tie, odd: up to 260
  EXPECT_EQ(bfloat16_t(uint8_t{255}).bits, 0x437F);
  // 64-bit integers beyond 2^53 round once: 2^63 + 2^55 + 1 is just above a bf16 tie, which a
  // plain conversion to double would land on (and then round down to even).
  const uint64_t above_tie = (uint64_t{1} << 63) + (uint64_t{1} << 55) + 1;
  EXPECT_EQ(bfloat16_t(above_tie).bits, 0x5F01);
  EXPECT_EQ(bfloat16_t(uint64_t{1} << 63).bits, 0x5F00);
  EXPECT_EQ(bfloat16_t(std::numeric_limits<int64_t>::min()).bits, 0xDF00);
  // Every int16 against the reference.
  for (int i = -32768; i <= 32767; ++i) {
    ASSERT_EQ(half(i).bits, numeric_exact::to_half(i, kRint).bits) << i;
    ASSERT_EQ(bfloat16_t(static_cast<int16_t>(i)).bits, numeric_exact::to_bf16(i, kRint).bits) << i;
  }
}

TEST(NumericScalar, ComparisonsAreIeee) {
  const half pz = half::from_bits(0x0000), nz = half::from_bits(0x8000);
  const half nan = half::from_bits(0x7E00), one = 1.0f, two = 2;
  EXPECT_TRUE(pz == nz);  // +0 == -0
  EXPECT_FALSE(pz != nz);
  EXPECT_FALSE(nan == nan);  // NaN equals nothing, itself included
  EXPECT_TRUE(nan != nan);
  EXPECT_FALSE(nan < one || nan > one || nan <= one || nan >= one);
  EXPECT_TRUE(one < two && two > one && one <= one && two >= one);
  EXPECT_TRUE(one == 1 && one == 1.0f && 1.0 == one && 2 > one);
  EXPECT_TRUE(half(2049) == 2049);      // the integer is converted to half first, as on the device
  EXPECT_FALSE(half(2049) == 2049.0f);  // a float operand compares in float
  const bfloat16_t b = 3.0f;
  EXPECT_TRUE(b == 3 && b > 2.5f && -b < b);
  EXPECT_FALSE(bfloat16_t::from_bits(0x7FC0) == bfloat16_t::from_bits(0x7FC0));
  EXPECT_TRUE(bfloat16_t::from_bits(0x8000) == bfloat16_t::from_bits(0x0000));
}

TEST(NumericScalar, MixedExpressionsFollowTheUsualConversions) {
  const half h = 1.5f;
  // half op integer -> half; half op float -> float; half op double -> double.
  static_assert(std::is_same_v<decltype(h * 2), half>);
  static_assert(std::is_same_v<decltype(2 + h), half>);
  static_assert(std::is_same_v<decltype(h + 1.0f), float>);
  static_assert(std::is_same_v<decltype(1.0 / h), double>);
  static_assert(std::is_same_v<decltype(h + h), half>);
  static_assert(std::is_same_v<decltype(-h), half>);
  static_assert(std::is_same_v<decltype(bfloat16_t(1.0f) * 3u), bfloat16_t>);
  EXPECT_EQ((h * 2).bits, half(3.0f).bits);
  EXPECT_EQ(h + 1.0f, 2.5f);
  // A float operand keeps float precision: 1.5 + 2^-20 is not representable in half.
  EXPECT_EQ(h + std::ldexp(1.0f, -20), 1.5f + std::ldexp(1.0f, -20));
  EXPECT_EQ((h + half(std::ldexp(1.0f, -20))).bits, h.bits);
  EXPECT_EQ((-h).bits, 0xBE00);
  EXPECT_EQ((-half::from_bits(0x7E00)).bits, 0xFE00);  // negation flips the sign of a NaN too
  half c = 0;
  c += 1;        // 1
  c *= 2.5f;     // 2.5
  c -= half(1);  // 1.5
  c /= 3;        // 0.5
  EXPECT_EQ(c.bits, 0x3800);
  EXPECT_EQ((c++).bits, 0x3800);
  EXPECT_EQ(c.bits, 0x3E00);  // 1.5
  EXPECT_EQ((--c).bits, 0x3800);
  // Compound assignment rounds the operation's result: 1 + 2^-11 in float, then to half (tie to
  // even 1).
  half d = 1;
  d += std::ldexp(1.0f, -11);
  EXPECT_EQ(d.bits, 0x3C00);
  // Overflow and the division specials.
  EXPECT_EQ((half(65504.0f) * 2).bits, 0x7C00);
  EXPECT_EQ((half(1) / half(0)).bits, 0x7C00);
  EXPECT_EQ((half(-1) / half(0)).bits, 0xFC00);
  EXPECT_TRUE(std::isnan(float(half(0) / half(0))));
  EXPECT_EQ((half(1) - half(1)).bits, 0x0000);  // x - x is +0
  // Underflow into and out of subnormals.
  EXPECT_EQ((half::from_bits(0x0400) / 2).bits, 0x0200);
  EXPECT_EQ((half::from_bits(0x0001) / 2).bits, 0x0000);  // tie to even zero
  EXPECT_EQ((half::from_bits(0x0003) / 2).bits, 0x0002);  // 1.5 ulps: tie to even 2
}

// Scalar code as a sample writes it, compiled against the facade's kernel_operator.h.
TEST(NumericScalar, SampleStyleScalarCode) {
  half a = 0;
  half b(0.5f);
  float f = float(b);
  a = a + b * (half)2;
  EXPECT_EQ(f, 0.5f);
  EXPECT_EQ(float(a), 1.0f);
  bool less = false;
  if (a < b) less = true;
  EXPECT_FALSE(less);
  half m = (half)3.0f;
  m = m > a ? m : a;
  EXPECT_EQ(static_cast<int>(m), 3);
  bfloat16_t g = 0.1f;
  float gf = g;                     // implicit widening
  EXPECT_EQ(gf, f32(0x3DCD0000u));  // 0.1f rounded up to 8 bits
  double acc = 0;
  for (int i = 0; i < 4; ++i) acc += half(i) * 0.5;
  EXPECT_EQ(acc, 3.0);
  half arr[3] = {half(1), half(2.0f), half(3.0)};
  half sum = 0;
  for (const half& x : arr) sum += x;
  EXPECT_EQ(float(sum), 6.0f);
  EXPECT_EQ(half(sum.ToFloat()).bits, sum.bits);
  // event_t, the address-space qualifiers and the pattern samples use on a pipe's event id.
  event_t e = static_cast<event_t>(3);
  TEventID id = e;
  EXPECT_EQ(id, 3);
  EXPECT_EQ(static_cast<int>(EVENT_ID7), 7);
  EXPECT_EQ(event_t::EVENT_ID1, EVENT_ID1);
  __ubuf__ uint8_t* ub = nullptr;
  __cbuf__ __ca__ __cb__ __cc__ __fbuf__ float* l1 = nullptr;
  EXPECT_EQ(ub, nullptr);
  EXPECT_EQ(l1, nullptr);
}

// A kernel that uses an event from TPipe, GlobalTensor::address_ and GetPhyAddr, LocalTensor's
// SetSize / GetPhyAddr and scalar half arithmetic on elements.
TEST(NumericScalar, KernelScalarSurface) {
  ascend::test::Bench bench;
  const uint64_t x = bench.alloc(64 * 2), y = bench.alloc(64 * 2);
  std::vector<half> in(64);
  for (int i = 0; i < 64; ++i) in[i] = half(i) / 4;
  bench.sim().write(x, in.data(), 64 * 2);
  bench.run(1, [&] {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 64 * sizeof(half));
    GlobalTensor<half> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x), 64);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y), 64);
    EXPECT_EQ(reinterpret_cast<uint64_t>(xg.GetPhyAddr()), x);
    EXPECT_EQ(reinterpret_cast<uint64_t>(xg.GetPhyAddr(3)), x + 6);
    LocalTensor<half> t = q.AllocTensor<half>();
    DataCopy(t, xg, 64);
    event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
    SetFlag<HardEvent::MTE2_S>(e);
    WaitFlag<HardEvent::MTE2_S>(e);
    for (uint32_t i = 0; i < 64; ++i) t.SetValue(i, t.GetValue(i) * 2 + half(1));
    EXPECT_EQ(t.GetPhyAddr(5)->bits, (half(5) / 2 + half(1)).bits);
    t.SetSize(32);
    EXPECT_EQ(t.GetSize(), 32u);
    // Scalar GM writes through address_, the way a sample writes an unaligned tail.
    for (uint32_t i = 0; i < 32; ++i) {
      auto cursor = yg.address_ + i;
      *cursor = t.GetValue(i);
    }
    auto tail = yg[32].address_;
    for (uint32_t i = 0; i < 32; ++i) tail[i] = half(-1);
    half first = *yg.address_;
    EXPECT_EQ(first.bits, half(1).bits);
    q.FreeTensor(t);
  });
  std::vector<half> out(64);
  bench.sim().read(y, out.data(), 64 * 2);
  for (int i = 0; i < 64; ++i) {
    const half want = i < 32 ? half(i) / 2 + half(1) : half(-1);
    EXPECT_EQ(out[i].bits, want.bits) << i;
  }
}
