"""input/x1_gm.bin (A, fp16, 64 x 64), input/x2_gm.bin (B, fp16, 64 x 128) and output/golden.bin =
max(0, 0.5 * (A x B) - 0.25) in fp32 (64 x 128), from the float64 product."""
import os

import numpy as np

M, K, N = 64, 64, 128
SCALE, SHIFT = 0.5, -0.25
rng = np.random.default_rng(51)
a = rng.uniform(-1, 1, [M, K]).astype(np.float16)
b = rng.uniform(-1, 1, [K, N]).astype(np.float16)
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
a.tofile("input/x1_gm.bin")
b.tofile("input/x2_gm.bin")
c = a.astype(np.float64) @ b.astype(np.float64)
np.maximum(SCALE * c + SHIFT, 0).astype(np.float32).tofile("output/golden.bin")
