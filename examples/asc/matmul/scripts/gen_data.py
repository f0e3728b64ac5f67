"""input/x1_gm.bin (A, fp16, 256 x 256), input/x2_gm.bin (B, fp16, 256 x 512), input/bias.bin
(fp32, 512) and output/golden.bin = A x B + bias in fp32, accumulated as the cube does: from the
bias, one product of k at a time in k order, each sum rounded to fp32 (an fp16 x fp16 product is
exact in fp32), so the result is bit-exact."""
import os

import numpy as np

M, N, K = 256, 512, 256
rng = np.random.default_rng(5)
a = rng.uniform(-1, 1, [M, K]).astype(np.float16)
b = rng.uniform(-1, 1, [K, N]).astype(np.float16)
bias = rng.uniform(-1, 1, [N]).astype(np.float32)
acc = np.zeros((M, N), dtype=np.float32) + bias
a32, b32 = a.astype(np.float32), b.astype(np.float32)
for k in range(K):
    acc += a32[:, k:k + 1] * b32[k:k + 1, :]
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
a.tofile("input/x1_gm.bin")
b.tofile("input/x2_gm.bin")
bias.tofile("input/bias.bin")
acc.tofile("output/golden.bin")
