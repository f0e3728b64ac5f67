// Ascend C's Layout: a tensor's logical shape and the stride of each dimension, in elements, as
// two Std::tuples (Shape, Stride); MakeShape, MakeStride and MakeLayout build them. Coord is a
// coordinate in the same form, and a Layout maps one to an element index (the sum of each
// coordinate times its stride). High-level APIs that take a Layout (TransData) read its shape.
#pragma once

#include <cstddef>
#include <tuple>
#include <utility>

#include "sim/api/std_traits.h"

namespace AscendC {

template <typename... Ts>
using Shape = Std::tuple<Ts...>;
template <typename... Ts>
using Stride = Std::tuple<Ts...>;
template <typename... Ts>
using Coord = Std::tuple<Ts...>;

template <typename... Ts>
constexpr Shape<Ts...> MakeShape(const Ts&... t) {
  return Shape<Ts...>(t...);
}
template <typename... Ts>
constexpr Stride<Ts...> MakeStride(const Ts&... t) {
  return Stride<Ts...>(t...);
}
template <typename... Ts>
constexpr Coord<Ts...> MakeCoord(const Ts&... t) {
  return Coord<Ts...>(t...);
}

template <typename ShapeType, typename StrideType>
struct Layout : Std::tuple<ShapeType, StrideType> {
  constexpr Layout(const ShapeType& shape = {}, const StrideType& stride = {})
      : Std::tuple<ShapeType, StrideType>(shape, stride) {}
  constexpr decltype(auto) GetShape() { return std::get<0>(*this); }
  constexpr decltype(auto) GetShape() const { return std::get<0>(*this); }
  constexpr decltype(auto) GetStride() { return std::get<1>(*this); }
  constexpr decltype(auto) GetStride() const { return std::get<1>(*this); }
  // The element index of a coordinate: sum of coordinate x stride over the dimensions.
  template <typename CoordType>
  constexpr auto operator()(const CoordType& coord) const {
    static_assert(std::tuple_size_v<CoordType> == std::tuple_size_v<StrideType>,
                  "Layout: a coordinate has one value per dimension of the stride");
    return index(coord, std::make_index_sequence<std::tuple_size_v<StrideType>>{});
  }

 private:
  template <typename CoordType, size_t... I>
  constexpr auto index(const CoordType& coord, std::index_sequence<I...>) const {
    return (size_t{0} + ... + size_t(std::get<I>(coord) * std::get<I>(GetStride())));
  }
};

template <typename ShapeType, typename StrideType>
constexpr Layout<ShapeType, StrideType> MakeLayout(const ShapeType& shape,
                                                   const StrideType& stride) {
  return Layout<ShapeType, StrideType>(shape, stride);
}

template <typename T>
struct is_layout : std::false_type {};
template <typename S, typename D>
struct is_layout<Layout<S, D>> : std::true_type {};
template <typename T>
constexpr bool is_layout_v = is_layout<T>::value;

}  // namespace AscendC
