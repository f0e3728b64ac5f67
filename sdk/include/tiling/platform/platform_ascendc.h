// platform_ascendc::PlatformAscendC, as host tiling code receives it: a minimal stand-in that only
// names the platform object (the simulated dies, a3, a2 and 910b4, are all of the A2/A3 family).
// It answers no query yet.
#pragma once

namespace platform_ascendc {

class PlatformAscendC {};

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
