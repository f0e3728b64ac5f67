// The host's tiling-data definition macros (register/tilingdata_base.h in Ascend C):
// BEGIN_TILING_DATA_DEF, TILING_DATA_FIELD_DEF, TILING_DATA_FIELD_DEF_ARR,
// TILING_DATA_FIELD_DEF_STRUCT, END_TILING_DATA_DEF and REGISTER_TILING_DATA_CLASS.
//
// A definition expands to a class whose data members are the fields, in order, each at its
// natural alignment: the bytes SaveToBuffer writes are the plain struct with the same fields that
// a kernel copies from its tiling buffer (a struct field is an optiling tiling class, whose only
// member is that kernel struct). set_NAME/get_NAME access a field; GetDataSize() is the fields'
// size. After the fields the class keeps a reserve of zero bytes, as Ascend C's classes are larger
// than their data: programs allocate sizeof(the class) for SaveToBuffer and copy up to that many.
// A buffer too small for SaveToBuffer ends the program with exit status 2, naming the class.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

namespace optiling {
namespace tiling_data_detail {
[[noreturn]] inline void save_fail(const char* cls, const void* buffer, size_t capacity,
                                   size_t need) {
  if (buffer == nullptr)
    std::fprintf(stderr, "ascend-sim: bad input: %s::SaveToBuffer: a null buffer\n", cls);
  else
    std::fprintf(stderr,
                 "ascend-sim: bad input: %s::SaveToBuffer: a buffer of %zu B for %zu B of tiling\n",
                 cls, capacity, need);
  std::fflush(stdout);
  std::exit(2);
}
// The reserve after the fields (see above).
constexpr size_t kReserveBytes = 256;
}  // namespace tiling_data_detail
}  // namespace optiling

// GetDataSize() is where the reserve after the fields begins.
#define BEGIN_TILING_DATA_DEF(class_name)                                                      \
  class class_name {                                                                           \
    static constexpr const char* ascend_sim_name_() { return #class_name; }                    \
                                                                                               \
   public:                                                                                     \
    size_t GetDataSize() const {                                                               \
      return static_cast<size_t>(reinterpret_cast<const char*>(&ascend_sim_reserve_[0]) -      \
                                 reinterpret_cast<const char*>(this));                         \
    }                                                                                          \
    void SaveToBuffer(void* buffer, size_t capacity) const {                                   \
      const size_t need = GetDataSize();                                                       \
      if (buffer == nullptr || capacity < need)                                                \
        ::optiling::tiling_data_detail::save_fail(ascend_sim_name_(), buffer, capacity, need); \
      std::memcpy(buffer, this, need);                                                         \
    }

// Each field macro ends with its data member, so the `;` after it in a definition closes it.
#define TILING_DATA_FIELD_DEF(data_type, field_name)                                       \
 public:                                                                                   \
  static_assert(std::is_arithmetic<data_type>::value,                                      \
                "TILING_DATA_FIELD_DEF: " #field_name " should be of an arithmetic type"); \
  void set_##field_name(data_type v) {                                                     \
    field_name##_ = v;                                                                     \
  }                                                                                        \
  data_type get_##field_name() const {                                                     \
    return field_name##_;                                                                  \
  }                                                                                        \
  data_type field_name##_ = 0

// An array field: set_NAME copies arr_size elements from a pointer, get_NAME gives the array.
#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name) \
 public:                                                          \
  void set_##field_name(const arr_type* v) {                      \
    std::memcpy(field_name##_, v, sizeof(field_name##_));         \
  }                                                               \
  arr_type* get_##field_name() {                                  \
    return field_name##_;                                         \
  }                                                               \
  const arr_type* get_##field_name() const {                      \
    return field_name##_;                                         \
  }                                                               \
  arr_type field_name##_[arr_size] = {}

// A struct field: an optiling tiling class (or another definition), used by name.
#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name) \
 public:                                                      \
  struct_type field_name

#define END_TILING_DATA_DEF                                                              \
 public:                                                                                 \
  unsigned char ascend_sim_reserve_[::optiling::tiling_data_detail::kReserveBytes] = {}; \
  }

// Ascend C registers the class under an operator's name for the framework's tiling; a program
// run alone has no framework, so the registration only checks that the class exists.
#define REGISTER_TILING_DATA_CLASS(op_type, class_name) \
  static_assert(sizeof(class_name) > 0, "REGISTER_TILING_DATA_CLASS: " #op_type);
