// Sorting instructions of the Ascend C facade (AscendC Sort / MrgSort / CreateVecIndex), in their
// own file so that kernel_operator.h only includes it. They run on the VECTOR pipe like every
// vector instruction, operate on "proposals" of 8 bytes (a float score, then its uint32 index),
// and sort descending by score.
//
// Stability: equal scores keep ascending index order in Sort, and in MrgSort the element of the
// lower-numbered list comes first (then list order). The hardware's tie order is not published
// (no published figure; docs/sources.md); the FfnWorkerBatching golden assumes a stable sort,
// and so does this model.
//
// Cost (parameters sort.*, all estimates): Sort of n = 32 x repeatTimes elements takes
// repeatTimes x sort.sort32_cycles (sorting each group of 32) plus ceil(log4(repeatTimes)) merge
// passes of n / sort.merge_elements_per_cycle cycles; MrgSort takes (sum of the offered element
// counts) / sort.merge_elements_per_cycle cycles, even when exhausted suspension stops it early
// (an upper bound). vector.overhead_cycles is added per instruction as for every vector op.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "api/gather.h"
#include "api/tensor.h"

namespace AscendC {

namespace detail {
// Issues a vector instruction that lasts `cycles` core cycles (independent of the vector width).
void issue_vector_cycles(const char* name, double cycles, m::Effect effect);
std::array<uint16_t, 4> last_mrgsort_result();
}  // namespace detail

// dst[i] = firstValue + i, i in [0, count).
template <class T>
void CreateVecIndex(const LocalTensor<T>& dst, T firstValue, uint32_t count) {
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, float> ||
                    std::is_same_v<T, int16_t> || std::is_same_v<T, half>,
                "CreateVecIndex: int16_t, int32_t, half or float");
  detail::check_operand(dst, uint64_t{count} * sizeof(T), "CreateVecIndex", detail::kWrite);
  detail::issue_vector("CreateVecIndex", detail::repeats_for(count, sizeof(T)),
                       [dst, firstValue, count] {
                         T* d = dst.ptr();
                         for (uint32_t i = 0; i < count; ++i) {
                           if constexpr (std::is_integral_v<T>)  // wraps, as integer adds
                             d[i] = detail::add(firstValue, detail::wrap<T>(i));
                           else  // firstValue + i rounded to T
                             d[i] = cast_to<T>(to_double(firstValue) + i, RoundMode::CAST_RINT);
                         }
                       });
}

// Full sort (isFullSort = true) of 32 x repeatTimes scores with their indices into proposals
// (score, index) in dst, descending. tmp must hold as many bytes as dst; concat is the scores.
template <class T, bool isFullSort>
void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat,
          const LocalTensor<uint32_t>& index, const LocalTensor<T>& tmp, int32_t repeatTimes) {
  static_assert(std::is_same_v<T, float>, "Sort: float scores only in this model");
  static_assert(isFullSort, "Sort: only the full sort is modelled");
  if (repeatTimes <= 0) detail::fault("Sort: repeatTimes " + std::to_string(repeatTimes) + " <= 0");
  uint64_t n = uint64_t{32} * static_cast<uint64_t>(repeatTimes);
  detail::check_operand(concat, n * 4, "Sort", detail::kRead);
  detail::check_operand(index, n * 4, "Sort", detail::kRead);
  detail::check_operand(dst, n * 8, "Sort", detail::kWrite);
  detail::check_operand(tmp, n * 8, "Sort", detail::kWrite);
  int passes = 0;
  for (uint64_t runs = static_cast<uint64_t>(repeatTimes); runs > 1; runs = (runs + 3) / 4)
    ++passes;
  const detail::SortCosts& c = detail::Runtime::active().sort_costs();
  double cycles =
      repeatTimes * c.sort32_cycles + passes * static_cast<double>(n) / c.merge_elements_per_cycle;
  detail::issue_vector_cycles("Sort", cycles, [dst, concat, index, n] {
    const float* s = concat.ptr();
    const uint32_t* ix = index.ptr();
    std::vector<std::pair<float, uint32_t>> v(n);
    for (uint64_t i = 0; i < n; ++i) v[i] = {s[i], ix[i]};
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first > b.first;
      return a.second < b.second;
    });
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    for (uint64_t i = 0; i < n; ++i) {
      std::memcpy(d + 8 * i, &v[i].first, 4);
      std::memcpy(d + 8 * i + 4, &v[i].second, 4);
    }
  });
}

// Concat (Ascend C API: Concat): on A2/A3 Sort reads the scores themselves, so the concatenated
// tensor is the source and no instruction is issued.
template <class T>
void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& /*tmp*/,
            const int32_t repeatTime) {
  if (repeatTime < 0 || repeatTime > 255)
    detail::fault("Concat: repeatTime " + std::to_string(repeatTime) + " outside [0, 255]");
  concat = src;
}

// Extract (Ascend C API: Extract): the scores and the indices of sorted proposals, 32 proposals
// (256 B) a repeat: two GatherMasks of the built-in patterns 1 (even words) and 2 (odd words).
template <class T>
void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
             const LocalTensor<T>& sorted, const int32_t repeatTime) {
  static_assert(std::is_same_v<T, float>, "Extract: float proposals only in this model");
  if (repeatTime < 0 || repeatTime > 255)
    detail::fault("Extract: repeatTime " + std::to_string(repeatTime) + " outside [0, 255]");
  if (repeatTime == 0) return;
  GatherMaskParams p;
  p.repeatTimes = static_cast<uint16_t>(repeatTime);
  p.src0RepeatStride = 8;
  uint64_t kept = 0;
  const LocalTensor<uint32_t> words = sorted.template ReinterpretCast<uint32_t>();
  GatherMask(dstValue.template ReinterpretCast<uint32_t>(), words, 1, false, 0, p, kept);
  GatherMask(dstIndex, words, 2, false, 0, p, kept);
}

// Sort32: each of `repeatTimes` groups of 32 scores (src0) with their indices (src1) sorted
// descending into 32 proposals of 8 bytes (the score, then its uint32 index), group by group.
template <class T>
void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
            const LocalTensor<uint32_t>& src1, int32_t repeatTimes) {
  static_assert(std::is_same_v<T, float>, "Sort32: float scores only in this model");
  if (repeatTimes <= 0 || repeatTimes > 255)
    detail::fault("Sort32: repeatTimes " + std::to_string(repeatTimes) + " outside [1, 255]");
  uint64_t n = uint64_t{32} * static_cast<uint64_t>(repeatTimes);
  detail::check_operand(src0, n * 4, "Sort32", detail::kRead);
  detail::check_operand(src1, n * 4, "Sort32", detail::kRead);
  detail::check_operand(dst, n * 8, "Sort32", detail::kWrite);
  double cycles = repeatTimes * detail::Runtime::active().sort_costs().sort32_cycles;
  detail::issue_vector_cycles("Sort32", cycles, [dst, src0, src1, repeatTimes] {
    const float* s = src0.ptr();
    const uint32_t* ix = src1.ptr();
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    for (int32_t r = 0; r < repeatTimes; ++r) {
      std::array<std::pair<float, uint32_t>, 32> v;
      for (int i = 0; i < 32; ++i) v[i] = {s[32 * r + i], ix[32 * r + i]};
      std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
        if (a.first != b.first) return a.first > b.first;
        return a.second < b.second;
      });
      for (int i = 0; i < 32; ++i) {
        std::memcpy(d + 8 * (32 * r + i), &v[i].first, 4);
        std::memcpy(d + 8 * (32 * r + i) + 4, &v[i].second, 4);
      }
    }
  });
}

template <class T>
struct MrgSortSrcList {
  LocalTensor<T> src1, src2, src3, src4;
};

// Merges up to 4 sorted proposal lists (validBit: bit i = list i takes part, lists in order,
// 0b0011, 0b0111 or 0b1111) into dst, descending by score. With isExhaustedSuspension the merge
// stops as soon as one list is used up; GetMrgSortResult then gives how many elements of each
// list went out. Without it, every element goes out.
template <class T, bool isExhaustedSuspension = false>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& list,
             const uint16_t elementCountList[4], uint16_t validBit) {
  static_assert(std::is_same_v<T, float>, "MrgSort: float proposals only in this model");
  int lists = validBit == 0b11 ? 2 : validBit == 0b111 ? 3 : validBit == 0b1111 ? 4 : 0;
  if (!lists)
    detail::fault("MrgSort: validBit " + std::to_string(validBit) +
                  " is not 0b11, 0b111 or 0b1111");
  std::array<LocalTensor<T>, 4> src = {list.src1, list.src2, list.src3, list.src4};
  std::array<uint16_t, 4> count = {0, 0, 0, 0};
  uint64_t total = 0;
  for (int i = 0; i < lists; ++i) {
    count[i] = elementCountList[i];
    detail::check_operand(src[i], uint64_t{count[i]} * 8, "MrgSort", detail::kRead);
    total += count[i];
  }
  if (total == 0) detail::fault("MrgSort of 0 elements");
  detail::check_operand(dst, total * 8, "MrgSort", detail::kWrite);
  detail::CoreState* state = &detail::state();
  double cycles =
      static_cast<double>(total) / detail::Runtime::active().sort_costs().merge_elements_per_cycle;
  detail::issue_vector_cycles("MrgSort", cycles, [dst, src, count, lists, state] {
    std::array<uint16_t, 4> pos = {0, 0, 0, 0};
    std::vector<uint8_t> out;
    out.reserve(8ull * (count[0] + count[1] + count[2] + count[3]));
    auto score = [&](int i) {
      float f;
      std::memcpy(&f, reinterpret_cast<const uint8_t*>(src[i].ptr()) + 8ull * pos[i], 4);
      return f;
    };
    while (true) {
      int best = -1;
      bool exhausted = false;
      for (int i = 0; i < lists; ++i) {
        if (pos[i] == count[i]) {
          exhausted = true;
          continue;
        }
        if (best < 0 || score(i) > score(best)) best = i;
      }
      if (best < 0 || (isExhaustedSuspension && exhausted)) break;
      const uint8_t* p = reinterpret_cast<const uint8_t*>(src[best].ptr()) + 8ull * pos[best];
      out.insert(out.end(), p, p + 8);
      ++pos[best];
    }
    std::memcpy(dst.ptr(), out.data(), out.size());
    state->mrgsort = pos;  // read by GetMrgSortResult
    state->has_mrgsort = true;
  });
}

// The MrgSort4Info form: repeatTimes merges, each of 4 lists that lie one after another (list i
// of repeat r starts where the lists before it end); repeat r reads from src1 + r x (the 4
// lists' elements) proposals on and writes dst as far on.
struct MrgSort4Info {
  MrgSort4Info() = default;
  MrgSort4Info(const uint16_t elementLengthsIn[4], bool ifExhaustedSuspensionIn,
               uint16_t validBitIn, uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn),
        validBit(validBitIn),
        repeatTimes(repeatTimesIn) {
    for (int i = 0; i < 4; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  uint16_t elementLengths[4] = {0, 0, 0, 0};
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;
  uint16_t repeatTimes = 1;
};
template <class T>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& list, const MrgSort4Info& p) {
  if (p.repeatTimes > 1 && p.ifExhaustedSuspension)
    detail::fault("MrgSort: ifExhaustedSuspension with repeatTimes > 1");
  uint32_t total = 0;
  for (int i = 0; i < 4; ++i)
    if ((p.validBit >> i) & 1) total += p.elementLengths[i];
  constexpr uint32_t per_proposal = 8 / sizeof(T);  // elements of T in one (score, index) pair
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    const uint32_t at = r * total * per_proposal;
    MrgSortSrcList<T> l;
    l.src1 = list.src1[at];
    l.src2 = list.src2[at];
    l.src3 = (p.validBit >> 2) & 1 ? list.src3[at] : list.src3;
    l.src4 = (p.validBit >> 3) & 1 ? list.src4[at] : list.src4;
    if (p.ifExhaustedSuspension)
      MrgSort<T, true>(dst[at], l, p.elementLengths, p.validBit);
    else
      MrgSort<T, false>(dst[at], l, p.elementLengths, p.validBit);
  }
}

// The per-list counts of the last MrgSort with exhausted suspension on this core (the scalar must
// wait for the vector pipe first: SetFlag/WaitFlag<V_S>).
inline void GetMrgSortResult(uint16_t& n1, uint16_t& n2, uint16_t& n3, uint16_t& n4) {
  std::array<uint16_t, 4> r = detail::last_mrgsort_result();
  n1 = r[0];
  n2 = r[1];
  n3 = r[2];
  n4 = r[3];
}

}  // namespace AscendC
