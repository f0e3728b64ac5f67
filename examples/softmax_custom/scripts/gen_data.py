#!/usr/bin/env python3
"""Inputs and golden of the softmax example: input/input_x.bin (fp32, 64 x 1024) and
output/golden.bin computed in the kernel's order: max, x - max (fp32), exp rounded to fp32, the
sum left to right in fp32, then x * fp32(1 / sum)."""
import os

import numpy as np

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
rng = np.random.default_rng(2027)
x = rng.normal(0, 3, [64, 1024]).astype(np.float32)
golden = np.empty_like(x)
for r in range(x.shape[0]):
    d = x[r] - x[r].max()
    e = np.exp(d.astype(np.float64)).astype(np.float32)
    s = np.float32(0)
    for v in e:
        s = np.float32(s + v)
    golden[r] = e * np.float32(np.float32(1.0) / s)
x.tofile("./input/input_x.bin")
golden.tofile("./output/golden.bin")
