// Numeric layer for the Ascend C facade: the 16-bit float storage types and
// the conversions (with Ascend C round modes) that vector ops use to turn an
// exact double intermediate into a real, correctly rounded result. They run per
// element on the payload path, so they are inline bit manipulation;
// numeric_exact.h keeps the slow reference they are tested against.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace AscendC {

// Raw IEEE binary16 bit pattern. Kept as plain bits (not a native _Float16)
// so the simulator's rounding is ours, explicit and host-independent.
struct half {
  uint16_t bits = 0;
  static constexpr half from_bits(uint16_t b) { return half{b}; }
};

// Raw bfloat16 bit pattern (the top 16 bits of a binary32).
struct bfloat16_t {
  uint16_t bits = 0;
  static constexpr bfloat16_t from_bits(uint16_t b) { return bfloat16_t{b}; }
};

static_assert(sizeof(half) == 2 && std::is_trivially_copyable_v<half>);
static_assert(sizeof(bfloat16_t) == 2 && std::is_trivially_copyable_v<bfloat16_t>);

// Bitwise equality: +0 != -0, and a NaN equals itself only with the same bits.
constexpr bool operator==(half a, half b) {
  return a.bits == b.bits;
}
constexpr bool operator!=(half a, half b) {
  return a.bits != b.bits;
}
constexpr bool operator==(bfloat16_t a, bfloat16_t b) {
  return a.bits == b.bits;
}
constexpr bool operator!=(bfloat16_t a, bfloat16_t b) {
  return a.bits != b.bits;
}

// Round modes of Ascend C's Cast.
//   CAST_NONE  - Ascend C: "no rounding needed, otherwise RINT"; here == RINT.
//   CAST_RINT  - nearest, ties to even
//   CAST_FLOOR - toward -inf
//   CAST_CEIL  - toward +inf
//   CAST_ROUND - nearest, ties away from zero
//   CAST_TRUNC - toward zero
//   CAST_ODD   - round to odd: truncate, then set the lowest bit if inexact
enum class RoundMode {
  CAST_NONE,
  CAST_RINT,
  CAST_FLOOR,
  CAST_CEIL,
  CAST_ROUND,
  CAST_TRUNC,
  CAST_ODD
};

namespace numeric_detail {
template <class>
inline constexpr bool unsupported = false;

template <class To, class From>
inline To bits_as(From v) {
  static_assert(sizeof(To) == sizeof(From));
  To r;
  std::memcpy(&r, &v, sizeof r);
  return r;
}

// Rounds the magnitude n (in units of the target's last place) given what was cut off below it:
// `inexact` if anything, `vs_half` the sign of (cut-off - half an ulp). neg is the sign of the
// value: the directed modes act on the magnitude in opposite ways by sign. Bitwise, not
// short-circuit, so that random data costs no mispredicted branches.
inline uint64_t round_magnitude(uint64_t n, bool inexact, int vs_half, bool neg, RoundMode m) {
  switch (m) {
    case RoundMode::CAST_TRUNC:
      return n;
    case RoundMode::CAST_FLOOR:
      return n + (inexact & neg);
    case RoundMode::CAST_CEIL:
      return n + (inexact & !neg);
    case RoundMode::CAST_ROUND:
      return n + (vs_half >= 0);
    case RoundMode::CAST_ODD:
      return n | inexact;
    case RoundMode::CAST_NONE:  // Ascend C: no rounding needed, else RINT
    case RoundMode::CAST_RINT:
    default:
      return n + ((vs_half > 0) | ((vs_half == 0) & (n & 1)));
  }
}

// Rounds the double v into a binary format with M stored mantissa and E exponent bits (half:
// 10/5, bfloat16: 7/8, float: 23/8) by shifting the double's significand; returns the pattern.
template <int M, int E>
inline uint64_t encode(double v, RoundMode m) {
  constexpr int kEmin = 2 - (1 << (E - 1));  // 1 - bias
  constexpr uint64_t kInf = ((uint64_t{1} << E) - 1) << M;
  const auto d = bits_as<uint64_t>(v);
  const bool neg = d >> 63;
  const uint64_t sign = uint64_t{neg} << (M + E);
  const int dexp = static_cast<int>((d >> 52) & 0x7FF);
  const uint64_t dfrac = d & ((uint64_t{1} << 52) - 1);
  if (dexp == 0x7FF)  // inf, or NaN: quiet, with the payload's top bits
    return dfrac ? sign | kInf | (uint64_t{1} << (M - 1)) | (dfrac >> (52 - M)) : sign | kInf;
  if (dexp == 0 && dfrac == 0) return sign;
  // v = sig x 2^(e - 52); a double subnormal (dexp 0) is far below every target's range.
  const int e = dexp ? dexp - 1023 : -1022;
  const uint64_t sig = dexp ? dfrac | (uint64_t{1} << 52) : dfrac;
  // Below kEmin the target is subnormal and shares kEmin's ulp: shift further.
  const int shift = 52 - M + (e < kEmin ? kEmin - e : 0);
  uint64_t n = 0, rem = 1, half_ulp = uint64_t{1} << 63;  // shift >= 64: all cut, below half
  if (shift < 64) {
    n = sig >> shift;
    rem = sig & ((uint64_t{1} << shift) - 1);
    half_ulp = uint64_t{1} << (shift - 1);
  }
  n = round_magnitude(n, rem != 0, (rem > half_ulp) - (rem < half_ulp), neg, m);
  // n includes the implicit bit, so a carry out of the mantissa bumps the exponent, and a
  // subnormal that rounds up to 2^M becomes the smallest normal.
  const uint64_t bits = (static_cast<uint64_t>((e < kEmin ? kEmin : e) - kEmin) << M) + n;
  if (bits < kInf) return sign | bits;
  // Overflow: modes that round the magnitude up go to inf, others to max finite.
  switch (m) {
    case RoundMode::CAST_TRUNC:
    case RoundMode::CAST_ODD:
      return sign | (kInf - 1);
    case RoundMode::CAST_FLOOR:
      return sign | (neg ? kInf : kInf - 1);
    case RoundMode::CAST_CEIL:
      return sign | (neg ? kInf - 1 : kInf);
    default:
      return sign | kInf;
  }
}

// Integer conversion: clamp first (the limits are integers, so rounding cannot leave the
// range), then split the small magnitude into an integer part and an exact fraction.
template <class I>
inline I to_int(double v, RoundMode m) {
  if (v != v) return 0;
  constexpr double lo = std::numeric_limits<I>::min(), hi = std::numeric_limits<I>::max();
  v = std::min(std::max(v, lo), hi);
  if (m == RoundMode::CAST_RINT || m == RoundMode::CAST_NONE) {
    // |v| <= 2^31: v + 1.5 x 2^52 has an ulp of 1, so the host's nearest-even rounding of the sum
    // is RINT's; taking the constant away again is exact. No branch: a span of these vectorizes.
    constexpr double kRound = 0x1.8p52;
    return static_cast<I>(static_cast<int64_t>((v + kRound) - kRound));
  }
  if (m == RoundMode::CAST_TRUNC) return static_cast<I>(static_cast<int64_t>(v));  // toward 0
  const bool neg = v < 0;
  const double a = std::fabs(v);
  const auto n = static_cast<int64_t>(a);          // truncates; a <= 2^31
  const double frac = a - static_cast<double>(n);  // exact
  const auto mag = static_cast<int64_t>(
      round_magnitude(static_cast<uint64_t>(n), frac != 0, (frac > 0.5) - (frac < 0.5), neg, m));
  return static_cast<I>(neg ? -mag : mag);
}
}  // namespace numeric_detail

// Exact decoding (subnormals, inf and NaN included; every half/bf16 is a float).
inline float to_float(half h) {
  const uint32_t sign = uint32_t{h.bits & 0x8000u} << 16, exp = (h.bits >> 10) & 0x1F,
                 frac = h.bits & 0x3FFu;
  if (exp == 0) {  // zero or subnormal: frac x 2^-24, exact in float
    const float mag = static_cast<float>(frac) * 0x1p-24f;
    return numeric_detail::bits_as<float>(sign | numeric_detail::bits_as<uint32_t>(mag));
  }
  // Rebias the exponent (15 -> 127); inf/NaN keep an all-ones exponent and their payload.
  const uint32_t fexp = exp == 0x1F ? 0xFFu : exp + 112;
  return numeric_detail::bits_as<float>(sign | fexp << 23 | frac << 13);
}
inline float to_float(bfloat16_t b) {
  return numeric_detail::bits_as<float>(uint32_t{b.bits} << 16);
}

// Correctly rounded encoding of an exact double. Overflow follows the mode:
// RINT/NONE/ROUND -> +-inf; TRUNC/ODD -> +-max finite; FLOOR -> +max / -inf;
// CEIL -> +inf / -max. NaN stays NaN (quiet, sign kept); signed zero is kept.
inline half to_half(double v, RoundMode m) {
  return half::from_bits(static_cast<uint16_t>(numeric_detail::encode<10, 5>(v, m)));
}
// An integer to half. Up to 2048 in magnitude it is exact in half, so every mode gives it: its
// float's exponent rebiased and mantissa cut (no rounding to do); beyond, as a double.
inline half int_to_half(int64_t n, RoundMode m) {
  if (n < -2048 || n > 2048) return to_half(static_cast<double>(n), m);
  const auto f = numeric_detail::bits_as<uint32_t>(static_cast<float>(n < 0 ? -n : n));
  const uint32_t mag = n == 0 ? 0 : (((f >> 23) - 112) << 10) | ((f >> 13) & 0x3FFu);
  return half::from_bits(static_cast<uint16_t>((n < 0 ? 0x8000u : 0u) | mag));
}
inline bfloat16_t to_bf16(double v, RoundMode m) {
  return bfloat16_t::from_bits(static_cast<uint16_t>(numeric_detail::encode<7, 8>(v, m)));
}
inline float to_f32(double v, RoundMode m) {
  // The host's double -> float conversion rounds to nearest even (the IEEE default mode).
  if (m == RoundMode::CAST_RINT || m == RoundMode::CAST_NONE) return static_cast<float>(v);
  return numeric_detail::bits_as<float>(static_cast<uint32_t>(numeric_detail::encode<23, 8>(v, m)));
}

// Integer conversion: round per mode, saturate to the target range, NaN -> 0.
inline int32_t to_i32(double v, RoundMode m) {
  return numeric_detail::to_int<int32_t>(v, m);
}
inline int16_t to_i16(double v, RoundMode m) {
  return numeric_detail::to_int<int16_t>(v, m);
}
inline int8_t to_i8(double v, RoundMode m) {
  return numeric_detail::to_int<int8_t>(v, m);
}
inline uint8_t to_u8(double v, RoundMode m) {
  return numeric_detail::to_int<uint8_t>(v, m);
}

// Calls f(std::integral_constant<RoundMode, m>{}): a loop over a span written inside f is then
// compiled once per mode, with the rounding decision folded instead of switched per element.
template <class F>
decltype(auto) with_round_mode(RoundMode m, F&& f) {
  using R = RoundMode;
  switch (m) {
    case R::CAST_NONE:
      return f(std::integral_constant<R, R::CAST_NONE>{});
    case R::CAST_FLOOR:
      return f(std::integral_constant<R, R::CAST_FLOOR>{});
    case R::CAST_CEIL:
      return f(std::integral_constant<R, R::CAST_CEIL>{});
    case R::CAST_ROUND:
      return f(std::integral_constant<R, R::CAST_ROUND>{});
    case R::CAST_TRUNC:
      return f(std::integral_constant<R, R::CAST_TRUNC>{});
    case R::CAST_ODD:
      return f(std::integral_constant<R, R::CAST_ODD>{});
    case R::CAST_RINT:
    default:
      return f(std::integral_constant<R, R::CAST_RINT>{});
  }
}

// Widen any supported element type to double; exact for all of them, so
// e.g. a product of two halves/floats is exact in double and a following
// cast_to rounds only once.
template <class T>
double to_double(T v) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>)
    return static_cast<double>(to_float(v));
  else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, int32_t> ||
                     std::is_same_v<T, int16_t> || std::is_same_v<T, int8_t> ||
                     std::is_same_v<T, uint8_t>)
    return static_cast<double>(v);
  else
    static_assert(numeric_detail::unsupported<T>, "to_double: unsupported type");
}

// Round an exact double to element type Dst with the given mode.
template <class Dst>
Dst cast_to(double v, RoundMode m) {
  if constexpr (std::is_same_v<Dst, float>)
    return to_f32(v, m);
  else if constexpr (std::is_same_v<Dst, half>)
    return to_half(v, m);
  else if constexpr (std::is_same_v<Dst, bfloat16_t>)
    return to_bf16(v, m);
  else if constexpr (std::is_same_v<Dst, int32_t>)
    return to_i32(v, m);
  else if constexpr (std::is_same_v<Dst, int16_t>)
    return to_i16(v, m);
  else if constexpr (std::is_same_v<Dst, int8_t>)
    return to_i8(v, m);
  else if constexpr (std::is_same_v<Dst, uint8_t>)
    return to_u8(v, m);
  else
    static_assert(numeric_detail::unsupported<Dst>, "cast_to: unsupported type");
}

}  // namespace AscendC
