"""v4_tensor_cores: the same tiled loop with bf16 operands in tl.dot: the tensor cores do the multiply.

What changed from v3: the operands stay bf16 and tl.dot keeps its default precision, so Triton
lowers the dot to tensor-core instructions: on Hopper (sm_90) warpgroup MMAs (wgmma.mma_async
in the PTX, HGMMA in the SASS) that read the tiles from shared memory and accumulate in fp32
registers; on Ampere mma.sync. The tile is 128 x 128 x 32 for one warpgroup (4 warps).
num_stages=1: still no software pipelining, so every step waits for its tiles to arrive from
global memory before the tensor cores start (v5's step).

Why it is faster: an H200's dense bf16 tensor-core rate (~990 TFLOP/s) is ~15x its fp32 FMA
rate, and bf16 operands halve the shared-memory bytes per multiply-add again. The kernel is now
bound by how fast tiles arrive, not by arithmetic.

What an interviewer wants to hear: what a tensor core computes (a small matrix product per
instruction, m64nNk16 for wgmma with bf16), that the accumulator must be fp32 (bf16 has 8 bits
of mantissa: summing 4096 products in bf16 loses several of them), the intensities: a 128 x
128 tile does 64 FLOPs per byte it loads, while the whole 4096^3 product needs ~1365 FLOPs per
byte of HBM traffic, far right of an H200's ridge point (~990 TFLOP/s / 4.8 TB/s = ~206), so
with L2 catching the reuse between tiles a GEMM can be compute bound; and why the loads now
dominate: the tensor cores idle while a tile is in flight, which is what pipelining fixes.

On a CPU, Triton's interpreter multiplies the bit patterns of bf16 dot operands (triton#11584):
the operands are widened to fp32 first (exact: every bf16 value is an fp32 value); on a GPU
the bf16 dot goes to the tensor cores unchanged.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def tensor_core_kernel(
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
    BLOCK_M: tl.constexpr,  # rows of c per program
    BLOCK_N: tl.constexpr,  # columns of c per program
    BLOCK_K: tl.constexpr,  # K elements per step
    WIDEN: tl.constexpr,  # True only in the CPU interpreter: dot in fp32 there
):
    """Program (i, j) computes the tile c[i*BLOCK_M : +BLOCK_M, j*BLOCK_N : +BLOCK_N]."""
    m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    in_m = m < M
    in_n = n < N
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        in_k = k < K
        a = tl.load(
            a_ptr + m[:, None] * stride_am + k[None, :] * stride_ak,
            mask=in_m[:, None] & in_k[None, :],
            other=0.0,
        )
        b = tl.load(
            b_ptr + k[:, None] * stride_bk + n[None, :] * stride_bn,
            mask=in_k[:, None] & in_n[None, :],
            other=0.0,
        )
        if WIDEN:
            a = a.to(tl.float32)
            b = b.to(tl.float32)
        acc = tl.dot(a, b, acc)
    tl.store(
        c_ptr + m[:, None] * stride_cm + n[None, :] * stride_cn,
        acc.to(c_ptr.dtype.element_ty),
        mask=in_m[:, None] & in_n[None, :],
    )


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 32
    tensor_core_kernel[(triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))](
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
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        BLOCK_K=BLOCK_K,
        WIDEN=not a.is_cuda,
        num_warps=4,
        num_stages=1,
    )
    return c
