"""input/input_x.bin (fp32, 96 x 512) and output/golden.bin = softmax of each row, computed in
float64 and rounded to fp32."""
import os

import numpy as np

ROWS, COLS = 96, 512
rng = np.random.default_rng(21)
x = rng.normal(0, 3, [ROWS, COLS]).astype(np.float32)
x[3, :] = 0.0          # uniform row: every value 1/512
x[7, 100] = 80.0       # one value dominates its row
x[8, :] -= 200.0       # large negative inputs: the max subtraction keeps exp in range
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x.tofile("input/input_x.bin")
x64 = x.astype(np.float64)
e = np.exp(x64 - x64.max(axis=1, keepdims=True))
(e / e.sum(axis=1, keepdims=True)).astype(np.float32).tofile("output/golden.bin")
