"""v2_fused_loops: one program per row running three plain loops (max, sum, normalise).

What changed from v1: the online loop is split back into a max loop and a sum loop. That reads
the row once more, but the re-reads of a row this program touched moments ago are L2 hits, and
each element now costs two exponentials instead of three.

Why it is faster (measured on an H200, 8192 x 8192 fp32: about 6% faster than v1): with the
extra reads served by L2, the exponentials and the rescaling were the cost, not DRAM. The
online form wins when a re-read would go to DRAM (rows too wide for L2's share) or when the
row is never stored at all (attention).

What an interviewer wants to hear: bytes requested versus bytes that reach DRAM; when a saved
pass is worth extra arithmetic and when it is not; that this depends on the working set (rows
in flight x row size) fitting in L2; and that the next step removes the re-reads outright.
"""

import torch
import triton
import triton.language as tl

CHUNK = 2048


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, CHUNK: tl.constexpr):
    """One program per row: max loop, sum loop, normalise loop."""
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    y_row = y_ptr + row * cols
    m = tl.full([CHUNK], float("-inf"), tl.float32)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        m = tl.maximum(
            m, tl.load(x_row + offsets, mask=offsets < cols, other=float("-inf")).to(tl.float32)
        )
    row_max = tl.max(m, axis=0)
    d = tl.zeros([CHUNK], tl.float32)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        d += tl.exp(
            tl.load(x_row + offsets, mask=offsets < cols, other=float("-inf")).to(tl.float32)
            - row_max
        )
    row_sum = tl.sum(d, axis=0)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        mask = offsets < cols
        x = tl.load(x_row + offsets, mask=mask, other=float("-inf")).to(tl.float32)
        tl.store(
            y_row + offsets, (tl.exp(x - row_max) / row_sum).to(y_ptr.dtype.element_ty), mask=mask
        )


def softmax(x: torch.Tensor) -> torch.Tensor:
    rows, cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(rows,)](x, y, cols, CHUNK=CHUNK, num_warps=8)
    return y
