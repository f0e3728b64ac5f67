// Device code of the attention-FFN split, written against the Ascend C facade, one header per
// role:
//  - ffn_attention_kernel.h  KernelAttentionToFfn: an attention rank sends a micro-batch's rows
//                            and descriptor into every FFN rank's buffers, flag last;
//  - ffn_scheduler_kernel.h  KernelFfnWorkerScheduler (NORM mode): core 0 fills the
//                            ScheduleContext's output area;
//  - ffn_batching_kernel.h   KernelFfnWorkerBatching, the operator: polling, the sort, gather and
//                            group_list;
//  - ffn_sort_kernel.h       FfnSortMerge: the sort's multi-core 4-way merge rounds;
//  - ffn_device.h            what they share: stamps, workspace layout, arguments, flag polling.
#pragma once

#include "kernels/ffn_worker_batching/ffn_attention_kernel.h"
#include "kernels/ffn_worker_batching/ffn_batching_kernel.h"
#include "kernels/ffn_worker_batching/ffn_scheduler_kernel.h"
