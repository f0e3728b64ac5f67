"""verify_result.py OUTPUT GOLDEN: fp32, bit for bit (an fp32 add rounds once, as NumPy's)."""
import sys

import numpy as np

out = np.fromfile(sys.argv[1], dtype=np.float32)
gold = np.fromfile(sys.argv[2], dtype=np.float32)
if out.shape != gold.shape:
    sys.exit("FAIL: %d values, expected %d" % (out.size, gold.size))
bad = np.flatnonzero(out.view(np.uint32) != gold.view(np.uint32))
if bad.size:
    i = bad[0]
    sys.exit("FAIL: %d of %d values differ; first at %d: %r, expected %r"
             % (bad.size, gold.size, i, out[i], gold[i]))
print("test pass! %d values bit-exact" % gold.size)
