// platform_ascendc::PlatformAscendC, as host tiling code queries it: the answers are the simulated
// die's parameters (the preset chosen at run time by ASCEND_SIM_PRESET, with its overrides), so a
// tiling computed on the host fits the die the kernel then runs on. The SoC named at build time
// (SOC_VERSION) only selects the family: the presets, a3, a2 and 910b4, are all dav-2201.
#pragma once

#include <cstdint>

#include "../../ascend_sim_sdk.h"  // relative: the source tree and the package alike
#include "../../kernel_operator.h"  // matmul_tiling::CubeLimits

namespace platform_ascendc {

enum class CoreMemType {
  L0_A = 0,
  L0_B = 1,
  L0_C = 2,
  L1 = 3,
  L2 = 4,
  UB = 5,
  HBM = 6,
  FB = 7,
  BT = 8,
  RESERVED
};

// The values Ascend C numbers them with; every simulated die is of the ASCEND910B family (A2 and
// A3 both report it).
enum class SocVersion {
  ASCEND910 = 0,
  ASCEND910B,
  ASCEND310P,
  ASCEND310B,
  ASCEND950,
  RESERVED_VERSION = 99999
};

class PlatformAscendC {
 public:
  // AI Cores (one AIC and two AIVs each): the blockDim bound of a MIX launch.
  uint32_t GetCoreNum() const { return GetCoreNumAic(); }
  uint32_t GetCoreNumAic() const { return query("die.aic_count"); }
  uint32_t GetCoreNumAiv() const { return query("die.aiv_count"); }
  uint32_t GetCoreNumVector() const { return 0; }  // no separate vector cores (a 310P notion)
  // The blocks a MIX launch needs for `sliceNum` AIV slices (AIVs per AIC to a block); 0 when
  // they exceed the AICs.
  uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
    const uint32_t ratio = aivCoreNum / aicCoreNum;
    const uint32_t blocks = (sliceNum + ratio - 1) / ratio;
    return blocks > aicCoreNum ? 0 : blocks;
  }
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    return CalcTschNumBlocks(sliceNum, aicCoreNum, aivCoreNum);
  }
  // The system workspace the library APIs (Matmul's messages) take at the start of a kernel's
  // workspace on dav-2201: 16 MiB.
  uint32_t GetLibApiWorkSpaceSize() const { return 16u << 20; }
  void GetCoreMemSize(const CoreMemType& type, uint64_t& size) const {
    switch (type) {
      case CoreMemType::L0_A:
        size = uint64_t{query("cube.l0a_KiB")} << 10;
        return;
      case CoreMemType::L0_B:
        size = uint64_t{query("cube.l0b_KiB")} << 10;
        return;
      case CoreMemType::L0_C:
        size = uint64_t{query("cube.l0c_KiB")} << 10;
        return;
      case CoreMemType::L1:
        size = uint64_t{query("cube.l1_KiB")} << 10;
        return;
      case CoreMemType::L2:
        size = uint64_t{query("l2.capacity_MiB")} << 20;
        return;
      case CoreMemType::UB:
        size = uint64_t{query("ub.size_KiB")} << 10;
        return;
      case CoreMemType::HBM:
        size = uint64_t{query("hbm.capacity_GiB")} << 30;
        return;
      case CoreMemType::BT:
        size = query("cube.bt_bytes");
        return;
      default:
        size = 0;  // the fixpipe buffer's size is not a parameter of the model
        return;
    }
  }
  SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
  // The AIC's buffers, as matmul_tiling::MatmulApiTiling(platform) keeps its tiling within them.
  matmul_tiling::CubeLimits cube_limits() const {
    matmul_tiling::CubeLimits l;
    l.l1 = query("cube.l1_KiB") << 10;
    l.l0a = query("cube.l0a_KiB") << 10;
    l.l0b = query("cube.l0b_KiB") << 10;
    l.l0c = query("cube.l0c_KiB") << 10;
    l.bt = query("cube.bt_bytes");
    return l;
  }

 private:
  static uint32_t query(const char* key) {
    return static_cast<uint32_t>(::ascend::sdk::platform_integer(key));
  }
};

class PlatformAscendCManager {
 public:
  static PlatformAscendC* GetInstance() {
    static PlatformAscendC platform;
    return &platform;
  }
  // The SoC named at build time; under ascend-sim the die is chosen at run time
  // (ASCEND_SIM_PRESET).
  static PlatformAscendC* GetInstance(const char* /*customSocVersion*/) { return GetInstance(); }
};

}  // namespace platform_ascendc
