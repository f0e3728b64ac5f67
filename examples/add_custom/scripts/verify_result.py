#!/usr/bin/env python3
"""output/output_z.bin against output/golden.bin, bit for bit (fp16)."""
import sys

import numpy as np

out = np.fromfile("./output/output_z.bin", dtype=np.uint16)
golden = np.fromfile("./output/golden.bin", dtype=np.uint16)
if out.shape != golden.shape:
    sys.exit(f"output has {out.size} elements, golden {golden.size}")
bad = np.nonzero(out != golden)[0]
if bad.size:
    i = bad[0]
    sys.exit(f"{bad.size} of {out.size} elements differ; first at {i}: "
             f"0x{out[i]:04x}, golden 0x{golden[i]:04x}")
print(f"test pass: {out.size} fp16 elements bit-exact with the NumPy golden")
