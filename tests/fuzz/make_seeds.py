#!/usr/bin/python3
"""Writes the seed corpora of tests/fuzz/corpus/<harness>/ (committed; rerun after a change of
the documented commands or the presets): usage make_seeds.py REPO_ROOT."""
import io
import os
import re
import shlex
import struct
import sys

import numpy as np

root = sys.argv[1]
out = os.path.join(root, "tests/fuzz/corpus")


def put(harness, name, data):
    d = os.path.join(out, harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# ini: the presets, a config.ini's shape, and edge cases of the syntax.
for p in sorted(os.listdir(os.path.join(root, "models/presets"))):
    put("ini", "preset_" + p, open(os.path.join(root, "models/presets", p), "rb").read())
put("ini", "sections", "[ep]\nworld_size = 8\n[dispatch]\nbs = 16  # tokens\nrouting = zipf:1.2\n")
put("ini", "comments", "# c\n; c\n[hbm]\nbandwidth_GBps=800\n\n[trace]\nranks = all\n")
put("ini", "no_section", "hbm.bandwidth_GBps = 1\n")
put("ini", "empty_value", "[fault]\ndead_ranks =\n")

# set: two bytes choose the key, the rest is the value ('=' first: a raw key=value).
for i, v in enumerate(["1", "0", "-1", "1e308", "nan", "0x10", "1.5", " 7 ", "all", "0-3,5",
                       "zipf:1.2", "a3", "", "=hbm.bandwidth_GBps=800", "=fault.dead_ranks=2,5",
                       "=nokey=1", "=x", "1e-320", "99999999999999999999"]):
    put("set", "v%02d" % i, struct.pack("<H", i * 37) + v.encode())

# npy: what numpy writes, for every dtype the reader takes, and broken ones.
def npy(a, **kw):
    b = io.BytesIO()
    np.save(b, a, **kw)
    return b.getvalue()

for dt in ["<u2", "<f2", "<f4", "|i1", "<i4", "<i8", "|b1", "|u1", "<i2", "<u4", "<f8", "<u8"]:
    put("npy", "ok_" + dt.strip("<|"), npy(np.zeros((2, 3), dtype=np.dtype(dt))))
put("npy", "scalar", npy(np.float32(1.5)))
put("npy", "empty", npy(np.zeros((0, 4), dtype="<i4")))
put("npy", "fortran", npy(np.asfortranarray(np.zeros((2, 3), dtype="<f4"))))
good = npy(np.arange(12, dtype="<i4").reshape(3, 4))
put("npy", "truncated_data", good[:-5])
put("npy", "truncated_header", good[:40])
put("npy", "padded", good + b"\0" * 8)
put("npy", "v2", good[:6] + b"\x02\x00" + struct.pack("<I", len(good) - 10) + good[10:])
put("npy", "unsupported", npy(np.zeros(3, dtype="<c8")))

# cli: 0xff starts a word of its own (to a NUL): the documented commands (README.md, docs/).
docs = [os.path.join(root, "README.md")]
for d, _, names in sorted(os.walk(os.path.join(root, "docs"))):
    docs += [os.path.join(d, f) for f in sorted(names) if f.endswith(".md")]
readme = "\n".join(open(f).read() for f in docs)
n = 0
for line in readme.splitlines():
    m = re.match(r"^build/ascend-sim(.*?)(#.*)?$", line)
    if not m:
        continue
    try:
        args = shlex.split(m.group(1))
    except ValueError:  # a line continued with a backslash
        continue
    put("cli", "readme%02d" % n, b"".join(b"\xff" + a.encode() + b"\0" for a in args))
    n += 1

# plan: a kernel byte, then (key, mode, length, value...) records.
for k in range(16):
    put("plan", "kernel%02d" % k, bytes([k]))
    put("plan", "kernel%02d_sets" % k, bytes([k, 3, 2, 1, 5, 9, 6, 2, 0x10, 0, 7, 3, 2, 5, 0]))
