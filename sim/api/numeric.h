// Numeric layer for the Ascend C facade: the 16-bit float storage types and
// the conversions (with Ascend C round modes) that vector ops use to turn an
// exact double intermediate into a real, correctly rounded result.
#pragma once

#include <cstdint>
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

// Exact decoding (subnormals, inf and NaN included; every half/bf16 is a float).
float to_float(half h);
float to_float(bfloat16_t b);

// Correctly rounded encoding of an exact double. Overflow follows the mode:
// RINT/NONE/ROUND -> +-inf; TRUNC/ODD -> +-max finite; FLOOR -> +max / -inf;
// CEIL -> +inf / -max. NaN stays NaN (quiet, sign kept); signed zero is kept.
half to_half(double v, RoundMode m);
bfloat16_t to_bf16(double v, RoundMode m);
float to_f32(double v, RoundMode m);

// Integer conversion: round per mode, saturate to the target range, NaN -> 0.
int32_t to_i32(double v, RoundMode m);
int16_t to_i16(double v, RoundMode m);
int8_t to_i8(double v, RoundMode m);
uint8_t to_u8(double v, RoundMode m);

namespace numeric_detail {
template <class>
inline constexpr bool unsupported = false;
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
