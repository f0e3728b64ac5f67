// A stand-in for the data_utils.h some samples keep as a link to a shared folder of the samples
// repository that their snapshot does not carry (the link is stored as a one-line text file):
// what their CPU-debug main.cpp calls, ReadFile and WriteFile of raw bytes and the log and
// CHECK_ACL macros, written for the conformance tier.
#pragma once

#include <cstdio>
#include <fstream>
#include <string>

#include "acl/acl.h"

#define INFO_LOG(fmt, ...) std::fprintf(stdout, "[INFO]  " fmt "\n", ##__VA_ARGS__)
#define WARN_LOG(fmt, ...) std::fprintf(stdout, "[WARN]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) std::fprintf(stdout, "[ERROR]  " fmt "\n", ##__VA_ARGS__)
#define CHECK_ACL(x)                                                                     \
  do {                                                                                   \
    aclError check_acl_status = (x);                                                     \
    if (check_acl_status != ACL_SUCCESS)                                                 \
      std::fprintf(stderr, "%s:%d aclError %d\n", __FILE__, __LINE__, check_acl_status); \
  } while (0)

// Reads the file into buffer (at most bufferSize bytes); fileSize becomes its size.
inline bool ReadFile(const std::string& filePath, size_t& fileSize, void* buffer,
                     size_t bufferSize) {
  std::ifstream in(filePath, std::ios::binary | std::ios::ate);
  if (!in) {
    ERROR_LOG("cannot open %s", filePath.c_str());
    return false;
  }
  const size_t size = static_cast<size_t>(in.tellg());
  if (size > bufferSize) {
    ERROR_LOG("%s has %zu bytes, more than the buffer's %zu", filePath.c_str(), size, bufferSize);
    return false;
  }
  in.seekg(0);
  in.read(static_cast<char*>(buffer), static_cast<std::streamsize>(size));
  fileSize = size;
  return static_cast<bool>(in);
}

inline bool WriteFile(const std::string& filePath, const void* buffer, size_t size) {
  std::ofstream out(filePath, std::ios::binary | std::ios::trunc);
  if (!out) {
    ERROR_LOG("cannot create %s", filePath.c_str());
    return false;
  }
  out.write(static_cast<const char*>(buffer), static_cast<std::streamsize>(size));
  return static_cast<bool>(out);
}
