// The vector unit's block transposition (Ascend C API: TransDataTo5HD, the vnchwconv instruction)
// and the enhanced Transpose built on it ([N,C,H,W] <-> [N,H,W,C]).
//
// TransDataTo5HD: each repeat reads sixteen 32-B blocks (srcList) and writes sixteen (dstList);
// repeat r moves every address by r x srcRepStride (dstRepStride) blocks. 16-bit elements: dst
// block j holds element j of each source block, in list order (a 16 x 16 transposition). 8-bit:
// the sixteen elements j (+16 when srcHighHalf) of the source blocks fill the low (high, with
// dstHighHalf) half of dst block j. A repeat moves 512 B through the vector datapath: it is timed
// as two 256-B repeats, as the 16 x 16 Transpose. 32-bit elements (the hardware's pair-of-blocks
// layout) are not modelled: a compile error says so.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "api/confusion_transpose.h"  // TransposeType
#include "api/vector_level0.h"

namespace AscendC {

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

struct TransDataTo5HDParams {
  TransDataTo5HDParams() = default;
  TransDataTo5HDParams(bool dst_high, bool src_high, uint8_t repeat, uint16_t dst_rep,
                       uint16_t src_rep)
      : dstHighHalf(dst_high),
        srcHighHalf(src_high),
        repeatTimes(repeat),
        dstRepStride(dst_rep),
        srcRepStride(src_rep) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;
  uint16_t srcRepStride = 0;
};

namespace detail {
// UB byte offsets of the sixteen blocks of a list given as addresses (GetPhyAddr values).
inline std::array<uint64_t, 16> ub_offsets(ascend::model::Core* core, const uint64_t* list,
                                           const char* which) {
  std::array<uint64_t, 16> off{};
  const uintptr_t base = reinterpret_cast<uintptr_t>(core->ub());
  for (int i = 0; i < 16; ++i) {
    if (list[i] < base)
      fault(std::string("TransDataTo5HD: ") + which + "[" + std::to_string(i) +
            "] is not an address in this core's UB (take it from LocalTensor::GetPhyAddr)");
    off[i] = list[i] - base;
  }
  return off;
}

template <class T>
void trans_data_to_5hd(const std::array<uint64_t, 16>& dst, const std::array<uint64_t, 16>& src,
                       const TransDataTo5HDParams& p) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2,
                "ascend-sim: TransDataTo5HD is modelled for 8- and 16-bit elements (the 32-bit "
                "pair-of-blocks layout is not)");
  const char* name = "TransDataTo5HD";
  if (p.repeatTimes == 0) return;  // a NOP, as Ascend C states
  ascend::model::Core* core = current_core();
  for (int i = 0; i < 16; ++i)
    for (const auto& [list, access] : {std::pair{&src, kRead}, std::pair{&dst, kWrite}}) {
      const uint64_t first = (*list)[i];
      const uint16_t stride = access == kRead ? p.srcRepStride : p.dstRepStride;
      check_ub_aligned(first, name);
      for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const uint64_t at = first + uint64_t{r} * stride * 32;
        check_ub(core, at, 32, name);
        note_ub(at, 32, access);
      }
    }
  issue_vector(name, 2ull * p.repeatTimes, [core, dst, src, p] {
    uint8_t* ub = core->ub();
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
      T in[16][32 / sizeof(T)];
      for (int i = 0; i < 16; ++i)
        std::memcpy(in[i], ub + src[i] + uint64_t{r} * p.srcRepStride * 32, 32);
      for (int j = 0; j < 16; ++j) {
        T* out = reinterpret_cast<T*>(ub + dst[j] + uint64_t{r} * p.dstRepStride * 32);
        if constexpr (sizeof(T) == 2) {
          for (int i = 0; i < 16; ++i) out[i] = in[i][j];
        } else {
          const int from = j + (p.srcHighHalf ? 16 : 0), to = p.dstHighHalf ? 16 : 0;
          for (int i = 0; i < 16; ++i) out[to + i] = in[i][from];
        }
      }
    }
  });
}
}  // namespace detail

template <class T>
void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                    uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& p) {
  ascend::model::Core* core = detail::current_core();
  detail::trans_data_to_5hd<T>(detail::ub_offsets(core, dstList, "dstList"),
                               detail::ub_offsets(core, srcList, "srcList"), p);
}
template <class T>
void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& p) {
  std::array<uint64_t, 16> dst{}, src{};
  for (int i = 0; i < 16; ++i) {
    dst[i] = dstList[i].ub_offset();
    src[i] = srcList[i].ub_offset();
  }
  detail::trans_data_to_5hd<T>(dst, src, p);
}
// The lists held in UB as sixteen uint64 addresses each (read by the scalar unit).
template <class T>
void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                    const TransDataTo5HDParams& p) {
  detail::check_operand(dst, 16 * 8, "TransDataTo5HD", detail::kRead);
  detail::check_operand(src, 16 * 8, "TransDataTo5HD", detail::kRead);
  uint64_t d[16], s[16];
  std::memcpy(d, dst.ptr(), sizeof(d));
  std::memcpy(s, src.ptr(), sizeof(s));
  TransDataTo5HD<T>(d, s, p);
}

struct TransposeParamsExt {
  TransposeParamsExt() = default;
  TransposeParamsExt(uint16_t n, uint16_t c, uint16_t h, uint16_t w, TransposeType type)
      : nSize(n), cSize(c), hSize(h), wSize(w), transposeType(type) {}
  uint16_t nSize = 0;
  uint16_t cSize = 0;
  uint16_t hSize = 0;
  uint16_t wSize = 0;
  TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

// The enhanced Transpose of 16-bit elements: TRANSPOSE_ND2ND_B16 is the 16 x 16 Transpose;
// TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW move [N,C,H,W] to [N,H,W,C] and back through the
// shared buffer, whose size Ascend C states ((C + 2) or (2C + 1) blocks of 16 x 16 elements). The
// result is exact; the time is the instruction count of a block transposition: per image,
// ceil(C / 16) x (H x W / 16) TransDataTo5HD repeats, then one Copy pass over the image to pack
// its rows out of the shared buffer.
template <class T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const TransposeParamsExt& p) {
  static_assert(sizeof(T) == 2,
                "ascend-sim: the enhanced Transpose takes 16-bit elements (uint16_t on A2/A3)");
  const char* name = "Transpose (TransposeParamsExt)";
  if (p.transposeType == TransposeType::TRANSPOSE_ND2ND_B16) {
    Transpose(dst, src);
    return;
  }
  const bool to_nhwc = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
  if (!to_nhwc && p.transposeType != TransposeType::TRANSPOSE_NHWC2NCHW)
    detail::fault(std::string(name) + ": TransposeType " +
                  std::to_string(static_cast<int>(p.transposeType)) +
                  " is not one of ND2ND_B16, NCHW2NHWC, NHWC2NCHW");
  const uint32_t n = p.nSize, c = p.cSize, hw = uint32_t{p.hSize} * p.wSize;
  if (n == 0 || c == 0 || hw == 0) return;  // no computation, no write, as Ascend C states
  if (c > 4095 || hw > 4095 || hw * sizeof(T) % 32)
    detail::fault(std::string(name) + ": cSize " + std::to_string(c) + " (at most 4095) or H x W " +
                  std::to_string(hw) + " (at most 4095, a 32-B multiple of elements) out of range");
  const uint64_t bytes = uint64_t{n} * c * hw * sizeof(T);
  const uint64_t tmp_bytes = uint64_t{to_nhwc ? c + 2u : 2u * c + 1u} * 16 * 16 * sizeof(T);
  if (sharedTmpBuffer.GetSize() < tmp_bytes)
    detail::fault(std::string(name) + ": a shared buffer of " +
                  std::to_string(sharedTmpBuffer.GetSize()) + " B, below the " +
                  std::to_string(tmp_bytes) + " B it needs");
  if (src.owner() == dst.owner() && src.ub_offset() < dst.ub_offset() + bytes &&
      dst.ub_offset() < src.ub_offset() + bytes)
    detail::fault(std::string(name) + ": src and dst overlap (not allowed for NCHW <-> NHWC)");
  detail::check_operand(src, bytes, name, detail::kRead);
  detail::check_operand(dst, bytes, name, detail::kWrite);
  detail::check_operand(sharedTmpBuffer, tmp_bytes, name, detail::kWrite);
  const uint64_t blocks = uint64_t{n} * ((c + 15) / 16) * (hw / 16);
  detail::issue_vector(name, 2 * blocks + detail::repeats_for(uint64_t{n} * c * hw, sizeof(T)),
                       [dst, src, n, c, hw, to_nhwc] {
                         const T* s = src.ptr();
                         T* d = dst.ptr();
                         for (uint64_t i = 0; i < n; ++i)
                           for (uint64_t ci = 0; ci < c; ++ci)
                             for (uint64_t x = 0; x < hw; ++x) {
                               const uint64_t nchw = (i * c + ci) * hw + x,
                                              nhwc = (i * hw + x) * c + ci;
                               if (to_nhwc)
                                 d[nhwc] = s[nchw];
                               else
                                 d[nchw] = s[nhwc];
                             }
                       });
}

}  // namespace AscendC
