// The .npy reader (--input): headers, shapes, dtypes, truncated and padded files. An input is
// refused as bad input, or read as an array whose data is exactly its shape's size, that writes
// back to a file that reads again the same.
#include <sstream>

#include "sim/npy.h"
#include "tests/fuzz/fuzz_common.h"

namespace {
std::string scratch;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  scratch = ascend::fuzz::enter_scratch_dir();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ascend;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  npy::Array a;
  if (!fuzz::accepted([&] { a = npy::read(in, "fuzz.npy"); })) return 0;
  if (a.bytes.size() != a.elements() * npy::item_size(a.dtype))
    fuzz::finding("data of " + std::to_string(a.bytes.size()) + " B for " +
                  std::to_string(a.elements()) + " elements of " + a.dtype);
  npy::Array b;
  if (!fuzz::accepted([&] {
        npy::write("a.npy", a.dtype, a.shape, a.bytes.data());
        b = npy::read("a.npy");
      }))
    fuzz::finding("an array read could not be written and read back");
  if (b.dtype != a.dtype || b.shape != a.shape || b.bytes != a.bytes)
    fuzz::finding("an array read back differs from the one written");
  return 0;
}
