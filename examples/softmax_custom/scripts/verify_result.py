#!/usr/bin/env python3
"""output/output_y.bin against output/golden.bin: within 2 ulp of fp32 (NumPy's exp and the C
library's may round the last bit of a few values differently), and each row sums to 1."""
import sys

import numpy as np

out = np.fromfile("./output/output_y.bin", dtype=np.float32).reshape(64, 1024)
golden = np.fromfile("./output/golden.bin", dtype=np.float32).reshape(64, 1024)
ulp = np.spacing(np.abs(golden))
err = np.abs(out - golden) / ulp
if not np.all(np.isfinite(out)) or err.max() > 2:
    i = np.unravel_index(np.argmax(err), err.shape)
    sys.exit(f"element {i}: {out[i]} against golden {golden[i]} ({err[i]:.1f} ulp)")
rows = out.astype(np.float64).sum(axis=1)
if np.abs(rows - 1).max() > 1e-4:
    sys.exit(f"a row sums to {rows[np.argmax(np.abs(rows - 1))]}")
exact = int((out.view(np.uint32) == golden.view(np.uint32)).sum())
print(f"test pass: {out.size} fp32 elements within 2 ulp of the NumPy golden "
      f"({exact} bit-exact), rows sum to 1")
