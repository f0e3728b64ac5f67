"""verify_result.py OUTPUT GOLDEN: C = A x B, fp32, 64 x 256, against the float64 product.
Tolerance per element: |c - exact| <= K * 2^-24 * sum_k |a_ik * b_kj| (K = 128): the error bound
of an fp32 sum of K exact products (an fp16 x fp16 product is exact in fp32) in any order, since
the cube's accumulation order is not published. Also reports how many elements equal the
sequential fp32 sum in ascending k (ascend-sim's documented model of Mmad)."""
import sys

import numpy as np

M, K, N = 64, 128, 256
out = np.fromfile(sys.argv[1], dtype=np.float32)
gold = np.fromfile(sys.argv[2], dtype=np.float32)
if out.size != M * N or gold.size != M * N:
    sys.exit("FAIL: %d values, expected %d" % (out.size, M * N))
a = np.fromfile("input/x1_gm.bin", dtype=np.float16).reshape(M, K).astype(np.float64)
b = np.fromfile("input/x2_gm.bin", dtype=np.float16).reshape(K, N).astype(np.float64)
c = out.reshape(M, N).astype(np.float64)
exact = a @ b
bound = K * 2.0 ** -24 * (np.abs(a) @ np.abs(b))
err = np.abs(c - exact)
bad = np.argwhere(~(err <= bound))
if bad.size:
    i, j = bad[0]
    sys.exit("FAIL: %d elements over the bound; first C[%d, %d] = %r, exact %r (bound %g)"
             % (len(bad), i, j, c[i, j], exact[i, j], bound[i, j]))
seq = np.zeros((M, N), dtype=np.float32)
a32, b32 = a.astype(np.float32), b.astype(np.float32)
for k in range(K):
    seq += a32[:, k:k + 1] * b32[k:k + 1, :]
same = int((seq.view(np.uint32) == out.reshape(M, N).view(np.uint32)).sum())
print("test pass! %d values within the fp32 bound (largest error %.3g); %d bit-equal to the "
      "sequential fp32 sum" % (M * N, err.max(), same))
