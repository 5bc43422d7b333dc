"""Sweep v2_rows_in_registers' fused kernel over (rows per program, warps) for each width, in
fp32 and bf16, beside v2's own choice and F.layer_norm: the data the tuned rung's table comes from.

    bash benchmarks/run_on_device.sh python3 benchmarks/layernorm_sweep.py
"""

# ruff: noqa: B023 -- every lambda is timed inside the loop iteration that made it

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import torch
import torch.nn.functional as F
import triton

ROOT = Path(__file__).resolve().parents[1]
SHAPES = [(32768, 4096), (4096, 768), (1024, 16384), (8192, 1024), (8192, 2048), (16384, 512)]
EPS = 1e-5


def main() -> int:
    spec = importlib.util.spec_from_file_location(
        "v2", ROOT / "kernels_ref/layernorm/v2_rows_in_registers.py"
    )
    v2 = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(v2)
    print(
        f"{'shape':>12} {'dtype':>9} {'v2 ms':>8} {'F ms':>8} {'copy ms':>8} {'best ms':>8} {'best':>14} {'vs v2':>6} {'%copy':>6}  next best"
    )
    for dtype in (torch.float32, torch.bfloat16):
        for rows, cols in SHAPES:
            x = torch.randn(rows, cols, device="cuda", dtype=dtype)
            weight = (1 + 0.1 * torch.randn(cols, device="cuda")).to(dtype)
            bias = (0.1 * torch.randn(cols, device="cuda")).to(dtype)
            y = torch.empty_like(x)
            want = F.layer_norm(x.float(), (cols,), weight.float(), bias.float(), EPS)
            block = triton.next_power_of_2(cols)
            copy_ms = triton.testing.do_bench(x.clone)
            vendor_ms = triton.testing.do_bench(lambda: F.layer_norm(x, (cols,), weight, bias, EPS))
            v2_ms = triton.testing.do_bench(lambda: v2.layernorm(x, weight, bias, EPS))
            results = []
            for per in (1, 2, 4, 8, 16):
                if per * block > 16384:
                    continue
                for warps in (1, 2, 4, 8, 16):
                    per_thread = per * block / (32 * warps)
                    if not 2 <= per_thread <= 64:
                        continue

                    def call(per=per, warps=warps):
                        v2.fused_rows_kernel[(triton.cdiv(rows, per),)](
                            x,
                            weight,
                            bias,
                            y,
                            rows,
                            cols,
                            EPS,
                            ROWS=per,
                            BLOCK=block,
                            num_warps=warps,
                        )

                    call()
                    err = float((y.float() - want).norm() / want.norm())
                    if err > 1e-2:
                        print(f"  wrong: rows/program {per} warps {warps}: {err}", file=sys.stderr)
                        continue
                    results.append((triton.testing.do_bench(call), per, warps))
            results.sort()
            best, per, warps = results[0]
            others = " ".join(f"{p}x{w}:{ms:.4f}" for ms, p, w in results[1:4])
            print(
                f"{rows:>6}x{cols:<5} {str(dtype)[6:]:>9} {v2_ms:8.4f} {vendor_ms:8.4f} {copy_ms:8.4f} {best:8.4f} "
                f"{f'{per} rows x {warps}w':>14} {v2_ms / best:6.2f} {copy_ms / best:6.0%}  {others}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
