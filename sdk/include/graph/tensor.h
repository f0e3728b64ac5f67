// ge::Shape of graph/tensor.h, as host tiling code uses it: the dimensions of a tensor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "types.h"  // ge::DataType

namespace ge {

class Shape {
 public:
  Shape() = default;
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}
  std::vector<int64_t> GetDims() const { return dims_; }
  size_t GetDimNum() const { return dims_.size(); }
  // The idx-th dimension (0 when there is none, as ge's).
  int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
  // The element count: the product of the dimensions (0 for a shape without any).
  int64_t GetShapeSize() const {
    if (dims_.empty()) return 0;
    int64_t n = 1;
    for (int64_t d : dims_) n *= d;
    return n;
  }

 private:
  std::vector<int64_t> dims_;
};

}  // namespace ge
