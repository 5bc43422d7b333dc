"""Time the layernorm ladder in float32 and bfloat16 on the local GPU, beside F.layer_norm and a copy.

The judge times one dtype per drill (drill.yaml's bench_dtype, float32 for layernorm), and the
issue's bar is set for both: top rung >= 1.3x F.layer_norm on 32768 x 4096 in fp32 and bf16,
and >= 90% of the copy. This aid times every rung of kernels_ref/layernorm in both dtypes on
the drill's benchmark shapes with triton.testing.do_bench (each output checked against
F.layer_norm first) and prints one table. Usage: python benchmarks/layernorm_dtypes.py
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path

import torch
import torch.nn.functional as F
import triton

ROOT = Path(__file__).resolve().parents[1]
RUNGS = ["v0_two_pass", "v1_welford", "v2_rows_in_registers", "v3_tuned"]
SHAPES = [(32768, 4096), (4096, 768), (1024, 16384)]
EPS = 1e-5


def load(name: str):
    spec = importlib.util.spec_from_file_location(
        name, ROOT / "kernels_ref/layernorm" / f"{name}.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.layernorm


def main() -> int:
    rungs = {name: load(name) for name in RUNGS}
    print(
        f"{'shape':>14} {'dtype':>9} {'kernel':>22} {'ms':>8} {'GB/s':>7} {'vs F':>6} {'%copy':>6}"
    )
    for dtype in (torch.float32, torch.bfloat16):
        for rows, cols in SHAPES:
            x = torch.randn(rows, cols, device="cuda", dtype=dtype)
            weight = (1 + 0.1 * torch.randn(cols, device="cuda")).to(dtype)
            bias = (0.1 * torch.randn(cols, device="cuda")).to(dtype)
            moved = (2 * rows * cols + 2 * cols) * x.element_size()
            copy_ms = triton.testing.do_bench(x.clone)
            vendor = functools.partial(F.layer_norm, x, (cols,), weight, bias, EPS)
            vendor_ms = triton.testing.do_bench(vendor)
            want = F.layer_norm(x.float(), (cols,), weight.float(), bias.float(), EPS)
            timed = [("F.layer_norm", vendor_ms)]
            for name, layernorm in rungs.items():
                got = layernorm(x, weight, bias, EPS).float()
                error = float((got - want).norm() / want.norm())
                if error > (2e-4 if dtype == torch.float32 else 1e-2):
                    print(
                        f"{name} {dtype} {rows}x{cols}: relative error {error:.3g}", file=sys.stderr
                    )
                    return 1
                call = functools.partial(layernorm, x, weight, bias, EPS)
                timed.append((name, triton.testing.do_bench(call)))
            for name, ms in timed:
                print(
                    f"{rows:>6}x{cols:<7} {str(dtype)[6:]:>9} {name:>22} {ms:8.4f} "
                    f"{moved / ms / 1e6:7.0f} {vendor_ms / ms:6.2f} {copy_ms / ms:6.0%}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
