// Ascend C's coordinates and layouts (Ascend C API: Coord, MakeCoord, Crd2Idx, Shape, Stride,
// MakeShape, MakeStride, Layout, MakeLayout, is_layout): a coordinate, a shape and a stride are
// Std::tuples of integers, and a layout maps a coordinate to the element index sum(c_i x s_i).
// Flat tuples only: the nested (hierarchical) shapes and the compile-time Std::Int of the vendor's
// layout algebra are not modelled (a nested tuple stops the build).
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "api/std_traits.h"

namespace AscendC {

template <class... Ts>
using Coord = Std::tuple<Ts...>;
template <class... Ts>
using Shape = Std::tuple<Ts...>;
template <class... Ts>
using Stride = Std::tuple<Ts...>;

template <class... Ts>
constexpr Coord<Ts...> MakeCoord(const Ts&... t) {
  return Coord<Ts...>(t...);
}
template <class... Ts>
constexpr Shape<Ts...> MakeShape(const Ts&... t) {
  return Shape<Ts...>(t...);
}
template <class... Ts>
constexpr Stride<Ts...> MakeStride(const Ts&... t) {
  return Stride<Ts...>(t...);
}

namespace detail {
template <class T>
struct is_std_tuple : std::false_type {};
template <class... Ts>
struct is_std_tuple<std::tuple<Ts...>> : std::true_type {};
// sum over i of coord_i x stride_i, in the common integer type of them all.
template <class CoordType, class StrideType, std::size_t... I>
constexpr auto crd2idx(const CoordType& c, const StrideType& s, std::index_sequence<I...>) {
  static_assert(((std::is_integral_v<std::tuple_element_t<I, CoordType>> &&
                  std::is_integral_v<std::tuple_element_t<I, StrideType>>)&&...),
                "ascend-sim: nested (hierarchical) coordinates and strides are not modelled");
  using R = std::common_type_t<std::tuple_element_t<I, CoordType>...,
                               std::tuple_element_t<I, StrideType>...>;
  return (R{0} + ... + (static_cast<R>(Std::get<I>(c)) * static_cast<R>(Std::get<I>(s))));
}
}  // namespace detail

// The shape and the stride of a tensor's elements (the stride in elements, per dimension).
template <class ShapeType, class StrideType>
class Layout {
  static_assert(detail::is_std_tuple<ShapeType>::value && detail::is_std_tuple<StrideType>::value,
                "Layout: the shape and the stride are Std::tuples");
  // The stride may be left empty (MakeStride()) where only the shape is read (TransData); a
  // coordinate then needs one stride per dimension.

 public:
  constexpr Layout(const ShapeType& shape = {}, const StrideType& stride = {})
      : shape_(shape), stride_(stride) {}
  constexpr decltype(auto) layout() { return *this; }
  constexpr decltype(auto) layout() const { return *this; }
  constexpr const ShapeType& GetShape() const { return shape_; }
  constexpr const StrideType& GetStride() const { return stride_; }
  // The element index of coordinate `coord`.
  template <class CoordType>
  constexpr auto operator()(const CoordType& coord) const {
    static_assert(std::tuple_size_v<CoordType> == std::tuple_size_v<StrideType>,
                  "Layout: a coordinate of as many dimensions as the layout");
    return detail::crd2idx(coord, stride_,
                           std::make_index_sequence<std::tuple_size_v<StrideType>>{});
  }

 private:
  ShapeType shape_;
  StrideType stride_;
};

template <class ShapeType, class StrideType>
constexpr auto MakeLayout(const ShapeType& shape, const StrideType& stride) {
  return Layout<ShapeType, StrideType>(shape, stride);
}

template <class T>
struct is_layout : std::false_type {};
template <class S, class D>
struct is_layout<Layout<S, D>> : std::true_type {};
template <class T>
constexpr bool is_layout_v = is_layout<T>::value;

template <class CoordType, class ShapeType, class StrideType>
constexpr auto Crd2Idx(const CoordType& coord, const ShapeType& shape, const StrideType& stride) {
  return MakeLayout(shape, stride)(coord);
}
template <class CoordType, class S, class D>
constexpr auto Crd2Idx(const CoordType& coord, const Layout<S, D>& layout) {
  return layout(coord);
}

}  // namespace AscendC
