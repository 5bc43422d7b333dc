"""Online softmax that guards the padding lanes (mask) but not -inf inside the row: a lane whose
first entries are -inf computes exp(-inf - -inf) = NaN. If the lane stays -inf to the end the final
where() drops it; if a later chunk brings it a finite value, the NaN reaches every output of the row.

Exposed only by rows with -inf entries that are wider than one chunk of 1024 (masked 3 x 1025,
2 x 2500, 2 x 20001); narrow masked rows (3 x 7, 5 x 300) and all rows without -inf pass.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl


@triton.jit
def online_softmax(x_ptr, y_ptr, cols, CHUNK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    m = tl.full([CHUNK], float("-inf"), tl.float32)
    d = tl.zeros([CHUNK], tl.float32)
    for c in range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        valid = o < cols
        x = tl.load(x_ptr + row * cols + o, mask=valid, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        d = tl.where(valid, d * tl.exp(m - m_new) + tl.exp(x - m_new), d)
        m = tl.where(valid, m_new, m)
    row_max = tl.max(m, axis=0)
    row_sum = tl.sum(tl.where(m > float("-inf"), d * tl.exp(m - row_max), 0.0), axis=0)
    for c in range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        x = tl.load(x_ptr + row * cols + o, mask=o < cols, other=float("-inf")).to(tl.float32)
        tl.store(y_ptr + row * cols + o, (tl.exp(x - row_max) / row_sum).to(y_ptr.dtype.element_ty), mask=o < cols)


def softmax(x):
    y = torch.empty_like(x)
    online_softmax[(x.shape[0],)](x, y, x.shape[1], CHUNK=1024)
    return y
