// The tiling of the scale-add example, shared by the host and the kernel.
#pragma once
#include <cstdint>

struct ScaleAddTiling {
  uint32_t totalLength;  // elements of each vector
  uint32_t tileNum;      // tiles per core and buffer
  float scale;
};
