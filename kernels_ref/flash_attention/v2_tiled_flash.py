"""v2_tiled_flash: FlashAttention-2: a block of queries per program, a loop over K/V blocks, tl.dot.

What changed from v1: a program owns BLOCK_M = 64 query rows instead of one, and walks K and V in
BLOCK_N = 64-key blocks. Each block's scores are one tensor-core product, S = Q K^T (64 x 64 x D),
and its contribution to the output another, P V (64 x 64 x D); the online softmax runs per row on
the 64 x 64 tile: m' = max(m, rowmax(S)), alpha = exp(m - m'), l = alpha l + rowsum(exp(S - m')),
acc = alpha acc + P V, with the division by l once at the end (FlashAttention-2's deferred
normalisation, Dao 2023). P is rounded to bfloat16 for the second product, as in FlashAttention;
m, l and acc stay float32. Causal runs the whole K loop and masks every block (j > i is -inf).

Why it is faster: two things at once. The dot products move from CUDA cores (about 67 TFLOP/s
of float32 on an H200) to tensor cores (about 990 TFLOP/s dense bf16), and each K/V block read
from L2 now serves 64 queries instead of one, so the bytes per FLOP drop 64-fold. S and P live
only in registers: memory stays O(S) and HBM traffic is about Q + O + (S / BLOCK_M) x (K + V).

What an interviewer wants to hear: the tiling (why the outer loop is over queries: each program
writes its own output rows, so no reduction across programs, which is FlashAttention-2's change
from FlashAttention-1's K/V-outer loop); the rescaling of acc when the max moves and why the
division can wait to the end; arithmetic intensity of about BLOCK_M FLOP per byte of K/V;
registers (acc is BLOCK_M x D float32) as the limit on the block size; and what is still
wasted: causal computes and masks the upper triangle it could skip, every block pays for the
mask, and exp is exp2 plus a multiply (v3).

Triton's CPU interpreter multiplies bfloat16 bit patterns in tl.dot (triton-lang/triton#11584),
so under the interpreter the operands are widened to float32 first: exact, and the same
rounding of P to bfloat16 is kept. On a GPU the flag is False and the branch compiles away.
"""

import math
import os

import torch
import triton
import triton.language as tl

BLOCK_M = 64
BLOCK_N = 64
INTERPRETED = tl.constexpr(os.environ.get("TRITON_INTERPRET", "0") not in ("", "0", "false"))


@triton.jit
def flash_attention_kernel(
    q_ptr,
    k_ptr,
    v_ptr,
    o_ptr,
    seq_len,
    scale,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    CAUSAL: tl.constexpr,
):
    """Program (query block, batch x head): o[rows] = softmax(scale q[rows] K^T) V.

    q_ptr, k_ptr, v_ptr, o_ptr: (B, H, S, D) contiguous, so each (batch, head) is an S x D
    matrix at offset head * S * D; seq_len: S; scale: 1 / sqrt(D); HEAD_DIM: D.
    """
    head = tl.program_id(1).to(tl.int64)
    base = head * seq_len * HEAD_DIM
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    q = tl.load(
        q_ptr + base + rows[:, None] * HEAD_DIM + dims[None, :],
        mask=rows[:, None] < seq_len,
        other=0.0,
    )
    m = tl.full([BLOCK_M], float("-inf"), tl.float32)
    row_sum = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    for start in range(0, seq_len, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        offsets = base + cols[:, None] * HEAD_DIM + dims[None, :]
        k = tl.load(k_ptr + offsets, mask=cols[:, None] < seq_len, other=0.0)
        v = tl.load(v_ptr + offsets, mask=cols[:, None] < seq_len, other=0.0)
        if INTERPRETED:
            s = tl.dot(q.to(tl.float32), tl.trans(k.to(tl.float32))) * scale
        else:
            s = tl.dot(q, tl.trans(k)) * scale
        keep = cols[None, :] < seq_len
        if CAUSAL:
            keep = keep & (cols[None, :] <= rows[:, None])
        s = tl.where(keep, s, float("-inf"))
        # The first block holds key 0, which every row may see: m is finite from then on.
        m_new = tl.maximum(m, tl.max(s, axis=1))
        alpha = tl.exp(m - m_new)
        p = tl.exp(s - m_new[:, None])
        row_sum = row_sum * alpha + tl.sum(p, axis=1)
        p_low = p.to(v.dtype)
        if INTERPRETED:
            acc = acc * alpha[:, None] + tl.dot(p_low.to(tl.float32), v.to(tl.float32))
        else:
            acc = acc * alpha[:, None] + tl.dot(p_low, v)
        m = m_new
    out = acc / row_sum[:, None]
    tl.store(
        o_ptr + base + rows[:, None] * HEAD_DIM + dims[None, :],
        out.to(o_ptr.dtype.element_ty),
        mask=rows[:, None] < seq_len,
    )


def attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False
) -> torch.Tensor:
    batch, heads, seq_len, head_dim = q.shape
    out = torch.empty_like(q)
    grid = (triton.cdiv(seq_len, BLOCK_M), batch * heads)
    flash_attention_kernel[grid](
        q,
        k,
        v,
        out,
        seq_len,
        1.0 / math.sqrt(head_dim),
        HEAD_DIM=head_dim,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        CAUSAL=bool(causal),
        num_warps=4,
        num_stages=2,
    )
    return out
