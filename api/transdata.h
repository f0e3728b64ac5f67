// The high-level TransData (Ascend C API, A2/A3): 16-bit data in UB between NCDHW and the
// cube's formats, NDC1HWC0 ([N, D, C1, H, W, C0]) and FRACTAL_Z_3D ([D, C1, H, W, N1, N0, C0]),
// with C0 = N0 = 16 and C1, N1 the rounded-up quotients. The layouts (Layout, MakeShape) give the
// original shapes. An NCDHW tensor in UB holds each H x W plane padded to 16 elements (32 B): the
// source as the caller padded it, the destination with zeros in the padding. C and N are padded
// with zeros in the cube formats.
//
// The result is exact. The time is that of a block transposition, as the enhanced Transpose: per
// 16 x 16 block of C x (H x W) of each (N, D) image (N padded to N1 x 16 for FRACTAL_Z_3D), one
// TransDataTo5HD repeat (two 256-B vector repeats), then one Copy pass over the destination.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "api/data_format.h"
#include "api/layout.h"
#include "api/vector_level0.h"

namespace AscendC {

struct TransDataConfig {
  DataFormat srcFormat;
  DataFormat dstFormat;
};

template <typename T, typename U>
struct TransDataParams {
  T srcLayout;
  U dstLayout;
};

namespace detail {

template <typename L, size_t... I>
std::array<uint64_t, sizeof...(I)> layout_dims(const L& layout, std::index_sequence<I...>) {
  return {uint64_t(std::get<I>(layout.GetShape()))...};
}
template <typename L>
auto layout_dims(const L& layout) {
  static_assert(is_layout_v<L>, "TransData: the params' shapes are Layouts (MakeLayout)");
  using S = std::decay_t<decltype(layout.GetShape())>;
  return layout_dims(layout, std::make_index_sequence<std::tuple_size_v<S>>{});
}

template <bool kFirst, typename A, typename B>
constexpr const auto& pick(const A& a, const B& b) {
  if constexpr (kFirst)
    return a;
  else
    return b;
}

constexpr const char* format_name(DataFormat f) {
  switch (f) {
    case DataFormat::NCDHW:
      return "NCDHW";
    case DataFormat::NDC1HWC0:
      return "NDC1HWC0";
    case DataFormat::FRACTAL_Z_3D:
      return "FRACTAL_Z_3D";
    default:
      return "another format";
  }
}

}  // namespace detail

template <const TransDataConfig& config, typename T, typename U, typename S>
void TransData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const TransDataParams<U, S>& params) {
  static_assert(sizeof(T) == 2, "TransData: int16_t, uint16_t, half or bfloat16_t elements");
  constexpr DataFormat from = config.srcFormat, to = config.dstFormat;
  constexpr bool to_cube = from == DataFormat::NCDHW;
  constexpr DataFormat cube = to_cube ? to : from;
  static_assert((from == DataFormat::NCDHW) != (to == DataFormat::NCDHW) &&
                    (cube == DataFormat::NDC1HWC0 || cube == DataFormat::FRACTAL_Z_3D),
                "TransData: NCDHW to or from NDC1HWC0 or FRACTAL_Z_3D");
  constexpr bool fz = cube == DataFormat::FRACTAL_Z_3D;
  const std::string name = std::string("TransData (") + detail::format_name(from) + " -> " +
                           detail::format_name(to) + ")";
  const auto plain = detail::layout_dims(detail::pick<to_cube>(params.srcLayout, params.dstLayout));
  const auto packed =
      detail::layout_dims(detail::pick<to_cube>(params.dstLayout, params.srcLayout));
  static_assert(std::tuple_size_v<decltype(plain)> == 5,
                "TransData: the NCDHW layout has five dimensions (N, C, D, H, W)");
  static_assert(std::tuple_size_v<decltype(packed)> == (fz ? 7 : 6),
                "TransData: NDC1HWC0 has six dimensions, FRACTAL_Z_3D seven");
  const uint64_t n = plain[0], c = plain[1], d = plain[2], h = plain[3], w = plain[4];
  const uint64_t c1 = (c + 15) / 16, n1 = (n + 15) / 16, hw = h * w, hwp = (hw + 15) / 16 * 16;
  const std::array<uint64_t, 7> want_fz{d, c1, h, w, n1, 16, 16};
  const std::array<uint64_t, 6> want_5hd{n, d, c1, h, w, 16};
  bool match = true;
  for (size_t i = 0; i < packed.size(); ++i)
    match = match && packed[i] == (fz ? want_fz[i] : want_5hd[i]);
  if (!match || n == 0 || c == 0 || d == 0 || hw == 0)
    detail::fault(name + ": the " + detail::format_name(cube) +
                  " layout's shape does not follow from NCDHW [" + std::to_string(n) + ", " +
                  std::to_string(c) + ", " + std::to_string(d) + ", " + std::to_string(h) + ", " +
                  std::to_string(w) + "] (C0 = N0 = 16), or a dimension is 0");
  const uint64_t plain_elems = n * c * d * hwp;
  const uint64_t packed_elems = fz ? d * c1 * hw * n1 * 16 * 16 : n * d * c1 * hw * 16;
  const uint64_t src_bytes = (to_cube ? plain_elems : packed_elems) * sizeof(T);
  const uint64_t dst_bytes = (to_cube ? packed_elems : plain_elems) * sizeof(T);
  auto overlaps = [](auto& a, uint64_t a_bytes, auto& b, uint64_t b_bytes) {
    return a.owner() == b.owner() && a.ub_offset() < b.ub_offset() + b_bytes &&
           b.ub_offset() < a.ub_offset() + a_bytes;
  };
  if (overlaps(src, src_bytes, dst, dst_bytes))
    detail::fault(name + ": the source and destination overlap");
  const uint64_t tmp_bytes = sharedTmpBuffer.GetSize();
  if (overlaps(sharedTmpBuffer, tmp_bytes, src, src_bytes) ||
      overlaps(sharedTmpBuffer, tmp_bytes, dst, dst_bytes))
    detail::fault(name + ": the shared buffer overlaps the source or destination");
  detail::check_operand(src, src_bytes, name.c_str(), detail::kRead);
  detail::check_operand(dst, dst_bytes, name.c_str(), detail::kWrite);
  const uint64_t blocks = d * (fz ? c1 * n1 * 16 : n * c1) * ((hw + 15) / 16);
  detail::issue_vector(
      "TransData", 2 * blocks + detail::repeats_for(dst_bytes / sizeof(T), sizeof(T)),
      [dst, src, n, c, d, hw, hwp, c1, n1, to_cube] {
        const T* s = src.ptr();
        T* o = dst.ptr();
        // The element of NCDHW (ni, ci, di, x) in the cube format.
        auto packed_at = [&](uint64_t ni, uint64_t ci, uint64_t di, uint64_t x) {
          if constexpr (fz)
            return ((((di * c1 + ci / 16) * hw + x) * n1 + ni / 16) * 16 + ni % 16) * 16 + ci % 16;
          else
            return (((ni * d + di) * c1 + ci / 16) * hw + x) * 16 + ci % 16;
        };
        const uint64_t pn = fz ? n1 * 16 : n, pc = c1 * 16;
        if (to_cube) {
          for (uint64_t ni = 0; ni < pn; ++ni)
            for (uint64_t ci = 0; ci < pc; ++ci)
              for (uint64_t di = 0; di < d; ++di)
                for (uint64_t x = 0; x < hw; ++x)
                  o[packed_at(ni, ci, di, x)] =
                      ni < n && ci < c ? s[((ni * c + ci) * d + di) * hwp + x] : T{};
        } else {
          for (uint64_t ni = 0; ni < n; ++ni)
            for (uint64_t ci = 0; ci < c; ++ci)
              for (uint64_t di = 0; di < d; ++di)
                for (uint64_t x = 0; x < hwp; ++x)
                  o[((ni * c + ci) * d + di) * hwp + x] =
                      x < hw ? s[packed_at(ni, ci, di, x)] : T{};
        }
      });
}

// The form whose temporary space the framework reserves: none is needed here.
template <const TransDataConfig& config, typename T, typename U, typename S>
void TransData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const TransDataParams<U, S>& params) {
  TransData<config>(dst, src, LocalTensor<uint8_t>(), params);
}

}  // namespace AscendC
