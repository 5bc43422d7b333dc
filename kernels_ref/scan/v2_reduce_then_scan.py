"""v2_reduce_then_scan: three phases (block sums, a scan of the sums, scan-and-add) and 3n words
of traffic instead of 4n; each block is scanned by `tl.cumsum`, serially within each thread.

What changed from v1: the order of the work. v0 and v1 write y and then read it back to add the
carries (4n words). Here (1) every 4096-element block only reduces its slice of x to a total
(reads n, writes n / 4096); (2) one program scans the totals, 2048 at a time with a running
carry, into each block's exclusive offset; (3) every block reads x again, scans it and adds its
offset before the single write of y. x is read twice, y written once: 3n. The block scan is
`tl.cumsum`, which Triton lowers to the work-efficient hierarchy v1 argued for: each thread
scans its own contiguous elements serially (8 here), warps scan their threads' totals with
shuffles, and one shared-memory step joins the warps. Blocks grow from 1024 to 4096 elements.

Why it is faster: a quarter less traffic on a memory-bound kernel, no log-depth gather chains,
and phase (2) touches 0.02% of the data. Measured on an H200 at 2^28 floats: 0.83 ms, 2.59x v1
and level with torch.cumsum (1.00x), at 60% of the copy bandwidth; the second read of x is the
gap to the 2n a single pass needs.

What an interviewer wants to hear: reduce-then-scan against scan-then-propagate (3n against 4n
words), that the first phase needs only sums (so it reads, never writes, the big array), that
phase (2) is tiny and can be one program, and that the remaining cost is the second read of x,
which only a single-pass scan (v3) removes.
"""

import torch
import triton
import triton.language as tl

BLOCK = 4096
TOTALS_CHUNK = 2048


@triton.jit
def block_sums_kernel(x_ptr, totals_ptr, n, BLOCK: tl.constexpr):
    """Phase 1. x_ptr: n inputs; totals_ptr: the sum of each BLOCK-wide slice."""
    block = tl.program_id(0).to(tl.int64)
    offsets = block * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0)
    tl.store(totals_ptr + block, tl.sum(x, axis=0))


@triton.jit
def exclusive_offsets_kernel(totals_ptr, offsets_ptr, blocks, CHUNK: tl.constexpr):
    """Phase 2, one program. totals_ptr: block totals; offsets_ptr: for each block, the sum of
    the totals before it (an exclusive scan), CHUNK totals at a time with a running carry."""
    carry = 0.0
    for start in range(0, blocks, CHUNK):
        index = start + tl.arange(0, CHUNK)
        mask = index < blocks
        totals = tl.load(totals_ptr + index, mask=mask, other=0.0)
        inclusive = tl.cumsum(totals, axis=0)
        tl.store(offsets_ptr + index, carry + inclusive - totals, mask=mask)
        carry += tl.sum(totals, axis=0)


@triton.jit
def scan_and_add_kernel(x_ptr, y_ptr, offsets_ptr, n, BLOCK: tl.constexpr):
    """Phase 3. Each block scans its slice of x and adds its exclusive offset; y_ptr: n outputs."""
    block = tl.program_id(0).to(tl.int64)
    offsets = block * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    y = tl.cumsum(x, axis=0) + tl.load(offsets_ptr + block)
    tl.store(y_ptr + offsets, y, mask=mask)


def cumsum(x: torch.Tensor) -> torch.Tensor:
    n = x.numel()
    y = torch.empty_like(x)
    blocks = triton.cdiv(n, BLOCK)
    totals = torch.empty(blocks, dtype=torch.float32, device=x.device)
    offsets = torch.empty(blocks, dtype=torch.float32, device=x.device)
    block_sums_kernel[(blocks,)](x, totals, n, BLOCK=BLOCK, num_warps=16)
    exclusive_offsets_kernel[(1,)](totals, offsets, blocks, CHUNK=TOTALS_CHUNK, num_warps=8)
    scan_and_add_kernel[(blocks,)](x, y, offsets, n, BLOCK=BLOCK, num_warps=16)
    return y
