"""Each lane adds a pair x[2i] + x[2i + 1], masked on 2i < n only: for odd n the last pair reads
x[n], one element past the end (whatever sits after the input is added to the sum). Nothing is
written out of bounds.

Exposed on odd n (1, 777, 10007, 65537); even n (2, 1024, 70000) are summed right.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl


@triton.jit
def pair_sum(x_ptr, out_ptr, n, PAIRS: tl.constexpr):
    lane = tl.program_id(0) * PAIRS + tl.arange(0, PAIRS)
    first = 2 * lane
    ok = first < n
    a = tl.load(x_ptr + first, mask=ok, other=0.0)
    b = tl.load(x_ptr + first + 1, mask=ok, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(a + b, axis=0))


def reduce_sum(x):
    out = torch.zeros((), dtype=torch.float32, device=x.device)
    pairs = 512
    pair_sum[(triton.cdiv(x.numel(), 2 * pairs),)](x, out, x.numel(), PAIRS=pairs)
    return out
