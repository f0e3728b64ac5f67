"""input/input_x.bin, input/input_y.bin (fp32, 8 x 16384) and output/golden.bin = x + y."""
import os

import numpy as np

rng = np.random.default_rng(7)
x = rng.uniform(-100, 100, 8 * 16 * 1024).astype(np.float32)
y = rng.uniform(-100, 100, 8 * 16 * 1024).astype(np.float32)
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x.tofile("input/input_x.bin")
y.tofile("input/input_y.bin")
(x + y).astype(np.float32).tofile("output/golden.bin")
