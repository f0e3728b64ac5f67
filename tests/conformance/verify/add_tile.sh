#!/usr/bin/env bash
# add_tile ships no verification script: its generator (add_custom.py) writes the fp16 sum
# x + y as output/golden.bin. The kernel adds fp16 with one rounding, so the output must equal it
# bit for bit (the other add samples' scripts allow 1e-3 relative; this is stricter).
set -euo pipefail
"${PYTHON:-python3}" - <<'PY'
import numpy as np
out = np.fromfile("output/output_z.bin", dtype=np.uint16)
gold = np.fromfile("output/golden.bin", dtype=np.uint16)
if out.size != gold.size:
    raise SystemExit(f"output has {out.size} elements, golden {gold.size}")
bad = np.flatnonzero(out != gold)
if bad.size:
    i = bad[0]
    raise SystemExit(f"{bad.size} of {gold.size} elements differ; first at {i}: "
                     f"{out.view(np.float16)[i]} != {gold.view(np.float16)[i]}")
print(f"test pass: {gold.size} fp16 elements equal to the golden")
PY
