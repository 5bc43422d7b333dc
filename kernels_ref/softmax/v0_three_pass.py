"""v0_three_pass: three kernels, one per step of the textbook formula.

What it is: kernel 1 writes each row's maximum, kernel 2 each row's sum of exp(x - max),
kernel 3 writes exp(x - max) / sum. Each program loops over its row in 1024-element chunks,
so any width works. Subtracting the maximum keeps exp from overflowing on large rows.

Why it is slow: the input crosses the memory bus three times and the output once: 4 x 4 bytes
per element against the 2 x 4 a fused kernel needs, plus three launches. At 8192 x 8192 the
row statistics are tiny; the passes over x are the cost.

Measured on an H200 at 8192 x 8192 fp32, and faster than torch.softmax: 0.2635 ms against
0.2792 ms (1.06x; benchmarks/results/judge-2026-12-01-h200/softmax-shapes, and 1.06x in
drills-2026-11-30-h200-verified.md). Both numbers check out against the bytes. v0 moves 1 GiB
(three reads and a write of 256 MiB: the row-wide passes are separate kernels over the whole
matrix, so nothing is left in the 60 MB L2) at about 4.1 TB/s, the rate of a device copy
(4.2 TB/s) in the same run. torch.softmax moves the minimum, 512 MiB, at only 1.9 TB/s (45% of
a copy), so it is latency-bound, not bandwidth-bound. Rows wider than 1024 elements take
ATen's one-block-per-row kernel (SoftMax.cu; narrower rows take its persistent warp softmax).
One block walks the row through block-wide max and sum reductions, each ended by barriers,
and while a block waits at them its next loads are not issued: too few bytes in flight to
cover DRAM latency. That last step is our reading of the source and of the rates; it was not
profiled. On the other benchmark shapes torch wins (narrow rows: 0.1308 against v0's 0.4958
ms; wide: 0.2653 against 0.4527 ms). So four streaming passes at full bandwidth beat two at
under half of it, and fusion is the fix only once the fused kernel keeps as many bytes in
flight.

What an interviewer wants to hear: the bytes count (four passes' worth, so at best half the
copy bandwidth), the max-subtraction and why it is exact (softmax is shift-invariant), that
fusion is the first fix, and that a vendor op is not automatically the ceiling: check its
bandwidth against a copy before calling it the bar.
"""

import torch
import triton
import triton.language as tl

CHUNK = 1024


@triton.jit
def row_max_kernel(x_ptr, max_ptr, cols, CHUNK: tl.constexpr):
    """max_ptr[row] = max over the row of x (float32)."""
    row = tl.program_id(0).to(tl.int64)
    m = tl.full([CHUNK], float("-inf"), tl.float32)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        x = tl.load(x_ptr + row * cols + offsets, mask=offsets < cols, other=float("-inf")).to(
            tl.float32
        )
        m = tl.maximum(m, x)
    tl.store(max_ptr + row, tl.max(m, axis=0))


@triton.jit
def row_sum_kernel(x_ptr, max_ptr, sum_ptr, cols, CHUNK: tl.constexpr):
    """sum_ptr[row] = sum over the row of exp(x - max)."""
    row = tl.program_id(0).to(tl.int64)
    m = tl.load(max_ptr + row)
    d = tl.zeros([CHUNK], tl.float32)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        x = tl.load(x_ptr + row * cols + offsets, mask=offsets < cols, other=float("-inf")).to(
            tl.float32
        )
        d += tl.exp(x - m)
    tl.store(sum_ptr + row, tl.sum(d, axis=0))


@triton.jit
def normalise_kernel(x_ptr, max_ptr, sum_ptr, y_ptr, cols, CHUNK: tl.constexpr):
    """y = exp(x - max) / sum, in the output's dtype."""
    row = tl.program_id(0).to(tl.int64)
    m = tl.load(max_ptr + row)
    d = tl.load(sum_ptr + row)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        mask = offsets < cols
        x = tl.load(x_ptr + row * cols + offsets, mask=mask, other=float("-inf")).to(tl.float32)
        tl.store(
            y_ptr + row * cols + offsets, (tl.exp(x - m) / d).to(y_ptr.dtype.element_ty), mask=mask
        )


def softmax(x: torch.Tensor) -> torch.Tensor:
    rows, cols = x.shape
    y = torch.empty_like(x)
    row_max = torch.empty(rows, dtype=torch.float32, device=x.device)
    row_sum = torch.empty(rows, dtype=torch.float32, device=x.device)
    row_max_kernel[(rows,)](x, row_max, cols, CHUNK=CHUNK, num_warps=4)
    row_sum_kernel[(rows,)](x, row_max, row_sum, cols, CHUNK=CHUNK, num_warps=4)
    normalise_kernel[(rows,)](x, row_max, row_sum, y, cols, CHUNK=CHUNK, num_warps=4)
    return y
