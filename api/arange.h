// Arange (Ascend C API: Arange; ArithProgression its older name): dst[i] = firstValue + i x
// diffValue for i < count, issued as the A2/A3 implementation issues it: the first 32-B block by
// the scalar unit (SetValue; half computed in float), then Adds of the block's step that extend
// it block by block to one repeat and repeat by repeat after that, so each element is rounded
// where that chain of additions rounds it.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "api/sync.h"
#include "api/tpipe.h"
#include "api/vector.h"
#include "api/vector_level0.h"

namespace AscendC {

namespace detail {
template <class T>
T arange_step(T diff, int32_t n) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<int64_t>(diff) * n);
  else
    return static_cast<T>(static_cast<float>(diff) * static_cast<float>(n));
}
template <class T>
void arange_scalar(const LocalTensor<T>& dst, T first, T diff, int32_t n) {
  for (int32_t i = 0; i < n; ++i) {
    if constexpr (std::is_integral_v<T>)
      dst.SetValue(static_cast<uint64_t>(i), static_cast<T>(first + diff * static_cast<T>(i)));
    else
      dst.SetValue(static_cast<uint64_t>(i),
                   static_cast<T>(static_cast<float>(first) +
                                  static_cast<float>(diff) * static_cast<float>(i)));
  }
}
}  // namespace detail

template <class T>
void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count) {
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, half> ||
                    std::is_same_v<T, int32_t> || std::is_same_v<T, float>,
                "Arange takes int16_t, half, int32_t or float on A2/A3");
  if (detail::core().core_kind() == ascend::model::CoreKind::Aic) return;
  if (count <= 0) detail::fault("Arange: count " + std::to_string(count) + ", should be positive");
  constexpr int32_t block = 32 / sizeof(T), repeat = 256 / sizeof(T);
  const int32_t aligned = (count + block - 1) / block * block;
  if (static_cast<uint64_t>(aligned) > dst.GetSize())
    detail::fault("Arange: " + std::to_string(count) + " elements (" + std::to_string(aligned) +
                  " written, a whole block) for a dst of " + std::to_string(dst.GetSize()));
  if (count <= block) {
    const TEventID vs = GetTPipePtr()->FetchEventID(HardEvent::V_S);
    SetFlag<HardEvent::V_S>(vs);
    WaitFlag<HardEvent::V_S>(vs);
  }
  detail::arange_scalar(dst, firstValue, diffValue, std::min(count, block));
  const TEventID sv = GetTPipePtr()->FetchEventID(HardEvent::S_V);
  SetFlag<HardEvent::S_V>(sv);
  WaitFlag<HardEvent::S_V>(sv);
  if (count <= block) return;
  const UnaryRepeatParams stride1(1, 1, 1, 1), stride8(1, 1, 8, 8);
  const T blockStep = detail::arange_step(diffValue, block);
  // Block by block: up to one repeat, or the whole count when it is within one.
  const int32_t blocks = count > repeat ? repeat / block : aligned / block;
  for (int32_t i = 0; i + 1 < blocks; ++i) {
    PipeBarrier<PIPE_V>();
    Adds(dst[(i + 1) * block], dst[i * block], blockStep, uint64_t{block}, 1, stride1);
  }
  if (count <= repeat) return;
  const T repeatStep = detail::arange_step(diffValue, repeat);
  const int32_t repeats = count / repeat, tail = count % repeat;
  for (int32_t i = 0; i + 1 < repeats; ++i) {
    PipeBarrier<PIPE_V>();
    Adds(dst[(i + 1) * repeat], dst[i * repeat], repeatStep, uint64_t{repeat}, 1, stride8);
  }
  if (tail > 0) {
    PipeBarrier<PIPE_V>();
    Adds(dst[repeats * repeat], dst[(repeats - 1) * repeat], repeatStep,
         static_cast<uint64_t>((tail + block - 1) / block * block), 1, stride8);
  }
}

// The older name of Arange.
template <class T>
void ArithProgression(const LocalTensor<T>& dstLocal, const T firstValue, const T diffValue,
                      const int32_t count) {
  Arange(dstLocal, firstValue, diffValue, count);
}

}  // namespace AscendC
