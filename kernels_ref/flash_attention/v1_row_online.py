"""v1_row_online: one kernel, one program per query row, the online softmax over key blocks.

What changed from v0: the three kernels fuse into one, and S and P are never written. A program
holds its query row q (D floats) and walks the keys in blocks of 64: scores s = scale q K_blk^T,
then the online softmax (Milakov and Gimelshein, 2018) carried to the output: a running max m,
a running sum l and a running output acc (D floats). When a block raises the max to m', the old
sum and output are rescaled by exp(m - m') before the block's terms are added:
l = l exp(m - m') + sum exp(s - m'), acc = acc exp(m - m') + sum exp(s - m') v. One division by
l at the end. Causal masks scores with j > i to -inf, and still visits every key block.

What it buys, and what it does not: the O(S^2) traffic of v0 is gone (about 34 GB at the
headline shape: S written, read and rewritten as P in float32, P read back, roughly 7 ms of
HBM time), and so are two launches; memory use drops from O(S^2) to O(S), which is what lets
long sequences run at all (v0 needs 8.6 GB for S at the headline shape, and 4x that at each
doubling of S). It is not faster: on an H200 at the headline it took 233 ms against v0's 229
(0.98x; causal 0.91x; 1.02x at B=16 H=16 S=1024 D=64;
benchmarks/results/session13-2026-12-01-h200/flash_attention-with-v4-tma.md). The arithmetic
is v0's, on CUDA cores (bf16 loads widened to float32: about 1.1 TFLOP at the headline shape),
and dominates both rungs, so the ~7 ms of traffic saved is small beside what a different loop
costs: v1's program holds a K block, a V block and a D-float accumulator that it rescales at
every key block, where each of v0's kernels holds one operand. Which of these costs the 4 ms
was not profiled. It is still the step, because it is the idea the rest of the ladder is
built on; v2 is where K/V blocks are shared among queries and the products move to the tensor
cores.

What an interviewer wants to hear: the rescaling identity and why it is exact; that acc must
be rescaled together with l (forgetting it is the classic bug); that the division can wait to
the end; the memory argument (S = 128k makes S^2 float32 64 GB per head); and what is still
wrong: each program re-reads all of K and V for a single query (about 2 MB per row at the
headline shape, served by L2), so the arithmetic intensity is about 1 FLOP per byte: sharing
each K/V block among many queries is the next step.
"""

import math

import torch
import triton
import triton.language as tl

BLOCK_N = 64


@triton.jit
def row_attention_kernel(
    q_ptr,
    k_ptr,
    v_ptr,
    o_ptr,
    seq_len,
    scale,
    HEAD_DIM: tl.constexpr,
    BLOCK_N: tl.constexpr,
    CAUSAL: tl.constexpr,
):
    """Program (query row, batch x head): o[row] = softmax(scale q[row] K^T) V.

    q_ptr, k_ptr, v_ptr, o_ptr: (B, H, S, D) contiguous; seq_len: S; scale: 1 / sqrt(D).
    """
    row = tl.program_id(0)
    base = tl.program_id(1).to(tl.int64) * seq_len * HEAD_DIM
    dims = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + base + row * HEAD_DIM + dims).to(tl.float32)
    m = float("-inf")
    row_sum = 0.0
    acc = tl.zeros([HEAD_DIM], tl.float32)
    for start in range(0, seq_len, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        offsets = base + cols[:, None] * HEAD_DIM + dims[None, :]
        k = tl.load(k_ptr + offsets, mask=cols[:, None] < seq_len, other=0.0).to(tl.float32)
        s = tl.sum(q[None, :] * k, axis=1) * scale
        keep = cols < seq_len
        if CAUSAL:
            keep = keep & (cols <= row)
        s = tl.where(keep, s, float("-inf"))
        # Block 0 holds key 0, which every row may see: m is finite from the first block on.
        m_new = tl.maximum(m, tl.max(s, axis=0))
        alpha = tl.exp(m - m_new)
        p = tl.exp(s - m_new)
        row_sum = row_sum * alpha + tl.sum(p, axis=0)
        v = tl.load(v_ptr + offsets, mask=cols[:, None] < seq_len, other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, axis=0)
        m = m_new
    tl.store(o_ptr + base + row * HEAD_DIM + dims, (acc / row_sum).to(o_ptr.dtype.element_ty))


def attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False
) -> torch.Tensor:
    batch, heads, seq_len, head_dim = q.shape
    out = torch.empty_like(q)
    row_attention_kernel[(seq_len, batch * heads)](
        q,
        k,
        v,
        out,
        seq_len,
        1.0 / math.sqrt(head_dim),
        HEAD_DIM=head_dim,
        BLOCK_N=BLOCK_N,
        CAUSAL=bool(causal),
        num_warps=4,
    )
    return out
