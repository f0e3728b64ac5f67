// Declares the hardware and simulator parameters, and turns resolved values into the models'
// configuration.
#pragma once

#include "models/cluster.h"
#include "sim/params.h"

namespace ascend {

void declare_hardware_params(Params& p);
model::ClusterConfig cluster_config(const Params& p, int dies);

// Presets are INI files of parameters (models/presets/*.ini), embedded in the binary at build time.
const std::vector<std::pair<std::string, std::string>>& presets();  // name -> INI text
void apply_preset(Params& p, const std::string& name);

}  // namespace ascend
