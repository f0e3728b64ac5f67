#!/usr/bin/env python3
"""Inputs and the golden of the mixed example: A (fp16, 256 x 256), B (fp16, 256 x 512), bias
(fp32, 512); output/golden.bin = LeakyRelu(A x B + bias, 0.001) in fp32. A x B + bias is
accumulated as the cube does (from the bias, one exact fp16 product of k at a time, in k order,
each sum rounded to fp32); LeakyRelu keeps x >= 0 and rounds x * 0.001 to fp32 below it."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "common"))
from cube_golden import cube_matmul  # noqa: E402

M, N, K = 256, 512, 256
ALPHA = np.float32(0.001)
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
rng = np.random.default_rng(2027)
a = rng.uniform(-1, 1, [M, K]).astype(np.float16)
b = rng.uniform(-1, 1, [K, N]).astype(np.float16)
bias = rng.uniform(-1, 1, [N]).astype(np.float32)
acc = cube_matmul(a, b, bias)
golden = np.where(acc >= 0, acc, acc * ALPHA).astype(np.float32)
a.tofile("./input/x1_gm.bin")
b.tofile("./input/x2_gm.bin")
bias.tofile("./input/bias.bin")
golden.tofile("./output/golden.bin")
