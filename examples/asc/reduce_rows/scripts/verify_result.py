"""verify_result.py OUTPUT GOLDEN: 64 row sums then 64 row maxima, fp32.
Maxima: bit-exact (a maximum is one of the inputs). Sums: within the error bound of any fp32
summation order of n = 2048 terms, |s - exact| <= n * 2^-24 * sum(|x|) (the order of the
vector unit's adds is not published), with the exact sum computed in float64 from the input."""
import sys

import numpy as np

ROWS, COLS = 64, 2048
out = np.fromfile(sys.argv[1], dtype=np.float32)
gold = np.fromfile(sys.argv[2], dtype=np.float32)
x = np.fromfile("input/input_x.bin", dtype=np.float32).reshape(ROWS, COLS).astype(np.float64)
if out.size != 2 * ROWS or gold.size != 2 * ROWS:
    sys.exit("FAIL: %d values, expected %d" % (out.size, 2 * ROWS))
sums, maxima = out[:ROWS], out[ROWS:]
bad = np.flatnonzero(maxima.view(np.uint32) != gold[ROWS:].view(np.uint32))
if bad.size:
    sys.exit("FAIL: maximum of row %d is %r, expected %r" % (bad[0], maxima[bad[0]], gold[ROWS + bad[0]]))
exact = x.sum(axis=1)
bound = COLS * 2.0 ** -24 * np.abs(x).sum(axis=1)
err = np.abs(sums.astype(np.float64) - exact)
bad = np.flatnonzero(~(err <= bound))
if bad.size:
    i = bad[0]
    sys.exit("FAIL: sum of row %d is %r, exact %r, error %g over the bound %g"
             % (i, sums[i], exact[i], err[i], bound[i]))
print("test pass! 64 maxima bit-exact, 64 sums within the fp32 summation bound "
      "(largest error %.3g of a bound of %.3g)" % (err.max(), bound.min()))
