"""verify_result.py OUTPUT GOLDEN: y = Relu(0.5 * (A x B) - 0.25), fp32, 64 x 128.
Tolerance per element: 0.5 * K * 2^-24 * sum_k |a_ik b_kj| (the fp32 bound of the cube's sum of
K = 64 exact products in any order, scaled) + 2^-23 * (0.5 |c| + 0.25) (the roundings of Muls and
Adds); Relu is exact. Also requires at least 30 % of the values to be zero and 30 % positive, so
that both sides of the Relu are exercised."""
import sys

import numpy as np

M, K, N = 64, 64, 128
SCALE, SHIFT = 0.5, -0.25
out = np.fromfile(sys.argv[1], dtype=np.float32)
gold = np.fromfile(sys.argv[2], dtype=np.float32)
if out.size != M * N or gold.size != M * N:
    sys.exit("FAIL: %d values, expected %d" % (out.size, M * N))
a = np.fromfile("input/x1_gm.bin", dtype=np.float16).reshape(M, K).astype(np.float64)
b = np.fromfile("input/x2_gm.bin", dtype=np.float16).reshape(K, N).astype(np.float64)
c = a @ b
exact = np.maximum(SCALE * c + SHIFT, 0)
bound = SCALE * K * 2.0 ** -24 * (np.abs(a) @ np.abs(b)) + 2.0 ** -23 * (SCALE * np.abs(c) + abs(SHIFT))
y = out.reshape(M, N).astype(np.float64)
err = np.abs(y - exact)
bad = np.argwhere(~(err <= bound))
if bad.size:
    i, j = bad[0]
    sys.exit("FAIL: %d elements over the bound; first y[%d, %d] = %r, expected %r (bound %g)"
             % (len(bad), i, j, y[i, j], exact[i, j], bound[i, j]))
zeros = float((y == 0).mean())
if not 0.3 <= zeros <= 0.7:
    sys.exit("FAIL: %.0f %% of the values are zero; the inputs do not exercise the Relu" % (100 * zeros))
print("test pass! %d values within the bound (largest error %.3g), %.0f %% clipped by Relu"
      % (M * N, err.max(), 100 * zeros))
