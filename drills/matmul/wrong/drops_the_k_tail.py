"""Walks K in whole steps of BLOCK_K and never masks the last one: `range(0, K - BLOCK_K + 1,
BLOCK_K)` stops before a partial step, so K % BLOCK_K products are dropped (all of them when
K < BLOCK_K). Right whenever K is a multiple of 32, which every benchmark shape is.

Expected verdict: failed
Expected message: wrong output for M=1, N=1, K=1
"""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K - BLOCK_K + 1, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + m[:, None] * K + k[None, :], mask=m[:, None] < M, other=0.0)
        b = tl.load(b_ptr + k[:, None] * N + n[None, :], mask=n[None, :] < N, other=0.0)
        acc = tl.dot(a.to(tl.float32), b.to(tl.float32), acc)
    mask = (m[:, None] < M) & (n[None, :] < N)
    tl.store(c_ptr + m[:, None] * N + n[None, :], acc.to(c_ptr.dtype.element_ty), mask=mask)


def matmul(a, b):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    matmul_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 16))](a, b, c, M, N, K, BLOCK_M=16, BLOCK_N=16, BLOCK_K=32)
    return c
