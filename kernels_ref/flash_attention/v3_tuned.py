"""v3_tuned: causal block skipping, the mask only where it is needed, exp2, tuned blocks, heavy blocks first.

What changed from v2:
- Causal: the K loop stops at the diagonal. Blocks wholly before it (keys before the query
  block) run without any mask; only the BLOCK_M keys on the diagonal are masked (j <= i). The
  upper triangle is never loaded nor multiplied: half the FLOPs at long sequences.
- Non-causal: full K/V blocks load and run without masks; one masked block takes the tail
  when S is not a multiple of BLOCK_N (none at the benchmark shapes).
- exp2 with log2(e) folded into the scale: exp(x) is exp2(x log2 e), and MUFU.EX2 is the
  instruction exp compiles to anyway, so folding the constant into `qk_scale` saves a multiply
  per score, and the max is subtracted inside one fused multiply-add: qk * qk_scale - m.
- Blocks and staging tuned for Hopper, from Triton's fused-attention tutorial: BLOCK_M 128,
  BLOCK_N 64 or 128, 4 or 8 warps, 3 or 4 software-pipeline stages (K/V of the next blocks in
  flight in shared memory while this one computes), autotuned over a short list per (S, D, causal).
- Causal programs run longest first: query block i has i + 1 blocks of work, so the grid is
  walked from the last query block down; the short ones fill the tail of the wave.

Why it is faster: causal does half of v2's work. Non-causal, the softmax part (max, exp,
sums, rescale: CUDA cores and the MUFU unit) competes with the tensor cores for issue slots;
removing a mask select and a multiply per score and pipelining the K/V loads deeper keeps
the tensor cores fed. BLOCK_M 128 halves the K/V reads per FLOP again.

What an interviewer wants to hear: why causal is roughly 2x less work but less than 2x faster
(the diagonal blocks, load imbalance across query blocks); the exp2 trick and where the
exponentials run: MUFU does 16 per SM per clock against 4096 bf16 FLOPs on the tensor cores,
and each score costs 4D matmul FLOPs and one exponential, so at D = 128 the exponentials take
half as long as the matmuls and at D = 64 as long; unless they overlap (FlashAttention-3's
warp specialisation and ping-pong scheduling) they cap the kernel well below the tensor-core
peak; how num_stages trades shared memory for latency hiding (224 KB at 128 x 128, 3 stages,
D = 128: one program per SM); why BLOCK_N <= BLOCK_M keeps the diagonal aligned; and what is
left: warp specialisation, TMA loads, FP8.

Against F.scaled_dot_product_attention (FlashAttention-2's CUDA kernels, or cuDNN's, on an
H200) the issue's bars are 0.80x non-causal and 0.75x causal at the headline shape: plain
tl.dot loops without warp specialisation sit a little below the hand-scheduled CUDA.

Triton's CPU interpreter multiplies bfloat16 bit patterns in tl.dot (triton-lang/triton#11584),
so under the interpreter the operands are widened to float32 first; on a GPU the branch compiles
away.
"""

import math
import os

import torch
import triton
import triton.language as tl

LOG2_E = 1.4426950408889634
INTERPRETED = tl.constexpr(os.environ.get("TRITON_INTERPRET", "0") not in ("", "0", "false"))

#: Hopper configs after Triton's fused-attention tutorial. Compiled for sm_90 (Triton 3.9, no GPU
#: needed), each fits in 227 KB of shared memory (128 x 128, 3 stages, D = 128: 224 KB) and none
#: spills registers but 128 x 64 with 4 warps at D = 128 (acc alone is 128 floats a thread),
#: which `fitting_configs` drops there.
CONFIGS = [
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 64}, num_warps=4, num_stages=3),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 64}, num_warps=8, num_stages=4),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 128}, num_warps=8, num_stages=3),
    triton.Config({"BLOCK_M": 64, "BLOCK_N": 64}, num_warps=4, num_stages=4),
]


#: Below this many keys a call is a correctness case, not a benchmark: one config, no tuning,
#: so that odd lengths do not each compile and time the whole list.
TUNED_FROM_SEQ_LEN = 1024


def fitting_configs(configs: list, named_args: dict, **kwargs: object) -> list:
    """The configs worth timing for this call's head size and length."""
    args = {**named_args, **kwargs}
    if args["seq_len"] < TUNED_FROM_SEQ_LEN:
        return configs[-1:]
    return [
        c
        for c in configs
        if not (args["HEAD_DIM"] > 64 and c.kwargs["BLOCK_M"] == 128 and c.num_warps == 4)
    ]


@triton.jit
def _attend_blocks(
    acc,
    row_sum,
    m,
    q,
    k_ptr,
    v_ptr,
    base,
    rows,
    dims,
    lo,
    hi,
    seq_len,
    qk_scale,
    HEAD_DIM: tl.constexpr,
    BLOCK_N: tl.constexpr,
    MASKED: tl.constexpr,
    CAUSAL: tl.constexpr,
):
    """The online softmax over key blocks [lo, hi); MASKED adds the key-range and causal masks."""
    for start in range(lo, hi, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        offsets = base + cols[:, None] * HEAD_DIM + dims[None, :]
        if MASKED:
            k = tl.load(k_ptr + offsets, mask=cols[:, None] < seq_len, other=0.0)
        else:
            k = tl.load(k_ptr + offsets)
        if INTERPRETED:
            qk = tl.dot(q.to(tl.float32), tl.trans(k.to(tl.float32)))
        else:
            qk = tl.dot(q, tl.trans(k))
        if MASKED:
            keep = cols[None, :] < seq_len
            if CAUSAL:
                keep = keep & (cols[None, :] <= rows[:, None])
            qk = tl.where(keep, qk * qk_scale, float("-inf"))
            m_new = tl.maximum(m, tl.max(qk, axis=1))
            qk = qk - m_new[:, None]
        else:
            m_new = tl.maximum(m, tl.max(qk, axis=1) * qk_scale)
            qk = qk * qk_scale - m_new[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m - m_new)
        row_sum = row_sum * alpha + tl.sum(p, axis=1)
        if MASKED:
            v = tl.load(v_ptr + offsets, mask=cols[:, None] < seq_len, other=0.0)
        else:
            v = tl.load(v_ptr + offsets)
        p_low = p.to(v.dtype)
        acc = acc * alpha[:, None]
        if INTERPRETED:
            acc += tl.dot(p_low.to(tl.float32), v.to(tl.float32))
        else:
            acc = tl.dot(p_low, v, acc)
        m = m_new
    return acc, row_sum, m


@triton.autotune(
    configs=CONFIGS,
    key=["seq_len", "HEAD_DIM", "CAUSAL"],
    prune_configs_by={"early_config_prune": fitting_configs},
)
@triton.jit
def flash_attention_kernel(
    q_ptr,
    k_ptr,
    v_ptr,
    o_ptr,
    seq_len,
    qk_scale,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    CAUSAL: tl.constexpr,
):
    """Program (query block, batch x head): o[rows] = softmax(q[rows] K^T / sqrt(D)) V.

    q_ptr, k_ptr, v_ptr, o_ptr: (B, H, S, D) contiguous; seq_len: S; qk_scale: log2(e) / sqrt(D),
    so exp2(qk * qk_scale) = exp(qk / sqrt(D)); HEAD_DIM: D; BLOCK_N divides BLOCK_M.
    """
    query_block = tl.program_id(0)
    if CAUSAL:
        query_block = tl.num_programs(0) - 1 - query_block
    head = tl.program_id(1).to(tl.int64)
    base = head * seq_len * HEAD_DIM
    first_row = query_block * BLOCK_M
    rows = first_row + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    q = tl.load(
        q_ptr + base + rows[:, None] * HEAD_DIM + dims[None, :],
        mask=rows[:, None] < seq_len,
        other=0.0,
    )
    m = tl.full([BLOCK_M], float("-inf"), tl.float32)
    row_sum = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    if CAUSAL:
        # Keys before this query block: every row sees all of them.
        acc, row_sum, m = _attend_blocks(
            acc, row_sum, m, q, k_ptr, v_ptr, base, rows, dims, 0, first_row, seq_len, qk_scale,
            HEAD_DIM, BLOCK_N, False, CAUSAL,
        )  # fmt: skip
        diagonal_end = tl.minimum(first_row + BLOCK_M, seq_len)
        acc, row_sum, m = _attend_blocks(
            acc, row_sum, m, q, k_ptr, v_ptr, base, rows, dims, first_row, diagonal_end, seq_len,
            qk_scale, HEAD_DIM, BLOCK_N, True, CAUSAL,
        )  # fmt: skip
    else:
        full_end = seq_len // BLOCK_N * BLOCK_N
        acc, row_sum, m = _attend_blocks(
            acc, row_sum, m, q, k_ptr, v_ptr, base, rows, dims, 0, full_end, seq_len, qk_scale,
            HEAD_DIM, BLOCK_N, False, CAUSAL,
        )  # fmt: skip
        acc, row_sum, m = _attend_blocks(
            acc, row_sum, m, q, k_ptr, v_ptr, base, rows, dims, full_end, seq_len, seq_len, qk_scale,
            HEAD_DIM, BLOCK_N, True, CAUSAL,
        )  # fmt: skip
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

    def grid(meta: dict) -> tuple[int, int]:
        return (triton.cdiv(seq_len, meta["BLOCK_M"]), batch * heads)

    flash_attention_kernel[grid](
        q,
        k,
        v,
        out,
        seq_len,
        LOG2_E / math.sqrt(head_dim),
        HEAD_DIM=head_dim,
        CAUSAL=bool(causal),
    )
    return out
