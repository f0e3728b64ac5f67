// Declares the hardware and simulator parameters, and turns resolved values into the models' and
// the kernel API's configuration. A parameter that sets a configuration field is declared once,
// with the field it sets; its default is that field's initializer.
#pragma once

#include "api/runtime.h"
#include "models/cluster.h"
#include "sim/params.h"

namespace ascend {

void declare_hardware_params(Params& p);
model::ClusterConfig cluster_config(const Params& p, int dies);
// The kernel API runtime's configuration; its windows are sized but not yet placed.
AscendC::detail::RuntimeConfig runtime_config(const Params& p);

// Presets are INI files of parameters (models/presets/*.ini), embedded in the binary at build time.
const std::vector<std::pair<std::string, std::string>>& presets();  // name -> INI text
void apply_preset(Params& p, const std::string& name);

}  // namespace ascend
