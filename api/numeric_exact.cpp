// The reference conversions: slow, written for obvious correctness (frexp/ldexp/floor on an
// exact double). numeric.h's fast paths must match them bit for bit; tests/test_numeric.cpp
// compares the two exhaustively.
#include "api/numeric_exact.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace AscendC::numeric_exact {
namespace {

// Shared by the float and integer paths: given |v| split into an integer part
// n (in units of the target's last place) and the exact fraction frac in
// [0, 1), return the rounded magnitude. neg is the sign of v, needed by the
// directed modes, which act on the magnitude in opposite ways by sign.
uint64_t round_magnitude(uint64_t n, double frac, bool neg, RoundMode m) {
  if (frac == 0.0) return n;
  switch (m) {
    case RoundMode::CAST_TRUNC:
      return n;
    case RoundMode::CAST_FLOOR:
      return neg ? n + 1 : n;
    case RoundMode::CAST_CEIL:
      return neg ? n : n + 1;
    case RoundMode::CAST_ROUND:
      return frac >= 0.5 ? n + 1 : n;
    case RoundMode::CAST_ODD:
      return n | 1;
    case RoundMode::CAST_NONE:  // Ascend C: no rounding needed, else RINT
    case RoundMode::CAST_RINT:
    default:
      return (frac > 0.5 || (frac == 0.5 && (n & 1))) ? n + 1 : n;
  }
}

// A binary floating format with `mant` stored mantissa bits and `expo`
// exponent bits (half: 10/5, bfloat16: 7/8, float: 23/8).
struct Format {
  int mant, expo;
  int bias() const { return (1 << (expo - 1)) - 1; }
  int emin() const { return 1 - bias(); }
  uint64_t exp_all_ones() const { return ((uint64_t{1} << expo) - 1) << mant; }
  uint64_t sign_bit() const { return uint64_t{1} << (mant + expo); }
};

// Round the double v into format f; returns the bit pattern.
uint64_t encode(double v, RoundMode m, Format f) {
  const bool neg = std::signbit(v);
  const uint64_t sign = neg ? f.sign_bit() : 0;
  if (std::isnan(v)) {
    // Keep the top payload bits and force the quiet bit.
    uint64_t d;
    std::memcpy(&d, &v, sizeof d);
    uint64_t payload = (d >> (52 - f.mant)) & ((uint64_t{1} << f.mant) - 1);
    return sign | f.exp_all_ones() | (uint64_t{1} << (f.mant - 1)) | payload;
  }
  if (std::isinf(v)) return sign | f.exp_all_ones();
  if (v == 0.0) return sign;

  const double a = std::fabs(v);
  int e;
  std::frexp(a, &e);
  e -= 1;                                              // a in [2^e, 2^(e+1))
  const int ulp_exp = std::max(e, f.emin()) - f.mant;  // subnormals share emin's ulp
  const double scaled = std::ldexp(a, -ulp_exp);       // exact: power-of-two scale
  const double whole = std::floor(scaled);             // < 2^(mant+1), fits easily
  const uint64_t n = round_magnitude(static_cast<uint64_t>(whole), scaled - whole, neg, m);

  // Exponent field times 2^mant plus n (which includes the implicit bit) is
  // the encoding; a carry out of the mantissa bumps the exponent for free,
  // and a subnormal that rounds up to 2^mant becomes the smallest normal.
  const uint64_t bits = (static_cast<uint64_t>(std::max(e, f.emin()) - f.emin()) << f.mant) + n;
  if (bits < f.exp_all_ones()) return sign | bits;

  // Overflow: modes that round the magnitude up go to inf, others to max.
  const uint64_t inf = f.exp_all_ones(), max_finite = inf - 1;
  switch (m) {
    case RoundMode::CAST_TRUNC:
    case RoundMode::CAST_ODD:
      return sign | max_finite;
    case RoundMode::CAST_FLOOR:
      return sign | (neg ? inf : max_finite);
    case RoundMode::CAST_CEIL:
      return sign | (neg ? max_finite : inf);
    default:
      return sign | inf;
  }
}

// Exact decode of a half/bfloat16 pattern into float (both fit in binary32).
float decode(uint32_t bits, Format f) {
  const bool neg = (bits >> (f.mant + f.expo)) & 1;
  const uint32_t exp_field = (bits >> f.mant) & ((1u << f.expo) - 1);
  const uint32_t frac = bits & ((1u << f.mant) - 1);
  if (exp_field == (1u << f.expo) - 1) {
    // Inf/NaN: move the payload to float's position bit for bit.
    uint32_t out = (neg ? 0x80000000u : 0u) | 0x7F800000u | (frac << (23 - f.mant));
    float r;
    std::memcpy(&r, &out, sizeof r);
    return r;
  }
  const float mag = exp_field == 0 ? std::ldexp(static_cast<float>(frac), f.emin() - f.mant)
                                   : std::ldexp(static_cast<float>(frac | (1u << f.mant)),
                                                static_cast<int>(exp_field) - f.bias() - f.mant);
  return neg ? -mag : mag;
}

constexpr Format kHalf{10, 5}, kBf16{7, 8}, kF32{23, 8};

// Clamp first (limits are integers, so rounding can't leave the range), then
// round the now-small magnitude with the shared rounding rule.
int64_t to_int(double v, RoundMode m, int64_t lo, int64_t hi) {
  if (std::isnan(v)) return 0;
  v = std::clamp(v, static_cast<double>(lo), static_cast<double>(hi));
  const bool neg = v < 0;
  const double a = std::fabs(v);
  const double whole = std::floor(a);
  const auto mag =
      static_cast<int64_t>(round_magnitude(static_cast<uint64_t>(whole), a - whole, neg, m));
  return neg ? -mag : mag;
}

}  // namespace

float to_float(half h) {
  return decode(h.bits, kHalf);
}
float to_float(bfloat16_t b) {
  return decode(b.bits, kBf16);
}

half to_half(double v, RoundMode m) {
  return half::from_bits(static_cast<uint16_t>(encode(v, m, kHalf)));
}
bfloat16_t to_bf16(double v, RoundMode m) {
  return bfloat16_t::from_bits(static_cast<uint16_t>(encode(v, m, kBf16)));
}
float to_f32(double v, RoundMode m) {
  const auto bits = static_cast<uint32_t>(encode(v, m, kF32));
  float r;
  std::memcpy(&r, &bits, sizeof r);
  return r;
}

int32_t to_i32(double v, RoundMode m) {
  return static_cast<int32_t>(to_int(v, m, INT32_MIN, INT32_MAX));
}
int16_t to_i16(double v, RoundMode m) {
  return static_cast<int16_t>(to_int(v, m, INT16_MIN, INT16_MAX));
}
int8_t to_i8(double v, RoundMode m) {
  return static_cast<int8_t>(to_int(v, m, INT8_MIN, INT8_MAX));
}
uint8_t to_u8(double v, RoundMode m) {
  return static_cast<uint8_t>(to_int(v, m, 0, UINT8_MAX));
}

}  // namespace AscendC::numeric_exact
