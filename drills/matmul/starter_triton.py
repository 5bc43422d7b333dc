"""Starter for the matmul drill (Triton): correct, slow, and yours to make fast.

Each program computes a 32 x 32 tile of c: for every step of 32 along K it loads a tile of a
and a tile of b and adds their product (tl.dot, the tensor cores on a GPU) to an fp32
accumulator, rounded to bf16 once at the end. The harness checks odd shapes (tails in M, N
and K), long K, and large positive values. Ideas: bigger tiles and more warps, num_stages,
a grouped program order, autotuning per shape.

On a CPU, Triton's interpreter multiplies bf16 operands of tl.dot (and does bf16 arithmetic
in general) on their raw 16-bit patterns (triton#11584), so there the operands are widened to
fp32 first (WIDEN); on a GPU they stay bf16 and go to the tensor cores, which the drill
requires.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(
    a_ptr,  # a: (M, K) bf16, row-major
    b_ptr,  # b: (K, N) bf16, row-major
    c_ptr,  # c: (M, N) bf16, row-major, written
    M,
    N,
    K,
    WIDEN: tl.constexpr,  # True only in the CPU interpreter
    BLOCK: tl.constexpr,  # tile size along M, N and K
):
    """Program (i, j) computes c[i*BLOCK : +BLOCK, j*BLOCK : +BLOCK]."""
    m = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    n = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK, BLOCK], dtype=tl.float32)
    for k0 in range(0, K, BLOCK):
        k = k0 + tl.arange(0, BLOCK)
        a = tl.load(
            a_ptr + m[:, None] * K + k[None, :], mask=(m[:, None] < M) & (k[None, :] < K), other=0.0
        )
        b = tl.load(
            b_ptr + k[:, None] * N + n[None, :], mask=(k[:, None] < K) & (n[None, :] < N), other=0.0
        )
        if WIDEN:
            a = a.to(tl.float32)
            b = b.to(tl.float32)
        acc = tl.dot(a, b, acc)
    mask = (m[:, None] < M) & (n[None, :] < N)
    tl.store(c_ptr + m[:, None] * N + n[None, :], acc.to(c_ptr.dtype.element_ty), mask=mask)


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
    matmul_kernel[grid](a, b, c, M, N, K, WIDEN=not a.is_cuda, BLOCK=32, num_stages=1)
    return c
