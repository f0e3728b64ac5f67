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

# acl: call sequences of fuzz_acl.cpp (the first byte picks aclInit's path; then one record per
# call: an op byte, op % 22, and its argument bytes, as fuzz_acl.cpp decodes them).
INIT, FINALIZE, SET_DEV, RESET_DEV, DEV_COUNT, NEW_CTX, DEL_CTX, SET_CTX = range(8)
NEW_STREAM, DEL_STREAM, SYNC_STREAM, MALLOC, FREE, MALLOC_HOST, FREE_HOST = 8, 9, 10, 11, 13, 14, 15
MEMCPY, MEMCPY_ASYNC, MEMSET, LAST_ERROR, SYNC_DEV = 16, 18, 19, 20, 21
u32 = lambda v: struct.pack("<I", v)
DEV, HOST, ARENA, FREED_DEV, NUL = 1, 4, 5, 7, 0  # pointer modes; DEV and HOST add an index byte


def ptr(mode, r=0, index=0):
    return bytes([mode]) + u32(r) + (bytes([index]) if mode in (DEV, HOST, FREED_DEV) else b"")


def copy(dst, src, kind, count_mode, r=0, dest_mode=2, stream=None):
    rec = bytes([MEMCPY if stream is None else MEMCPY_ASYNC]) + dst + src + bytes([kind, count_mode])
    rec += u32(r) + bytes([dest_mode])
    return rec + (bytes([stream]) if stream is not None else b"")


setup = bytes([0, INIT, SET_DEV, 0, NEW_STREAM, 1])
alloc = bytes([MALLOC, 1, 4]) + u32(3) + b"\0"  # 2048 B
host = bytes([MALLOC_HOST, 1, 4]) + u32(3)
put("acl", "add_program", setup + alloc + alloc + host
    + copy(ptr(DEV, 0, 0), ptr(HOST, 0, 0), 1, 0) + copy(ptr(DEV, 0, 1), ptr(DEV, 0, 0), 3, 0)
    + copy(ptr(HOST, 0, 0), ptr(DEV, 0, 1), 2, 0) + bytes([SYNC_STREAM, 4, 0])
    + bytes([FREE]) + ptr(DEV, 0, 0) + bytes([FREE]) + ptr(DEV, 0, 0)
    + bytes([FREE_HOST]) + ptr(HOST, 0, 0) + bytes([DEL_STREAM, 4, 0, RESET_DEV, 0, FINALIZE]))
put("acl", "double_free", setup + alloc + bytes([FREE]) + ptr(DEV, 0, 0) + bytes([FREE])
    + ptr(FREED_DEV, 0, 0) + bytes([LAST_ERROR, 0]))
put("acl", "past_the_end", setup + alloc + host + copy(ptr(DEV, 5, 0), ptr(ARENA, 0), 1, 1)
    + copy(ptr(HOST, 7, 0), ptr(DEV, 0, 0), 2, 1) + bytes([MEMSET]) + ptr(DEV, 9, 0) + u32(0xab)
    + bytes([1, 1]))
put("acl", "wrong_kinds", setup + alloc + host + b"".join(
    copy(ptr(DEV, 0, 0), ptr(HOST, 0, 0), k, 0) for k in range(16)))
put("acl", "nulls_and_huge", setup + bytes([MALLOC, 0, 5]) + u32(1) + b"\0"
    + bytes([MALLOC, 1, 1]) + u32(0) + b"\0" + bytes([MALLOC, 1, 3]) + u32(5) + b"\0"
    + bytes([MALLOC_HOST, 1, 1]) + u32(0) + bytes([MALLOC, 1, 0]) + u32(0) + b"\0"
    + copy(ptr(NUL), ptr(ARENA, 0), 0, 0) + bytes([DEV_COUNT, 1, NEW_STREAM, 0, LAST_ERROR, 0]))
put("acl", "streams", bytes([0, NEW_STREAM, 1, SET_DEV, 3, SET_DEV, 0, NEW_STREAM, 1, NEW_STREAM, 1,
                             DEL_STREAM, 4, 0, DEL_STREAM, 1, 0, SYNC_STREAM, 1, 0,
                             SYNC_STREAM, 3, NEW_CTX, 1, 0, SET_CTX, 4, 0, DEL_CTX, 4, 0,
                             DEL_CTX, 1, 0, SET_CTX, 2, 0])
    + alloc + copy(ptr(DEV, 0, 0), ptr(ARENA, 0), 1, 0, stream=1))
put("acl", "before_set_device", bytes([1, FINALIZE]) + alloc + bytes([NEW_STREAM, 1, INIT, INIT])
    + bytes([RESET_DEV, 4, SYNC_DEV, LAST_ERROR, 0]))
