"""v0_naive: one program per output element, a dot product of a row of a and a column of b.

What it is: program p computes c[m, n] for m = p // N, n = p % N. It walks K in chunks of
BLOCK_K, loading a[m, k:k+BLOCK_K] (contiguous) and b[k:k+BLOCK_K, n] (a column: BLOCK_K
elements N apart), multiplies them in fp32 on the CUDA cores and sums the lanes at the end.

Why it is slow: every output reads 2K inputs, so the kernel asks the memory system for
2 M N K elements where 2 (M K + K N) would do: at 4096^3 that is 4096 times the minimum.
Worse, the column of b is uncoalesced: each lane's 2-byte element sits in its own 32-byte
sector, so unless a neighbouring program asks for the rest of that sector while it is still in
L1, 16x the bytes cross from L2. Nothing is reused on chip, and one warp per program cannot
hide the latency of those scattered loads. No tensor cores, no shared memory.

What an interviewer wants to hear: the arithmetic intensity of this loop (2 FLOPs per 4 bytes
loaded, far left of the ridge point), that a GEMM's data is reused M or N times and the whole
ladder is about capturing that reuse on chip, and that the first fix is the access pattern:
map adjacent threads to adjacent columns of b so each warp reads whole sectors.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def naive_kernel(
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
    BLOCK_K: tl.constexpr,  # K elements loaded per step
):
    """Program p computes the single output c[p // N, p % N]."""
    pid = tl.program_id(0).to(tl.int64)
    m = pid // N
    n = pid % N
    lanes = tl.zeros([BLOCK_K], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        in_k = k < K
        a = tl.load(a_ptr + m * stride_am + k * stride_ak, mask=in_k, other=0.0)
        b = tl.load(b_ptr + k * stride_bk + n * stride_bn, mask=in_k, other=0.0)
        lanes += a.to(tl.float32) * b.to(tl.float32)
    tl.store(
        c_ptr + m * stride_cm + n * stride_cn, tl.sum(lanes, axis=0).to(c_ptr.dtype.element_ty)
    )


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    naive_kernel[(M * N,)](
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
        BLOCK_K=128,
        num_warps=1,
    )
    return c
