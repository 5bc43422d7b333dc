"""v6_grouped_autotuned: grouped program order for L2 reuse, and a few proven Hopper configs autotuned per shape.

What changed from v5: programs are numbered along one axis and mapped to tiles in groups of
GROUP_M rows of tiles: program 0, 1, 2 ... walk down a column of GROUP_M tiles, then the next
column. The programs running at the same time therefore share a few rows of a and a few
columns of b, instead of one row of a and every column of b (row-major order). And the tile,
warps and stages are picked per (M, N, K) by triton.autotune among four configs known to be
strong on Hopper (the Triton tutorial's 128 x 256 x 64 and 128 x 128 x 64 with 3-4 stages, and
a 64 x 128 tile for skinny shapes, where big tiles leave SMs idle).

Why it is faster: with ~132 programs in flight, row-major order streams all of b through L2
for every row of tiles; at 8192^3 b alone is 128 MB, far more than an H200's 50 MB L2, so b
comes from HBM again and again. In groups of 8, a wave touches 8 rows of tiles of a and ~16
columns of tiles of b, which stay in L2 until they are used up. At 4096^3 (a and b 32 MB each)
the gain is smaller; there the autotuner's choice matters more (wave quantisation: 512 tiles of
128 x 256 are 3.9 waves on 132 SMs). A 256 x 8192 x 8192 product has only 64 tiles of 128 x
256: the 64 x 128 config gives 256.

What an interviewer wants to hear: L2 reuse and why program order is a scheduling decision you
control (the same idea as CUTLASS's threadblock swizzle), wave quantisation (tiles / SMs),
why autotuning is per shape and why its list must stay short (each config compiles and runs
on the first call of every new shape), and what is left to close the gap to cuBLAS on Hopper:
TMA loads, a persistent kernel with warp specialisation (a producer warp loads while consumer
warpgroups multiply), and split-K for skinny shapes. Their Triton APIs changed between 3.x
releases (tensor descriptors, warp_specialize), so this ladder stops here.

On a CPU, Triton's interpreter multiplies the bit patterns of bf16 dot operands (triton#11584):
the operands are widened to fp32 first; on a GPU the bf16 dot goes to the tensor cores.
"""

import torch
import triton
import triton.language as tl

CONFIGS = [
    triton.Config(
        {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8}, num_stages=3, num_warps=8
    ),
    triton.Config(
        {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, num_stages=4, num_warps=8
    ),
    triton.Config(
        {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, num_stages=4, num_warps=4
    ),
    triton.Config(
        {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, num_stages=4, num_warps=4
    ),
]


@triton.autotune(configs=CONFIGS, key=["M", "N", "K"])
@triton.jit
def grouped_kernel(
    a_ptr,  # a: (M, K) bf16
    b_ptr,  # b: (K, N) bf16
    c_ptr,  # c: (M, N) bf16, written
    M,
    N,
    K,
    stride_am,  # element strides of a, b and c: (row, column) each
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    WIDEN: tl.constexpr,  # True only in the CPU interpreter: dot in fp32 there
    BLOCK_M: tl.constexpr,  # rows of c per program
    BLOCK_N: tl.constexpr,  # columns of c per program
    BLOCK_K: tl.constexpr,  # K elements per step
    GROUP_M: tl.constexpr,  # rows of tiles walked before moving to the next column of tiles
):
    """Program p computes one BLOCK_M x BLOCK_N tile of c, chosen by the grouped order."""
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    programs_per_group = GROUP_M * tiles_n
    first_tile_m = (pid // programs_per_group) * GROUP_M
    # The last group may hold fewer than GROUP_M rows of tiles.
    group_rows = min(tiles_m - first_tile_m, GROUP_M)
    tile_m = first_tile_m + (pid % programs_per_group) % group_rows
    tile_n = (pid % programs_per_group) // group_rows

    rows = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    m = rows % M
    n = cols % N
    k = tl.arange(0, BLOCK_K)
    a_tile = a_ptr + m[:, None] * stride_am + k[None, :] * stride_ak
    b_tile = b_ptr + k[:, None] * stride_bk + n[None, :] * stride_bn
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_tile, mask=k[None, :] < K - k0, other=0.0)
        b = tl.load(b_tile, mask=k[:, None] < K - k0, other=0.0)
        if WIDEN:
            a = a.to(tl.float32)
            b = b.to(tl.float32)
        acc = tl.dot(a, b, acc)
        a_tile += BLOCK_K * stride_ak
        b_tile += BLOCK_K * stride_bk
    tl.store(
        c_ptr + rows[:, None] * stride_cm + cols[None, :] * stride_cn,
        acc.to(c_ptr.dtype.element_ty),
        mask=(rows[:, None] < M) & (cols[None, :] < N),
    )


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)

    def grid(meta: dict) -> tuple[int]:
        return (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)

    grouped_kernel[grid](
        a,
        b,
        c,
        M,
        N,
        K,
        a.stride(0),
        a.stride(1),
        b.stride(0),
        b.stride(1),
        c.stride(0),
        c.stride(1),
        WIDEN=not a.is_cuda,
    )
    return c
