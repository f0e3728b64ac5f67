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

// The scalar side of the 16-bit float types: bit-level decoding and encoding that the types'
// constructors, conversions and operators use.
namespace numeric_detail {
inline float f16_to_f32(uint16_t h) {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16, exp = (h >> 10) & 0x1F, frac = h & 0x3FFu;
  if (exp == 0) {  // zero or subnormal: frac x 2^-24, exact in float
    const float mag = static_cast<float>(frac) * 0x1p-24f;
    return bits_as<float>(sign | bits_as<uint32_t>(mag));
  }
  // Rebias the exponent (15 -> 127); inf/NaN keep an all-ones exponent and their payload.
  const uint32_t fexp = exp == 0x1F ? 0xFFu : exp + 112;
  return bits_as<float>(sign | fexp << 23 | frac << 13);
}
inline float bf16_to_f32(uint16_t b) {
  return bits_as<float>(uint32_t{b} << 16);
}

// float -> binary16, nearest even; a NaN stays quiet with the payload's top bits, as encode<10, 5>
// does for the same value as a double. Bit manipulation on the float, independent of encode.
inline uint16_t f32_to_f16(float f) {
  const uint32_t u = bits_as<uint32_t>(f), a = u & 0x7FFFFFFFu;
  const auto sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  if (a > 0x7F800000u) return sign | 0x7E00u | ((a >> 13) & 0x3FFu);
  if (a >= 0x477FF000u) return sign | 0x7C00u;  // >= 65520, the tie above 65504 (odd): inf
  if (a >= 0x38800000u) {                       // >= 2^-14: normal
    const uint32_t r = a - 0x38000000u;         // rebias 127 -> 15, frac still 23 bits
    return static_cast<uint16_t>(sign | ((r + 0xFFFu + ((r >> 13) & 1)) >> 13));
  }
  if (a <= 0x33000000u) return sign;  // <= 2^-25, half the smallest subnormal (a tie to 0)
  // Subnormal: the value in units of 2^-24 is sig x 2^(e - 126), e <= 112; a carry out of the
  // 10 bits makes the smallest normal.
  const uint32_t e = a >> 23, sig = (a & 0x7FFFFFu) | 0x800000u, shift = 126 - e;
  const uint32_t n = sig >> shift, rem = sig & ((1u << shift) - 1), tie = 1u << (shift - 1);
  return static_cast<uint16_t>(sign | (n + ((rem > tie) | ((rem == tie) & n & 1))));
}
// float -> bfloat16, nearest even: the float's top half, rounded on the bottom half (a carry
// into the exponent gives the next binade, or inf). A NaN stays quiet with its top payload.
inline uint16_t f32_to_bf16(float f) {
  const uint32_t u = bits_as<uint32_t>(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
  return static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1)) >> 16);
}

// An integer as a double that rounds to 16-bit formats as the integer itself would: exact up to
// 2^53; beyond, cut to 53 bits with the cut bits folded into the last one (round to odd), so that
// the single later rounding to 11 or 8 bits cannot meet a false tie.
template <class I>
inline double int_as_double(I n) {
  if constexpr (sizeof(I) < sizeof(int64_t)) {
    return static_cast<double>(n);
  } else {
    const bool neg = n < 0;
    // Magnitude without overflow at the most negative value.
    uint64_t m = neg ? uint64_t{0} - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
    int cut = 0;
    while ((m >> cut) >> 53) ++cut;
    if (cut) m = (m >> cut) | ((m & ((uint64_t{1} << cut) - 1)) != 0);
    const double d = std::ldexp(static_cast<double>(m), cut);
    return neg ? -d : d;
  }
}

// A 16-bit float's value (as an exact float) to arithmetic type T: floats widen exactly; integers
// truncate toward zero like a C++ float -> integer conversion, with what C++ leaves undefined
// defined here: NaN -> 0, out of range -> saturated.
template <class T>
inline T float_to(float f) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, bool>) {
    return static_cast<T>(f);
  } else {
    if (f != f) return 0;
    // The limits as floats: min is 0 or a power of two (exact); max is exact or rounds up to a
    // power of two, which >= catches as well.
    constexpr auto lo = static_cast<float>(std::numeric_limits<T>::min()),
                   hi = static_cast<float>(std::numeric_limits<T>::max());
    if (f <= lo) return std::numeric_limits<T>::min();
    if (f >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(f);
  }
}

template <class T>
inline constexpr bool arithmetic_v = std::is_arithmetic_v<T>;
}  // namespace numeric_detail

struct bfloat16_t;

// IEEE binary16, stored as its bit pattern (not a native _Float16) so that rounding is ours,
// explicit and host-independent. In scalar code it behaves like the device compiler's half:
// constructed implicitly from any arithmetic value (correctly rounded, nearest even), converted
// implicitly to any arithmetic type, with IEEE arithmetic and comparisons (operators below).
// `bits` and from_bits() give the pattern; compare patterns through them where bits are meant.
struct half {
  uint16_t bits = 0;

  half() = default;
  template <class T, std::enable_if_t<numeric_detail::arithmetic_v<T>, int> = 0>
  half(T v) : bits(encode_from(v)) {}  // NOLINT: implicit, as the device type is
  explicit half(bfloat16_t b);

  template <class T, std::enable_if_t<numeric_detail::arithmetic_v<T>, int> = 0>
  operator T() const {  // NOLINT: implicit, as the device type is
    return numeric_detail::float_to<T>(numeric_detail::f16_to_f32(bits));
  }
  float ToFloat() const { return numeric_detail::f16_to_f32(bits); }

  static constexpr half from_bits(uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }

 private:
  // Each source rounds once: a float directly; a double directly (not through float, which would
  // round twice); an integer through an exact (or round-to-odd) double.
  template <class T>
  static uint16_t encode_from(T v) {
    if constexpr (std::is_same_v<T, float>)
      return numeric_detail::f32_to_f16(v);
    else if constexpr (std::is_floating_point_v<T>)
      return static_cast<uint16_t>(
          numeric_detail::encode<10, 5>(static_cast<double>(v), RoundMode::CAST_RINT));
    else
      return static_cast<uint16_t>(
          numeric_detail::encode<10, 5>(numeric_detail::int_as_double(v), RoundMode::CAST_RINT));
  }
};

// bfloat16 (the top 16 bits of a binary32), stored as its bit pattern; in scalar code it behaves
// like half (see there).
struct bfloat16_t {
  uint16_t bits = 0;

  bfloat16_t() = default;
  template <class T, std::enable_if_t<numeric_detail::arithmetic_v<T>, int> = 0>
  bfloat16_t(T v) : bits(encode_from(v)) {}  // NOLINT: implicit, as the device type is
  explicit bfloat16_t(half h) : bits(numeric_detail::f32_to_bf16(h.ToFloat())) {}

  template <class T, std::enable_if_t<numeric_detail::arithmetic_v<T>, int> = 0>
  operator T() const {  // NOLINT: implicit, as the device type is
    return numeric_detail::float_to<T>(numeric_detail::bf16_to_f32(bits));
  }
  float ToFloat() const { return numeric_detail::bf16_to_f32(bits); }

  static constexpr bfloat16_t from_bits(uint16_t b) {
    bfloat16_t h;
    h.bits = b;
    return h;
  }

 private:
  template <class T>
  static uint16_t encode_from(T v) {
    if constexpr (std::is_same_v<T, float>)
      return numeric_detail::f32_to_bf16(v);
    else if constexpr (std::is_floating_point_v<T>)
      return static_cast<uint16_t>(
          numeric_detail::encode<7, 8>(static_cast<double>(v), RoundMode::CAST_RINT));
    else
      return static_cast<uint16_t>(
          numeric_detail::encode<7, 8>(numeric_detail::int_as_double(v), RoundMode::CAST_RINT));
  }
};

// Both values are exact in float, so one rounding.
inline half::half(bfloat16_t b) : bits(numeric_detail::f32_to_f16(b.ToFloat())) {}

static_assert(sizeof(half) == 2 && std::is_trivially_copyable_v<half> &&
              std::is_standard_layout_v<half>);
static_assert(sizeof(bfloat16_t) == 2 && std::is_trivially_copyable_v<bfloat16_t> &&
              std::is_standard_layout_v<bfloat16_t>);

// Scalar arithmetic, as the device compiler's usual arithmetic conversions have it:
//   half op half, half op integer (the integer first converted to half) -> half, correctly
//     rounded (nearest even);
//   half op float -> float, half op double -> double (the half widened exactly);
//   the same for bfloat16_t; half op bfloat16_t does not compile (no common type on the device).
// + - * on either type and / on half are computed in float, whose result is then rounded to the
// 16-bit type. Rounding twice is innocuous for + - * / when the wider format has at least 2p + 2
// bits: float's 24 over half's whole range (p = 11), and over bf16's normal range (p = 8); in
// bf16's subnormal range a sum is exact in float, and the tests check + and * of every bf16 pair.
// bfloat16_t / goes through double instead, whose range leaves no subnormal case. Comparisons are
// IEEE (a NaN equals nothing, +0 == -0); an integer operand is converted to the 16-bit type first.
// Compound assignment rounds the operation's result to the left operand's type, so h += 1.0f is
// h = half(float(h) + 1.0f), as in C.
namespace numeric_detail {
template <class T>
inline constexpr bool low_float_v = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

template <class T>
inline T low_from_f32(float f) {
  return T::from_bits(std::is_same_v<T, half> ? f32_to_f16(f) : f32_to_bf16(f));
}
template <class L, class R>
using if_both_low = std::enable_if_t<low_float_v<L> && std::is_same_v<L, R>, int>;
template <class L, class R>
using if_low_int = std::enable_if_t<low_float_v<L> && std::is_integral_v<R>, int>;
template <class L, class R>
using if_low_fp = std::enable_if_t<low_float_v<L> && std::is_floating_point_v<R>, int>;
template <class L, class R>
using if_low_mixed =
    std::enable_if_t<low_float_v<L> && low_float_v<R> && !std::is_same_v<L, R>, int>;
}  // namespace numeric_detail

template <class T, class U, numeric_detail::if_both_low<T, U> = 0>
inline T operator+(T a, U b) {
  return numeric_detail::low_from_f32<T>(a.ToFloat() + b.ToFloat());
}
template <class T, class U, numeric_detail::if_both_low<T, U> = 0>
inline T operator-(T a, U b) {
  return numeric_detail::low_from_f32<T>(a.ToFloat() - b.ToFloat());
}
template <class T, class U, numeric_detail::if_both_low<T, U> = 0>
inline T operator*(T a, U b) {
  return numeric_detail::low_from_f32<T>(a.ToFloat() * b.ToFloat());
}
template <class T, class U, numeric_detail::if_both_low<T, U> = 0>
inline T operator/(T a, U b) {
  if constexpr (std::is_same_v<T, half>)
    return numeric_detail::low_from_f32<T>(a.ToFloat() / b.ToFloat());
  else
    return T(static_cast<double>(a.ToFloat()) / static_cast<double>(b.ToFloat()));
}

// half/bfloat16_t with an integer or a floating-point type, either side; comparisons of two.
#define ASCEND_NUMERIC_MIXED_OP(OP)                                                               \
  template <class T, class I, numeric_detail::if_low_int<T, I> = 0>                               \
  inline T operator OP(T a, I b) {                                                                \
    return a OP T(b);                                                                             \
  }                                                                                               \
  template <class T, class I, numeric_detail::if_low_int<T, I> = 0>                               \
  inline T operator OP(I a, T b) {                                                                \
    return T(a) OP b;                                                                             \
  }                                                                                               \
  template <class T, class F, numeric_detail::if_low_fp<T, F> = 0>                                \
  inline F operator OP(T a, F b) {                                                                \
    return static_cast<F>(a.ToFloat()) OP b;                                                      \
  }                                                                                               \
  template <class T, class F, numeric_detail::if_low_fp<T, F> = 0>                                \
  inline F operator OP(F a, T b) {                                                                \
    return a OP static_cast<F>(b.ToFloat());                                                      \
  }                                                                                               \
  template <class T, class U, numeric_detail::if_low_mixed<T, U> = 0>                             \
  void operator OP(T, U) = delete;                                                                \
  template <class T, class U, numeric_detail::if_both_low<T, U> = 0>                              \
  inline T& operator OP##=(T& a, U b) {                                                           \
    return a = a OP b;                                                                            \
  }                                                                                               \
  template <class T, class U,                                                                     \
            std::enable_if_t<numeric_detail::low_float_v<T> && std::is_arithmetic_v<U>, int> = 0> \
  inline T& operator OP##=(T& a, U b) {                                                           \
    return a = T(a OP b);                                                                         \
  }
ASCEND_NUMERIC_MIXED_OP(+)
ASCEND_NUMERIC_MIXED_OP(-)
ASCEND_NUMERIC_MIXED_OP(*)
ASCEND_NUMERIC_MIXED_OP(/)
#undef ASCEND_NUMERIC_MIXED_OP

#define ASCEND_NUMERIC_COMPARE(OP)                                    \
  template <class T, class U, numeric_detail::if_both_low<T, U> = 0>  \
  inline bool operator OP(T a, U b) {                                 \
    return a.ToFloat() OP b.ToFloat();                                \
  }                                                                   \
  template <class T, class I, numeric_detail::if_low_int<T, I> = 0>   \
  inline bool operator OP(T a, I b) {                                 \
    return a OP T(b);                                                 \
  }                                                                   \
  template <class T, class I, numeric_detail::if_low_int<T, I> = 0>   \
  inline bool operator OP(I a, T b) {                                 \
    return T(a) OP b;                                                 \
  }                                                                   \
  template <class T, class F, numeric_detail::if_low_fp<T, F> = 0>    \
  inline bool operator OP(T a, F b) {                                 \
    return static_cast<F>(a.ToFloat()) OP b;                          \
  }                                                                   \
  template <class T, class F, numeric_detail::if_low_fp<T, F> = 0>    \
  inline bool operator OP(F a, T b) {                                 \
    return a OP static_cast<F>(b.ToFloat());                          \
  }                                                                   \
  template <class T, class U, numeric_detail::if_low_mixed<T, U> = 0> \
  bool operator OP(T, U) = delete;
ASCEND_NUMERIC_COMPARE(==)
ASCEND_NUMERIC_COMPARE(!=)
ASCEND_NUMERIC_COMPARE(<)
ASCEND_NUMERIC_COMPARE(<=)
ASCEND_NUMERIC_COMPARE(>)
ASCEND_NUMERIC_COMPARE(>=)
#undef ASCEND_NUMERIC_COMPARE

// Negation flips the sign bit, NaN included, as IEEE negate does.
template <class T, std::enable_if_t<numeric_detail::low_float_v<T>, int> = 0>
inline T operator-(T a) {
  return T::from_bits(static_cast<uint16_t>(a.bits ^ 0x8000u));
}
template <class T, std::enable_if_t<numeric_detail::low_float_v<T>, int> = 0>
inline T operator+(T a) {
  return a;
}
template <class T, std::enable_if_t<numeric_detail::low_float_v<T>, int> = 0>
inline T& operator++(T& a) {
  return a = a + T(1);
}
template <class T, std::enable_if_t<numeric_detail::low_float_v<T>, int> = 0>
inline T& operator--(T& a) {
  return a = a - T(1);
}
template <class T, std::enable_if_t<numeric_detail::low_float_v<T>, int> = 0>
inline T operator++(T& a, int) {
  const T old = a;
  ++a;
  return old;
}
template <class T, std::enable_if_t<numeric_detail::low_float_v<T>, int> = 0>
inline T operator--(T& a, int) {
  const T old = a;
  --a;
  return old;
}

// Exact decoding (subnormals, inf and NaN included; every half/bf16 is a float).
inline float to_float(half h) {
  return numeric_detail::f16_to_f32(h.bits);
}
inline float to_float(bfloat16_t b) {
  return numeric_detail::bf16_to_f32(b.bits);
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
