#!/usr/bin/env python3
"""scatter_sub's inputs without TensorFlow (not packaged for Debian 12): var [3, 4, 24, 24] int8,
indices [3] int32 in [0, 3), updates [3, 4, 24, 24] int8, and the golden of ScatterSub:
var[indices[i]] -= updates[i] for each i in order (repeated indices accumulate), in int8 with
wrap-around as TensorFlow's int8 arithmetic does."""
import os

import numpy as np

var = np.random.uniform(-10, 10, [3, 4, 24, 24]).astype(np.int8)
indices = np.random.uniform(0, 3, [3]).astype(np.int32)
updates = np.random.uniform(-10, 10, [3, 4, 24, 24]).astype(np.int8)
golden = var.copy()
for i, row in enumerate(indices):
    golden[row] = (golden[row].astype(np.int16) - updates[i]).astype(np.int8)
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
var.tofile("./input/input_var.bin")
indices.tofile("./input/input_indices.bin")
updates.tofile("./input/input_updates.bin")
golden.tofile("./output/golden.bin")
