#include "sim/npy.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/errors.h"

namespace ascend::npy {

namespace {
std::string shape_text(const std::vector<uint64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    s += std::to_string(shape[i]) + (shape.size() == 1 || i + 1 < shape.size() ? "," : "");
  return s + ")";
}
[[noreturn]] void bad(const std::string& path, const std::string& why) {
  throw SimError(kExitBadInput, path + ": " + why);
}
}  // namespace

uint64_t Array::elements() const {
  uint64_t n = 1;
  for (uint64_t d : shape) n *= d;
  return n;
}

size_t item_size(const std::string& dtype) {
  if (dtype == "|i1" || dtype == "|u1" || dtype == "|b1") return 1;
  if (dtype == "<u2" || dtype == "<f2" || dtype == "<i2") return 2;
  if (dtype == "<f4" || dtype == "<i4" || dtype == "<u4") return 4;
  if (dtype == "<i8" || dtype == "<f8" || dtype == "<u8") return 8;
  return 0;
}

void write(const std::string& path, const std::string& dtype, const std::vector<uint64_t>& shape,
           const void* data) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::string header =
      "{'descr': '" + dtype + "', 'fortran_order': False, 'shape': " + shape_text(shape) + ", }";
  // magic (6) + version (2) + length (2) + header + '\n' is padded to a multiple of 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  if (!f) bad(path, "cannot be written");
  uint16_t len = static_cast<uint16_t>(header.size());
  f.write("\x93NUMPY\x01\x00", 8);
  char le[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  f.write(le, 2);
  f.write(header.data(), static_cast<std::streamsize>(header.size()));
  uint64_t n = 1;
  for (uint64_t d : shape) n *= d;
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(n * item_size(dtype)));
}

Array read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) bad(path, "cannot be read");
  char magic[8];
  if (!f.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0) bad(path, "is not a .npy file");
  size_t len = 0;
  if (magic[6] == 1) {
    unsigned char l[2];
    f.read(reinterpret_cast<char*>(l), 2);
    len = l[0] | (l[1] << 8);
  } else {
    unsigned char l[4];
    f.read(reinterpret_cast<char*>(l), 4);
    len = l[0] | (l[1] << 8) | (l[2] << 16) | (static_cast<size_t>(l[3]) << 24);
  }
  std::string header(len, ' ');
  if (!f.read(header.data(), static_cast<std::streamsize>(len)))
    bad(path, "has a truncated header");
  Array a;
  auto field = [&](const std::string& key) {
    size_t k = header.find("'" + key + "'");
    if (k == std::string::npos) bad(path, "header lacks '" + key + "'");
    return header.substr(header.find(':', k) + 1);
  };
  std::string descr = field("descr");
  size_t q1 = descr.find('\''), q2 = descr.find('\'', q1 + 1);
  a.dtype = descr.substr(q1 + 1, q2 - q1 - 1);
  if (a.dtype == "<b1" || a.dtype == "|u1") a.dtype = a.dtype == "<b1" ? "|b1" : "|u1";
  if (item_size(a.dtype) == 0) bad(path, "has an unsupported dtype '" + a.dtype + "'");
  if (field("fortran_order").find("True") < field("fortran_order").find(','))
    bad(path, "is in Fortran order");
  std::string shape = field("shape");
  shape = shape.substr(shape.find('(') + 1, shape.find(')') - shape.find('(') - 1);
  std::stringstream ss(shape);
  std::string dim;
  while (std::getline(ss, dim, ','))
    if (dim.find_first_not_of(" ") != std::string::npos) a.shape.push_back(std::stoull(dim));
  a.bytes.resize(a.elements() * item_size(a.dtype));
  if (!f.read(reinterpret_cast<char*>(a.bytes.data()),
              static_cast<std::streamsize>(a.bytes.size())))
    bad(path, "has fewer data bytes than its shape needs");
  return a;
}

Array read_expect(const std::string& path, const std::string& dtype,
                  const std::vector<uint64_t>& shape) {
  Array a = read(path);
  if (a.dtype != dtype || a.shape != shape)
    bad(path, "is " + a.dtype + " " + shape_text(a.shape) + "; expected " + dtype + " " +
                  shape_text(shape));
  return a;
}

}  // namespace ascend::npy
