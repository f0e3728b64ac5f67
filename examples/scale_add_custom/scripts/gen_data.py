#!/usr/bin/env python3
"""Inputs and golden of the scale-add example (fp32, 16 x 4096): z = fp32(x * 0.75) + y, each
operation rounded to fp32 as the vector unit does (Muls, then Add)."""
import os

import numpy as np

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
rng = np.random.default_rng(2028)
x = rng.uniform(-10, 10, 16 * 4096).astype(np.float32)
y = rng.uniform(-10, 10, 16 * 4096).astype(np.float32)
golden = (x * np.float32(0.75)) + y
x.tofile("./input/input_x.bin")
y.tofile("./input/input_y.bin")
golden.astype(np.float32).tofile("./output/golden.bin")
