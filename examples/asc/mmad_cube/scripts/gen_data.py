"""input/x1_gm.bin (A, fp16, 64 x 128), input/x2_gm.bin (B, fp16, 128 x 256) and
output/golden.bin = A x B (fp32, 64 x 256), computed in float64 and rounded to fp32."""
import os

import numpy as np

M, K, N = 64, 128, 256
rng = np.random.default_rng(41)
a = rng.uniform(-2, 2, [M, K]).astype(np.float16)
b = rng.uniform(-2, 2, [K, N]).astype(np.float16)
b[:, 70] = 0            # a zero column
a[10, :] = 1            # a row of ones: column sums of B
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
a.tofile("input/x1_gm.bin")
b.tofile("input/x2_gm.bin")
(a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32).tofile("output/golden.bin")
