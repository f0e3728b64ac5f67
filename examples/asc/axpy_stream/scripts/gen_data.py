"""input/input_x.bin, input/input_y.bin (fp16, 1 Mi each) and output/golden.bin =
fp16(fp16(a * x) + y) with a = -1.75: NumPy's float16 arithmetic rounds each operation once to
nearest even, as the vector unit does."""
import os

import numpy as np

N = 16 * 16 * 4096
rng = np.random.default_rng(31)
x = rng.uniform(-60, 60, N).astype(np.float16)
y = rng.uniform(-60, 60, N).astype(np.float16)
x[:4] = [np.inf, -0.0, 65504, 6e-8]  # inf, a signed zero, the largest normal, a subnormal
a = np.float16(-1.75)
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x.tofile("input/input_x.bin")
y.tofile("input/input_y.bin")
with np.errstate(over="ignore"):  # 65504 * -1.75 overflows to -inf, as on the device
    ((a * x).astype(np.float16) + y).astype(np.float16).tofile("output/golden.bin")
