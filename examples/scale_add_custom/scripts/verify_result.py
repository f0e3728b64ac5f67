#!/usr/bin/env python3
"""output/output_z.bin against output/golden.bin, bit for bit (fp32)."""
import sys

import numpy as np

out = np.fromfile("./output/output_z.bin", dtype=np.uint32)
golden = np.fromfile("./output/golden.bin", dtype=np.uint32)
bad = np.nonzero(out != golden)[0] if out.shape == golden.shape else [0]
if len(bad):
    sys.exit(f"{len(bad)} elements differ (sizes {out.size}, {golden.size})")
print(f"test pass: {out.size} fp32 elements bit-exact with the NumPy golden")
