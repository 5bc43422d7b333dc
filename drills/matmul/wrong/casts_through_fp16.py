"""Casts a and b to float16 to use fp16 tensor cores: same speed as bf16 on Hopper and three
more bits of mantissa, but float16 tops out at 65504. Inputs above it become inf, and so does
every output they touch. Passes on normal values; fails on large ones.

Expected verdict: failed
Expected message: NaN or inf
"""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, WIDEN: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + m[:, None] * K + k[None, :], mask=(m[:, None] < M) & (k[None, :] < K), other=0.0)
        b = tl.load(b_ptr + k[:, None] * N + n[None, :], mask=(k[:, None] < K) & (n[None, :] < N), other=0.0)
        if WIDEN:
            a = a.to(tl.float32)
            b = b.to(tl.float32)
        acc = tl.dot(a, b, acc)
    mask = (m[:, None] < M) & (n[None, :] < N)
    tl.store(c_ptr + m[:, None] * N + n[None, :], acc.to(c_ptr.dtype.element_ty), mask=mask)


def matmul(a, b):
    M, K = a.shape
    N = b.shape[1]
    a16, b16 = a.half(), b.half()
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    grid = (triton.cdiv(M, 16), triton.cdiv(N, 16))
    matmul_kernel[grid](a16, b16, c, M, N, K, WIDEN=not a.is_cuda, BLOCK_M=16, BLOCK_N=16, BLOCK_K=16)
    return c
