"""Exponentiates the raw scores, never subtracting the running max: with large-magnitude q and k
the scores reach hundreds, exp overflows float32 to inf, and inf / inf is NaN.

Expected verdict: failed
Expected message: NaN or inf
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def attention_row_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr, seq_len, scale, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr,
    CAUSAL: tl.constexpr,
):  # fmt: skip
    """Program (query row, batch x head); tensors are (B, H, S, D) contiguous, HEAD_DIM = D."""
    row = tl.program_id(0)
    base = tl.program_id(1).to(tl.int64) * seq_len * HEAD_DIM
    dims = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + base + row * HEAD_DIM + dims).to(tl.float32)
    row_sum = 0.0
    acc = tl.zeros([HEAD_DIM], tl.float32)
    for start in range(0, seq_len, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        visible = cols < seq_len
        if CAUSAL:
            visible = visible & (cols <= row)
        offsets = base + cols[:, None] * HEAD_DIM + dims[None, :]
        k = tl.load(k_ptr + offsets, mask=visible[:, None], other=0.0).to(tl.float32)
        s = tl.where(visible, tl.sum(q[None, :] * k, axis=1) * scale, float("-inf"))
        p = tl.exp(s)
        v = tl.load(v_ptr + offsets, mask=visible[:, None], other=0.0).to(tl.float32)
        row_sum = row_sum + tl.sum(p, axis=0)
        acc = acc + tl.sum(p[:, None] * v, axis=0)
    tl.store(o_ptr + base + row * HEAD_DIM + dims, (acc / row_sum).to(o_ptr.dtype.element_ty))


def attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False
) -> torch.Tensor:
    batch, heads, seq_len, head_dim = q.shape
    out = torch.empty_like(q)
    attention_row_kernel[(seq_len, batch * heads)](
        q, k, v, out, seq_len, 1.0 / math.sqrt(head_dim), HEAD_DIM=head_dim, BLOCK_N=64,
        CAUSAL=bool(causal),
    )  # fmt: skip
    return out
