"""input/input_x.bin (fp32, 64 x 2048) and output/golden.bin: the 64 row sums (float64, rounded
to fp32) then the 64 row maxima."""
import os

import numpy as np

ROWS, COLS = 64, 2048
rng = np.random.default_rng(11)
x = rng.uniform(-10, 10, [ROWS, COLS]).astype(np.float32)
x[5, 77] = 1000.0  # a maximum far from the rest
x[9, :] = -3.5     # a constant row
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x.tofile("input/input_x.bin")
sums = x.astype(np.float64).sum(axis=1).astype(np.float32)
np.concatenate([sums, x.max(axis=1)]).astype(np.float32).tofile("output/golden.bin")
