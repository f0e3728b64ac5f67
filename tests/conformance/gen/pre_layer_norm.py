#!/usr/bin/env python3
"""pre_layer_norm's inputs without torch: for case1 x, y of shape (4980, 4, 2048) and eps 1e-5,
for case2 (512, 4, 20480) and eps 1e-7, standard normal fp32, gamma and beta of the last
dimension; the golden is LayerNorm(x + y) over the last dimension,
(a - mean) / sqrt(var + eps) x gamma + beta with the biased variance, computed in fp64 and
stored as fp32 (what torch's layer_norm gives within the verification's tolerance)."""
import os
import sys

import numpy as np

case = sys.argv[1]
shapes = {"case1": ((4980, 4, 2048), 1e-5), "case2": ((512, 4, 20480), 1e-7)}
if case not in shapes:
    raise SystemExit("[ERROR] The caseId is error, please input [case1 / case2]")
shape, eps = shapes[case]
rng = np.random.default_rng()
x = rng.standard_normal(shape, dtype=np.float32)
y = rng.standard_normal(shape, dtype=np.float32)
gamma = rng.standard_normal(shape[2], dtype=np.float32)
beta = rng.standard_normal(shape[2], dtype=np.float32)
a = x.astype(np.float64) + y.astype(np.float64)
mean = a.mean(axis=-1, keepdims=True)
var = ((a - mean) ** 2).mean(axis=-1, keepdims=True)
golden = ((a - mean) / np.sqrt(var + eps) * gamma + beta).astype(np.float32)
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x.tofile("./input/input_x.bin")
y.tofile("./input/input_y.bin")
gamma.tofile("./input/input_gamma.bin")
beta.tofile("./input/input_beta.bin")
golden.tofile("./output/golden.bin")
