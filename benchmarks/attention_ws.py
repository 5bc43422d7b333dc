"""Does Triton 3.6 warp-specialise flash_attention's loop on sm_90 when it is written the way
Triton's fused-attention tutorial writes it?

Session 11's TMA kernel (benchmarks/attention_tma.py) with `warp_specialize=True` stopped in
the WSDataPartition pass ("unsupported op type": its 3-D descriptors need a reshape after every
load). This one uses 2-D descriptors over (B*H*S, D), as the tutorial does: no reshape, K read
with `.T`, an additive causal mask. Rows of one head run into the next head's rows, so it is
only right when S is a multiple of both blocks (the headline's 4096 is); it is an experiment,
not a rung. Times, at the headline shape, beside v3 and F.scaled_dot_product_attention:

    bash benchmarks/run_on_device.sh python3 benchmarks/attention_ws.py
On a CPU (TRITON_INTERPRET=1) it checks the arithmetic in float32 and times nothing.
"""

# ruff: noqa: B023 -- every lambda is timed inside the loop iteration that made it

from __future__ import annotations

import math
import sys

import torch
import torch.nn.functional as F
import triton
import triton.language as tl
from attention_tma import LOG2_E, headline, print_rows
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def _key_blocks(
    acc, row_sum, m, q, desc_k, desc_v, first, lo, hi, rows, qk_scale,
    BLOCK_N: tl.constexpr, MASKED: tl.constexpr, WS: tl.constexpr,
):  # fmt: skip
    offset = first + lo
    for start in tl.range(lo, hi, BLOCK_N, warp_specialize=WS):
        k = desc_k.load([offset, 0]).T
        qk = tl.dot(q, k)
        if MASKED:
            keep = rows[:, None] >= (start + tl.arange(0, BLOCK_N))[None, :]
            qk = qk * qk_scale + tl.where(keep, 0.0, -1.0e6)
            m_new = tl.maximum(m, tl.max(qk, 1))
            qk -= m_new[:, None]
        else:
            m_new = tl.maximum(m, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_new[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m - m_new)
        row_sum = row_sum * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = desc_v.load([offset, 0])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m = m_new
        offset += BLOCK_N
    return acc, row_sum, m


@triton.jit
def ws_attention_kernel(
    desc_q, desc_k, desc_v, desc_o, seq_len, qk_scale,
    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
    CAUSAL: tl.constexpr, WS: tl.constexpr,
):  # fmt: skip
    query_block = tl.program_id(0)
    first = tl.program_id(1) * seq_len  # this head's first row in the (B*H*S, D) view
    rows = query_block * BLOCK_M + tl.arange(0, BLOCK_M)
    q = desc_q.load([first + query_block * BLOCK_M, 0])
    m = tl.full([BLOCK_M], float("-inf"), tl.float32)
    row_sum = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    if CAUSAL:
        acc, row_sum, m = _key_blocks(
            acc, row_sum, m, q, desc_k, desc_v, first, 0, query_block * BLOCK_M, rows, qk_scale,
            BLOCK_N, False, WS,
        )  # fmt: skip
        acc, row_sum, m = _key_blocks(
            acc, row_sum, m, q, desc_k, desc_v, first, query_block * BLOCK_M,
            (query_block + 1) * BLOCK_M, rows, qk_scale, BLOCK_N, True, WS,
        )  # fmt: skip
    else:
        acc, row_sum, m = _key_blocks(
            acc, row_sum, m, q, desc_k, desc_v, first, 0, seq_len, rows, qk_scale,
            BLOCK_N, False, WS,
        )  # fmt: skip
    out = acc / row_sum[:, None]
    desc_o.store([first + query_block * BLOCK_M, 0], out.to(desc_o.dtype))


def attention(q, k, v, causal, block_m=128, block_n=128, warps=8, stages=3, ws=False):
    batch, heads, seq_len, head_dim = q.shape
    assert seq_len % block_m == 0 and seq_len % block_n == 0, "S must be a multiple of the blocks"
    out = torch.empty_like(q)
    flat = [t.view(batch * heads * seq_len, head_dim) for t in (q, k, v, out)]
    boxes = [block_m, block_n, block_n, block_m]
    descs = [
        TensorDescriptor.from_tensor(t, [box, head_dim]) for t, box in zip(flat, boxes, strict=True)
    ]
    ws_attention_kernel[(seq_len // block_m, batch * heads)](
        *descs, seq_len, LOG2_E / math.sqrt(head_dim), HEAD_DIM=head_dim, BLOCK_M=block_m,
        BLOCK_N=block_n, CAUSAL=bool(causal), WS=ws, num_warps=warps, num_stages=stages,
    )  # fmt: skip
    return out


CONFIGS = [(128, 128, 8, 3), (128, 64, 8, 3)]


def main() -> int:
    if not torch.cuda.is_available():
        q, k, v = (torch.randn(1, 2, 256, 64) for _ in range(3))
        for causal in (False, True):
            want = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            got = attention(q, k, v, causal, 64, 32, 4, 2)
            err = float((got - want).norm() / want.norm())
            print(f"interpreter causal={causal}: relative error {err:.1e}")
            if err > 1e-4:
                return 1
        return 0
    # Descriptors made on the device (or a warp-specialised kernel) ask for scratch memory.
    triton.set_allocator(
        lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda")
    )
    v3, flops, (q, k, v) = headline()
    for causal in (False, True):
        work = flops / (2 if causal else 1)
        want = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        sdpa = triton.testing.do_bench(
            lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        )
        rows = [("SDPA", sdpa), ("v3_tuned", triton.testing.do_bench(lambda: v3(q, k, v, causal)))]
        for config, ws in [(c, w) for c in CONFIGS for w in (False, True)]:
            label = f"2-D desc {'x'.join(map(str, config[:2]))} w{config[2]} s{config[3]} ws={ws}"
            try:
                got = attention(q, k, v, causal, *config, ws=ws)
                err = float((got.float() - want.float()).norm() / want.float().norm())
                ms = triton.testing.do_bench(lambda: attention(q, k, v, causal, *config, ws=ws))
                rows.append((f"{label} err {err:.0e}", ms))
            except Exception as failure:  # noqa: BLE001 - a variant that does not compile is a row
                print(f"{label} causal={causal}: {type(failure).__name__}: {str(failure)[-300:]}")
        print_rows(rows, causal, work, sdpa)
    return 0


if __name__ == "__main__":
    sys.exit(main())
