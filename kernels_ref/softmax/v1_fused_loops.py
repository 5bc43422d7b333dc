"""v1_fused_loops: one kernel; each program runs the three loops over its own row.

What changed from v0: the three steps live in one program per row, so the row's statistics
stay in registers and there is one launch. The row is still read three times, but a 32 KB row
read moments ago by the same program is mostly still in L2: only the first read pays DRAM.

Why it is faster: DRAM traffic falls from about 4 to about 2 passes' worth; the re-reads are
L2 hits (several times DRAM bandwidth on Hopper).

What an interviewer wants to hear: the difference between bytes a kernel asks for and bytes
that reach DRAM; that this depends on the working set (rows in flight x row size) fitting in
L2, so it breaks for very wide rows; and that the next step removes a pass outright.
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
        m = tl.maximum(m, tl.load(x_row + offsets, mask=offsets < cols, other=float("-inf")).to(tl.float32))
    row_max = tl.max(m, axis=0)
    d = tl.zeros([CHUNK], tl.float32)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        d += tl.exp(tl.load(x_row + offsets, mask=offsets < cols, other=float("-inf")).to(tl.float32) - row_max)
    row_sum = tl.sum(d, axis=0)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        mask = offsets < cols
        x = tl.load(x_row + offsets, mask=mask, other=float("-inf")).to(tl.float32)
        tl.store(y_row + offsets, (tl.exp(x - row_max) / row_sum).to(y_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor) -> torch.Tensor:
    rows, cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(rows,)](x, y, cols, CHUNK=CHUNK, num_warps=8)
    return y
