"""Starter for the matmul drill (Triton): correct, slow, and yours to make fast.

Each program computes a BLOCK_M x BLOCK_N tile of c on the CUDA cores: for every step of
BLOCK_K it loads a tile of a and a tile of b, widens them to fp32, and adds their product
(a broadcast and a sum over k) to an fp32 accumulator, rounded to bf16 once at the end. The
harness checks odd shapes (tails in M, N and K), long K, and large positive values. Ideas:
tl.dot for the tensor cores, bigger tiles, num_stages, a grouped program order, autotuning.

On a CPU, Triton's interpreter multiplies bf16 operands of tl.dot (and bf16 arithmetic in
general) as raw 16-bit integers: widen to fp32 there first (`if not a.is_cuda`), and keep
bf16 operands for the GPU, where tl.dot sends them to the tensor cores.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
):
    """a: (M, K), b: (K, N), c: (M, N), row-major bf16; program (i, j) owns one tile of c."""
    m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(
            a_ptr + m[:, None] * K + k[None, :], mask=(m[:, None] < M) & (k[None, :] < K), other=0.0
        )
        b = tl.load(
            b_ptr + k[:, None] * N + n[None, :], mask=(k[:, None] < K) & (n[None, :] < N), other=0.0
        )
        acc += tl.sum(a.to(tl.float32)[:, :, None] * b.to(tl.float32)[None, :, :], axis=1)
    mask = (m[:, None] < M) & (n[None, :] < N)
    tl.store(c_ptr + m[:, None] * N + n[None, :], acc.to(c_ptr.dtype.element_ty), mask=mask)


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    grid = (triton.cdiv(M, 16), triton.cdiv(N, 16))
    matmul_kernel[grid](a, b, c, M, N, K, BLOCK_M=16, BLOCK_N=16, BLOCK_K=16)
    return c
