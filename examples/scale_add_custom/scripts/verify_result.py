#!/usr/bin/env python3
"""output/output_z.bin against output/golden.bin, bit for bit (fp32)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "common"))
from verify_bits import verify_bits  # noqa: E402

verify_bits("./output/output_z.bin", np.float32)
