"""v3_tuned: v2's kernel with the tile and the warps chosen per row width and dtype, from a
sweep on an H200, instead of v2's one rule (16 elements a thread, 4096-element tiles).

What changed from v2: the fused kernel is the same (ROWS whole rows per program in registers,
two-pass statistics over registers, one read of x and one write of y). What is tuned is the
launch: how many rows a program holds and how many warps share them. benchmarks/layernorm_sweep.py
timed every (rows per program, warps) with 2 to 64 elements a thread for six widths in fp32 and
bf16 (results in benchmarks/results/); the table below keeps the best, or a near-best that is
good in both dtypes. The pattern: narrow and mid widths want fewer warps with more elements
each (768 columns: 4 rows x 2-4 warps, 32-64 elements a thread, against v2's 4 rows x 8 warps),
so each thread has several independent 16-byte loads in flight and the per-row reductions
cross fewer warps (a cross-warp reduction goes through shared memory and a barrier).

Why it is faster, and where it is not: on the 32768 x 4096 headline v2 already moves the bytes
at 97-99% of a device-to-device copy (0.264 ms against the copy's 0.258 ms in fp32): no launch
shape can buy 10% there, and v3 is level with v2 (within 1%). Where the launch mattered, the
sweep measured v3's choice against v2's: 4096 x 768 2.2x faster in fp32 and 1.4x in bf16,
8192 x 1024 1.8x in bf16, 8192 x 2048 1.3x in bf16; at 1024 x 16384 both sit near 80% of copy
(one row per program and 1024 programs: the tail of the last wave is most of what is left).
Rows wider than 16384 keep v1's Welford loop, as in v2. The judge's ladder run, which gives
every timed call fresh inputs, measured less where the launch matters (fp32,
benchmarks/results/session13-2026-12-01-h200/layernorm.md): 1.23x v2 at 4096 x 768 (10 us a
call, where launch and timing weigh more than in the sweep's back-to-back calls), 1.02x at
1024 x 16384 (70% of copy), 1.01x at the headline (98% of copy, 1.37x F.layer_norm).

What an interviewer wants to hear: that once traffic is minimal the remaining levers are the
launch shape and occupancy (registers per thread against warps in flight, bytes in flight per
SM to cover DRAM latency: Little's law), that the right shape depends on the width and the dtype
and is found by measuring (a sweep or an autotuner keyed on the width), that a small tensor
(12 MB at 4096 x 768) lives in the 60 MB L2 and is bound by latency and launch, not DRAM, and
how to confirm with Nsight Compute: DRAM throughput against the copy, achieved occupancy,
no register spills.
"""

import torch
import triton
import triton.language as tl

MAX_FUSED = 16384
CHUNK = 1024

#: (row width rounded up to a power of two, bytes per element) -> (rows per program, warps), from
#: benchmarks/layernorm_sweep.py on an H200 (2026-12-01). Widths not listed use v2's rule.
TUNED = {
    (512, 4): (2, 1),
    (512, 2): (2, 1),
    (1024, 4): (4, 4),
    (1024, 2): (4, 4),
    (2048, 4): (4, 8),
    (2048, 2): (4, 4),
    (4096, 4): (1, 16),
    (4096, 2): (2, 8),
    (8192, 4): (1, 16),
    (8192, 2): (1, 16),
    (16384, 4): (1, 8),
    (16384, 2): (1, 16),
}


@triton.jit
def fused_rows_kernel(
    x_ptr, weight_ptr, bias_ptr, y_ptr, rows, cols, eps, ROWS: tl.constexpr, BLOCK: tl.constexpr
):
    """ROWS whole rows per program, each held in registers; BLOCK >= cols, a power of two."""
    row = tl.program_id(0).to(tl.int64) * ROWS + tl.arange(0, ROWS)
    col = tl.arange(0, BLOCK)
    col_mask = col < cols
    mask = (row < rows)[:, None] & col_mask[None, :]
    offsets = row[:, None] * cols + col[None, :]
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / cols
    centred = tl.where(mask, x - mean[:, None], 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(centred * centred, axis=1) / cols + eps)
    weight = tl.load(weight_ptr + col, mask=col_mask, other=0.0).to(tl.float32)
    bias = tl.load(bias_ptr + col, mask=col_mask, other=0.0).to(tl.float32)
    y = centred * rstd[:, None] * weight[None, :] + bias[None, :]
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def welford_rows_kernel(x_ptr, weight_ptr, bias_ptr, y_ptr, cols, eps, CHUNK: tl.constexpr):
    """Rows too wide for registers: v1's Welford loop, then a normalising loop. One row per program."""
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    y_row = y_ptr + row * cols
    count = tl.zeros([CHUNK], tl.float32)
    mean = tl.zeros([CHUNK], tl.float32)
    m2 = tl.zeros([CHUNK], tl.float32)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        mask = offsets < cols
        x = tl.load(x_row + offsets, mask=mask, other=0.0).to(tl.float32)
        count = tl.where(mask, count + 1.0, count)
        delta = tl.where(mask, x - mean, 0.0)
        mean += delta / tl.maximum(count, 1.0)
        m2 += delta * tl.where(mask, x - mean, 0.0)
    row_mean = tl.sum(count * mean, axis=0) / cols
    spread = mean - row_mean
    rstd = 1.0 / tl.sqrt(tl.sum(m2 + count * spread * spread, axis=0) / cols + eps)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        mask = offsets < cols
        x = tl.load(x_row + offsets, mask=mask, other=0.0).to(tl.float32)
        weight = tl.load(weight_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        bias = tl.load(bias_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        y = (x - row_mean) * rstd * weight + bias
        tl.store(y_row + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def launch_shape(block: int, itemsize: int) -> tuple[int, int]:
    """(rows per program, warps) for rows `block` wide (a power of two) of `itemsize` bytes."""
    if (block, itemsize) in TUNED:
        return TUNED[(block, itemsize)]
    rows_per_program = max(1, min(16, 4096 // block))  # v2's rule
    return rows_per_program, max(1, min(16, rows_per_program * block // 512))


def layernorm(
    x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float
) -> torch.Tensor:
    rows, cols = x.shape
    y = torch.empty_like(x)
    block = triton.next_power_of_2(cols)
    if block > MAX_FUSED:
        welford_rows_kernel[(rows,)](x, weight, bias, y, cols, eps, CHUNK=CHUNK, num_warps=8)
        return y
    rows_per_program, warps = launch_shape(block, x.element_size())
    grid = (triton.cdiv(rows, rows_per_program),)
    fused_rows_kernel[grid](
        x, weight, bias, y, rows, cols, eps, ROWS=rows_per_program, BLOCK=block, num_warps=warps
    )
    return y
