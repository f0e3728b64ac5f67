// Reductions (ReduceMax, ReduceSum), per-block reductions and broadcasts (BlockReduceMax, Brcb).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "api/pad.h"  // detail::stack_buffer
#include "api/tensor.h"
#include "api/vector_level0.h"

namespace AscendC {

// Reductions write the result to dst[0] (and with calIndex the index of the first maximum to
// dst[1], as the raw bits of an unsigned integer of T's size). The sum accumulates left to right
// in T's precision; the hardware reduces as a tree, so the last bits of a long fp sum can differ.
template <class T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               uint32_t count, bool calIndex = false) {
  (void)work;
  if (count == 0) detail::fault("ReduceMax of 0 elements");
  detail::check_operand(src, uint64_t{count} * sizeof(T), "ReduceMax", detail::kRead);
  detail::check_operand(dst, (calIndex ? 2 : 1) * sizeof(T), "ReduceMax", detail::kWrite);
  detail::issue_vector(
      "ReduceMax", detail::repeats_for(count, sizeof(T)), [dst, src, count, calIndex] {
        const T* s = src.ptr();
        uint32_t best = 0;
        for (uint32_t i = 1; i < count; ++i)
          if (to_double(s[i]) > to_double(s[best])) best = i;
        T* d = dst.ptr();
        d[0] = s[best];
        if (calIndex) {
          using I = std::conditional_t<sizeof(T) == 4, uint32_t,
                                       std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>;
          I idx = static_cast<I>(best);
          std::memcpy(reinterpret_cast<uint8_t*>(d) + sizeof(T), &idx, sizeof(T));
        }
      });
}
template <class T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               uint32_t count, bool calIndex = false) {
  (void)work;
  if (count == 0) detail::fault("ReduceMin of 0 elements");
  detail::check_operand(src, uint64_t{count} * sizeof(T), "ReduceMin", detail::kRead);
  detail::check_operand(dst, (calIndex ? 2 : 1) * sizeof(T), "ReduceMin", detail::kWrite);
  detail::issue_vector(
      "ReduceMin", detail::repeats_for(count, sizeof(T)), [dst, src, count, calIndex] {
        const T* s = src.ptr();
        uint32_t best = 0;
        for (uint32_t i = 1; i < count; ++i)
          if (to_double(s[i]) < to_double(s[best])) best = i;
        T* d = dst.ptr();
        d[0] = s[best];
        if (calIndex) {
          using I = std::conditional_t<sizeof(T) == 4, uint32_t,
                                       std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>;
          I idx = static_cast<I>(best);
          std::memcpy(reinterpret_cast<uint8_t*>(d) + sizeof(T), &idx, sizeof(T));
        }
      });
}
template <class T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               uint32_t count) {
  (void)work;
  if (count == 0) detail::fault("ReduceSum of 0 elements");
  detail::check_operand(src, uint64_t{count} * sizeof(T), "ReduceSum", detail::kRead);
  detail::check_operand(dst, sizeof(T), "ReduceSum", detail::kWrite);
  detail::CoreState* st = &detail::state();
  detail::issue_vector("ReduceSum", detail::repeats_for(count, sizeof(T)), [dst, src, count, st] {
    const T* s = src.ptr();
    T acc = s[0];
    for (uint32_t i = 1; i < count; ++i) acc = detail::add(acc, s[i]);
    dst.ptr()[0] = acc;
    st->reduce_sum_spr = to_double(acc);
  });
}

// Per-repeat and per-block reductions (level-0 forms: mask, isSetMask and counter mode as in
// api/vector_level0.h). A sum accumulates left to right in T's precision (the hardware adds
// as a tree, so the last bits of an fp sum can differ); a maximum or minimum keeps the first
// of equal elements.
enum class ReduceType { NONE = -1, SUM = 0, MAX, MIN };
// Where a maximum/minimum and its index go in a per-repeat result.
enum class ReduceOrder : uint8_t {
  ORDER_VALUE_INDEX = 0,
  ORDER_INDEX_VALUE,
  ORDER_ONLY_VALUE,
  ORDER_ONLY_INDEX
};
constexpr uint16_t DEFAULT_BLK_STRIDE = 1;
constexpr uint8_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint8_t DEFAULT_REP_STRIDE = 8;
constexpr uint32_t DEFAULT_BLK_NUM = 8;
constexpr uint32_t ONE_BLK_SIZE = 32;
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;

namespace detail {
template <class T>
using IndexBits = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;
template <class T>
constexpr void require_reduce_type(const char* name) {
  (void)name;
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>,
                "ascend-sim: the per-repeat and per-block reductions take float or half on "
                "Atlas A2/A3");
}
// Reduces the selected elements (e in [first, end) of repeat r) of src; returns the value and
// the position (within the repeat) of the first maximum/minimum.
template <class T>
std::pair<T, uint32_t> reduce_span(ReduceType type, const uint8_t* s, const RepeatPlan& p,
                                   uint32_t r, uint32_t first, uint32_t end, uint32_t blk,
                                   uint32_t rep, bool& any) {
  T acc{};
  uint32_t at = 0;
  any = false;
  for (uint32_t e = first; e < end; ++e) {
    if (!p.selected(r, e)) continue;
    const T x = load_at<T>(s, elem_at<T>(r, e, blk, rep));
    if (!any) {
      acc = x;
      at = e;
      any = true;
    } else if (type == ReduceType::SUM) {
      acc = add(acc, x);
    } else if (type == ReduceType::MAX ? to_double(x) > to_double(acc)
                                       : to_double(x) < to_double(acc)) {
      acc = x;
      at = e;
    }
  }
  return {acc, at};
}
// One result per repeat, repeat r's at dst byte r x dstRepStride x (the result's size).
template <class T>
void reduce_repeat(const char* name, ReduceType type, const LocalTensor<T>& dst,
                   const LocalTensor<T>& src, const RepeatPlan& p, int32_t dstRepStride,
                   int32_t srcBlkStride, int32_t srcRepStride, ReduceOrder order) {
  require_reduce_type<T>(name);
  if (dstRepStride < 0 || srcBlkStride < 0 || srcRepStride < 0)
    fault(std::string(name) + ": a negative stride");
  if (p.repeats == 0) return;
  if (type == ReduceType::SUM) order = ReduceOrder::ORDER_ONLY_VALUE;
  const uint32_t unit = order == ReduceOrder::ORDER_ONLY_VALUE   ? sizeof(T)
                        : order == ReduceOrder::ORDER_ONLY_INDEX ? 4
                                                                 : 2 * sizeof(T);
  const uint32_t blk = static_cast<uint32_t>(srcBlkStride),
                 rep = static_cast<uint32_t>(srcRepStride);
  const uint64_t dstep = uint64_t{unit} * static_cast<uint32_t>(dstRepStride);
  check_operand(src, span_of<T>(p, blk, rep), name, kRead);
  // The destination is aligned to its result's unit, not 32 B (Ascend C API: ReduceRepeat,
  // "目的操作数地址对齐约束").
  check_operand(dst, (p.repeats - 1) * dstep + unit, name, kWrite, unit);
  issue_vector(name, p.repeats, [=] {
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr());
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    for (uint32_t r = 0; r < p.repeats; ++r) {
      bool any = false;
      const auto [v, at] = reduce_span<T>(type, s, p, r, 0, p.last(r) + 1, blk, rep, any);
      uint8_t* out = d + r * dstep;
      const IndexBits<T> idx = static_cast<IndexBits<T>>(at);
      switch (order) {
        case ReduceOrder::ORDER_ONLY_VALUE:
          store_at<T>(out, 0, v);
          break;
        case ReduceOrder::ORDER_ONLY_INDEX:
          store_at<uint32_t>(out, 0, at);
          break;
        case ReduceOrder::ORDER_VALUE_INDEX:
          store_at<T>(out, 0, v);
          store_at<IndexBits<T>>(out, sizeof(T), idx);
          break;
        case ReduceOrder::ORDER_INDEX_VALUE:
          store_at<IndexBits<T>>(out, 0, idx);
          store_at<T>(out, sizeof(T), v);
          break;
      }
    }
  });
}
// One result per 32-B block of each repeat: block b of repeat r to dst[(r x dstRepStride) x 8
// + b] (dstRepStride in units of a repeat's 8 results).
template <class T>
void reduce_blocks(const char* name, ReduceType type, const LocalTensor<T>& dst,
                   const LocalTensor<T>& src, const RepeatPlan& p, int32_t dstRepStride,
                   int32_t srcBlkStride, int32_t srcRepStride) {
  require_reduce_type<T>(name);
  if (dstRepStride < 0 || srcBlkStride < 0 || srcRepStride < 0)
    fault(std::string(name) + ": a negative stride");
  if (p.repeats == 0) return;
  constexpr uint32_t per_block = 32 / sizeof(T);
  const uint32_t blk = static_cast<uint32_t>(srcBlkStride),
                 rep = static_cast<uint32_t>(srcRepStride);
  const uint64_t dstep = uint64_t{8} * static_cast<uint32_t>(dstRepStride);
  check_operand(src, span_of<T>(p, blk, rep), name, kRead);
  check_operand(dst, ((p.repeats - 1) * dstep + p.last(p.repeats - 1) / per_block + 1) * sizeof(T),
                name, kWrite);
  issue_vector(name, p.repeats, [=] {
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr());
    T* d = dst.ptr();
    for (uint32_t r = 0; r < p.repeats; ++r)
      for (uint32_t b = 0; b * per_block <= p.last(r); ++b) {
        bool any = false;
        const auto [v, at] =
            reduce_span<T>(type, s, p, r, b * per_block, (b + 1) * per_block, blk, rep, any);
        (void)at;
        if (any) d[r * dstep + b] = v;
      }
  });
}
}  // namespace detail

// ReduceRepeat (WholeReduceSum/Max/Min): the selected elements of each repeat to one result.
template <ReduceType reduceType, class T, class U = T, bool isSetMask = true>
void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                  int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride,
                  int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  static_assert(std::is_same_v<T, U>, "ascend-sim: ReduceRepeat's dst and src types are one");
  detail::reduce_repeat<T>("ReduceRepeat", reduceType, dst, src,
                           detail::plan_level0<T>("ReduceRepeat", isSetMask, true, mask[0], mask[1],
                                                  static_cast<uint32_t>(std::max(repeatTime, 0))),
                           dstRepStride, srcBlkStride, srcRepStride, order);
}
template <ReduceType reduceType, class T, class U = T, bool isSetMask = true>
void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, int32_t mask,
                  int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride,
                  int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  static_assert(std::is_same_v<T, U>, "ascend-sim: ReduceRepeat's dst and src types are one");
  detail::reduce_repeat<T>(
      "ReduceRepeat", reduceType, dst, src,
      detail::plan_level0<T>("ReduceRepeat", isSetMask, false, static_cast<uint64_t>(mask), 0,
                             static_cast<uint32_t>(std::max(repeatTime, 0))),
      dstRepStride, srcBlkStride, srcRepStride, order);
}
#define ASCEND_SIM_WHOLE_REDUCE(Name, Type, OrderParam, OrderArg)                        \
  template <class T, bool isSetMask = true>                                              \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], \
            int32_t repeatTimes, int32_t dstRepStride, int32_t srcBlkStride,             \
            int32_t srcRepStride OrderParam) {                                           \
    detail::reduce_repeat<T>(                                                            \
        #Name, Type, dst, src,                                                           \
        detail::plan_level0<T>(#Name, isSetMask, true, mask[0], mask[1],                 \
                               static_cast<uint32_t>(std::max(repeatTimes, 0))),         \
        dstRepStride, srcBlkStride, srcRepStride, OrderArg);                             \
  }                                                                                      \
  template <class T, bool isSetMask = true>                                              \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t mask,          \
            int32_t repeatTimes, int32_t dstRepStride, int32_t srcBlkStride,             \
            int32_t srcRepStride OrderParam) {                                           \
    detail::reduce_repeat<T>(                                                            \
        #Name, Type, dst, src,                                                           \
        detail::plan_level0<T>(#Name, isSetMask, false, static_cast<uint64_t>(mask), 0,  \
                               static_cast<uint32_t>(std::max(repeatTimes, 0))),         \
        dstRepStride, srcBlkStride, srcRepStride, OrderArg);                             \
  }
#define ASCEND_SIM_COMMA ,
ASCEND_SIM_WHOLE_REDUCE(WholeReduceSum, ReduceType::SUM, , ReduceOrder::ORDER_ONLY_VALUE)
ASCEND_SIM_WHOLE_REDUCE(WholeReduceMax, ReduceType::MAX,
                        ASCEND_SIM_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
ASCEND_SIM_WHOLE_REDUCE(WholeReduceMin, ReduceType::MIN,
                        ASCEND_SIM_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
#undef ASCEND_SIM_COMMA
#undef ASCEND_SIM_WHOLE_REDUCE

// ReduceDataBlock (BlockReduceSum/Max/Min): each 32-B block of each repeat to one result.
template <ReduceType reduceType, class T, class U = T, bool isSetMask = true>
void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                     int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride,
                     int32_t srcRepStride) {
  static_assert(std::is_same_v<T, U>, "ascend-sim: ReduceDataBlock's dst and src types are one");
  detail::reduce_blocks<T>(
      "ReduceDataBlock", reduceType, dst, src,
      detail::plan_level0<T>("ReduceDataBlock", isSetMask, true, mask[0], mask[1],
                             static_cast<uint32_t>(std::max(repeatTime, 0))),
      dstRepStride, srcBlkStride, srcRepStride);
}
template <ReduceType reduceType, class T, class U = T, bool isSetMask = true>
void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, int32_t mask,
                     int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride,
                     int32_t srcRepStride) {
  static_assert(std::is_same_v<T, U>, "ascend-sim: ReduceDataBlock's dst and src types are one");
  detail::reduce_blocks<T>(
      "ReduceDataBlock", reduceType, dst, src,
      detail::plan_level0<T>("ReduceDataBlock", isSetMask, false, static_cast<uint64_t>(mask), 0,
                             static_cast<uint32_t>(std::max(repeatTime, 0))),
      dstRepStride, srcBlkStride, srcRepStride);
}
// The older names take repeat before mask.
#define ASCEND_SIM_BLOCK_REDUCE(Name, Type)                                                      \
  template <class T, bool isSetMask = true>                                                      \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeat,                \
            const uint64_t mask[], int32_t dstRepStride, int32_t srcBlkStride,                   \
            int32_t srcRepStride) {                                                              \
    detail::reduce_blocks<T>(#Name, Type, dst, src,                                              \
                             detail::plan_level0<T>(#Name, isSetMask, true, mask[0], mask[1],    \
                                                    static_cast<uint32_t>(std::max(repeat, 0))), \
                             dstRepStride, srcBlkStride, srcRepStride);                          \
  }                                                                                              \
  template <class T, bool isSetMask = true>                                                      \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeat, int32_t mask,  \
            int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride) {                  \
    detail::reduce_blocks<T>(                                                                    \
        #Name, Type, dst, src,                                                                   \
        detail::plan_level0<T>(#Name, isSetMask, false, static_cast<uint64_t>(mask), 0,          \
                               static_cast<uint32_t>(std::max(repeat, 0))),                      \
        dstRepStride, srcBlkStride, srcRepStride);                                               \
  }
ASCEND_SIM_BLOCK_REDUCE(BlockReduceSum, ReduceType::SUM)
ASCEND_SIM_BLOCK_REDUCE(BlockReduceMax, ReduceType::MAX)
ASCEND_SIM_BLOCK_REDUCE(BlockReduceMin, ReduceType::MIN)
#undef ASCEND_SIM_BLOCK_REDUCE

// The level-0 forms of ReduceMax/ReduceMin/ReduceSum: the selected elements of repeatTime
// repeats (srcRepStride blocks apart, blocks contiguous) to one result in dst[0]; with calIndex
// the index of the first maximum/minimum, r x 256 / sizeof(T) + its place in repeat r, follows
// in dst[1] as the bits of an unsigned integer of T's size. sharedTmpBuffer is the hardware's
// work area for the per-repeat results: not used here.
namespace detail {
template <class T>
void reduce_all(const char* name, ReduceType type, const LocalTensor<T>& dst,
                const LocalTensor<T>& src, const RepeatPlan& p, int32_t srcRepStride,
                bool calIndex) {
  require_reduce_type<T>(name);
  if (srcRepStride < 0) fault(std::string(name) + ": a negative srcRepStride");
  if (p.repeats == 0) return;
  const uint32_t rep = static_cast<uint32_t>(srcRepStride);
  check_operand(src, span_of<T>(p, 1, rep), name, kRead);
  check_operand(dst, (calIndex ? 2 : 1) * sizeof(T), name, kWrite);
  CoreState* st = &state();
  issue_vector(name, p.repeats, [=] {
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr());
    T best{};
    uint64_t at = 0;
    bool found = false;
    for (uint32_t r = 0; r < p.repeats; ++r) {
      bool any = false;
      const auto [v, e] = reduce_span<T>(type, s, p, r, 0, p.last(r) + 1, 1, rep, any);
      if (!any) continue;
      const bool better = !found || (type == ReduceType::SUM   ? true
                                     : type == ReduceType::MAX ? to_double(v) > to_double(best)
                                                               : to_double(v) < to_double(best));
      if (type == ReduceType::SUM && found)
        best = add(best, v);
      else if (better) {
        best = v;
        at = uint64_t{r} * p.per_repeat + e;
      }
      found = true;
    }
    T* d = dst.ptr();
    d[0] = best;
    if (type == ReduceType::SUM) st->reduce_sum_spr = to_double(best);
    if (calIndex && type != ReduceType::SUM) {
      const IndexBits<T> idx = static_cast<IndexBits<T>>(at);
      std::memcpy(reinterpret_cast<uint8_t*>(d) + sizeof(T), &idx, sizeof(T));
    }
  });
}
}  // namespace detail
#define ASCEND_SIM_REDUCE_ALL(Name, Type, IndexParam, IndexArg)                                   \
  template <class T, bool isSetMask = true>                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                 \
            const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[], int32_t repeatTime,     \
            int32_t srcRepStride IndexParam) {                                                    \
    (void)sharedTmpBuffer;                                                                        \
    detail::reduce_all<T>(#Name, Type, dst, src,                                                  \
                          detail::plan_level0<T>(#Name, isSetMask, true, mask[0], mask[1],        \
                                                 static_cast<uint32_t>(std::max(repeatTime, 0))), \
                          srcRepStride, IndexArg);                                                \
  }                                                                                               \
  template <class T, bool isSetMask = true>                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                 \
            const LocalTensor<T>& sharedTmpBuffer, int32_t mask, int32_t repeatTime,              \
            int32_t srcRepStride IndexParam) {                                                    \
    (void)sharedTmpBuffer;                                                                        \
    detail::reduce_all<T>(                                                                        \
        #Name, Type, dst, src,                                                                    \
        detail::plan_level0<T>(#Name, isSetMask, false, static_cast<uint64_t>(mask), 0,           \
                               static_cast<uint32_t>(std::max(repeatTime, 0))),                   \
        srcRepStride, IndexArg);                                                                  \
  }
#define ASCEND_SIM_COMMA ,
ASCEND_SIM_REDUCE_ALL(ReduceMax, ReduceType::MAX, ASCEND_SIM_COMMA bool calIndex = false, calIndex)
ASCEND_SIM_REDUCE_ALL(ReduceMin, ReduceType::MIN, ASCEND_SIM_COMMA bool calIndex = false, calIndex)
ASCEND_SIM_REDUCE_ALL(ReduceSum, ReduceType::SUM, , false)
#undef ASCEND_SIM_COMMA
#undef ASCEND_SIM_REDUCE_ALL

// The result of the last ReduceSum, as the scalar reads it from its special register (after a
// V_S flag pair).
template <class T>
T GetReduceRepeatSumSpr() {
  return cast_to<T>(detail::state().reduce_sum_spr, RoundMode::CAST_RINT);
}

// ReducePairElem<SUM> (PairReduceSum): each pair of adjacent elements of a repeat to their sum
// (the selected ones of the pair; a pair with none selected is not written), repeat r's
// 128 / sizeof(T) results at dst element r x dstRepStride x 128 / sizeof(T).
namespace detail {
template <class T>
void reduce_pairs(const char* name, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                  const RepeatPlan& p, int32_t dstRepStride, int32_t srcBlkStride,
                  int32_t srcRepStride) {
  require_reduce_type<T>(name);
  if (dstRepStride < 0 || srcBlkStride < 0 || srcRepStride < 0)
    fault(std::string(name) + ": a negative stride");
  if (p.repeats == 0) return;
  const uint32_t half_repeat = p.per_repeat / 2;
  const uint32_t blk = static_cast<uint32_t>(srcBlkStride),
                 rep = static_cast<uint32_t>(srcRepStride);
  const uint64_t dstep = uint64_t{half_repeat} * static_cast<uint32_t>(dstRepStride);
  check_operand(src, span_of<T>(p, blk, rep), name, kRead);
  check_operand(dst, ((p.repeats - 1) * dstep + p.last(p.repeats - 1) / 2 + 1) * sizeof(T), name,
                kWrite);
  issue_vector(name, p.repeats, [=] {
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr());
    T* d = dst.ptr();
    for (uint32_t r = 0; r < p.repeats; ++r)
      for (uint32_t k = 0; 2 * k <= p.last(r); ++k) {
        bool any = false;
        const auto [v, at] =
            reduce_span<T>(ReduceType::SUM, s, p, r, 2 * k, 2 * k + 2, blk, rep, any);
        (void)at;
        if (any) d[r * dstep + k] = v;
      }
  });
}
}  // namespace detail
template <ReduceType reduceType, class T, bool isSetMask = true>
void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                    int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride,
                    int32_t srcRepStride) {
  static_assert(reduceType == ReduceType::SUM, "ascend-sim: ReducePairElem sums (ReduceType::SUM)");
  detail::reduce_pairs<T>(
      "ReducePairElem", dst, src,
      detail::plan_level0<T>("ReducePairElem", isSetMask, true, mask[0], mask[1],
                             static_cast<uint32_t>(std::max(repeatTime, 0))),
      dstRepStride, srcBlkStride, srcRepStride);
}
template <ReduceType reduceType, class T, bool isSetMask = true>
void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t mask,
                    int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride,
                    int32_t srcRepStride) {
  static_assert(reduceType == ReduceType::SUM, "ascend-sim: ReducePairElem sums (ReduceType::SUM)");
  detail::reduce_pairs<T>(
      "ReducePairElem", dst, src,
      detail::plan_level0<T>("ReducePairElem", isSetMask, false, static_cast<uint64_t>(mask), 0,
                             static_cast<uint32_t>(std::max(repeatTime, 0))),
      dstRepStride, srcBlkStride, srcRepStride);
}
template <class T, bool isSetMask = true>
void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime,
                   int32_t mask, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride) {
  ReducePairElem<ReduceType::SUM, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride,
                                                srcBlkStride, srcRepStride);
}
template <class T, bool isSetMask = true>
void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime,
                   const uint64_t mask[], int32_t dstRepStride, int32_t srcBlkStride,
                   int32_t srcRepStride) {
  ReducePairElem<ReduceType::SUM, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride,
                                                srcBlkStride, srcRepStride);
}

// Brcb: each repeat reads 8 consecutive elements of src and fills one 32-B block of dst with
// each (block j of repeat r at (r x dstRepStride + j x dstBlkStride) x 32 B).
struct BrcbRepeatParams {
  uint16_t dstBlkStride = 1;
  uint16_t dstRepStride = 8;
};
template <class T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint8_t repeatTimes,
          const BrcbRepeatParams& p) {
  constexpr uint32_t per_block = 32 / sizeof(T);
  if (repeatTimes == 0) return;
  detail::check_operand(src, uint64_t{repeatTimes} * 8 * sizeof(T), "Brcb", detail::kRead);
  detail::check_operand(
      dst, (uint64_t{repeatTimes - 1u} * p.dstRepStride + 7ull * p.dstBlkStride + 1) * 32, "Brcb",
      detail::kWrite);
  detail::issue_vector("Brcb", repeatTimes, [=] {
    const T* s = src.ptr();
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    for (uint32_t r = 0; r < repeatTimes; ++r)
      for (uint32_t j = 0; j < 8; ++j) {
        T v = s[r * 8 + j];
        uint8_t* blk = d + (uint64_t{r} * p.dstRepStride + uint64_t{j} * p.dstBlkStride) * 32;
        for (uint32_t i = 0; i < per_block; ++i) std::memcpy(blk + i * sizeof(T), &v, sizeof(T));
      }
  });
}

// Sum of each of `outter` rows of `n` elements (rows `inner` elements apart, inner a 32-B
// multiple) into dstTensor[row]. The hardware's sequence, per row: WholeReduceSum in counter mode
// over the n elements (one partial sum per 256-B repeat) into sharedTmpBuffer, then again over the
// partials until one is left; a row of one repeat is one WholeReduceSum into dst. The additions
// are therefore in the repeat tree's order. Ascend C API: Sum.
struct SumParams {
  uint32_t outter = 1;
  uint32_t inner = 0;
  uint32_t n = 0;
};
template <class T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& sumParams) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "Sum takes fp16 or fp32 operands");
  const uint32_t per_repeat = 256 / sizeof(T), per_block = 32 / sizeof(T);
  const SumParams& p = sumParams;
  if (p.n == 0 || p.n > p.inner || p.inner % per_block != 0)
    detail::fault("Sum: n " + std::to_string(p.n) + " and inner " + std::to_string(p.inner) +
                  " (0 < n <= inner, inner a multiple of " + std::to_string(per_block) + ")");
  if (uint64_t{p.outter} * p.inner > srcTensor.GetSize() || p.outter > dstTensor.GetSize())
    detail::fault("Sum: " + std::to_string(p.outter) + " rows of " + std::to_string(p.inner) +
                  " exceed srcTensor or dstTensor");
  const uint32_t partials = (p.n + per_repeat - 1) / per_repeat;
  const LocalTensor<T> tmp = sharedTmpBuffer.ReinterpretCast<T>();
  if (partials > 1 && sharedTmpBuffer.GetSize() < partials * sizeof(T))
    detail::fault("Sum: sharedTmpBuffer of " + std::to_string(sharedTmpBuffer.GetSize()) +
                  " B is below the " + std::to_string(partials * sizeof(T)) +
                  " B of a row's partial sums");
  const bool was_counter = detail::state().mask_counter;
  SetMaskCount();
  for (uint32_t row = 0; row < p.outter; ++row) {
    uint32_t count = p.n;
    LocalTensor<T> from = srcTensor[row * p.inner];
    for (;;) {
      const bool last = count <= per_repeat;
      SetVectorMask<T>(0, count);
      WholeReduceSum<T, false>(last ? dstTensor[row] : tmp, from, MASK_PLACEHOLDER, 1, 1, 1, 8);
      if (last) break;
      count = (count + per_repeat - 1) / per_repeat;
      from = tmp;
    }
  }
  if (!was_counter) SetMaskNorm();
}
template <class T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const SumParams& sumParams) {
  Sum<T, reduceDim, isReuseSource, isBasicBlock>(dstTensor, srcTensor,
                                                 detail::stack_buffer<uint8_t>("Sum"), sumParams);
}

}  // namespace AscendC
