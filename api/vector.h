// Element-wise vector instructions: level-2 forms (a count of elements) and level-0 forms (repeats
// with block and repeat strides).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "api/tensor.h"

namespace AscendC {

// Level-2 forms (a count of elements) on fp32/fp16/bf16/int32/int16/int8. Results are computed
// in the element type with round-to-nearest-even, integers wrap.

namespace detail {
template <class D, class S, class F>
void unary(const char* name, const LocalTensor<D>& dst, const LocalTensor<S>& src, uint32_t count,
           F f) {
  check_operand(dst, uint64_t{count} * sizeof(D), name, kWrite);
  check_operand(src, uint64_t{count} * sizeof(S), name, kRead);
  issue_vector(name, repeats_for(count, std::max(sizeof(D), sizeof(S))), [dst, src, count, f] {
    D* d = dst.ptr();
    const S* s = src.ptr();
    // Locals: a store through d could otherwise change the captures, which then reload every
    // element and keep the loop from vectorizing.
    const uint32_t n = count;
    const F op = f;
    for (uint32_t i = 0; i < n; ++i) d[i] = op(s[i]);
  });
}
template <class T, class F>
void binary(const char* name, const LocalTensor<T>& dst, const LocalTensor<T>& a,
            const LocalTensor<T>& b, uint32_t count, F f) {
  for (const LocalTensor<T>* t : {&dst, &a, &b})
    check_operand(*t, uint64_t{count} * sizeof(T), name, t == &dst ? kWrite : kRead);
  issue_vector(name, repeats_for(count, sizeof(T)), [dst, a, b, count, f] {
    T* d = dst.ptr();
    const T* x = a.ptr();
    const T* y = b.ptr();
    const uint32_t n = count;  // locals, as in unary()
    const F op = f;
    for (uint32_t i = 0; i < n; ++i) d[i] = op(x[i], y[i]);
  });
}
}  // namespace detail

template <class T>
void Duplicate(const LocalTensor<T>& dst, T value, uint32_t count) {
  detail::unary("Duplicate", dst, dst, count, [value](T) { return value; });
}
template <class T>
void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, T s, uint32_t count) {
  detail::unary("Adds", dst, src, count, [s](T x) { return detail::add(x, s); });
}
template <class T>
void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, T s, uint32_t count) {
  detail::unary("Muls", dst, src, count, [s](T x) { return detail::mul(x, s); });
}
template <class T>
void Mins(const LocalTensor<T>& dst, const LocalTensor<T>& src, T s, uint32_t count) {
  detail::unary("Mins", dst, src, count, [s](T x) { return to_double(x) <= to_double(s) ? x : s; });
}
template <class T>
void Maxs(const LocalTensor<T>& dst, const LocalTensor<T>& src, T s, uint32_t count) {
  detail::unary("Maxs", dst, src, count, [s](T x) { return to_double(x) >= to_double(s) ? x : s; });
}
// Transcendental and activation functions, fp32/fp16/bf16: the exact result rounded to nearest
// even in T (the hardware's approximations may differ in the last bit).
namespace detail {
template <class T>
T round_to(double v) {
  return cast_to<T>(v, RoundMode::CAST_RINT);
}
template <class T>
constexpr void require_float(const char* name) {
  (void)name;
  static_assert(!std::is_integral_v<T>, "this instruction takes fp32, fp16 or bf16 operands");
}
}  // namespace detail
template <class T>
void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::require_float<T>("Exp");
  detail::unary("Exp", dst, src, count,
                [](T x) { return detail::round_to<T>(std::exp(to_double(x))); });
}
template <class T>
void Ln(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::require_float<T>("Ln");
  detail::unary("Ln", dst, src, count,
                [](T x) { return detail::round_to<T>(std::log(to_double(x))); });
}
template <class T>
void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::require_float<T>("Sqrt");
  detail::unary("Sqrt", dst, src, count,
                [](T x) { return detail::round_to<T>(std::sqrt(to_double(x))); });
}
template <class T>
void Reciprocal(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::require_float<T>("Reciprocal");
  detail::unary("Reciprocal", dst, src, count,
                [](T x) { return detail::round_to<T>(1.0 / to_double(x)); });
}
template <class T>
void Relu(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::unary("Relu", dst, src, count, [](T x) { return to_double(x) > 0 ? x : T{}; });
}
// x for x >= 0, x * alpha below (the product rounded in T).
template <class T>
void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, T alpha, uint32_t count) {
  detail::require_float<T>("LeakyRelu");
  detail::unary("LeakyRelu", dst, src, count,
                [alpha](T x) { return to_double(x) >= 0 ? x : detail::mul(x, alpha); });
}
// A vector copy inside UB (the bytes unchanged).
template <class T>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::unary("Copy", dst, src, count, [](T x) { return x; });
}

template <class T>
void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::unary("Abs", dst, src, count, [](T x) { return detail::abs(x); });
}
template <class T>
void Add(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
         uint32_t count) {
  detail::binary("Add", dst, a, b, count, [](T x, T y) { return detail::add(x, y); });
}
template <class T>
void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
         uint32_t count) {
  detail::binary("Sub", dst, a, b, count, [](T x, T y) { return detail::sub(x, y); });
}
template <class T>
void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
         uint32_t count) {
  detail::binary("Mul", dst, a, b, count, [](T x, T y) { return detail::mul(x, y); });
}
template <class T>
void Div(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
         uint32_t count) {
  detail::binary("Div", dst, a, b, count, [](T x, T y) { return detail::div(x, y); });
}
// The operator forms: dst = a + b (Add), a - b, a * b, a / b over dst's size.
template <class T>
SymbolOverride<T> operator+(const LocalTensor<T>& a, const LocalTensor<T>& b) {
  return {a, b, &Add<T>};
}
template <class T>
SymbolOverride<T> operator-(const LocalTensor<T>& a, const LocalTensor<T>& b) {
  return {a, b, &Sub<T>};
}
template <class T>
SymbolOverride<T> operator*(const LocalTensor<T>& a, const LocalTensor<T>& b) {
  return {a, b, &Mul<T>};
}
template <class T>
SymbolOverride<T> operator/(const LocalTensor<T>& a, const LocalTensor<T>& b) {
  return {a, b, &Div<T>};
}
template <class T>
void Max(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
         uint32_t count) {
  detail::binary("Max", dst, a, b, count,
                 [](T x, T y) { return to_double(x) >= to_double(y) ? x : y; });
}
template <class T>
void Min(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
         uint32_t count) {
  detail::binary("Min", dst, a, b, count,
                 [](T x, T y) { return to_double(x) <= to_double(y) ? x : y; });
}
// Bit shifts of uint16/int16/uint32/int32 by a scalar: ShiftRight is logical on unsigned types
// and arithmetic on signed ones, ShiftLeft fills with zeros. One vector instruction, costed as
// every element-wise one (repeats of 256 B).
namespace detail {
template <class T>
constexpr void require_shift_type() {
  static_assert(std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> ||
                    std::is_same_v<T, uint32_t> || std::is_same_v<T, int32_t>,
                "ShiftLeft/ShiftRight take uint16_t, int16_t, uint32_t or int32_t");
}
// The shift count of ShiftLeft/ShiftRight: within the element's width, else a kernel fault.
template <class T>
uint32_t shift_bits(const char* name, T scalarValue) {
  require_shift_type<T>();
  const int64_t shift = static_cast<int64_t>(scalarValue);
  if (shift < 0 || shift >= static_cast<int64_t>(8 * sizeof(T)))
    fault(std::string(name) + " by " + std::to_string(shift) + " bits of a " +
          std::to_string(8 * sizeof(T)) + "-bit element");
  return static_cast<uint32_t>(shift);
}
}  // namespace detail
template <class T>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, T scalarValue,
                uint32_t count) {
  const uint32_t by = detail::shift_bits("ShiftRight", scalarValue);
  detail::unary("ShiftRight", dst, src, count, [by](T x) { return static_cast<T>(x >> by); });
}
template <class T>
void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, T scalarValue,
               uint32_t count) {
  const uint32_t by = detail::shift_bits("ShiftLeft", scalarValue);
  using U = std::make_unsigned_t<T>;
  detail::unary("ShiftLeft", dst, src, count,
                [by](T x) { return static_cast<T>(static_cast<U>(static_cast<U>(x) << by)); });
}

namespace detail {
// x rounded to an integral value of its own type by m (CAST_NONE: x unchanged). Values of 2^52
// and beyond, infinities and NaN are integral already.
template <class T>
T round_integral(T x, RoundMode m) {
  const double v = to_double(x);
  if (m == RoundMode::CAST_NONE || !(std::fabs(v) < 4503599627370496.0)) return x;
  double r = v;
  switch (m) {
    case RoundMode::CAST_FLOOR:
      r = std::floor(v);
      break;
    case RoundMode::CAST_CEIL:
      r = std::ceil(v);
      break;
    case RoundMode::CAST_ROUND:
      r = std::round(v);
      break;
    case RoundMode::CAST_TRUNC:
      r = std::trunc(v);
      break;
    default:
      r = std::nearbyint(v);  // RINT (and ODD): ties to even in the default FP environment
  }
  return cast_to<T>(std::copysign(r, v), RoundMode::CAST_RINT);
}
}  // namespace detail

namespace detail {
// half -> int4b_t: rounded by the mode, saturated to [-8, 7] (the vendor's cast example clips so).
inline int4b_t to_int4(double v, RoundMode m) {
  if (v != v) return int4b_t(0);
  return int4b_t(int32_t{cast_to<int8_t>(std::min(std::max(v, -8.0), 7.0), m)});
}
// One element of a Cast from S to D under mode M (int4b_t to and from half: the Cast reference's
// A2/A3 rows).
template <class D, class S, RoundMode M>
D cast_value(S x) {
  if constexpr (is_int4<D>) {
    static_assert(std::is_same_v<S, half>, "ascend-sim: Cast to int4b_t is modelled from half");
    return to_int4(to_double(x), M);
  } else if constexpr (is_int4<S>) {
    static_assert(std::is_same_v<D, half>, "ascend-sim: Cast from int4b_t is modelled to half");
    return half(static_cast<float>(int32_t{x}));  // exact
  } else if constexpr (std::is_same_v<D, S> && !std::is_integral_v<D>) {
    // A float-to-same-float Cast rounds to an integral value by the mode (Ascend C API: Cast,
    // float to float "取整"); CAST_NONE leaves the value as it is.
    return round_integral(x, M);
  } else if constexpr (std::is_same_v<D, half> && std::is_integral_v<S>) {
    return int_to_half(x, M);
  } else {
    return cast_to<D>(to_double(x), M);
  }
}
}  // namespace detail

template <class D, class S>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, RoundMode mode, uint32_t count) {
  if constexpr (detail::is_int4<D> || detail::is_int4<S>) {  // packed: two elements a byte
    if (count % 2) detail::fault("Cast of int4b_t: an odd count " + std::to_string(count));
    detail::check_operand(dst, detail::bytes_of<D>(count), "Cast", detail::kWrite);
    detail::check_operand(src, detail::bytes_of<S>(count), "Cast", detail::kRead);
    with_round_mode(mode, [&](auto m) {
      detail::issue_vector("Cast", detail::repeats_for(count, 2), [dst, src, count] {
        for (uint32_t i = 0; i < count; ++i) {
          if constexpr (detail::is_int4<D>)
            detail::int4_put(dst.ptr(), i,
                             int32_t{detail::cast_value<D, S, decltype(m)::value>(src.ptr()[i])});
          else
            dst.ptr()[i] =
                detail::cast_value<D, S, decltype(m)::value>(S(detail::int4_at(src.ptr(), i)));
        }
      });
    });
  } else {
    with_round_mode(mode, [&](auto m) {
      if constexpr (std::is_same_v<D, S> && !std::is_integral_v<D>) {
        // A float-to-same-float Cast rounds to an integral value by the mode (Ascend C API: Cast,
        // float to float "取整"); CAST_NONE leaves the value as it is.
        detail::unary("Cast", dst, src, count,
                      [](S x) { return detail::round_integral(x, decltype(m)::value); });
      } else if constexpr (std::is_same_v<D, half> && std::is_integral_v<S>) {
        detail::unary("Cast", dst, src, count,
                      [](S x) { return int_to_half(x, decltype(m)::value); });
      } else {
        detail::unary("Cast", dst, src, count,
                      [](S x) { return cast_to<D>(to_double(x), decltype(m)::value); });
      }
    });
  }
}

// Level-0 forms: `repeatTimes` repeats of 8 blocks of 32 B, block and repeat strides in 32-B
// blocks (api/vector_level0.h has the element-wise ones and BinaryRepeatParams).
struct UnaryRepeatParams {
  UnaryRepeatParams() = default;
  UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep)
      : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}
  UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep,
                    bool halfBlockIn)
      : dstBlkStride(dstBlk),
        srcBlkStride(srcBlk),
        dstRepStride(dstRep),
        srcRepStride(srcRep),
        halfBlock(halfBlockIn) {}
  uint32_t blockNumber = 8;  // reserved
  uint16_t dstBlkStride = 1;
  uint16_t srcBlkStride = 1;
  uint8_t dstRepStride = 8;
  uint8_t srcRepStride = 8;
  bool repeatStrideMode = false;  // reserved
  bool strideSizeMode = false;    // reserved
  bool halfBlock = false;         // reserved
};

}  // namespace AscendC
