// Element-wise vector instructions: level-2 forms (a count of elements) and level-0 forms (repeats
// with block and repeat strides).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "sim/api/tensor.h"

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

template <class D, class S>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, RoundMode mode, uint32_t count) {
  with_round_mode(mode, [&](auto m) {
    if constexpr (std::is_same_v<D, half> && std::is_integral_v<S>) {
      detail::unary("Cast", dst, src, count,
                    [](S x) { return int_to_half(x, decltype(m)::value); });
    } else {
      detail::unary("Cast", dst, src, count,
                    [](S x) { return cast_to<D>(to_double(x), decltype(m)::value); });
    }
  });
}

// Level-0 form: `repeatTimes` repeats of 8 blocks of 32 B; `mask` elements per repeat (count
// mode); block and repeat strides in 32-B blocks. Lets one instruction sweep a strided region
// or revisit the same data (repStride 0).
struct UnaryRepeatParams {
  uint16_t dstBlkStride = 1;
  uint16_t srcBlkStride = 1;
  uint8_t dstRepStride = 8;
  uint8_t srcRepStride = 8;
};
namespace detail {
template <class T, class F>
void unary_level0(const char* name, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                  uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& p, F f) {
  constexpr uint32_t per_block = 32 / sizeof(T);
  if (mask == 0 || mask > 8 * per_block)
    fault(std::string(name) + ": mask " + std::to_string(mask) + " outside [1, " +
          std::to_string(8 * per_block) + "]");
  auto span = [&](uint16_t blk, uint8_t rep) {
    uint64_t last = mask - 1;
    return (uint64_t{repeatTimes ? repeatTimes - 1u : 0u} * rep + (last / per_block) * blk) * 32 +
           (last % per_block + 1) * sizeof(T);
  };
  check_operand(dst, span(p.dstBlkStride, p.dstRepStride), name, kWrite);
  check_operand(src, span(p.srcBlkStride, p.srcRepStride), name, kRead);
  issue_vector(name, repeatTimes, [dst, src, mask, repeatTimes, p, f] {
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr());
    for (uint32_t r = 0; r < repeatTimes; ++r)
      for (uint64_t e = 0; e < mask; ++e) {
        uint64_t blk = e / per_block, in = (e % per_block) * sizeof(T);
        T x;
        std::memcpy(&x, s + (r * p.srcRepStride + blk * p.srcBlkStride) * 32 + in, sizeof(T));
        T y = f(x);
        std::memcpy(d + (r * p.dstRepStride + blk * p.dstBlkStride) * 32 + in, &y, sizeof(T));
      }
  });
}
}  // namespace detail
template <class T>
void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, T s, uint64_t mask,
          uint8_t repeatTimes, const UnaryRepeatParams& p) {
  detail::unary_level0("Muls", dst, src, mask, repeatTimes, p,
                       [s](T x) { return detail::mul(x, s); });
}
template <class T>
void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, T s, uint64_t mask,
          uint8_t repeatTimes, const UnaryRepeatParams& p) {
  detail::unary_level0("Adds", dst, src, mask, repeatTimes, p,
                       [s](T x) { return detail::add(x, s); });
}

// Level-0 Duplicate: value into the elements of repeatTimes repeats of dst (8 blocks each,
// dstBlockStride blocks apart, repeats dstRepeatStride blocks apart) that the mask selects: a bit
// mask (mask[0] elements 0-63 of a repeat, mask[1] 64-127, LSB first) or a count (the first
// `mask` elements). The other elements keep their value.
namespace detail {
template <class T>
void duplicate_level0(const LocalTensor<T>& dst, T value, uint64_t lo, uint64_t hi,
                      uint8_t repeatTimes, uint16_t blk, uint8_t rep) {
  constexpr uint32_t per_block = 32 / sizeof(T), per_repeat = 8 * per_block;
  if (per_repeat < 128) hi = 0;
  if (per_repeat < 64) lo &= (uint64_t{1} << per_repeat) - 1;
  if (lo == 0 && hi == 0) fault("Duplicate: a mask that selects no element");
  if (repeatTimes == 0) fault("Duplicate: repeatTimes 0");
  const uint32_t last = hi ? 127 - static_cast<uint32_t>(__builtin_clzll(hi))
                           : 63 - static_cast<uint32_t>(__builtin_clzll(lo));
  const uint64_t span = (uint64_t{repeatTimes - 1u} * rep + (last / per_block) * blk) * 32 +
                        (last % per_block + 1) * sizeof(T);
  check_operand(dst, span, "Duplicate", kWrite);
  issue_vector("Duplicate", repeatTimes, [dst, value, lo, hi, repeatTimes, blk, rep] {
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    for (uint32_t r = 0; r < repeatTimes; ++r)
      for (uint32_t e = 0; e < per_repeat; ++e)
        if (((e < 64 ? lo : hi) >> (e % 64)) & 1)
          std::memcpy(d + (r * rep + (e / per_block) * blk) * 32 + (e % per_block) * sizeof(T),
                      &value, sizeof(T));
  });
}
}  // namespace detail
template <class T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& value, const uint64_t mask[2],
               uint8_t repeatTimes, uint16_t dstBlockStride, uint8_t dstRepeatStride) {
  detail::duplicate_level0(dst, value, mask[0], mask[1], repeatTimes, dstBlockStride,
                           dstRepeatStride);
}
template <class T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& value, uint64_t mask, uint8_t repeatTimes,
               uint16_t dstBlockStride, uint8_t dstRepeatStride) {
  constexpr uint64_t per_repeat = 256 / sizeof(T);
  if (mask == 0 || mask > per_repeat)
    detail::fault("Duplicate: mask " + std::to_string(mask) + " outside [1, " +
                  std::to_string(per_repeat) + "]");
  const uint64_t lo = mask >= 64 ? ~uint64_t{0} : (uint64_t{1} << mask) - 1;
  const uint64_t hi = mask <= 64    ? 0
                      : mask >= 128 ? ~uint64_t{0}
                                    : (uint64_t{1} << (mask - 64)) - 1;
  detail::duplicate_level0(dst, value, lo, hi, repeatTimes, dstBlockStride, dstRepeatStride);
}

}  // namespace AscendC
