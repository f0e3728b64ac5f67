"""The examples' bit-for-bit check: an output file against output/golden.bin, element by element,
naming the first element that differs (its value and the golden's)."""
import sys

import numpy as np


def verify_bits(output, dtype, golden="./output/golden.bin"):
    bits = {2: np.uint16, 4: np.uint32}[np.dtype(dtype).itemsize]
    out = np.fromfile(output, dtype=bits)
    want = np.fromfile(golden, dtype=bits)
    if out.shape != want.shape:
        sys.exit(f"output has {out.size} elements, golden {want.size}")
    bad = np.nonzero(out != want)[0]
    if bad.size:
        i = bad[0]
        sys.exit(f"{bad.size} of {out.size} elements differ; first at {i}: "
                 f"{out[i:i + 1].view(dtype)[0]!r} (0x{out[i]:x}), "
                 f"golden {want[i:i + 1].view(dtype)[0]!r} (0x{want[i]:x})")
    print(f"test pass: {out.size} {np.dtype(dtype).name} elements bit-exact with the NumPy golden")
