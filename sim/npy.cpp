#include "sim/npy.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <limits>
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
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (ec) bad(path, "cannot be written: " + ec.message());
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

namespace {

// The header is a Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// with the keys in any order. It is parsed strictly: anything else is a bad header, never a guess.
class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& path) : s_(text), path_(path) {}

  void parse(Array& a) {
    bool descr = false, order = false, shape = false;
    expect('{');
    while (!peek('}')) {
      std::string key = quoted();
      expect(':');
      if (key == "descr" && !descr) {
        a.dtype = quoted();
        descr = true;
      } else if (key == "fortran_order" && !order) {
        if (word("True")) bad(path_, "is in Fortran order");
        if (!word("False")) bad(path_, "has a bad header: fortran_order is neither True nor False");
        order = true;
      } else if (key == "shape" && !shape) {
        a.shape = dims();
        shape = true;
      } else {
        bad(path_, "has a bad header: unexpected or repeated key '" + key + "'");
      }
      if (!peek('}')) expect(',');
    }
    expect('}');
    skip();
    if (i_ != s_.size()) bad(path_, "has a bad header: text after the dictionary");
    for (auto [have, key] : {std::pair{descr, "descr"}, {order, "fortran_order"}, {shape, "shape"}})
      if (!have) bad(path_, std::string("header lacks '") + key + "'");
  }

 private:
  void skip() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n')) ++i_;
  }
  bool peek(char c) {
    skip();
    return i_ < s_.size() && s_[i_] == c;
  }
  void expect(char c) {
    if (!peek(c)) bad(path_, std::string("has a bad header: expected '") + c + "'");
    ++i_;
  }
  bool word(const char* w) {
    skip();
    size_t n = std::strlen(w);
    if (s_.compare(i_, n, w) != 0) return false;
    i_ += n;
    return true;
  }
  std::string quoted() {
    skip();
    if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"'))
      bad(path_, "has a bad header: expected a quoted string");
    char q = s_[i_++];
    size_t end = s_.find(q, i_);
    if (end == std::string::npos) bad(path_, "has a bad header: unterminated string");
    std::string out = s_.substr(i_, end - i_);
    i_ = end + 1;
    return out;
  }
  std::vector<uint64_t> dims() {
    std::vector<uint64_t> out;
    expect('(');
    while (!peek(')')) {
      skip();
      size_t b = i_;
      uint64_t v = 0;
      for (; i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_])); ++i_) {
        if (v > (std::numeric_limits<uint64_t>::max() - 9) / 10)
          bad(path_, "has a bad header: a dimension is too large");
        v = v * 10 + static_cast<uint64_t>(s_[i_] - '0');
      }
      if (i_ == b) bad(path_, "has a bad header: a dimension is not a whole number");
      out.push_back(v);
      if (!peek(')')) expect(',');
    }
    expect(')');
    return out;
  }

  const std::string& s_;
  const std::string& path_;
  size_t i_ = 0;
};

// NumPy caps a header at 10,000 bytes when it reads one; a few simple fields need far less.
constexpr size_t kMaxHeader = 65536;

}  // namespace

Array read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) bad(path, "cannot be read");
  return read(f, path);
}

Array read(std::istream& f, const std::string& path) {
  char magic[8];
  if (!f.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0) bad(path, "is not a .npy file");
  if (magic[6] < 1 || magic[6] > 3)
    bad(path, "has .npy format version " + std::to_string(static_cast<unsigned char>(magic[6])) +
                  "; versions 1 to 3 are read");
  unsigned char l[4] = {0, 0, 0, 0};
  if (!f.read(reinterpret_cast<char*>(l), magic[6] == 1 ? 2 : 4))
    bad(path, "has a truncated header");
  size_t len =
      l[0] | (l[1] << 8) | (static_cast<size_t>(l[2]) << 16) | (static_cast<size_t>(l[3]) << 24);
  if (len > kMaxHeader)
    bad(path, "has a header of " + std::to_string(len) + " B (at most " +
                  std::to_string(kMaxHeader) + " B are read)");
  std::string header(len, ' ');
  if (!f.read(header.data(), static_cast<std::streamsize>(len)))
    bad(path, "has a truncated header");
  Array a;
  HeaderParser(header, path).parse(a);
  if (a.dtype == "<b1" || a.dtype == "<u1" || a.dtype == "<i1") a.dtype = "|" + a.dtype.substr(1);
  if (item_size(a.dtype) == 0) bad(path, "has an unsupported dtype '" + a.dtype + "'");
  // The data must be there, and nothing else: a file whose size does not match its header is a
  // mislabelled tensor, not one to guess at. Checked before anything is allocated.
  const std::streampos at = f.tellg();
  f.seekg(0, std::ios::end);
  const std::streampos end = f.tellg();
  f.seekg(at);
  if (at < 0 || end < at) bad(path, "cannot be read");
  const uint64_t have = static_cast<uint64_t>(end - at);
  const bool empty = std::find(a.shape.begin(), a.shape.end(), 0) != a.shape.end();
  uint64_t need = empty ? 0 : item_size(a.dtype);
  for (uint64_t d : a.shape)  // saturates above what is there, so it cannot overflow
    if (!empty) need = need <= have / d ? need * d : have + 1;
  if (need > have)
    bad(path, "has fewer data bytes than its shape " + shape_text(a.shape) + " needs");
  if (need < have)
    bad(path, "has " + std::to_string(have - need) + " B more data than its shape " +
                  shape_text(a.shape) + " holds");
  a.bytes.resize(need);
  if (!f.read(reinterpret_cast<char*>(a.bytes.data()), static_cast<std::streamsize>(need)))
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
