// AscendC::Std, the C++ standard library subset Ascend C kernels may use on the device (Ascend C
// API: 类型特性 is_void, is_integral, ..., remove_cv, add_const, conditional, enable_if;
// 算法 min, max; 容器函数 tuple, make_tuple, get; 通用工具 integer_sequence). On the host build the
// standard library's own templates are those semantics, so the names are std's.
#pragma once

#include <algorithm>
#include <tuple>
#include <type_traits>
#include <utility>

namespace AscendC {
namespace Std {
using std::add_const;
using std::add_const_t;
using std::add_cv;
using std::add_cv_t;
using std::add_lvalue_reference;
using std::add_lvalue_reference_t;
using std::add_pointer;
using std::add_pointer_t;
using std::add_rvalue_reference;
using std::add_rvalue_reference_t;
using std::add_volatile;
using std::add_volatile_t;
using std::bool_constant;
using std::conditional;
using std::conditional_t;
using std::enable_if;
using std::enable_if_t;
using std::false_type;
using std::integral_constant;
using std::is_array;
using std::is_array_v;
using std::is_base_of;
using std::is_base_of_v;
using std::is_const;
using std::is_const_v;
using std::is_convertible;
using std::is_convertible_v;
using std::is_floating_point;
using std::is_floating_point_v;
using std::is_integral;
using std::is_integral_v;
using std::is_pointer;
using std::is_pointer_v;
using std::is_reference;
using std::is_reference_v;
using std::is_same;
using std::is_same_v;
using std::is_void;
using std::is_void_v;
using std::remove_const;
using std::remove_const_t;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_pointer;
using std::remove_pointer_t;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_volatile;
using std::remove_volatile_t;
using std::true_type;

using std::forward;
using std::get;
using std::index_sequence;
using std::integer_sequence;
using std::make_index_sequence;
using std::make_integer_sequence;
using std::make_tuple;
using std::max;
using std::min;
using std::move;
using std::tuple;
}  // namespace Std
}  // namespace AscendC
