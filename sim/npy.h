// NumPy .npy files (format version 1.0, C order): how tensors enter and leave a run. Dtype strings
// follow NumPy: '<u2' (bf16 bits), '<f2', '<f4', '|i1', '<i4', '<i8', '|b1'.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace ascend::npy {

struct Array {
  std::string dtype;
  std::vector<uint64_t> shape;
  std::vector<uint8_t> bytes;  // shape product x item size, C order
  uint64_t elements() const;
};

size_t item_size(const std::string& dtype);
// Writes the array; creates the parent directories. Throws SimError(kExitBadInput) on failure.
void write(const std::string& path, const std::string& dtype, const std::vector<uint64_t>& shape,
           const void* data);
// Reads an array; a missing file, a bad header or a Fortran-order array is bad input.
Array read(const std::string& path);
// The same from a stream positioned at the magic; `path` names it in messages.
Array read(std::istream& in, const std::string& path);
// Reads and checks dtype and shape, naming the file and what was expected.
Array read_expect(const std::string& path, const std::string& dtype,
                  const std::vector<uint64_t>& shape);

}  // namespace ascend::npy
