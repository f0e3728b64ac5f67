// Host helpers of the examples, laid out as an Ascend C sample's data_utils.h: binary files in
// and out, and a print of fp16/fp32 data (through AscendCL's fp16 conversion).
#ifndef EXAMPLES_DATA_UTILS_H
#define EXAMPLES_DATA_UTILS_H
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "acl/acl.h"

#define INFO_LOG(fmt, args...) fprintf(stdout, "[INFO]  " fmt "\n", ##args)
#define ERROR_LOG(fmt, args...) fprintf(stdout, "[ERROR] " fmt "\n", ##args)
#define CHECK_ACL(x)                                                                      \
  do {                                                                                    \
    aclError ret_ = (x);                                                                  \
    if (ret_ != ACL_ERROR_NONE) ERROR_LOG("%s:%d aclError %d", __FILE__, __LINE__, ret_); \
  } while (0)

enum printDataType { FLOAT = 0, HALF = 1, INT32_T = 3 };

inline bool ReadFile(const std::string& filePath, size_t& fileSize, void* buffer,
                     size_t bufferSize) {
  std::ifstream file(filePath, std::ios::binary | std::ios::ate);
  if (!file) {
    ERROR_LOG("cannot open %s", filePath.c_str());
    return false;
  }
  size_t size = static_cast<size_t>(file.tellg());
  if (size > bufferSize) {
    ERROR_LOG("%s has %zu bytes, more than the buffer's %zu", filePath.c_str(), size, bufferSize);
    return false;
  }
  file.seekg(0);
  file.read(static_cast<char*>(buffer), static_cast<std::streamsize>(size));
  fileSize = size;
  return true;
}

inline bool WriteFile(const std::string& filePath, const void* buffer, size_t size) {
  std::ofstream file(filePath, std::ios::binary | std::ios::trunc);
  if (!file) {
    ERROR_LOG("cannot write %s", filePath.c_str());
    return false;
  }
  file.write(static_cast<const char*>(buffer), static_cast<std::streamsize>(size));
  return static_cast<bool>(file);
}

inline void PrintData(const void* data, size_t count, printDataType type, size_t perRow = 16) {
  for (size_t i = 0; i < count; ++i) {
    if (type == HALF) {
      std::cout << aclFloat16ToFloat(static_cast<const aclFloat16*>(data)[i]);
    } else if (type == FLOAT) {
      std::cout << static_cast<const float*>(data)[i];
    } else {
      std::cout << static_cast<const int32_t*>(data)[i];
    }
    std::cout << ((i + 1) % perRow == 0 ? "\n" : " ");
  }
  std::cout << std::endl;
}
#endif
