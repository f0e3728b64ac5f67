// ListTensorDesc and TensorDesc: a list of GM tensors handed to a kernel as one argument (an
// operator's dynamic input), decoded as Ascend C lays it out. Words of 8 bytes: the offset from
// the head to the data pointers; per tensor a word (dim in the low 32 bits, the tensor count in
// the high 32 bits of the first) then its dim sizes; then the data pointers. The scalar reads the
// words: from simulated GM (a GmAlloc buffer or simulator GM, timed as scalar GM reads), or,
// where the program passed host memory that is no GM (the CPU-debug flow allows it), straight
// from that memory, untimed.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "api/tensor.h"

namespace AscendC {

namespace detail {
inline uint64_t list_word(uint64_t addr) {
  uint64_t v;
  const uint64_t gm = gm_of(addr);
  if (gm != addr || memory().region_of(gm, 8)) {
    scalar_gm_read(gm, &v, 8);
  } else {
    std::memcpy(&v, reinterpret_cast<const void*>(static_cast<uintptr_t>(addr)), 8);
  }
  return v;
}
}  // namespace detail

class ListTensorDesc;

template <class T>
class TensorDesc {
 public:
  void SetShapeAddr(uint64_t* shapePtr) {
    if (!shapePtr) detail::fault("TensorDesc::SetShapeAddr(nullptr)");
    shape_ = shapePtr;
  }
  uint64_t GetDim() { return dim_; }
  uint64_t GetIndex() { return index_; }
  uint64_t GetShape(uint32_t offset) {
    if (offset >= dim_)
      detail::fault("TensorDesc::GetShape(" + std::to_string(offset) + ") of a tensor of " +
                    std::to_string(dim_) + " dims");
    return shape_[offset];
  }
  __gm__ T* GetDataPtr() { return ptr_; }
  GlobalTensor<T> GetDataObj() {
    uint64_t n = 1;
    for (uint32_t i = 0; i < dim_; ++i) n *= shape_[i];
    GlobalTensor<T> g;
    g.SetGlobalBuffer(ptr_, n);
    return g;
  }

 private:
  friend class ListTensorDesc;
  uint32_t dim_ = 0, index_ = 0;
  uint64_t* shape_ = nullptr;
  __gm__ T* ptr_ = nullptr;
};

class ListTensorDesc {
 public:
  ListTensorDesc() = default;
  ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    Init(data, length, shapeSize);
  }
  void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    if (!data) detail::fault("ListTensorDesc: a null list");
    head_ = reinterpret_cast<uint64_t>(data);
    const uint64_t ptr_offset = detail::list_word(head_);
    const uint64_t first = detail::list_word(head_ + 8);
    dim_ = static_cast<uint32_t>(first & 0xffffffffu);
    words_ = dim_ == 0 ? 2 : 1 + dim_;
    data_ = head_ + ptr_offset;
    const uint32_t stated = static_cast<uint32_t>(first >> 32);
    count_ =
        stated ? stated : static_cast<uint32_t>(detail::list_word(data_ - 8 * words_) >> 32) + 1;
    const bool laid_out =
        dim_ != 0 ? ptr_offset >= 8 && count_ == (ptr_offset - 8) / (8 * words_) : ptr_offset == 24;
    if (!laid_out)
      detail::fault("ListTensorDesc: the head (offset " + std::to_string(ptr_offset) + ", dim " +
                    std::to_string(dim_) + ", count " + std::to_string(count_) +
                    ") is not a list of tensor descriptions");
    if (length != 0xffffffff && shapeSize != 0xffffffff &&
        (count_ != shapeSize || length != ptr_offset + 8ull * count_))
      detail::fault("ListTensorDesc: " + std::to_string(count_) + " tensors in " +
                    std::to_string(ptr_offset + 8ull * count_) + " B, the kernel expects " +
                    std::to_string(shapeSize) + " in " + std::to_string(length) + " B");
  }
  template <class T>
  void GetDesc(TensorDesc<T>& desc, uint32_t index) {
    check(index, "GetDesc");
    if (dim_ == 0) detail::fault("ListTensorDesc::GetDesc on a list without shapes");
    desc.dim_ = dim_;
    desc.index_ = index;
    desc.ptr_ = GetDataPtr<T>(index);
    if (!desc.shape_) detail::fault("ListTensorDesc::GetDesc: SetShapeAddr first");
    const uint64_t at = head_ + 8 + 8ull * words_ * index + 8;
    for (uint32_t i = 0; i < dim_; ++i) desc.shape_[i] = detail::list_word(at + 8ull * i);
  }
  template <class T>
  __gm__ T* GetDataPtr(uint32_t index) {
    check(index, "GetDataPtr");
    return reinterpret_cast<__gm__ T*>(
        static_cast<uintptr_t>(detail::list_word(data_ + 8ull * index)));
  }
  uint32_t GetSize() { return count_; }

 private:
  void check(uint32_t index, const char* what) const {
    if (index >= count_)
      detail::fault(std::string("ListTensorDesc::") + what + "(" + std::to_string(index) +
                    ") of a list of " + std::to_string(count_) + " tensors");
  }
  uint64_t head_ = 0, data_ = 0;
  uint32_t dim_ = 0, words_ = 0, count_ = 0;
};

}  // namespace AscendC
