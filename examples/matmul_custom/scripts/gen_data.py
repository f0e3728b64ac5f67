#!/usr/bin/env python3
"""Inputs and the golden of the matmul example: input/x1_gm.bin (A, fp16, 256 x 256),
input/x2_gm.bin (B, fp16, 256 x 512), input/bias.bin (fp32, 512); output/golden.bin =
A x B + bias in fp32, accumulated as the cube does: from the bias, one product of k at a time,
in k order, each sum rounded to fp32 (an fp16 x fp16 product is exact in fp32)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "common"))
from cube_golden import cube_matmul  # noqa: E402

M, N, K = 256, 512, 256
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
rng = np.random.default_rng(2026)
a = rng.uniform(-1, 1, [M, K]).astype(np.float16)
b = rng.uniform(-1, 1, [K, N]).astype(np.float16)
bias = rng.uniform(-1, 1, [N]).astype(np.float32)
acc = cube_matmul(a, b, bias)
a.tofile("./input/x1_gm.bin")
b.tofile("./input/x2_gm.bin")
bias.tofile("./input/bias.bin")
acc.tofile("./output/golden.bin")
