// Tests for api/numeric: bit-exact conversions in every Ascend C round mode.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "api/numeric.h"
#include "api/numeric_exact.h"

using namespace AscendC;

namespace {

constexpr RoundMode NONE = RoundMode::CAST_NONE, RINT = RoundMode::CAST_RINT,
                    FLOOR = RoundMode::CAST_FLOOR, CEIL = RoundMode::CAST_CEIL,
                    ROUND = RoundMode::CAST_ROUND, TRUNC = RoundMode::CAST_TRUNC,
                    ODD = RoundMode::CAST_ODD;
constexpr RoundMode kAllModes[] = {NONE, RINT, FLOOR, CEIL, ROUND, TRUNC, ODD};

uint16_t hb(double v, RoundMode m) {
  return to_half(v, m).bits;
}
uint16_t bb(double v, RoundMode m) {
  return to_bf16(v, m).bits;
}
float f32_from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint32_t fb(double v, RoundMode m) {
  return f32_bits(to_f32(v, m));
}
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Sets the host FPU rounding mode for the scope, restoring round-to-nearest.
struct ScopedFeRound {
  explicit ScopedFeRound(int mode) { std::fesetround(mode); }
  ~ScopedFeRound() { std::fesetround(FE_TONEAREST); }
};

struct FeMode {
  RoundMode ours;
  int host;
};
constexpr FeMode kFeModes[] = {
    {RINT, FE_TONEAREST}, {FLOOR, FE_DOWNWARD}, {CEIL, FE_UPWARD}, {TRUNC, FE_TOWARDZERO}};

}  // namespace

TEST(Numeric, TypesAreTwoByteBitContainers) {
  static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2);
  static_assert(std::is_trivially_copyable_v<half> && std::is_trivially_copyable_v<bfloat16_t>);
  EXPECT_EQ(half::from_bits(0x3C00).bits, 0x3C00);
  EXPECT_EQ(bfloat16_t::from_bits(0xBF80).bits, 0xBF80);
  // == is IEEE equality (tests/test_numeric_scalar.cpp); patterns compare through .bits.
  EXPECT_NE(half::from_bits(0x0000).bits, half::from_bits(0x8000).bits);  // +0 vs -0 differ
  EXPECT_EQ(bfloat16_t::from_bits(7).bits, 7);
  EXPECT_EQ(half{}.bits, 0);
}

TEST(Numeric, HalfKnownPatterns) {
  EXPECT_EQ(hb(1.0, RINT), 0x3C00);
  EXPECT_EQ(hb(-2.0, RINT), 0xC000);
  EXPECT_EQ(hb(0.5, RINT), 0x3800);
  EXPECT_EQ(hb(65504.0, RINT), 0x7BFF);               // half max
  EXPECT_EQ(hb(std::ldexp(1.0, -14), RINT), 0x0400);  // smallest normal
  EXPECT_EQ(hb(std::ldexp(1.0, -24), RINT), 0x0001);  // smallest subnormal
  EXPECT_EQ(hb(std::ldexp(1023.0, -24), RINT), 0x03FF);
  EXPECT_EQ(hb(0.0, RINT), 0x0000);
  EXPECT_EQ(hb(-0.0, RINT), 0x8000);
  EXPECT_EQ(hb(kInf, TRUNC), 0x7C00);  // inf is exact: no overflow clamping
  EXPECT_EQ(hb(-kInf, CEIL), 0xFC00);

  EXPECT_EQ(to_float(half::from_bits(0x3C00)), 1.0f);
  EXPECT_EQ(to_float(half::from_bits(0x7BFF)), 65504.0f);
  EXPECT_EQ(to_float(half::from_bits(0x0001)), std::ldexp(1.0f, -24));
  EXPECT_EQ(to_float(half::from_bits(0x83FF)), -std::ldexp(1023.0f, -24));
  EXPECT_EQ(to_float(half::from_bits(0x3555)), 0.333251953125f);
  EXPECT_TRUE(std::signbit(to_float(half::from_bits(0x8000))) &&
              to_float(half::from_bits(0x8000)) == 0.0f);
  EXPECT_EQ(to_float(half::from_bits(0xFC00)), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(to_float(half::from_bits(0x7E00))));
  EXPECT_TRUE(std::isnan(to_float(half::from_bits(0x7C01))));
}

TEST(Numeric, Bf16KnownPatterns) {
  EXPECT_EQ(bb(1.0, RINT), 0x3F80);
  EXPECT_EQ(bb(-1.0, RINT), 0xBF80);
  EXPECT_EQ(bb(3.0, RINT), 0x4040);
  EXPECT_EQ(bb(std::ldexp(1.0, -133), RINT), 0x0001);   // smallest subnormal
  EXPECT_EQ(bb(std::ldexp(255.0, 120), RINT), 0x7F7F);  // max finite = (2-2^-7)*2^127
  EXPECT_EQ(bb(-0.0, RINT), 0x8000);
  EXPECT_EQ(to_float(bfloat16_t::from_bits(0x3F80)), 1.0f);
  EXPECT_EQ(to_float(bfloat16_t::from_bits(0x0001)), std::ldexp(1.0f, -133));
  EXPECT_EQ(to_float(bfloat16_t::from_bits(0xFF7F)), -std::ldexp(255.0f, 120));
  EXPECT_EQ(f32_bits(to_float(bfloat16_t::from_bits(0xC2F7))), 0xC2F70000u);
  EXPECT_TRUE(std::isnan(to_float(bfloat16_t::from_bits(0xFFC0))));
}

TEST(Numeric, HalfOverflowPerMode) {
  // 65520 is the midpoint between max (65504) and 2^16: a tie.
  EXPECT_EQ(hb(65520.0, RINT), 0x7C00);
  EXPECT_EQ(hb(65520.0, NONE), 0x7C00);
  EXPECT_EQ(hb(65520.0, ROUND), 0x7C00);
  EXPECT_EQ(hb(65520.0, TRUNC), 0x7BFF);
  EXPECT_EQ(hb(65520.0, FLOOR), 0x7BFF);
  EXPECT_EQ(hb(65520.0, CEIL), 0x7C00);
  EXPECT_EQ(hb(65520.0, ODD), 0x7BFF);
  EXPECT_EQ(hb(65519.0, RINT), 0x7BFF);  // just below the tie
  EXPECT_EQ(hb(65519.0, CEIL), 0x7C00);
  EXPECT_EQ(hb(-65520.0, RINT), 0xFC00);
  EXPECT_EQ(hb(-65520.0, FLOOR), 0xFC00);
  EXPECT_EQ(hb(-65520.0, CEIL), 0xFBFF);
  EXPECT_EQ(hb(-65520.0, TRUNC), 0xFBFF);
  EXPECT_EQ(hb(-65520.0, ODD), 0xFBFF);
  // Far out of range, including beyond float's range.
  for (double big : {1e6, 1e300}) {
    EXPECT_EQ(hb(big, RINT), 0x7C00);
    EXPECT_EQ(hb(big, ROUND), 0x7C00);
    EXPECT_EQ(hb(big, TRUNC), 0x7BFF);
    EXPECT_EQ(hb(big, ODD), 0x7BFF);
    EXPECT_EQ(hb(big, FLOOR), 0x7BFF);
    EXPECT_EQ(hb(big, CEIL), 0x7C00);
    EXPECT_EQ(hb(-big, FLOOR), 0xFC00);
    EXPECT_EQ(hb(-big, CEIL), 0xFBFF);
    EXPECT_EQ(hb(-big, TRUNC), 0xFBFF);
    EXPECT_EQ(hb(-big, ROUND), 0xFC00);
  }
}

TEST(Numeric, HalfSubnormalRounding) {
  const double q = std::ldexp(1.0, -25);  // half of the smallest subnormal: a tie with 0
  EXPECT_EQ(hb(q, RINT), 0x0000);
  EXPECT_EQ(hb(q, ROUND), 0x0001);
  EXPECT_EQ(hb(q, CEIL), 0x0001);
  EXPECT_EQ(hb(q, FLOOR), 0x0000);
  EXPECT_EQ(hb(q, TRUNC), 0x0000);
  EXPECT_EQ(hb(q, ODD), 0x0001);
  EXPECT_EQ(hb(-q, RINT), 0x8000);  // underflow keeps the sign
  EXPECT_EQ(hb(-q, FLOOR), 0x8001);
  EXPECT_EQ(hb(-q, CEIL), 0x8000);
  EXPECT_EQ(hb(3 * q, RINT), 0x0002);                    // 1.5 ulp: tie to even (2)
  EXPECT_EQ(hb(5 * q, RINT), 0x0002);                    // 2.5 ulp: tie to even (2)
  EXPECT_EQ(hb(std::ldexp(1.0, -60), CEIL), 0x0001);     // far below, still rounds up
  EXPECT_EQ(hb(std::ldexp(1.0, -1070), ROUND), 0x0000);  // double subnormal input
  EXPECT_EQ(hb(std::ldexp(2047.0, -25), RINT),
            0x0400);  // largest subnormal + 1/2 ulp -> min normal
  EXPECT_EQ(hb(std::ldexp(2047.0, -25), TRUNC), 0x03FF);
}

TEST(Numeric, Bf16TiesAndDirectedModes) {
  const double tie = f32_from_bits(0x3F808000);  // 1 + 2^-8: halfway between 0x3F80 and 0x3F81
  EXPECT_EQ(bb(tie, RINT), 0x3F80);
  EXPECT_EQ(bb(tie, ROUND), 0x3F81);
  EXPECT_EQ(bb(tie, ODD), 0x3F81);
  EXPECT_EQ(bb(f32_from_bits(0x3F818000), RINT), 0x3F82);  // odd lower neighbour: tie goes up
  EXPECT_EQ(bb(f32_from_bits(0x3F818000), ROUND), 0x3F82);
  EXPECT_EQ(bb(-tie, RINT), 0xBF80);
  EXPECT_EQ(bb(-tie, ROUND), 0xBF81);

  const double x = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -9);  // 0x3F80C000: above the tie
  EXPECT_EQ(bb(x, RINT), 0x3F81);
  EXPECT_EQ(bb(x, ROUND), 0x3F81);
  EXPECT_EQ(bb(x, TRUNC), 0x3F80);
  EXPECT_EQ(bb(x, FLOOR), 0x3F80);
  EXPECT_EQ(bb(x, CEIL), 0x3F81);
  EXPECT_EQ(bb(-x, FLOOR), 0xBF81);
  EXPECT_EQ(bb(-x, CEIL), 0xBF80);
  EXPECT_EQ(bb(-x, TRUNC), 0xBF80);
  const double y = 1.0 + std::ldexp(1.0, -9);  // below the tie
  EXPECT_EQ(bb(y, RINT), 0x3F80);
  EXPECT_EQ(bb(y, ROUND), 0x3F80);
  EXPECT_EQ(bb(y, CEIL), 0x3F81);
  // Overflow past bf16 max ((2-2^-7)*2^127): a double above float range too.
  EXPECT_EQ(bb(1e300, RINT), 0x7F80);
  EXPECT_EQ(bb(1e300, TRUNC), 0x7F7F);
  EXPECT_EQ(bb(-1e300, FLOOR), 0xFF80);
  EXPECT_EQ(bb(-1e300, CEIL), 0xFF7F);
}

TEST(Numeric, RoundToOdd) {
  EXPECT_EQ(hb(1.0 + std::ldexp(1.0, -11), ODD), 0x3C01);  // inexact, even result -> set lsb
  EXPECT_EQ(hb(1.0 + std::ldexp(3.0, -11), ODD), 0x3C01);  // truncates to 0x3C01, already odd
  EXPECT_EQ(hb(1.0 + std::ldexp(1.0, -9) + std::ldexp(1.0, -12), ODD), 0x3C03);
  EXPECT_EQ(hb(1.0 + std::ldexp(1.0, -9), ODD), 0x3C02);  // exact stays even
  EXPECT_EQ(hb(-(1.0 + std::ldexp(1.0, -11)), ODD), 0xBC01);
  EXPECT_EQ(hb(1.9999, ODD), 0x3FFF);
  EXPECT_EQ(bb(1.0 + std::ldexp(1.0, -20), ODD), 0x3F81);
  EXPECT_EQ(fb(1.0 + std::ldexp(1.0, -40), ODD), 0x3F800001u);
  EXPECT_EQ(fb(1.0, ODD), 0x3F800000u);
}

TEST(Numeric, Float32Rounding) {
  const double tie = 1.0 + std::ldexp(1.0, -24);
  EXPECT_EQ(fb(tie, RINT), 0x3F800000u);
  EXPECT_EQ(fb(tie, ROUND), 0x3F800001u);
  EXPECT_EQ(fb(-tie, FLOOR), 0xBF800001u);
  EXPECT_EQ(fb(-tie, CEIL), 0xBF800000u);
  EXPECT_EQ(fb(std::ldexp(1.0, -150), RINT), 0x00000000u);  // tie with 0 -> even
  EXPECT_EQ(fb(std::ldexp(1.0, -150), ROUND), 0x00000001u);
  EXPECT_EQ(fb(std::ldexp(3.0, -150), RINT), 0x00000002u);
  EXPECT_EQ(fb(std::ldexp(1.0, 128), RINT), 0x7F800000u);
  EXPECT_EQ(fb(std::ldexp(1.0, 128), TRUNC), 0x7F7FFFFFu);
  EXPECT_EQ(fb(-std::ldexp(1.0, 128), CEIL), 0xFF7FFFFFu);
  EXPECT_EQ(fb(-std::ldexp(1.0, 128), FLOOR), 0xFF800000u);
  EXPECT_EQ(fb(0.1, RINT), f32_bits(0.1f));
  EXPECT_EQ(fb(-0.0, TRUNC), 0x80000000u);
}

TEST(Numeric, NaNHandling) {
  for (RoundMode m : kAllModes) {
    const uint16_t h = hb(kNaN, m);
    EXPECT_EQ(h & 0x7C00, 0x7C00);
    EXPECT_NE(h & 0x0200, 0);  // quiet bit
    EXPECT_EQ(hb(-kNaN, m) & 0x8000, 0x8000);
    const uint16_t b = bb(kNaN, m);
    EXPECT_EQ(b & 0x7F80, 0x7F80);
    EXPECT_NE(b & 0x0040, 0);
    EXPECT_TRUE(std::isnan(to_f32(kNaN, m)));
    EXPECT_NE(fb(kNaN, m) & 0x00400000u, 0u);
    EXPECT_EQ(to_i32(kNaN, m), 0);
    EXPECT_EQ(to_i16(kNaN, m), 0);
    EXPECT_EQ(to_i8(-kNaN, m), 0);
    EXPECT_EQ(to_u8(kNaN, m), 0);
  }
  // A signalling double NaN whose payload lives only in bits the narrow
  // formats drop must still become a quiet NaN, not inf.
  double snan;
  const uint64_t snan_bits = 0xFFF0000000000001ull;
  std::memcpy(&snan, &snan_bits, sizeof snan);
  EXPECT_EQ(hb(snan, RINT), 0xFE00);
  EXPECT_EQ(bb(snan, RINT), 0xFFC0);
  EXPECT_EQ(fb(snan, RINT), 0xFFC00000u);
  // A signalling half NaN comes back as a (quiet) NaN, never as inf.
  const uint16_t back = hb(to_float(half::from_bits(0x7C01)), RINT);
  EXPECT_EQ(back & 0x7C00, 0x7C00);
  EXPECT_NE(back & 0x03FF, 0);
}

TEST(Numeric, IntegerRoundingAndSaturation) {
  EXPECT_EQ(to_i8(200.0, RINT), 127);
  EXPECT_EQ(to_i8(-200.0, RINT), -128);
  EXPECT_EQ(to_i8(127.5, ROUND), 127);
  EXPECT_EQ(to_i8(-128.5, FLOOR), -128);
  EXPECT_EQ(to_i8(-kInf, RINT), -128);
  EXPECT_EQ(to_u8(-5.0, RINT), 0);
  EXPECT_EQ(to_u8(-0.4, FLOOR), 0);
  EXPECT_EQ(to_u8(300.0, RINT), 255);
  EXPECT_EQ(to_u8(254.5, ROUND), 255);
  EXPECT_EQ(to_u8(254.5, RINT), 254);
  EXPECT_EQ(to_i16(40000.0, RINT), 32767);
  EXPECT_EQ(to_i16(-40000.0, RINT), -32768);
  EXPECT_EQ(to_i16(-1234.5, RINT), -1234);
  EXPECT_EQ(to_i32(3e9, TRUNC), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(to_i32(-3e9, TRUNC), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(to_i32(kInf, FLOOR), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(to_i32(2147483646.5, CEIL), 2147483647);
  EXPECT_EQ(to_i32(-2147483648.0, RINT), std::numeric_limits<int32_t>::min());

  EXPECT_EQ(to_i32(2.5, ROUND), 3);
  EXPECT_EQ(to_i32(2.5, RINT), 2);
  EXPECT_EQ(to_i32(2.5, NONE), 2);
  EXPECT_EQ(to_i32(3.5, RINT), 4);
  EXPECT_EQ(to_i32(-2.5, ROUND), -3);
  EXPECT_EQ(to_i32(-2.5, RINT), -2);
  EXPECT_EQ(to_i32(2.4999, ROUND), 2);
  EXPECT_EQ(to_i32(-1.7, TRUNC), -1);
  EXPECT_EQ(to_i32(1.7, TRUNC), 1);
  EXPECT_EQ(to_i32(-1.2, FLOOR), -2);
  EXPECT_EQ(to_i32(1.7, FLOOR), 1);
  EXPECT_EQ(to_i32(-1.7, CEIL), -1);
  EXPECT_EQ(to_i32(1.2, CEIL), 2);
  EXPECT_EQ(to_i32(-0.5, CEIL), 0);
  EXPECT_EQ(to_i32(2.5, ODD), 3);
  EXPECT_EQ(to_i32(4.0, ODD), 4);
  EXPECT_EQ(to_i32(4.25, ODD), 5);
  EXPECT_EQ(to_i32(-4.25, ODD), -5);
  EXPECT_EQ(to_i16(-7.0, FLOOR), -7);
}

TEST(Numeric, CastToAndToDoubleDispatch) {
  static_assert(std::is_same_v<decltype(cast_to<half>(0.0, RINT)), half>);
  static_assert(std::is_same_v<decltype(cast_to<int8_t>(0.0, RINT)), int8_t>);
  static_assert(std::is_same_v<decltype(cast_to<uint8_t>(0.0, RINT)), uint8_t>);
  const half one = half::from_bits(0x3C00),
             tiny = half::from_bits(0x1000);  // 1 and 2^-11: their sum ties in half
  EXPECT_EQ(to_double(tiny), std::ldexp(1.0, -11));
  EXPECT_EQ(cast_to<half>(to_double(one) + to_double(tiny), RINT).bits, 0x3C00);
  EXPECT_EQ(cast_to<half>(to_double(one) + to_double(tiny), ROUND).bits, 0x3C01);
  EXPECT_EQ(cast_to<bfloat16_t>(to_double(bfloat16_t::from_bits(0x3F80)) * 3, RINT).bits, 0x4040);
  EXPECT_EQ(f32_bits(cast_to<float>(1.0 + std::ldexp(1.0, -24), ROUND)), 0x3F800001u);
  EXPECT_EQ(cast_to<int32_t>(-2.5, ROUND), -3);
  EXPECT_EQ(cast_to<int16_t>(70000.0, RINT), 32767);
  EXPECT_EQ(cast_to<int8_t>(200.0, RINT), 127);
  EXPECT_EQ(cast_to<uint8_t>(2.5, CEIL), 3);
  EXPECT_EQ(to_double(int8_t{-5}), -5.0);
  EXPECT_EQ(to_double(uint8_t{250}), 250.0);
  EXPECT_EQ(to_double(int16_t{-30000}), -30000.0);
  EXPECT_EQ(to_double(int32_t{-2147483647 - 1}), -2147483648.0);
  EXPECT_EQ(to_double(0.1f), static_cast<double>(0.1f));
}

// Every half/bf16 pattern decodes and re-encodes to itself, in every mode
// (a representable value needs no rounding). NaNs keep sign and payload and
// come back quiet (the host's float->double widening keeps the payload).
template <class T, class Encode>
void exhaustive_round_trip(Encode encode, int mant_bits) {
  const uint32_t frac_mask = (1u << mant_bits) - 1, exp_mask = 0x7FFFu & ~frac_mask;
  const uint32_t quiet_bit = 1u << (mant_bits - 1);
  for (uint32_t b = 0; b <= 0xFFFF; ++b) {
    const T t = T::from_bits(static_cast<uint16_t>(b));
    const float f = to_float(t);
    const uint32_t frac = b & frac_mask;
    const bool is_nan = (b & exp_mask) == exp_mask && frac != 0;
    ASSERT_EQ(std::isnan(f), is_nan) << std::hex << b;
    if (is_nan) {  // decode moves the payload bit for bit
      ASSERT_EQ(f32_bits(f), (b & 0x8000u) << 16 | 0x7F800000u | frac << (23 - mant_bits))
          << std::hex << b;
    }
    for (RoundMode m : kAllModes) {
      const uint32_t r = encode(f, m).bits;
      if (is_nan) {
        ASSERT_EQ(r, b | quiet_bit) << std::hex << b;
      } else {
        ASSERT_EQ(r, b) << std::hex << b << " mode " << static_cast<int>(m);
      }
    }
  }
}

TEST(Numeric, Bf16DecodeIsTopHalfOfFloat) {
  for (uint32_t b = 0; b <= 0xFFFF; ++b)
    ASSERT_EQ(f32_bits(to_float(bfloat16_t::from_bits(static_cast<uint16_t>(b)))), b << 16)
        << std::hex << b;
}

TEST(Numeric, ExhaustiveHalfRoundTrip) {
  exhaustive_round_trip<half>(to_half, 10);
}
TEST(Numeric, ExhaustiveBf16RoundTrip) {
  exhaustive_round_trip<bfloat16_t>(to_bf16, 7);
}

// For every pair of adjacent finite patterns (p, p+1) of either sign, probe the
// midpoint and points a quarter-ulp either side of it. The expected result
// only depends on p's parity and the mode, so this covers every binade,
// including the subnormal range and the subnormal->normal boundary.
template <class T, class Encode>
void exhaustive_between_neighbours(Encode encode, uint16_t max_finite) {
  for (uint16_t p = 0; p < max_finite; ++p) {
    const double lo = to_float(T::from_bits(p)),
                 hi = to_float(T::from_bits(static_cast<uint16_t>(p + 1)));
    const double mid = (lo + hi) / 2, quarter = (hi - lo) / 4;
    const uint16_t even = (p & 1) ? p + 1 : p, odd = (p & 1) ? p : p + 1;
    for (uint16_t sign : {uint16_t{0}, uint16_t{0x8000}}) {
      const double s = sign ? -1.0 : 1.0;
      const uint16_t down = sign | p, up = sign | (p + 1);  // by magnitude
      auto check = [&](double v, RoundMode m, uint16_t want) {
        ASSERT_EQ(encode(s * v, m).bits, want) << std::hex << "p=" << p << " sign=" << sign
                                               << " mode=" << static_cast<int>(m) << " v=" << s * v;
      };
      for (double v : {mid - quarter, mid, mid + quarter}) {
        check(v, TRUNC, down);
        check(v, FLOOR, sign ? up : down);
        check(v, CEIL, sign ? down : up);
        check(v, ODD, sign | odd);
      }
      check(mid - quarter, RINT, down);
      check(mid, RINT, sign | even);
      check(mid, NONE, sign | even);
      check(mid + quarter, RINT, up);
      check(mid - quarter, ROUND, down);
      check(mid, ROUND, up);
      check(mid + quarter, ROUND, up);
    }
    if (::testing::Test::HasFatalFailure()) return;  // lambdas' ASSERTs only leave the lambda
  }
}

TEST(Numeric, ExhaustiveHalfBetweenNeighbours) {
  exhaustive_between_neighbours<half>(to_half, 0x7BFF);
}
TEST(Numeric, ExhaustiveBf16BetweenNeighbours) {
  exhaustive_between_neighbours<bfloat16_t>(to_bf16, 0x7F7F);
}

// bf16 from a float is the float's top 16 bits plus a rounding decision on the
// low 16, which gives an independent bit-trick reference for every mode.
uint16_t bf16_reference(uint32_t u, RoundMode m) {
  const uint32_t top = u >> 16, low = u & 0xFFFF;
  const bool neg = u >> 31;
  switch (m) {
    case RINT:
    case NONE:
      return static_cast<uint16_t>((u + 0x7FFF + (top & 1)) >> 16);
    case ROUND:
      return static_cast<uint16_t>((u + 0x8000) >> 16);
    case TRUNC:
      return static_cast<uint16_t>(top);
    case FLOOR:
      return static_cast<uint16_t>(top + (neg && low));
    case CEIL:
      return static_cast<uint16_t>(top + (!neg && low));
    case ODD:
      return static_cast<uint16_t>(top | (low != 0));
  }
  return 0;
}

TEST(Numeric, Bf16MatchesBitTrickReference) {
  auto check = [](uint32_t u) {
    const float f = f32_from_bits(u);
    if (std::isnan(f)) return;
    for (RoundMode m : kAllModes)
      ASSERT_EQ(bb(f, m), bf16_reference(u, m)) << std::hex << u << " mode " << static_cast<int>(m);
  };
  // Every high half with the interesting low halves, then random floats.
  for (uint32_t hi = 0; hi <= 0xFFFF && !HasFatalFailure(); ++hi)
    for (uint32_t lo : {0x0000u, 0x0001u, 0x7FFFu, 0x8000u, 0x8001u, 0xC000u, 0xFFFFu})
      check(hi << 16 | lo);
  std::mt19937 rng(12345);
  for (int i = 0; i < 1000000 && !HasFatalFailure(); ++i) check(static_cast<uint32_t>(rng()));
}

// Random doubles spread over [2^lo_exp, 2^hi_exp) in magnitude, both signs.
double random_double(std::mt19937_64& rng, int lo_exp, int hi_exp) {
  std::uniform_int_distribution<int> e(lo_exp, hi_exp - 1);
  const double mant = 1.0 + std::ldexp(static_cast<double>(rng() >> 11), -53);  // [1, 2), 53 bits
  const double v = std::ldexp(mant, e(rng));
  return (rng() & 1) ? -v : v;
}

TEST(Numeric, Float32MatchesHostFpu) {
  std::mt19937_64 rng(7);
  for (const FeMode& fm : kFeModes) {
    for (int i = 0; i < 300000; ++i) {
      const double d = random_double(rng, -160, 130);  // subnormal .. overflow
      float want;
      {
        ScopedFeRound r(fm.host);
        volatile double vd = d;
        volatile float vf = static_cast<float>(vd);
        want = vf;
      }
      ASSERT_EQ(fb(d, fm.ours), f32_bits(want)) << d << " mode " << static_cast<int>(fm.ours);
    }
  }
}

TEST(Numeric, HalfMatchesHostFloat16) {
#ifdef __FLT16_MANT_DIG__
  std::mt19937_64 rng(11);
  for (const FeMode& fm : kFeModes) {
    for (int i = 0; i < 300000; ++i) {
      const double d = random_double(rng, -28, 18);  // below subnormal .. overflow
      uint16_t want;
      {
        ScopedFeRound r(fm.host);
        volatile double vd = d;
        volatile _Float16 vh = static_cast<_Float16>(vd);
        const _Float16 h = vh;
        std::memcpy(&want, &h, 2);
      }
      ASSERT_EQ(hb(d, fm.ours), want) << d << " mode " << static_cast<int>(fm.ours);
    }
  }
#else
  GTEST_SKIP() << "host compiler has no _Float16";
#endif
}

// The fast inline conversions against the slow reference (numeric_exact), bit for bit, from
// the double v into every type in every mode.
void expect_fast_matches_exact(double v) {
  namespace ex = numeric_exact;
  for (RoundMode m : kAllModes) {
    const auto at = [&](const char* what) {
      return ::testing::Message() << what << " v=" << std::hexfloat << v << std::defaultfloat
                                  << " mode=" << static_cast<int>(m);
    };
    ASSERT_EQ(to_half(v, m).bits, ex::to_half(v, m).bits) << at("half");
    ASSERT_EQ(to_bf16(v, m).bits, ex::to_bf16(v, m).bits) << at("bf16");
    ASSERT_EQ(f32_bits(to_f32(v, m)), f32_bits(ex::to_f32(v, m))) << at("f32");
    ASSERT_EQ(to_i32(v, m), ex::to_i32(v, m)) << at("i32");
    ASSERT_EQ(to_i16(v, m), ex::to_i16(v, m)) << at("i16");
    ASSERT_EQ(to_i8(v, m), ex::to_i8(v, m)) << at("i8");
    ASSERT_EQ(to_u8(v, m), ex::to_u8(v, m)) << at("u8");
  }
}

// Every pattern decodes alike, and it, the midpoint to the next pattern and points just
// around that midpoint (ties and near-ties in the narrower formats) convert alike.
template <class T>
void fast_matches_exact_on_every_pattern() {
  for (uint32_t p = 0; p <= 0xFFFF && !::testing::Test::HasFatalFailure(); ++p) {
    const T x = T::from_bits(static_cast<uint16_t>(p)),
            next = T::from_bits(static_cast<uint16_t>((p + 1) & 0xFFFF));
    const float f = to_float(x);
    ASSERT_EQ(f32_bits(f), f32_bits(numeric_exact::to_float(x))) << std::hex << p;
    expect_fast_matches_exact(f);
    const double mid = (static_cast<double>(f) + to_float(next)) / 2;
    for (double v : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, kInf), f * 0.75, f * 1.5})
      expect_fast_matches_exact(v);
  }
}

TEST(NumericFast, MatchesExactOnEveryHalf) {
  fast_matches_exact_on_every_pattern<half>();
}
TEST(NumericFast, MatchesExactOnEveryBf16) {
  fast_matches_exact_on_every_pattern<bfloat16_t>();
}

// Cast from an integer to half (int_to_half): every int16 value and the int32 edges, every mode.
TEST(NumericFast, IntegerToHalfMatchesExact) {
  std::vector<int64_t> ns;
  for (int64_t n = -65536; n <= 65536; ++n) ns.push_back(n);
  for (int64_t n :
       {int64_t{INT32_MIN}, int64_t{INT32_MIN} + 1, int64_t{INT32_MAX} - 1, int64_t{INT32_MAX}})
    ns.push_back(n);
  for (RoundMode m : kAllModes)
    for (int64_t n : ns)
      ASSERT_EQ(int_to_half(n, m).bits, numeric_exact::to_half(static_cast<double>(n), m).bits)
          << n << " mode " << static_cast<int>(m);
}

TEST(NumericFast, MatchesExactOnIntegerEdges) {
  const double lim[] = {0,      1,      2,      127,    128,          255,          256,
                        32767,  32768,  65535,  65536,  2147483647.0, 2147483648.0, 4294967296.0,
                        0x1p52, 0x1p53, 0x1p63, 0x1p64, 1e300};
  for (double l : lim)
    for (double d : {-1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5})
      for (double s : {1.0, -1.0}) {
        const double v = s * (l + d);
        for (double w :
             {v, std::nextafter(v, 0.0), std::nextafter(v, kInf), std::nextafter(v, -kInf)})
          expect_fast_matches_exact(w);
        if (HasFatalFailure()) return;
      }
  for (int k = -300 * 16; k <= 300 * 16; ++k) expect_fast_matches_exact(k / 16.0);
  for (double v : {kNaN, -kNaN, kInf, -kInf, 0.0, -0.0, 0x1p-1074, -0x1p-1074, 0x1p-1022,
                   std::numeric_limits<double>::max(), -std::numeric_limits<double>::max()})
    expect_fast_matches_exact(v);
}

TEST(NumericFast, MatchesExactOnFloat32Sample) {
  std::mt19937 rng(2024);
  // Low bits that make ties and near-ties for half (13 cut bits) and bf16 (16 cut bits).
  const uint32_t lows[] = {0,      1,      0x7FFFFF, 0x0FFF, 0x1000,  0x1001,  0x2000,
                           0x3000, 0x7FFF, 0x8000,   0x8001, 0x18000, 0x7F8000};
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t exp = 0; exp <= 0xFF && !HasFatalFailure(); ++exp) {
      auto check = [&](uint32_t mant) {
        expect_fast_matches_exact(f32_from_bits(sign | exp << 23 | (mant & 0x7FFFFF)));
      };
      for (uint32_t lo : lows) check(lo);
      for (int i = 0; i < 256; ++i) {
        const uint32_t r = rng();
        check(r);
        for (uint32_t lo : {0x1000u, 0x8000u}) check((r & ~(2 * lo - 1)) | lo);  // exact ties
      }
    }
  // Doubles: every exponent with random 53-bit significands and f32 ties (29 cut bits).
  std::mt19937_64 rng64(99);
  for (int e = 0; e <= 0x7FF && !HasFatalFailure(); ++e)
    for (int i = 0; i < 64; ++i) {
      const uint64_t r = rng64(), base = (r & 0x800FFFFFFFFFFFFFull) | uint64_t(e) << 52;
      expect_fast_matches_exact(numeric_detail::bits_as<double>(base));
      expect_fast_matches_exact(
          numeric_detail::bits_as<double>((base & ~((uint64_t{1} << 29) - 1)) | uint64_t{1} << 28));
    }
}
