"""verify_result.py OUTPUT GOLDEN: fp32 softmax rows against the float64 softmax.
Tolerance: |y - g| <= 1e-5 * g + 1e-12 per element. In fp32 each y carries the rounding of x - m,
of exp (the vector unit's exp need not be correctly rounded: a few ulp), of the sum of 512 terms
(at most 512 * 2^-24 = 3.1e-5 relative in the worst order, typically ~1e-6) and of the division;
1e-5 relative holds for these inputs with margin and catches any wrong row, max or sum.
Each row must also sum to 1 within 1e-5."""
import sys

import numpy as np

ROWS, COLS = 96, 512
out = np.fromfile(sys.argv[1], dtype=np.float32)
gold = np.fromfile(sys.argv[2], dtype=np.float32)
if out.shape != gold.shape or out.size != ROWS * COLS:
    sys.exit("FAIL: %d values, expected %d" % (out.size, ROWS * COLS))
y = out.astype(np.float64).reshape(ROWS, COLS)
g = gold.astype(np.float64).reshape(ROWS, COLS)
err = np.abs(y - g)
bad = np.argwhere(~(err <= 1e-5 * g + 1e-12))
if bad.size:
    r, c = bad[0]
    sys.exit("FAIL: %d values out of tolerance; first row %d column %d: %r, expected %r"
             % (len(bad), r, c, y[r, c], g[r, c]))
rowsum = np.abs(y.sum(axis=1) - 1)
if rowsum.max() > 1e-5:
    sys.exit("FAIL: row %d sums to %r" % (rowsum.argmax(), y.sum(axis=1)[rowsum.argmax()]))
rel = (err / np.maximum(g, 1e-30))[g > 1e-30].max()
print("test pass! %d values within 1e-5 relative (largest %.2e)" % (out.size, rel))
