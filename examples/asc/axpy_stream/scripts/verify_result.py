"""verify_result.py OUTPUT GOLDEN: fp16, bit for bit (tolerance 0: two operations, each rounded
once to nearest even in fp16, as NumPy's float16; NaN matches NaN)."""
import sys

import numpy as np

out = np.fromfile(sys.argv[1], dtype=np.float16)
gold = np.fromfile(sys.argv[2], dtype=np.float16)
if out.shape != gold.shape:
    sys.exit("FAIL: %d values, expected %d" % (out.size, gold.size))
same = (out.view(np.uint16) == gold.view(np.uint16)) | (np.isnan(out) & np.isnan(gold))
bad = np.flatnonzero(~same)
if bad.size:
    i = bad[0]
    sys.exit("FAIL: %d of %d values differ; first at %d: %r, expected %r"
             % (bad.size, gold.size, i, out[i], gold[i]))
print("test pass! %d values bit-exact" % gold.size)
