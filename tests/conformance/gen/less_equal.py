#!/usr/bin/env python3
"""less_equal's inputs without torch: 16 int8 values in [-7, 7) for x1 and x2, and the golden
x1 <= x2 as int8 (1 or 0), the files and dtypes the sample's own generator writes."""
import numpy as np

rng = np.random.default_rng()
x1 = rng.integers(-7, 7, 16).astype(np.int8)
x2 = rng.integers(-7, 7, 16).astype(np.int8)
x1.tofile("./input/input_x1.bin")
x2.tofile("./input/input_x2.bin")
(x1 <= x2).astype(np.int8).tofile("./output/golden.bin")
