#!/usr/bin/env python3
"""Inputs and the golden output of the vector add: input/input_{x,y}.bin (fp16, 8 x 131072),
output/golden.bin = x + y, the exact sum rounded once to fp16 (as the vector unit adds)."""
import os

import numpy as np

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
rng = np.random.default_rng(2026)
x = rng.uniform(-100, 100, [8, 131072]).astype(np.float16)
y = rng.uniform(-100, 100, [8, 131072]).astype(np.float16)
golden = (x.astype(np.float64) + y.astype(np.float64)).astype(np.float16)
x.tofile("./input/input_x.bin")
y.tofile("./input/input_y.bin")
golden.tofile("./output/golden.bin")
