// ge::DataType of graph/types.h, as host tiling code passes it to the Get*MaxMinTmpSize queries,
// with the values of Ascend C's enumeration, and GetSizeByDataType.
#pragma once

#include <cstdint>

namespace ge {

enum DataType {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_BF16 = 27,
  DT_UNDEFINED = 28,
};

// The bytes of one element, or -1 for a type without a fixed size.
inline int GetSizeByDataType(DataType t) {
  switch (t) {
    case DT_INT8:
    case DT_UINT8:
    case DT_BOOL:
      return 1;
    case DT_FLOAT16:
    case DT_BF16:
    case DT_INT16:
    case DT_UINT16:
      return 2;
    case DT_FLOAT:
    case DT_INT32:
    case DT_UINT32:
      return 4;
    case DT_INT64:
    case DT_UINT64:
    case DT_DOUBLE:
      return 8;
    default:
      return -1;
  }
}

}  // namespace ge
