"""Time the flash_attention top rung's kernel over candidate configs on the local GPU, beside SDPA.

One-off tuning aid for kernels_ref/flash_attention/v3_tuned.py: each config is forced (the
autotuner bypassed), checked against SDPA, and timed with triton.testing.do_bench (L2 not
flushed: attention reads K/V many times per program, so a warm L2 is the steady state).
Prints a table; the configs worth keeping go into CONFIGS by hand.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path

import torch
import torch.nn.functional as F
import triton

ROOT = Path(__file__).resolve().parents[1]


def load_rung():
    spec = importlib.util.spec_from_file_location("v3", ROOT / "kernels_ref/flash_attention/v3_tuned.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    rung = load_rung()
    B, H, S, D = 4, 32, 4096, 128
    q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    rows = []
    for causal in (False, True):
        want = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        sdpa = triton.testing.do_bench(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal))
        flops = 4 * B * H * S * S * D * (0.5 if causal else 1.0)
        rows.append(("sdpa", causal, sdpa, flops / sdpa / 1e9, 1.0, 0.0))
        kernel = rung.flash_attention_kernel.fn  # the jit function under the autotuner
        for bm, bn, warps, stages in itertools.product((128,), (64, 128), (4, 8), (2, 3, 4)):
            out = torch.empty_like(q)
            grid = (triton.cdiv(S, bm), B * H)

            def call():
                kernel[grid](q, k, v, out, S, 1.4426950408889634 / D**0.5, HEAD_DIM=D,
                             BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal, num_warps=warps, num_stages=stages)

            try:
                call()
                torch.cuda.synchronize()
                err = (out.float() - want.float()).abs().max().item()
                ms = triton.testing.do_bench(call)
            except Exception as error:  # noqa: BLE001 - out of resources and the like
                print(f"{bm}x{bn} w{warps} s{stages} causal={causal}: {type(error).__name__}", flush=True)
                continue
            rows.append((f"{bm}x{bn} w{warps} s{stages}", causal, ms, flops / ms / 1e9, sdpa / ms, err))
    print(f"{'config':<18} {'causal':<6} {'ms':>8} {'TFLOP/s':>8} {'vs sdpa':>8} {'max err':>8}")
    for name, causal, ms, tflops, ratio, err in rows:
        print(f"{name:<18} {str(causal):<6} {ms:>8.4f} {tflops:>8.0f} {ratio:>8.3f} {err:>8.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
