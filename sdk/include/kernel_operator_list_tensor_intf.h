// ListTensorDesc and TensorDesc (api/list_tensor.h), under the header name Ascend C gives them.
#pragma once

#include "kernel_operator.h"
