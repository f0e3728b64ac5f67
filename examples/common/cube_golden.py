"""The cube's arithmetic for the examples' goldens: C = A x B (+ bias) accumulated as Mmad does,
from the bias (or 0), one product of k at a time in k order, each sum rounded to fp32. A product
of two fp16 values is exact in fp32, so this is bit-exact with the simulated cube."""
import numpy as np


def cube_matmul(a, b, bias=None):
    acc = np.zeros((a.shape[0], b.shape[1]), dtype=np.float32)
    if bias is not None:
        acc += bias.astype(np.float32)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    for k in range(a.shape[1]):
        acc += a32[:, k:k + 1] * b32[k:k + 1, :]
    return acc
