// The MoE workload the dispatch family shares (dispatch, combine, moe, alltoallv_dispatch): its CLI
// flags, and the size estimates of its tensors (what --dump writes, what the payload holds) each
// of those kernels' registration adds up.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/dispatch/dispatch_host.h"
#include "kernels/kernel.h"

namespace ascend::dispatch {

// --bs, --hidden, ...: the V2 inputs (the alltoallv baseline's); with `v3`, the V3 ones too
// (special experts, masks, scales, dead ranks, TP).
std::vector<Shorthand> workload_flags(bool v3);
// --comm-quant (combine and moe).
Shorthand comm_quant_flag();
// The attributes of the run, validated (the run would stop on the same message).
Attrs checked_attrs(const Params& p, int dies);
// What --dump writes of rank `g`'s dispatch and combine, per call (.npy headers left out).
uint64_t dispatch_rank_dump(const Attrs& a, int g);
uint64_t combine_rank_dump(const Attrs& a, int g, bool shared_x);
// Host memory of the MoE kernels' tensors with payload, measured: per rank and call its tokens
// (BS x H x 2 B), what it sends and receives (about K rows each), the outputs and the golden
// reference (about K rows each); 43 MiB a rank for the default dispatch (RSS 685 MiB at EP 16).
// `directions`: 1 for dispatch, 2 for a round trip (combine, moe).
uint64_t payload_bytes(const Params& p, int dies, int directions);

}  // namespace ascend::dispatch
