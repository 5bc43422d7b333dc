"""v3_tuned: a persistent grid that loads weight and bias once per program and streams row
tiles past them, with per-width tile shapes and warps, and x marked evict-first.

What changed from v2: (1) the grid is a few programs per SM (not one per tile); each loads
weight and bias into registers once and loops over row tiles tile = pid, pid + programs, ...:
v2 read the 2 * cols affine parameters from L2 for every tile (for 4096 columns that is 32 KB
of L2 traffic beside each 16 KB row), this reads them once per program. (2) x is loaded with
evict_first (it is read once; keep L2 for weight, bias and the stores) and y stored with
evict_first too. (3) per width, the tile and warps that keep 16 to 32 elements per thread:
ROWS x BLOCK of 4096 to 8192 elements, 4 warps for narrow tiles, 8 at 4096 columns, 16 at
16384. Rows wider than 8192 do not keep weight and bias resident (their registers would
crowd out the row); wider than 16384 they take v1's Welford loop, as in v2.

Why it is faster: the DRAM traffic was already minimal in v2; the gains are the L2 reads of the
affine parameters and the better-filled tiles. The bar is F.layer_norm at 1.3x on 32768 x 4096
(the vendor kernel walks each row twice: Welford statistics, then the normalisation) and 90% of
the copy bandwidth. Not yet measured on an H200: benchmarks/layernorm_dtypes.py times the ladder
in fp32 and bf16 (the judge times one dtype per drill).

What an interviewer wants to hear: that after the traffic is minimal, the remaining levers are
second-order memory effects (L2 reuse of parameters, eviction policy, tail effects of the last
wave) and occupancy (registers per thread against warps in flight), that a persistent grid sized
to the SM count turns a long tail of small programs into a few even waves, and how to check all
this with Nsight Compute: DRAM throughput near the copy's, L2 hit rate, no local-memory spills.
"""

import torch
import triton
import triton.language as tl

MAX_FUSED = 16384
MAX_RESIDENT_AFFINE = 8192
CHUNK = 1024
PROGRAMS_PER_SM = 4


@triton.jit
def persistent_rows_kernel(
    x_ptr,
    weight_ptr,
    bias_ptr,
    y_ptr,
    rows,
    cols,
    eps,
    ROWS: tl.constexpr,
    BLOCK: tl.constexpr,
    RESIDENT_AFFINE: tl.constexpr,
):
    """Tiles of ROWS whole rows (BLOCK >= cols, a power of two), program p taking tiles p,
    p + programs, ...; weight and bias held in registers across tiles when RESIDENT_AFFINE."""
    programs = tl.num_programs(0)
    col = tl.arange(0, BLOCK)
    col_mask = col < cols
    if RESIDENT_AFFINE:
        weight = tl.load(weight_ptr + col, mask=col_mask, other=0.0).to(tl.float32)
        bias = tl.load(bias_ptr + col, mask=col_mask, other=0.0).to(tl.float32)
    for tile in range(tl.program_id(0), tl.cdiv(rows, ROWS), programs):
        row = (tile * ROWS + tl.arange(0, ROWS)).to(tl.int64)
        mask = (row < rows)[:, None] & col_mask[None, :]
        offsets = row[:, None] * cols + col[None, :]
        x = tl.load(x_ptr + offsets, mask=mask, other=0.0, eviction_policy="evict_first")
        x = x.to(tl.float32)
        mean = tl.sum(x, axis=1) / cols
        centred = tl.where(mask, x - mean[:, None], 0.0)
        rstd = 1.0 / tl.sqrt(tl.sum(centred * centred, axis=1) / cols + eps)
        if not RESIDENT_AFFINE:
            weight = tl.load(weight_ptr + col, mask=col_mask, other=0.0).to(tl.float32)
            bias = tl.load(bias_ptr + col, mask=col_mask, other=0.0).to(tl.float32)
        y = centred * rstd[:, None] * weight[None, :] + bias[None, :]
        tl.store(
            y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask, eviction_policy="evict_first"
        )


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


def _tile(block: int) -> tuple[int, int]:
    """(rows per tile, warps) for a row width rounded up to `block`: 16 to 32 elements a thread."""
    if block <= 1024:
        return max(1, 4096 // block), 4
    if block <= 4096:
        return 8192 // block, 8
    return 1, 16


def _sm_count(x: torch.Tensor) -> int:
    if x.is_cuda:
        return torch.cuda.get_device_properties(x.device).multi_processor_count
    return 2  # Triton's interpreter on the CPU: a 2-SM GPU, 8 programs, still walks the loop


def layernorm(
    x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float
) -> torch.Tensor:
    rows, cols = x.shape
    y = torch.empty_like(x)
    block = triton.next_power_of_2(cols)
    if block > MAX_FUSED:
        welford_rows_kernel[(rows,)](x, weight, bias, y, cols, eps, CHUNK=CHUNK, num_warps=8)
        return y
    rows_per_tile, warps = _tile(block)
    tiles = triton.cdiv(rows, rows_per_tile)
    programs = min(tiles, _sm_count(x) * PROGRAMS_PER_SM)
    persistent_rows_kernel[(programs,)](
        x,
        weight,
        bias,
        y,
        rows,
        cols,
        eps,
        ROWS=rows_per_tile,
        BLOCK=block,
        RESIDENT_AFFINE=block <= MAX_RESIDENT_AFFINE,
        num_warps=warps,
    )
    return y
