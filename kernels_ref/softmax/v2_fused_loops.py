"""v2_fused_loops: one program per row running three plain loops (max, sum, normalise).

What changed from v1: the online loop is split back into a max loop and a sum loop. That reads
the row once more, but the re-reads of a row this program touched moments ago are L2 hits, and
each element now costs two exponentials instead of three.

Why it is (a little) faster: with the extra reads served by L2, the exponentials and the
rescaling were the cost, not DRAM. The online form wins when a re-read would go to DRAM (rows
too wide for L2's share) or when the row is never stored at all (attention).

Measured on an H200, fp32, the headline gain is under the 10% a rung should buy: 8192 x 8192
takes 0.1696 against v1's 0.1819 ms (1.07x; benchmarks/results/judge-2026-12-01-h200/
softmax-shapes; 1.07x in drills-2026-11-30-h200-verified.md, 1.04x in
session11-2026-12-01-h200/submit-wall-after.log). Where it comes from was not profiled. The
exponentials alone cannot be all of it: v1's three per element are about 0.05 ms of work at
MUFU's 16 per SM per clock, so dropping one saves at most ~0.02 ms if they sit on the critical
path. It is still a step, for two reasons. It is the experiment that tests the L2 premise: on
wide rows (256 x 262144, a 1 MiB row, all 256 rows in flight at once, far over the L2) the
re-reads go to DRAM and v2 loses to v1 (0.3064 against 0.2908 ms, 0.95x), as the paragraph
above predicts. And on narrow rows (262144 x 256) it is 1.43x v1 (0.7731 against 1.1026 ms).

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
