// Host helpers of the .asc examples: a binary file in, a binary file out.
#ifndef ASC_EXAMPLES_DATA_UTILS_H
#define ASC_EXAMPLES_DATA_UTILS_H
#include <cstdio>
#include <fstream>
#include <string>

inline bool ReadFile(const std::string& path, size_t& size, void* buffer, size_t capacity) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) {
    std::fprintf(stderr, "cannot open %s\n", path.c_str());
    return false;
  }
  size = static_cast<size_t>(f.tellg());
  if (size > capacity) {
    std::fprintf(stderr, "%s: %zu bytes, over the buffer's %zu\n", path.c_str(), size, capacity);
    return false;
  }
  f.seekg(0);
  f.read(static_cast<char*>(buffer), static_cast<std::streamsize>(size));
  return static_cast<bool>(f);
}

inline bool WriteFile(const std::string& path, const void* buffer, size_t size) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(static_cast<const char*>(buffer), static_cast<std::streamsize>(size));
  return static_cast<bool>(f);
}
#endif
