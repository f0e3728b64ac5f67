"""input/input_x.bin (fp32, 2 x 16 x 8192) and output/golden.bin = LeakyRelu(x), alpha 0.1."""
import os

import numpy as np

rng = np.random.default_rng(11)
x = rng.uniform(-10, 10, 2 * 16 * 8192).astype(np.float32)
y = np.where(x >= 0, x, x * np.float32(0.1)).astype(np.float32)
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x.tofile("input/input_x.bin")
y.tofile("output/golden.bin")
