"""Keeps the running sum in bfloat16: each K step's partial product is added to a bf16
accumulator and rounded there. bf16 keeps 8 bits of precision, so once the sum is a few
hundred times its terms, terms round away. On a GPU (round to nearest) the long-K GPU shape
with large positive values (every product adds) comes out ~14% off; in the CPU interpreter,
whose bf16 conversion truncates, the 512-long K is enough. Otherwise a plain tiled kernel.

Expected verdict: failed
Expected message: exceeds the tolerance
"""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.bfloat16)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + m[:, None] * K + k[None, :], mask=(m[:, None] < M) & (k[None, :] < K), other=0.0)
        b = tl.load(b_ptr + k[:, None] * N + n[None, :], mask=(k[:, None] < K) & (n[None, :] < N), other=0.0)
        # The sum in fp32 then rounded: exactly a bf16 add (and right in the CPU interpreter too).
        acc = (acc.to(tl.float32) + tl.dot(a.to(tl.float32), b.to(tl.float32))).to(tl.bfloat16)
    mask = (m[:, None] < M) & (n[None, :] < N)
    tl.store(c_ptr + m[:, None] * N + n[None, :], acc, mask=mask)


def matmul(a, b):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    matmul_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 16))](a, b, c, M, N, K, BLOCK_M=16, BLOCK_N=16, BLOCK_K=16)
    return c
