// The host tiling of the matmul example: one core's share of C is M x N / BLOCK_DIM (the N
// dimension split over the cores), tiled by MatmulApiTiling into base blocks that fit L0.
#include "matmul_custom_tiling.h"

#include <cstdio>
#include <cstring>

#include "tiling/tiling_api.h"

using namespace matmul_tiling;

bool GenerateTiling(uint8_t* tilingBuf) {
  MatmulApiTiling tilingApi;
  tilingApi.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  tilingApi.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  tilingApi.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tilingApi.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tilingApi.SetDim(BLOCK_DIM);
  tilingApi.SetShape(M, N / BLOCK_DIM, K);
  tilingApi.SetOrgShape(M, N, K);
  tilingApi.SetBias(true);
  tilingApi.SetBufferSpace(-1, -1, -1);
  AscendC::TCubeTiling tiling;
  if (tilingApi.GetTiling(tiling) == -1) {
    std::printf("GenerateTiling: %s\n", tilingApi.error().c_str());
    return false;
  }
  std::memcpy(tilingBuf, &tiling, sizeof(tiling));
  return true;
}
