"""Does hand-scheduled overlap reach flash_attention's 0.80x bar on the H200? A Gluon experiment.

The ladder's Triton rungs stop at 0.76-0.78x SDPA (v4_tma_occupancy): inside a tl.dot loop the
softmax and the matmuls run in turn, and the compiler decides which wgmma waits for which (under
v4's 128-register cap, ptxas serialises every one). Gluon (Triton's lower-level dialect, in
Triton 3.6) lets the kernel say it. Both kernels here have one producer warp issuing the TMA
loads of K and V into a ring of buffers (mbarriers for ready and empty) and give the consumer
warps the registers (setmaxnreg through warp_specialize's budgets: no serialised wgmma).
- `fa3-style`: 8 consumer warps (two warpgroups of 64 queries) in FlashAttention-3's
  intra-warpgroup order: block j's QK^T and block j-1's P V both issued, wait for the first,
  softmax while the second runs. Compiled locally, ptxas moves the second wait (and the
  partition barrier after it) above the exponentials whatever the source order, so the overlap
  it is written for may not happen; timed anyway.
- `halves`: two consumer partitions of one warpgroup each (the default and a worker), each a
  plain loop over the same K/V tiles (a buffer is free when both have arrived): the warp
  schedulers run one's softmax under the other's wgmma, as two programs per SM do in v4, but
  with the tiles shared, 128-key blocks and no register cap.

Not yet run on a GPU: session 14 wrote and compiled it (locally, for sm_90a with Triton 3.6,
the device's: `fa3-style` 168 registers at launch and 240 for the consumers, 192 KB; `halves`
232-256 for the consumers, 160 KB at 2 stages and 224 KB at 3; no spills) after its device time
was spent. Expect to debug it there first: a wrong mbarrier phase hangs (hence the timeout).

An experiment, not a rung: Gluon does not run in Triton's CPU interpreter, which the drill
requires of every Triton rung. Only non-causal, only S a multiple of 128 (2-D descriptors over
(B*H*S, D), as benchmarks/attention_ws.py). Timed the judge's way (busy-wait, L2 flush, one
event pair per call; median) beside SDPA and v4, one process per variant:

    bash benchmarks/run_on_device.sh bash -c 'for v in baseline "fa3-style 128x128 s2" \\
        "halves 128x128 s2" "halves 128x128 s3"; do
        timeout 120 python3 benchmarks/attention_gluon.py "$v"; done'
"""

from __future__ import annotations

import importlib.util
import math
import statistics
import sys
from pathlib import Path

import torch
import torch.nn.functional as F
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (
    fence_async_shared,
    mbarrier,
    tma,
    warpgroup_mma,
    warpgroup_mma_wait,
)
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

ROOT = Path(__file__).resolve().parents[1]
LOG2_E = 1.4426950408889634


@gluon.jit
def _loader(
    desc_q, desc_k, desc_v, q_smem, k_bufs, v_bufs, q_bar, k_ready, k_empty, v_ready, v_empty,
    q_row, kv_row, n_blocks, BLOCK_N: gl.constexpr, STAGES: gl.constexpr,
):  # fmt: skip
    """The producer warp: Q once, then K and V block by block into a ring of STAGES buffers."""
    mbarrier.expect(q_bar, desc_q.block_type.nbytes)
    tma.async_copy_global_to_shared(desc_q, [q_row, 0], q_bar, q_smem)
    for j in range(n_blocks):
        index = j % STAGES
        phase = (j // STAGES) & 1
        # A fresh mbarrier counts as having completed the phase before 0: the first STAGES
        # waits for an empty buffer pass at once.
        mbarrier.wait(k_empty.index(index), phase ^ 1)
        mbarrier.expect(k_ready.index(index), desc_k.block_type.nbytes)
        tma.async_copy_global_to_shared(
            desc_k, [kv_row + j * BLOCK_N, 0], k_ready.index(index), k_bufs.index(index)
        )
        mbarrier.wait(v_empty.index(index), phase ^ 1)
        mbarrier.expect(v_ready.index(index), desc_v.block_type.nbytes)
        tma.async_copy_global_to_shared(
            desc_v, [kv_row + j * BLOCK_N, 0], v_ready.index(index), v_bufs.index(index)
        )


@gluon.jit
def _online_softmax(s, m, row_sum, qk_scale):
    """One block of scores into the running max and sum: P, the rescale alpha, the new max
    and the new sum (exp2 with log2(e) folded into qk_scale)."""
    m_new = gl.maximum(m, gl.max(s, axis=1) * qk_scale)
    p = gl.exp2(s * qk_scale - gl.expand_dims(m_new, 1))
    alpha = gl.exp2(m - m_new)
    return p, alpha, m_new, row_sum * alpha + gl.sum(p, axis=1)


@gluon.jit
def _consumer(
    q_smem, k_bufs, v_bufs, o_smem, q_bar, k_ready, k_empty, v_ready, v_empty, desc_o, q_row,
    n_blocks, qk_scale, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr,
    STAGES: gl.constexpr, num_warps: gl.constexpr,
):  # fmt: skip
    """Two warpgroups, 64 queries each: QK^T of block j and P V of block j-1 in flight together."""
    s_layout: gl.constexpr = gl.NVMMADistributedLayout(
        version=[3, 0], warps_per_cta=[num_warps, 1], instr_shape=[16, BLOCK_N, 16]
    )
    o_layout: gl.constexpr = gl.NVMMADistributedLayout(
        version=[3, 0], warps_per_cta=[num_warps, 1], instr_shape=[16, HEAD_DIM, 16]
    )
    p_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2)
    o_rows: gl.constexpr = gl.SliceLayout(1, o_layout)

    zero_s = gl.zeros([BLOCK_M, BLOCK_N], gl.float32, s_layout)
    acc = gl.zeros([BLOCK_M, HEAD_DIM], gl.float32, o_layout)

    mbarrier.wait(q_bar, 0)
    mbarrier.wait(k_ready.index(0), 0)
    s = warpgroup_mma(q_smem, k_bufs.index(0).permute((1, 0)), zero_s, use_acc=False, is_async=True)
    s = warpgroup_mma_wait(0, deps=(s, q_smem, k_bufs.index(0)))[0]
    mbarrier.arrive(k_empty.index(0), count=1)
    start = gl.full([BLOCK_M], float("-inf"), gl.float32, gl.SliceLayout(1, s_layout))
    p, _first_alpha, m, row_sum = _online_softmax(s, start, gl.zeros_like(start), qk_scale)
    p_op = gl.convert_layout(p.to(gl.bfloat16), p_layout)

    for j in range(1, n_blocks):
        index = j % STAGES
        phase = (j // STAGES) & 1
        prev = (j - 1) % STAGES
        prev_phase = ((j - 1) // STAGES) & 1
        mbarrier.wait(k_ready.index(index), phase)
        s = warpgroup_mma(
            q_smem, k_bufs.index(index).permute((1, 0)), zero_s, use_acc=False, is_async=True
        )
        mbarrier.wait(v_ready.index(prev), prev_phase)
        acc = warpgroup_mma(p_op, v_bufs.index(prev), acc, is_async=True)
        # Groups complete in order: with one left outstanding, block j's scores are ready
        # while block j-1's P V may still run.
        s = warpgroup_mma_wait(1, deps=(s, k_bufs.index(index)))[0]
        mbarrier.arrive(k_empty.index(index), count=1)
        p, alpha, m, row_sum = _online_softmax(s, m, row_sum, qk_scale)
        acc, _, _, p, row_sum = warpgroup_mma_wait(
            0, deps=(acc, v_bufs.index(prev), p_op, p, row_sum)
        )
        acc = acc * gl.expand_dims(gl.convert_layout(alpha, o_rows), 1)
        p_op = gl.convert_layout(p.to(gl.bfloat16), p_layout)
        # Released one iteration late, after the next wait: an arrive right after this wait
        # brings a partition barrier with it, and ptxas hoists the pair above the softmax.
        mbarrier.arrive(v_empty.index(prev), count=1)

    last = (n_blocks - 1) % STAGES
    mbarrier.wait(v_ready.index(last), ((n_blocks - 1) // STAGES) & 1)
    acc = warpgroup_mma(p_op, v_bufs.index(last), acc, is_async=True)
    acc = warpgroup_mma_wait(0, deps=(acc, v_bufs.index(last), p_op))[0]
    out = acc / gl.expand_dims(gl.convert_layout(row_sum, o_rows), 1)
    o_smem.store(out.to(gl.bfloat16))
    fence_async_shared()
    tma.async_copy_shared_to_global(desc_o, [q_row, 0], o_smem)
    tma.store_wait(0)


@gluon.jit
def _rows(seq_len, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr):
    """This program's first query row and its head's first key row in (B*H*S, D); key blocks."""
    head = gl.program_id(1)
    return head * seq_len + gl.program_id(0) * BLOCK_M, head * seq_len, seq_len // BLOCK_N


@gluon.jit
def _buffers(
    desc_q, desc_k, desc_v, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr,
    HEAD_DIM: gl.constexpr, STAGES: gl.constexpr,
):  # fmt: skip
    """Q's tile and the K/V rings in shared memory, in the descriptors' (swizzled) layouts."""
    q_smem = gl.allocate_shared_memory(gl.bfloat16, [BLOCK_M, HEAD_DIM], desc_q.layout)
    k_bufs = gl.allocate_shared_memory(gl.bfloat16, [STAGES, BLOCK_N, HEAD_DIM], desc_k.layout)
    v_bufs = gl.allocate_shared_memory(gl.bfloat16, [STAGES, BLOCK_N, HEAD_DIM], desc_v.layout)
    return q_smem, k_bufs, v_bufs


@gluon.jit
def _barriers(STAGES: gl.constexpr, CONSUMERS: gl.constexpr):
    """Q's barrier and the K/V ring's ready and empty barriers; a buffer is empty once each of
    the CONSUMERS partitions has arrived."""
    q_bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    k_ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    k_empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    v_ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    v_empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    mbarrier.init(q_bar, count=1)
    for i in gl.static_range(STAGES):
        mbarrier.init(k_ready.index(i), count=1)
        mbarrier.init(k_empty.index(i), count=CONSUMERS)
        mbarrier.init(v_ready.index(i), count=1)
        mbarrier.init(v_empty.index(i), count=CONSUMERS)
    return q_bar, k_ready, k_empty, v_ready, v_empty


@gluon.jit
def _half_consumer(
    q_smem, k_bufs, v_bufs, q_bar, k_ready, k_empty, v_ready, v_empty, desc_o, q_row, n_blocks,
    qk_scale, HALF: gl.constexpr, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr,
    HEAD_DIM: gl.constexpr, STAGES: gl.constexpr,
):  # fmt: skip
    """One warpgroup, 64 of the block's 128 queries, a plain loop: QK^T, softmax, P V. Two of
    these share each K/V tile; the warp schedulers run one's softmax under the other's wgmma."""
    ROWS: gl.constexpr = BLOCK_M // 2
    s_layout: gl.constexpr = gl.NVMMADistributedLayout(
        version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, BLOCK_N, 16]
    )
    o_layout: gl.constexpr = gl.NVMMADistributedLayout(
        version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, HEAD_DIM, 16]
    )
    p_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2)
    o_rows: gl.constexpr = gl.SliceLayout(1, o_layout)
    q_half = q_smem.slice(HALF * ROWS, ROWS, dim=0)
    zero_s = gl.zeros([ROWS, BLOCK_N], gl.float32, s_layout)
    acc = gl.zeros([ROWS, HEAD_DIM], gl.float32, o_layout)
    m = gl.full([ROWS], float("-inf"), gl.float32, gl.SliceLayout(1, s_layout))
    row_sum = gl.zeros([ROWS], gl.float32, gl.SliceLayout(1, s_layout))
    mbarrier.wait(q_bar, 0)
    for j in range(n_blocks):
        index = j % STAGES
        phase = (j // STAGES) & 1
        mbarrier.wait(k_ready.index(index), phase)
        s = warpgroup_mma(
            q_half, k_bufs.index(index).permute((1, 0)), zero_s, use_acc=False, is_async=True
        )
        s = warpgroup_mma_wait(0, deps=(s, k_bufs.index(index)))[0]
        mbarrier.arrive(k_empty.index(index), count=1)
        p, alpha, m, row_sum = _online_softmax(s, m, row_sum, qk_scale)
        acc = acc * gl.expand_dims(gl.convert_layout(alpha, o_rows), 1)
        p_op = gl.convert_layout(p.to(gl.bfloat16), p_layout)
        mbarrier.wait(v_ready.index(index), phase)
        acc = warpgroup_mma(p_op, v_bufs.index(index), acc, is_async=True)
        acc = warpgroup_mma_wait(0, deps=(acc, v_bufs.index(index), p_op))[0]
        mbarrier.arrive(v_empty.index(index), count=1)
    out = acc / gl.expand_dims(gl.convert_layout(row_sum, o_rows), 1)
    # Each half writes its rows of Q's buffer (its own Q is no longer read) and stores them.
    q_half.store(out.to(gl.bfloat16))
    fence_async_shared()
    tma.async_copy_shared_to_global(desc_o, [q_row + HALF * ROWS, 0], q_half)
    tma.store_wait(0)


@gluon.jit
def _worker(
    desc_q, desc_k, desc_v, desc_o, q_smem, k_bufs, v_bufs, q_bar, k_ready, k_empty, v_ready,
    v_empty, q_row, kv_row, n_blocks, qk_scale, ROLE: gl.constexpr, BLOCK_M: gl.constexpr,
    BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr, STAGES: gl.constexpr,
):  # fmt: skip
    """Worker partitions share one signature: ROLE 0 loads, ROLE 1 is the second half's consumer."""
    if ROLE == 0:
        _loader(desc_q, desc_k, desc_v, q_smem, k_bufs, v_bufs, q_bar, k_ready, k_empty, v_ready,
                v_empty, q_row, kv_row, n_blocks, BLOCK_N, STAGES)  # fmt: skip
    else:
        _half_consumer(q_smem, k_bufs, v_bufs, q_bar, k_ready, k_empty, v_ready, v_empty, desc_o,
                       q_row, n_blocks, qk_scale, gl.constexpr(1), BLOCK_M, BLOCK_N, HEAD_DIM, STAGES)  # fmt: skip


@gluon.jit
def halves_kernel(
    desc_q, desc_k, desc_v, desc_o, seq_len, qk_scale, HEAD_DIM: gl.constexpr,
    BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, STAGES: gl.constexpr, num_warps: gl.constexpr,
):  # fmt: skip
    """Two consumer warpgroups (64 queries each, one the default partition, one a worker) and a
    loader warp; K/V buffers are freed when both consumers have arrived (count 2)."""
    q_row, kv_row, n_blocks = _rows(seq_len, BLOCK_M, BLOCK_N)
    q_smem, k_bufs, v_bufs = _buffers(desc_q, desc_k, desc_v, BLOCK_M, BLOCK_N, HEAD_DIM, STAGES)
    q_bar, k_ready, k_empty, v_ready, v_empty = _barriers(STAGES, 2)
    gl.warp_specialize(
        [
            (_half_consumer, (q_smem, k_bufs, v_bufs, q_bar, k_ready, k_empty, v_ready, v_empty,
                              desc_o, q_row, n_blocks, qk_scale, gl.constexpr(0), BLOCK_M, BLOCK_N, HEAD_DIM,
                              STAGES)),
            (_worker, (desc_q, desc_k, desc_v, desc_o, q_smem, k_bufs, v_bufs, q_bar, k_ready,
                       k_empty, v_ready, v_empty, q_row, kv_row, n_blocks, qk_scale, 0, BLOCK_M,
                       BLOCK_N, HEAD_DIM, STAGES)),
            (_worker, (desc_q, desc_k, desc_v, desc_o, q_smem, k_bufs, v_bufs, q_bar, k_ready,
                       k_empty, v_ready, v_empty, q_row, kv_row, n_blocks, qk_scale, 1, BLOCK_M,
                       BLOCK_N, HEAD_DIM, STAGES)),
        ],
        [1, 4],
        [24, 232],
    )  # fmt: skip


@gluon.jit
def attention_kernel(
    desc_q, desc_k, desc_v, desc_o, seq_len, qk_scale, HEAD_DIM: gl.constexpr,
    BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, STAGES: gl.constexpr, num_warps: gl.constexpr,
):  # fmt: skip
    """Program (query block, batch x head); descriptors over (B*H*S, D)."""
    q_row, kv_row, n_blocks = _rows(seq_len, BLOCK_M, BLOCK_N)
    q_smem, k_bufs, v_bufs = _buffers(desc_q, desc_k, desc_v, BLOCK_M, BLOCK_N, HEAD_DIM, STAGES)
    o_smem = gl.allocate_shared_memory(gl.bfloat16, [BLOCK_M, HEAD_DIM], desc_o.layout)
    q_bar, k_ready, k_empty, v_ready, v_empty = _barriers(STAGES, 1)

    gl.warp_specialize(
        [
            (
                _consumer,
                (q_smem, k_bufs, v_bufs, o_smem, q_bar, k_ready, k_empty, v_ready, v_empty,
                 desc_o, q_row, n_blocks, qk_scale, BLOCK_M, BLOCK_N, HEAD_DIM, STAGES,
                 num_warps),
            ),
            (
                _loader,
                (desc_q, desc_k, desc_v, q_smem, k_bufs, v_bufs, q_bar, k_ready, k_empty,
                 v_ready, v_empty, q_row, kv_row, n_blocks, BLOCK_N, STAGES),
            ),
        ],
        [1],
        [24],
    )  # fmt: skip


#: name: (kernel, BLOCK_N, STAGES, warps of the default partition)
VARIANTS = {
    "fa3-style 128x128 s2": (attention_kernel, 128, 2, 8),
    "halves 128x128 s2": (halves_kernel, 128, 2, 4),
    "halves 128x128 s3": (halves_kernel, 128, 3, 4),
}


def attention(q, k, v, variant: str, maxnreg: int = 168):
    """o = softmax(q k^T / sqrt(D)) v, non-causal, S a multiple of 128."""
    kernel, block_n, stages, warps = VARIANTS[variant]
    block_m = 128
    batch, heads, seq_len, head_dim = q.shape
    assert seq_len % block_m == 0, "S must be a multiple of 128"
    out = torch.empty_like(q)
    flat = [t.view(batch * heads * seq_len, head_dim) for t in (q, k, v, out)]
    # The halves kernel stores 64 rows from each consumer.
    o_rows = block_m if kernel is attention_kernel else block_m // 2
    descs = []
    for tensor, rows in zip(flat, (block_m, block_n, block_n, o_rows), strict=True):
        layout = gl.NVMMASharedLayout.get_default_for([rows, head_dim], gl.bfloat16)
        descs.append(TensorDescriptor.from_tensor(tensor, [rows, head_dim], layout))
    kernel[(seq_len // block_m, batch * heads)](
        *descs, seq_len, LOG2_E / math.sqrt(head_dim), HEAD_DIM=head_dim, BLOCK_M=block_m,
        BLOCK_N=block_n, STAGES=stages, num_warps=warps, maxnreg=maxnreg,
    )  # fmt: skip
    return out


def load_rung(name: str):
    path = ROOT / f"kernels_ref/flash_attention/{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.attention


def main(which: str) -> int:
    """`baseline` times SDPA and v4; a variant's name checks it, then times it beside SDPA.
    One process per variant, so that a hang (a wrong mbarrier phase) costs only its timeout."""
    from gpuprep.harness.timing import Timer

    timer = Timer(torch.device("cuda"))

    def judge_ms(call) -> float:
        for _ in range(3):
            call()
        return statistics.median(timer.time_one(call)[1] for _ in range(40))

    shape = (4, 32, 4096, 128)
    work = 4 * shape[0] * shape[1] * shape[2] ** 2 * shape[3]
    if which != "baseline":
        small = [
            torch.randn(2, 3, 1024, 128, device="cuda", dtype=torch.bfloat16) for _ in range(3)
        ]
        truth = F.scaled_dot_product_attention(*(t.float() for t in small))
        got = attention(*small, which).float()
        torch.cuda.synchronize()
        err = float((got - truth).norm() / truth.norm())
        print(f"{which}: relative error {err:.2e} on (2, 3, 1024, 128)", flush=True)
        if not err < 1e-2:
            return 1
    q, k, v = (torch.randn(*shape, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    sdpa = judge_ms(lambda: F.scaled_dot_product_attention(q, k, v))
    if which == "baseline":
        v4 = load_rung("v4_tma_occupancy")
        rows = [("SDPA", sdpa), ("v4_tma_occupancy", judge_ms(lambda: v4(q, k, v, False)))]
    else:
        rows = [("SDPA", sdpa), (f"gluon {which}", judge_ms(lambda: attention(q, k, v, which)))]
    for label, ms in rows:
        print(
            f"{label:<26} {ms:9.4f} ms {work / ms / 1e9:6.0f} TFLOP/s {sdpa / ms:6.3f}x SDPA",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "baseline"))
